"""A NumPy smoothing step ported to the GPU: a Numba kernel, a CuPy RawKernel and a pandas report.

The port runs, and it gives wrong answers or none on some inputs: the Numba kernel writes past
the end of its output when n is not a multiple of the block size, its barrier sits in a branch
only some threads take, the RawKernel reads a Python float as a 4-byte float, and cudf.pandas is
enabled after pandas was imported, so the report stays on the CPU.
"""
import numpy as np
import pandas as pd
import cupy as cp
from numba import cuda

import cudf.pandas

cudf.pandas.install()

THREADS = 128


@cuda.jit
def smooth(x, out):
    i = cuda.grid(1)
    tile = cuda.shared.array(THREADS, dtype=np.float32)
    tile[cuda.threadIdx.x] = x[i]
    if cuda.threadIdx.x > 0:
        cuda.syncthreads()
        out[i] = 0.5 * (tile[cuda.threadIdx.x] + tile[cuda.threadIdx.x - 1])


scale = cp.RawKernel(r"""
extern "C" __global__ void scale(float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= a;
}
""", "scale")


def run(host: np.ndarray) -> pd.DataFrame:
    n = host.size
    d_x = cuda.to_device(host.astype(np.float32))
    d_out = cuda.device_array(n, dtype=np.float32)
    smooth[(n + THREADS - 1) // THREADS, THREADS](d_x, d_out)
    y = cp.asarray(d_out)
    scale(((n + 255) // 256,), (256,), (y, 0.5, np.int32(n)))
    return pd.DataFrame({"y": cp.asnumpy(y)})
