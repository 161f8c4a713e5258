# tests/gpu/mock/cupy/__init__.py: owns a numpy-backed stand-in for the part of CuPy that
# tests/gpu/reference.py uses, for its self-test on machines without a GPU (not a CuPy).
import ctypes
import sys
import time
import types

import numpy as np
from _simdevice import enqueue as _enqueue, wait as _wait

__version__ = "0.0-mock"
float32, float64, uint8, uint64 = np.float32, np.float64, np.uint8, np.uint64


class _Mem:
    def __init__(self, arr):
        self.ptr = arr.ctypes.data


class ndarray:
    def __init__(self, arr):
        self._a = arr
        self.data = _Mem(arr)
        self.dtype = arr.dtype

    def item(self):
        _wait()
        return self._a.item()

    def get(self, out=None):
        _wait()
        if out is None:
            return self._a.copy()
        assert isinstance(out, np.ndarray) and out.shape == self._a.shape
        out[...] = self._a
        return out

    def set(self, arr):
        assert isinstance(arr, np.ndarray) and arr.shape == self._a.shape
        self._a[...] = arr

    def fill(self, v):
        self._a.fill(v)

    def __getitem__(self, idx):
        return ndarray(np.asarray(self._a[idx]))


def full(shape, v, dtype):
    return ndarray(np.full(shape, v, dtype=dtype))


def zeros(shape, dtype):
    return ndarray(np.zeros(shape, dtype=dtype))


def ones(shape, dtype):
    return ndarray(np.ones(shape, dtype=dtype))


def empty(shape, dtype):
    return ndarray(np.empty(shape, dtype=dtype))


def copyto(dst, src):
    dst._a[...] = src._a
    _enqueue(1e-4)


class RawKernel:
    def __init__(self, src, name):
        assert ("void %s(" % name) in src, name
        self.name = name

    def __call__(self, grid, block, args):
        assert isinstance(grid, tuple) and isinstance(block, tuple) and isinstance(args, tuple)
        if self.name == "gpulint_spin":
            ns, out = args
            assert isinstance(ns, np.uint64)
            out._a[0] = ns
            _enqueue(int(ns) / 1e9)
        elif self.name.startswith("gpulint_fma_"):
            out, iters, a, b = args
            assert isinstance(iters, np.int32) and type(a) is out._a.dtype.type
            p = float(b) / (1.0 - float(a))
            out._a[0] = sum(p + (0.1 * k - p) * float(a) ** int(iters) for k in range(8))
            _enqueue(grid[0] * block[0] * int(iters) * 16 / (30e12 if a.dtype == np.float64
                                                               else 60e12))
        else:
            assert args == ()
            _enqueue(2e-6)


class ElementwiseKernel:
    def __init__(self, in_params, out_params, op, name):
        self.op = op

    def __call__(self, *args):
        if self.op == "y = x":
            args[1]._a[...] = args[0]._a
        _enqueue(1e-5)


class _Pool:
    def free_all_blocks(self):
        pass


def get_default_memory_pool():
    return _Pool()


def get_default_pinned_memory_pool():
    return _Pool()


# --- cupy.cuda and cupy.cuda.runtime -------------------------------------------------------------
cuda = types.ModuleType("cupy.cuda")
runtime = types.ModuleType("cupy.cuda.runtime")
cuda.runtime = runtime
sys.modules["cupy.cuda"] = cuda
sys.modules["cupy.cuda.runtime"] = runtime


class _Device:
    def __init__(self, i=0):
        self.attributes = {"MultiProcessorCount": 132}

    def use(self):
        pass

    def synchronize(self):
        _wait()


class _Stream:
    ptr = 0

    def synchronize(self):
        _wait()


class _Event:
    def record(self, stream=None):
        _wait()                 # good enough: the mock's events complete at record time
        self.t = time.perf_counter()

    def synchronize(self):
        _wait()


cuda.Device = _Device
cuda.Event = _Event
cuda.get_current_stream = lambda: _Stream()
cuda.get_elapsed_time = lambda e0, e1: (e1.t - e0.t) * 1e3 + 1e-3
runtime.cudaMemPoolAttrReleaseThreshold = 4
runtime.getDeviceCount = lambda: 1
runtime.setDevice = lambda i: None
runtime.driverGetVersion = lambda: 13000
runtime.runtimeGetVersion = lambda: 13000
runtime.getDeviceProperties = lambda i: {"name": b"Mock GPU", "major": 9, "minor": 0,
                                         "multiProcessorCount": 132, "totalGlobalMem": 1 << 37}
_allocs = {}


def _malloc(n):
    buf = np.empty(n, dtype=np.uint8)       # pages untouched: as cheap as a device allocation
    _allocs[buf.ctypes.data] = buf
    return buf.ctypes.data


def _free(p):
    if p:
        del _allocs[p]


def _memcpy(dst, src, n, kind):
    assert kind in (1, 2, 3) and n > 0
    ctypes.memmove(dst, src, n)


runtime.malloc = _malloc
runtime.free = _free
runtime.mallocAsync = lambda n, s: _malloc(n)
runtime.freeAsync = lambda p, s: _free(p)
runtime.memcpy = _memcpy
runtime.memcpyAsync = lambda d, s, n, k, st: _memcpy(d, s, n, k)
runtime.deviceGetDefaultMemPool = lambda i: 1
runtime.memPoolSetAttribute = lambda pool, attr, v: None
runtime.memPoolTrimTo = lambda pool, n: None
