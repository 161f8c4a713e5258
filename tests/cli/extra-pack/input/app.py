import torch
import torch as th

for step in range(10):
    th.cuda.synchronize()
    loss = [torch.cuda.synchronize() for _ in range(2)]
torch.cuda.synchronize()
