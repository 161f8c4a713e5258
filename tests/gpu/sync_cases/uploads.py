# tests/gpu/sync_cases/uploads.py: owns the sync oracle's cases for host-to-device copies: tensors
# built on the host and then moved (torch.tensor(..., device=), .cuda(), .to()), pageable and
# pinned sources, and their near misses (built on the device, or copied with non_blocking=True
# from pinned memory). Run by tests/gpu/sync_oracle.py; the annotation format is checked by
# tests/gpu/sync_check.py. Setup lines (unannotated) must not synchronize. numpy is imported only
# before the last line, so a machine without it loses that line only.
import torch


def case(device):
    pageable = torch.arange(256.0)
    pinned = torch.arange(256.0).pin_memory()

    a = torch.tensor([1, 2, 3], device=device)  # sync: yes -- torch.tensor(list, device=cuda)
    b = torch.tensor(1.0, device=device)  # sync: yes -- torch.tensor(scalar, device=cuda)
    c = torch.tensor(0).cuda()  # sync: yes -- torch.tensor(0).cuda()
    d = torch.randint(0, 10, (8,)).to(device)  # sync: yes -- torch.randint on the host, then .to()
    e = torch.rand(8).cuda()  # sync: yes -- torch.rand on the host, then .cuda()
    f = torch.ones(4, 4).to(device)  # sync: yes -- torch.ones on the host, then .to()
    g = pageable.to(device)  # sync: yes -- pageable CPU tensor .to(cuda)
    h = pinned.to(device)  # sync: yes -- pinned CPU tensor .to(cuda) without non_blocking
    h2 = pinned.cuda()  # sync: yes -- pinned CPU tensor .cuda() without non_blocking
    h3 = pinned.type(torch.cuda.FloatTensor)  # sync: yes -- pinned .type(torch.cuda.FloatTensor)

    # Near misses: built on the device, or an asynchronous copy from pinned memory.
    i = torch.full((8,), 3.0, device=device)  # sync: no -- torch.full(..., device=cuda)
    j = torch.zeros(8, device=device)  # sync: no -- torch.zeros(..., device=cuda)
    k = torch.randint(0, 10, (8,), device=device)  # sync: no -- torch.randint(..., device=cuda)
    m = torch.randperm(8, device=device)  # sync: no -- torch.randperm(..., device=cuda)
    p = pinned.to(device, non_blocking=True)  # sync: no -- pinned .to(cuda, non_blocking=True)

    import numpy as np  # noqa: E402 - see the header
    host = np.arange(8, dtype=np.float32)
    q = torch.from_numpy(host).to(device)  # sync: yes -- torch.from_numpy(array).to(cuda)
    return a, b, c, d, e, f, g, h, h2, h3, i, j, k, m, p, q
