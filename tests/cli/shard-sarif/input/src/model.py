import torch

x = torch.zeros(4, dtype=torch.float64)
for row in rows:
    s += row.sum().item()
