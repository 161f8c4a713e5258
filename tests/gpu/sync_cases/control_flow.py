# tests/gpu/sync_cases/control_flow.py: owns the sync oracle's cases for a CUDA tensor used as a
# Python truth value: if/while conditions, assert, not, and device comparisons in an if. Run by
# tests/gpu/sync_oracle.py; the annotation format is checked by tests/gpu/sync_check.py. Setup
# lines (unannotated) must not synchronize; each annotated line is the one whose truth test syncs.
import torch


def case(device):
    x = torch.linspace(-1.0, 1.0, 64, device=device)
    flag = torch.ones((), device=device, dtype=torch.bool)
    done = torch.zeros((), device=device, dtype=torch.bool)
    hits = 0

    if flag:  # sync: yes -- if on a CUDA tensor
        hits += 1
    while done:  # sync: yes -- while condition on a CUDA tensor
        break
    assert flag  # sync: yes -- assert on a CUDA tensor
    negated = not flag  # sync: yes -- not of a CUDA tensor
    if torch.isfinite(x).all():  # sync: yes -- if torch.isfinite(x).all()
        hits += 1
    if x.any():  # sync: yes -- if x.any()
        hits += 1
    if x.max() > 0:  # sync: yes -- if on a device comparison
        hits += 1

    # Near miss: the same test kept on the device and used as a where() condition.
    ok = torch.isfinite(x).all()
    x = torch.where(ok, x, torch.zeros_like(x))  # sync: no -- where() instead of if
    return hits, negated, x
