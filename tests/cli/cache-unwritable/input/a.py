import cupy as cp
for i in range(3):
    w = cp.asnumpy(cp.ones(2))
