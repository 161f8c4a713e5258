import time
import torch

x = torch.randn(4096, 4096, device="cuda")
t0 = time.perf_counter()
y = x @ x
t1 = time.perf_counter()
print(f"matmul: {(t1 - t0) * 1e3:.2f} ms")
