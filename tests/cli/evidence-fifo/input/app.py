import torch

def total(xs):
    s = 0
    for x in xs:
        s += x.sum().item()
    return s

def wide():
    return torch.zeros(4, dtype=torch.float64)

for batch in range(3):
    print(batch.item())  # noqa: GPU951
