# tests/gpu/sync_cases/python_ints.py: owns the sync oracle's cases for a 0-d CUDA tensor used where
# Python needs an int (range, torch.arange, list repetition, slice bounds of a list or a tensor).
# Each goes through Tensor.__index__ or a Scalar conversion, i.e. .item(). Run by
# tests/gpu/sync_oracle.py; the annotation format is checked by tests/gpu/sync_check.py. Setup
# lines (unannotated) must not synchronize.
import torch


def case(device):
    n = torch.full((), 3, device=device, dtype=torch.int64)
    t0 = torch.full((), 1, device=device, dtype=torch.int64)
    t1 = torch.full((), 4, device=device, dtype=torch.int64)
    x = torch.arange(8.0, device=device)
    lst = list(range(8))
    count = 0

    for _ in range(n):  # sync: yes -- range() of a 0-d CUDA tensor
        count += 1
    steps = torch.arange(n)  # sync: yes -- torch.arange() of a 0-d CUDA tensor
    zeros = [0] * n  # sync: yes -- list repeated by a 0-d CUDA tensor
    part = lst[t0:t1]  # sync: yes -- Python list sliced with 0-d CUDA tensors
    view = x[t0:t1]  # sync: yes -- CUDA tensor sliced with 0-d CUDA tensors

    # Near miss: the same elements through index_select with device indices.
    idx = torch.arange(1, 4, device=device)
    view2 = x.index_select(0, idx)  # sync: no -- index_select with device indices
    return count, steps, zeros, part, view, view2
