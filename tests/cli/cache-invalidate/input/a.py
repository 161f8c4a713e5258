import cupy as cp
import torch

x = cp.zeros(3)
for i in range(10):
    y = cp.asnumpy(x)
    z = x.get()  # noqa: GPU201
t = torch.zeros(3).cuda()
v = t.item()
