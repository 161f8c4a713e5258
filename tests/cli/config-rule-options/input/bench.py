import cupy as cp
import myclock as mc
from myclock import now

a = cp.random.rand(1024, 1024, dtype=cp.float32)

t0 = now()
c = a @ a
t1 = now()
print("matmul, not synchronized:", t1 - t0)

t0 = mc.now()
c = a @ a
cp.cuda.Device().synchronize()
t1 = mc.now()
print("matmul, synchronized:", t1 - t0)

t0 = mc.later()
c = a @ a
t1 = mc.later()
print("not a configured clock:", t1 - t0)

def timed(x):
    start = mc.now()
    y = cp.sqrt(x)
    return y, mc.now() - start
