import torch

x = torch.ones(3, device="cuda")
while (x.sum() > 0):
    x = x - 1
while not (x.any()):
    x = x + 1
