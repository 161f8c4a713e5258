import cupy as cp

for batch in batches:
    total += cp.asnumpy(batch).sum()
