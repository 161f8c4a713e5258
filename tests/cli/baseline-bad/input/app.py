import cupy as cp
for b in xs:
    t = cp.asnumpy(b)
