# tests/gpu/sync_cases/dynamic_shapes.py: owns the sync oracle's cases for operations whose output
# size depends on the data (boolean-mask reads, nonzero, one-argument where, masked_select, unique,
# repeat_interleave without output_size) and their near misses (fixed-size results). Run by
# tests/gpu/sync_oracle.py; the annotation format is checked by tests/gpu/sync_check.py. Setup
# lines (unannotated) must not synchronize.
import torch


def case(device):
    x = torch.linspace(-1.0, 1.0, 64, device=device)
    mask = x > 0
    ints = torch.arange(64, device=device) % 7
    vals = torch.arange(8.0, device=device)
    rep = torch.full((8,), 2, device=device, dtype=torch.int64)
    other = torch.zeros_like(x)

    y = x[mask]  # sync: yes -- boolean-mask indexing read
    nz = x.nonzero()  # sync: yes -- x.nonzero()
    nz2 = torch.nonzero(x)  # sync: yes -- torch.nonzero(x)
    idx = torch.where(mask)  # sync: yes -- one-argument torch.where(cond)
    sel = torch.masked_select(x, mask)  # sync: yes -- torch.masked_select
    uniq = torch.unique(ints)  # sync: yes -- torch.unique
    big = vals.repeat_interleave(rep)  # sync: yes -- repeat_interleave(tensor) without output_size
    aw = torch.argwhere(x)  # sync: yes -- torch.argwhere
    uc = torch.unique_consecutive(ints)  # sync: yes -- torch.unique_consecutive
    big3 = torch.repeat_interleave(vals, rep)  # sync: yes -- torch.repeat_interleave(x, tensor)
    both = x[(x > 0) & ~(x > 0.5)]  # sync: yes -- read through a combined mask
    z2 = x.clone()
    z2[mask] = vals[:1]  # sync: yes -- tensor assignment through a bool mask

    # Near misses: the output size is known without reading the data.
    z = x.clone()
    z[mask] = 0.0  # sync: no -- scalar assignment through a bool mask
    filled = x.masked_fill(mask, 0.0)  # sync: no -- x.masked_fill(mask, 0.0)
    picked = torch.where(mask, x, other)  # sync: no -- three-argument torch.where
    big2 = vals.repeat_interleave(rep, output_size=16)  # sync: no -- repeat_interleave, output_size
    twice = vals.repeat_interleave(2)  # sync: no -- repeat_interleave(int)
    first = x[ints]  # sync: no -- integer-tensor index (gather)
    return (y, nz, nz2, idx, sel, uniq, big, aw, uc, big3, both, z2, z, filled, picked, big2,
            twice, first)
