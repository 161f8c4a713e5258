import torch
for batch in loader:
    torch.cuda.synchronize()
