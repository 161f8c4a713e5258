# tests/gpu/mock/cupyx/__init__.py: owns the stand-in for cupyx.empty_pinned (a plain numpy array)
# used by tests/gpu/reference.py's self-test; not CuPy.
import numpy as np


def empty_pinned(shape, dtype):
    return np.empty(shape, dtype=dtype)
