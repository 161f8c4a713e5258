import cupy as cp
def f(:
    return cp.asnumpy(cp.ones(2))
