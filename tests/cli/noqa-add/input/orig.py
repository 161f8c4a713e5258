import cupy as cp
import cuspatial  # noqa: E501 keep the reason
import cuxfilter  # type: ignore

for batch in range(3):
    x = cp.asnumpy(cp.ones(3))
    z = cp.asnumpy(
        cp.ones(3))
    y = cp.asnumpy(cp.array("""a
b"""))
    w = cp.asnumpy(cp.ones(3)) + \
        1
    done = cp.asnumpy(cp.ones(3))  # noqa: GPU201
k = 1  # noqa: GPU201
