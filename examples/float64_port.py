"""A NumPy routine ported to CuPy that kept NumPy's float64 habit.

On an H200 FP64 runs at about half the FP32 rate; on a GeForce or RTX workstation part it runs at
1/32 or 1/64 of it. `gpulint --evidence` makes GPU501 a note on the first and an error on the
second.
"""
import cupy as cp
import numpy as np


def smooth(signal: np.ndarray, width: int) -> np.ndarray:
    x = cp.asarray(signal, dtype=cp.float64)          # float64 on the GPU
    kernel = cp.ones(width, dtype=cp.float32) / width  # float32: fine
    y = cp.convolve(x, kernel, mode="same")
    return cp.asnumpy(y)
