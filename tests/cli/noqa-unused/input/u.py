import cupy as cp

for batch in range(3):
    a = cp.asnumpy(cp.ones(3))  # noqa: GPU201, GPU202
    b = cp.asnumpy(cp.ones(3))  # noqa: GPU201, GPU203
    c = cp.asnumpy(cp.ones(3))  # noqa
n = 1  # noqa: GPU201, GPU998, E501
m = 2  # noqa
