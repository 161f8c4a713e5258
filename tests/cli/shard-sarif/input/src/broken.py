import cupy as cp
def broken(:
    y = cp.asnumpy(x)
