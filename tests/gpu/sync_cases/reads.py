# tests/gpu/sync_cases/reads.py: owns the sync oracle's cases for reading a CUDA tensor's value on
# the host (.item(), .tolist(), .cpu(), float/int/bool, formatting, print) and their near misses
# (the value kept on the device). Run by tests/gpu/sync_oracle.py; the annotation format is
# checked by tests/gpu/sync_check.py. Setup lines (unannotated) must not synchronize.
import contextlib
import os

import torch


def case(device):
    x = torch.linspace(-1.0, 1.0, 64, device=device)
    s = torch.full((), 0.5, device=device)
    n = torch.full((), 3, device=device, dtype=torch.int64)
    flag = torch.ones((), device=device, dtype=torch.bool)
    small = torch.arange(4.0, device=device)
    sink = open(os.devnull, "w")

    s.item()  # sync: yes -- .item()
    x.tolist()  # sync: yes -- .tolist()
    x.cpu()  # sync: yes -- .cpu()
    float(s)  # sync: yes -- float() of a 0-d CUDA tensor
    int(n)  # sync: yes -- int() of a 0-d CUDA tensor
    bool(flag)  # sync: yes -- bool() of a CUDA tensor
    text = f"{s}"  # sync: yes -- f-string of a CUDA tensor
    with contextlib.redirect_stdout(sink):
        print(small)  # sync: yes -- print() of a CUDA tensor
    sink.close()

    # Near misses: the value stays on the device.
    total = x.sum()  # sync: no -- x.sum() kept on the device
    finite = torch.isfinite(x).all()  # sync: no -- isfinite(x).all() kept as a tensor
    norm = torch.linalg.vector_norm(x)
    scale = torch.clamp(norm, max=1.0)  # sync: no -- torch.clamp(norm, max=1.0)
    return text, total, finite, scale
