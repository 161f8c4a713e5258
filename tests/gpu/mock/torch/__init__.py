# tests/gpu/mock/torch/__init__.py: owns a numpy-backed stand-in for the part of PyTorch that
# tests/gpu/reference.py uses, for its self-test on machines without a GPU (not PyTorch).
import time
import types

import numpy as np
from _simdevice import enqueue as _enqueue, wait as _wait

__version__ = "0.0-mock"
float32, uint8 = np.float32, np.uint8
version = types.SimpleNamespace(cuda="13.0")


class device:
    def __init__(self, kind, index=0):
        assert kind == "cuda"
        self.type, self.index = kind, index


def _on_gpu(dev):
    return dev == "cuda" or isinstance(dev, device)


class Tensor:
    def __init__(self, arr, gpu):
        self._a, self.is_cuda = arr, gpu

    def item(self):
        if self.is_cuda:
            _wait()
        return self._a.item()

    def __int__(self):
        return int(self.item())

    def cpu(self):
        return Tensor(self._a.copy(), False)

    def pin_memory(self):
        assert not self.is_cuda
        return Tensor(self._a, False)

    def copy_(self, src, non_blocking=False):
        assert isinstance(src, Tensor) and src._a.shape == self._a.shape
        if src.is_cuda and not self.is_cuda and not non_blocking:
            _wait()
        self._a[...] = src._a
        return self

    def fill_(self, v):
        self._a.fill(v)
        return self

    def add_(self, v):
        assert self.is_cuda
        self._a += v
        _enqueue(2e-6)
        return self

    def __getitem__(self, idx):
        return Tensor(np.asarray(self._a[idx]), self.is_cuda)


def _make(fn, shape, dtype, dev, pin_memory=False):
    assert not (pin_memory and _on_gpu(dev))
    return Tensor(fn(shape, dtype), _on_gpu(dev))


def full(shape, v, dtype=np.float32, device=None):
    return _make(lambda s, d: np.full(s, v, dtype=d), shape, dtype, device)


def ones(*shape, dtype=np.float32, device=None):
    return _make(np.ones, shape, dtype, device)


def zeros(*shape, dtype=np.float32, device=None):
    return _make(np.zeros, shape, dtype, device)


def empty(*shape, dtype=np.float32, device=None, pin_memory=False):
    return _make(np.empty, shape, dtype, device, pin_memory)


def rand(*shape, device=None):
    t = Tensor(np.empty(1, dtype=np.float32), _on_gpu(device))   # the values are never read
    t.shape = shape
    return t


def matmul(a, b, out):
    assert a.is_cuda and b.is_cuda and out.is_cuda
    _enqueue(2.0 * a.shape[0] ** 3 / 50e12)


class _Stream:
    def synchronize(self):
        _wait()


class _Event:
    def __init__(self, enable_timing=False):
        assert enable_timing

    def record(self, stream=None):
        _wait()
        self.t = time.perf_counter()

    def synchronize(self):
        _wait()

    def elapsed_time(self, end):
        return (end.t - self.t) * 1e3 + 1e-3


cuda = types.SimpleNamespace(
    is_available=lambda: True, device_count=lambda: 1, set_device=lambda d: None,
    init=lambda: None, synchronize=_wait, empty_cache=lambda: None, Event=_Event,
    current_stream=lambda dev=None: _Stream(),
    get_device_properties=lambda d: types.SimpleNamespace(
        name="Mock GPU", major=9, minor=0, multi_processor_count=132, total_memory=1 << 37))
