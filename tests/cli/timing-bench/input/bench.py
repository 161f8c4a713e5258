import time
import timeit

import cupy as cp
import torch

square = cp.ElementwiseKernel("T x", "T y", "y = x * x", "square")
a = cp.arange(1 << 20, dtype=cp.float32)

t0 = time.perf_counter()
b = square(a)
cp.cuda.Device().synchronize()
print(time.perf_counter() - t0)

print(timeit.timeit(lambda: a @ a, number=10))

x = torch.randn(1024, 1024, device="cuda")
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
start.record()
y = x @ x
end.record()
print(start.elapsed_time(end))
