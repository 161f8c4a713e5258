import cupy as cp
for b in bs:
    y = cp.asnumpy(b)
