#!/usr/bin/env python3
# tests/gpu/reference.py: owns the independent measurement that gpulint-probe's evidence is checked
# against: the same quantities, measured through CuPy and PyTorch's public APIs (each optional), in
# one process, written to one JSON file under the spec's metric keys. Not owned: the probe, the
# comparison (compare.py) and the run order (run.sh). Single-threaded.
"""Measure what gpulint-probe measures, through CuPy and PyTorch.

usage: reference.py [-o FILE] [--lib cupy|torch|both] [--deadline-s N]

Writes FILE (default reference.json) after every metric, so a run cut short by a timeout still
leaves what it measured. Layout:
  {"schema": "gpulint-reference", "version": 1, "created", "duration_s", "device": {...},
   "libraries": {"cupy": VERSION, "torch": VERSION},
   "cupy": {KEY: {"unit", "median", "p10", "p90", "samples", "what"}}, "torch": {...},
   "errors": [...], "notes": [...]}
Keys are the spec's (docs: /work/notes/issue5-spec.md, cuda-probe/README.md) where the quantity is
the same; keys the probe has no counterpart for (`get_1elem_us`, `*_elementwise_*`, ...) say so in
"what". Exit status: 0 something measured; 3 neither library usable (one line on stderr).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

KiB = 1 << 10
MiB = 1 << 20
GiB = 1 << 30
MEMCPY_H2D, MEMCPY_D2H, MEMCPY_D2D = 1, 2, 3  # cudaMemcpyKind values
now = time.perf_counter

SPIN_MS = 10.0          # the fixed kernel of the timer under-report, as the probe's full mode
FMA_TARGET_MS = 20.0    # one FP32 FMA launch runs about this long
BW_BYTES = 256 * MiB    # host<->device bandwidth size, as the probe's full mode
D2D_BYTES = 1 * GiB     # device copy size, as the probe's full mode
ALLOC_SIZES = ((1 * MiB, "1MiB"), (64 * MiB, "64MiB"), (256 * MiB, "256MiB"))


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def percentile(sorted_vals, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    n = len(sorted_vals)
    if n == 1:
        return sorted_vals[0]
    pos = (n - 1) * q
    lo = int(math.floor(pos))
    hi = min(lo + 1, n - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def summarize(values, unit, what):
    vals = sorted(float(v) for v in values)
    if not vals:
        raise ValueError("no samples")
    bad = [v for v in vals if not math.isfinite(v) or v <= 0]
    if bad:
        raise ValueError("non-positive or non-finite sample %r" % bad[0])
    return {"unit": unit, "median": percentile(vals, 0.5), "p10": percentile(vals, 0.1),
            "p90": percentile(vals, 0.9), "samples": len(vals), "what": what}


class Recorder:
    """Holds the document, writes it after every change, and keeps the deadline."""

    def __init__(self, path, deadline_s):
        self.path = path
        self.t0 = time.monotonic()
        self.deadline_s = deadline_s
        self.doc = {"schema": "gpulint-reference", "version": 1,
                    "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "duration_s": 0.0, "device": {}, "libraries": {}, "cupy": {}, "torch": {},
                    "errors": [], "notes": []}

    def left(self):
        return self.deadline_s - (time.monotonic() - self.t0)

    def save(self):
        self.doc["duration_s"] = round(time.monotonic() - self.t0, 2)
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, self.path)

    def add(self, lib, key, unit, values, what):
        m = summarize(values, unit, what)
        self.doc[lib][key] = m
        log("[%s] %-32s %10.4g %-7s (p10 %.4g, p90 %.4g, n=%d)" % (
            lib, key, m["median"], unit, m["p10"], m["p90"], m["samples"]))
        self.save()

    def error(self, lib, label, exc):
        text = str(exc).strip().splitlines()
        line = "%s: %s: %s: %s" % (lib, label, type(exc).__name__, text[0] if text else "")
        self.doc["errors"].append(line)
        log("[%s] ERROR %s" % (lib, line))
        self.save()

    def note(self, line):
        self.doc["notes"].append(line)
        log("note: " + line)
        self.save()

    def run(self, lib, label, fn, need_s=5.0):
        """Runs one measurement; an exception or a spent deadline skips it, never the rest."""
        if self.left() < need_s:
            self.note("%s: %s skipped: deadline (%.0f s left)" % (lib, label, self.left()))
            return
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - every failure is reported and the run goes on
            self.error(lib, label, exc)


def batch_mean_us(fn, batch):
    """Mean host time of one call of fn over a batch, in microseconds."""
    t0 = now()
    for _ in range(batch):
        fn()
    return (now() - t0) / batch * 1e6


def latency(rec, lib, key, what, fn, batch, samples, warmup, after=None):
    """One sample = mean over `batch` calls; `after` (untimed) runs after each batch."""
    for _ in range(warmup):
        fn()
    if after:
        after()
    vals = []
    for _ in range(samples):
        vals.append(batch_mean_us(fn, batch))
        if after:
            after()
    rec.add(lib, key, "us", vals, what)


def bandwidth(rec, lib, key, what, nbytes, copy, sync, samples=15, warmup=3):
    """GB/s (1e9 bytes) of `copy` over the host clock, the device synchronized before reading it."""
    for _ in range(warmup):
        copy()
    sync()
    vals = []
    for _ in range(samples):
        t0 = now()
        copy()
        sync()
        vals.append(nbytes / (now() - t0) / 1e9)
    rec.add(lib, key, "GB/s", vals, what)


# --- kernels (CUDA C, compiled by CuPy's NVRTC) ---------------------------------------------------

def timer_pairs(launch, sync, samples=15):
    """Paired host timings (ms) of one launch: with sync inside the timer, and alone (synced after
    the timer stops); returns (synced, unsynced, synced / unsynced)."""
    synced, unsynced, ratio = [], [], []
    for _ in range(samples):
        t0 = now()
        launch()
        sync()
        ts = (now() - t0) * 1e3
        t0 = now()
        launch()
        tu = (now() - t0) * 1e3
        sync()
        synced.append(ts)
        unsynced.append(tu)
        ratio.append(ts / tu)
    return synced, unsynced, ratio


def add_timer_underreport(rec, lib, pairs, synced_what, unsynced_what):
    synced, unsynced, ratio = pairs
    rec.add(lib, "fixed_kernel_synced_ms", "ms", synced, synced_what)
    rec.add(lib, "fixed_kernel_unsynced_ms", "ms", unsynced, unsynced_what)
    rec.add(lib, "timer_underreport_x", "x", ratio, "synced / unsynced, paired samples")


EMPTY_SRC = r'extern "C" __global__ void gpulint_empty() {}'

SPIN_SRC = r'''
extern "C" __global__ void gpulint_spin(unsigned long long ns, unsigned long long *out) {
    unsigned long long start, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - start < ns);
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = t - start;
}
'''

FMA_TEMPLATE = r'''
extern "C" __global__ void gpulint_fma_NAME(T *out, int iters, T a, T b) {
    T x0 = (T)(threadIdx.x % 8) * (T)0.01;
    T x1 = x0 + (T)0.1, x2 = x0 + (T)0.2, x3 = x0 + (T)0.3;
    T x4 = x0 + (T)0.4, x5 = x0 + (T)0.5, x6 = x0 + (T)0.6, x7 = x0 + (T)0.7;
#pragma unroll 4
    for (int i = 0; i < iters; ++i) {
        x0 = FMA(x0, a, b); x1 = FMA(x1, a, b); x2 = FMA(x2, a, b); x3 = FMA(x3, a, b);
        x4 = FMA(x4, a, b); x5 = FMA(x5, a, b); x6 = FMA(x6, a, b); x7 = FMA(x7, a, b);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
'''
FMA_CHAINS = 8
FMA_A, FMA_B = 0.999, 0.001   # contractive: every chain moves towards b / (1 - a), about 1
FMA_THREADS = 256
FMA_BLOCKS_PER_SM = 8         # 2048 resident threads per SM on Hopper


def fma_source(name, ctype, fma):
    """The FMA kernel for one type: T and FMA are macros, so the template stays plain CUDA C."""
    return ("#define T %s\n#define FMA %s\n" % (ctype, fma)) + FMA_TEMPLATE.replace("NAME", name)


def fma_expected(np_dtype, iters):
    """Thread 0's output in closed form: x_n = p + (x_0 - p) a^n per chain, p = b / (1 - a),
    chains starting at 0, 0.1, ..., 0.7, with a and b rounded to the kernel's type."""
    a = float(np_dtype(FMA_A))
    b = float(np_dtype(FMA_B))
    p = b / (1.0 - a)
    return sum(p + (0.1 * k - p) * a ** iters for k in range(FMA_CHAINS))


# --- CuPy ---------------------------------------------------------------------------------------

def cupy_section(rec):
    try:
        import cupy as cp          # first, so a missing CuPy is named rather than its numpy
        import cupyx
        import numpy as np
        from cupy.cuda import runtime
    except Exception as exc:  # noqa: BLE001
        return "cupy not importable (%s: %s)" % (type(exc).__name__, exc)
    try:
        count = runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001
        return "cupy finds no usable CUDA device (%s)" % exc
    if count < 1:
        return "cupy finds no CUDA device"
    rec.doc["libraries"]["cupy"] = cp.__version__
    dev = cp.cuda.Device(0)
    dev.use()
    props = runtime.getDeviceProperties(0)
    name = props.get("name", b"")
    name = name.decode(errors="replace") if isinstance(name, bytes) else str(name)
    sm_count = int(props.get("multiProcessorCount", 0)) or int(
        dev.attributes.get("MultiProcessorCount", 0))
    rec.doc["device"].update({"name": name, "cc": "%d.%d" % (props["major"], props["minor"]),
                              "sm_count": sm_count,
                              "memory_bytes": int(props.get("totalGlobalMem", 0)),
                              "driver_version": runtime.driverGetVersion(),
                              "runtime_version": runtime.runtimeGetVersion()})
    rec.save()
    stream = cp.cuda.get_current_stream()
    sptr = stream.ptr
    L = "cupy"

    def scalars():
        a0 = cp.full((), 1.5, dtype=cp.float32)
        a1 = cp.full((1,), 1.5, dtype=cp.float32)
        hp = np.ones(1, dtype=np.float32)               # pageable, faulted in
        pp = cupyx.empty_pinned((1,), dtype=np.float32)
        pp[...] = 1
        dev.synchronize()
        a1p, hpp, ppp = a1.data.ptr, hp.ctypes.data, pp.ctypes.data
        latency(rec, L, "item_roundtrip_us", "cupy 0-d float32 array .item() (Python included)",
                a0.item, batch=10, samples=200, warmup=50)
        assert a0.item() == 1.5
        latency(rec, L, "get_1elem_us", "cupy 1-element array .get() into a new numpy array",
                a1.get, batch=10, samples=200, warmup=50)
        latency(rec, L, "memcpy_d2h_4B_us",
                "cupy.cuda.runtime.memcpy of 4 bytes device->host into pageable numpy memory "
                "(the probe's item_roundtrip_us definition, plus one Python call)",
                lambda: runtime.memcpy(hpp, a1p, 4, MEMCPY_D2H), batch=10, samples=200, warmup=50)
        assert hp[0] == 1.5

        def pinned_scalar():
            runtime.memcpyAsync(ppp, a1p, 4, MEMCPY_D2H, sptr)
            stream.synchronize()
        latency(rec, L, "d2h_scalar_pinned_us",
                "runtime.memcpyAsync of 4 bytes into cupyx.empty_pinned memory + stream sync",
                pinned_scalar, batch=10, samples=200, warmup=50)
        assert pp[0] == 1.5

    def transfers():
        n = BW_BYTES
        d = cp.empty(n, dtype=cp.uint8)
        d.fill(7)
        hpage = np.empty(n, dtype=np.uint8)
        hpage.fill(1)                                    # fault every page in before timing
        hpin = cupyx.empty_pinned((n,), dtype=np.uint8)
        hpin.fill(2)
        dev.synchronize()
        sync = dev.synchronize
        bandwidth(rec, L, "h2d_pageable_GBps", "cupy ndarray.set(pageable numpy), 256 MiB",
                  n, lambda: d.set(hpage), sync)
        assert int(d[n - 1].item()) == 1
        bandwidth(rec, L, "h2d_pinned_GBps", "cupy ndarray.set(cupyx.empty_pinned array), 256 MiB",
                  n, lambda: d.set(hpin), sync)
        assert int(d[n - 1].item()) == 2
        d.fill(9)
        bandwidth(rec, L, "d2h_pageable_GBps", "cupy ndarray.get(out=pageable numpy), 256 MiB",
                  n, lambda: d.get(out=hpage), sync)
        assert hpage[0] == 9 and hpage[n - 1] == 9
        bandwidth(rec, L, "d2h_pinned_GBps", "cupy ndarray.get(out=pinned numpy), 256 MiB",
                  n, lambda: d.get(out=hpin), sync)
        assert hpin[0] == 9 and hpin[n - 1] == 9

    def launches():
        k_empty = cp.RawKernel(EMPTY_SRC, "gpulint_empty")
        ek = cp.ElementwiseKernel("float32 x", "float32 y", "y = x", "gpulint_copy1")
        x1 = cp.ones(1, dtype=cp.float32)
        y1 = cp.zeros(1, dtype=cp.float32)
        g, b, noargs = (1,), (1,), ()

        def raw():
            k_empty(g, b, noargs)

        def elementwise():
            ek(x1, y1)
        sync = stream.synchronize
        latency(rec, L, "launch_async_us",
                "cupy RawKernel empty kernel <<<1,1>>>, batches of 100 launches, no sync inside",
                raw, batch=100, samples=100, warmup=200, after=sync)
        latency(rec, L, "launch_async_elementwise_us",
                "cupy ElementwiseKernel on a 1-element array, batches of 100, no sync inside",
                elementwise, batch=100, samples=100, warmup=200, after=sync)
        assert y1.item() == 1.0

        def raw_sync():
            k_empty(g, b, noargs)
            stream.synchronize()

        def elementwise_sync():
            ek(x1, y1)
            stream.synchronize()
        latency(rec, L, "launch_sync_us", "cupy RawKernel empty launch + stream.synchronize()",
                raw_sync, batch=20, samples=100, warmup=50)
        latency(rec, L, "launch_sync_elementwise_us",
                "cupy ElementwiseKernel 1-element launch + stream.synchronize()",
                elementwise_sync, batch=20, samples=100, warmup=50)
        dev.synchronize()
        latency(rec, L, "sync_idle_us", "cp.cuda.Device().synchronize() with nothing pending",
                dev.synchronize, batch=100, samples=100, warmup=100)

    def allocs():
        for size, label in ALLOC_SIZES:
            batch = 20 if size <= MiB else 5
            latency(rec, L, "cudaMalloc_free_%s_us" % label,
                    "cupy.cuda.runtime.malloc + free of %s" % label,
                    lambda s=size: runtime.free(runtime.malloc(s)), batch=batch, samples=40,
                    warmup=5)
        pool = runtime.deviceGetDefaultMemPool(0)
        runtime.memPoolSetAttribute(pool, runtime.cudaMemPoolAttrReleaseThreshold, (1 << 64) - 1)
        try:
            for size, label in ALLOC_SIZES:
                latency(rec, L, "pool_alloc_%s_us" % label,
                        "runtime.mallocAsync + freeAsync of %s on the current stream, default "
                        "pool warmed, release threshold UINT64_MAX (host enqueue time)" % label,
                        lambda s=size: runtime.freeAsync(runtime.mallocAsync(s, sptr), sptr),
                        batch=20, samples=100, warmup=20, after=stream.synchronize)
        finally:
            stream.synchronize()
            runtime.memPoolSetAttribute(pool, runtime.cudaMemPoolAttrReleaseThreshold, 0)
            runtime.memPoolTrimTo(pool, 0)
        for size, label in ALLOC_SIZES:
            latency(rec, L, "cupy_pool_alloc_%s_us" % label,
                    "cp.empty(%s, uint8) dropped at once: CuPy's default MemoryPool, warmed" % label,
                    lambda s=size: cp.empty(s, dtype=cp.uint8), batch=20, samples=100, warmup=20)

    def device_copy():
        n = D2D_BYTES
        src = cp.empty(n, dtype=cp.uint8)
        src.fill(3)
        dst = cp.zeros(n, dtype=cp.uint8)
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        sp, dp = src.data.ptr, dst.data.ptr

        def timed(copy, samples=30, warmup=3):
            for _ in range(warmup):
                copy()
            stream.synchronize()
            vals = []
            for _ in range(samples):
                e0.record(stream)
                copy()
                e1.record(stream)
                e1.synchronize()
                vals.append(2.0 * n / (cp.cuda.get_elapsed_time(e0, e1) * 1e-3) / 1e9)
            return vals
        vals = timed(lambda: runtime.memcpyAsync(dp, sp, n, MEMCPY_D2D, sptr))
        assert int(dst[n - 1].item()) == 3
        rec.add(L, "d2d_copy_GBps", "GB/s", vals,
                "runtime.memcpyAsync device->device of 1 GiB, bytes read + written, CUDA events")
        src.fill(4)
        vals = timed(lambda: cp.copyto(dst, src))
        assert int(dst[n - 1].item()) == 4
        rec.add(L, "d2d_copy_elementwise_GBps", "GB/s", vals,
                "cp.copyto(dst, src) of 1 GiB (a copy kernel), bytes read + written, CUDA events")

    def fma():
        blocks = max(sm_count, 1) * FMA_BLOCKS_PER_SM
        threads = FMA_THREADS
        kernels = {}
        for name, ctype, fn, npt in (("float", "float", "fmaf", np.float32),
                                     ("double", "double", "fma", np.float64)):
            k = cp.RawKernel(fma_source(name, ctype, fn), "gpulint_fma_" + name)
            out = cp.zeros(blocks * threads, dtype=npt)
            kernels[name] = (k, out, npt)
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()

        def launch_ms(name, iters):
            k, out, npt = kernels[name]
            e0.record(stream)
            k((blocks,), (threads,), (out, np.int32(iters), npt(FMA_A), npt(FMA_B)))
            e1.record(stream)
            e1.synchronize()
            return cp.cuda.get_elapsed_time(e0, e1)
        launch_ms("float", 1024)
        launch_ms("double", 1024)
        probe_iters = 8192
        t = launch_ms("float", probe_iters)
        iters = int(min(max(probe_iters * FMA_TARGET_MS / max(t, 1e-3), 1024), 1 << 24))
        flop = 2.0 * FMA_CHAINS * blocks * threads * iters
        f32, f64, ratio = [], [], []
        for _ in range(15):
            tf = launch_ms("float", iters)
            td = launch_ms("double", iters)
            f32.append(flop / (tf * 1e-3) / 1e12)
            f64.append(flop / (td * 1e-3) / 1e12)
            ratio.append(tf / td)
        for name in ("float", "double"):
            k, out, npt = kernels[name]
            got = float(out[0].item())
            want = fma_expected(npt, iters)
            if not abs(got - want) <= 1e-3 * want:
                raise AssertionError("%s FMA chain gave %r, expected %r" % (name, got, want))
        how = ("cupy RawKernel, %d blocks x %d threads x %d independent FMA chains x %d iterations,"
               " 2 FLOP per FMA, CUDA events" % (blocks, threads, FMA_CHAINS, iters))
        rec.add(L, "float_fma_TFLOPs", "TFLOP/s", f32, how + " (fmaf)")
        rec.add(L, "double_fma_TFLOPs", "TFLOP/s", f64, how + " (fma on double)")
        rec.add(L, "fp64_to_fp32_ratio", "ratio", ratio,
                "double_fma / float_fma from paired launches of the same shape")
        # What plain CuPy elementwise code gets: one dependent chain per element.
        n_el = blocks * threads * FMA_CHAINS
        for name, npt, key in (("float32", np.float32, "elementwise_float_fma_TFLOPs"),
                               ("float64", np.float64, "elementwise_double_fma_TFLOPs")):
            ek = cp.ElementwiseKernel(
                "T a, T b, int32 iters", "T y",
                "T x = y; for (int it = 0; it < iters; ++it) { x = x * a + b; } y = x;",
                "gpulint_fma_chain")
            y = cp.full(n_el, 0.5, dtype=npt)
            args = (npt(FMA_A), npt(FMA_B), np.int32(iters))
            ek(*args, y)
            stream.synchronize()
            vals = []
            for _ in range(10):
                e0.record(stream)
                ek(*args, y)
                e1.record(stream)
                e1.synchronize()
                vals.append(flop / (cp.cuda.get_elapsed_time(e0, e1) * 1e-3) / 1e12)
            rec.add(L, key, "TFLOP/s", vals,
                    "cupy ElementwiseKernel, %d elements, one chain of %d 'x = x * a + b' each "
                    "(%s)" % (n_el, iters, name))
            del y

    def timer_underreport():
        k = cp.RawKernel(SPIN_SRC, "gpulint_spin")
        out = cp.zeros(1, dtype=cp.uint64)
        ns = np.uint64(int(SPIN_MS * 1e6))
        args = (ns, out)
        k((1,), (1,), (np.uint64(1000), out))   # compile + load
        stream.synchronize()
        pairs = timer_pairs(lambda: k((1,), (1,), args), stream.synchronize)
        spun = int(out.item())
        if spun < ns:
            raise AssertionError("spin kernel ran %d ns, asked for %d" % (spun, int(ns)))
        add_timer_underreport(rec, L, pairs,
                              "host timer around launch + sync of a RawKernel spinning %g ms on "
                              "%%globaltimer" % SPIN_MS,
                              "host timer around the launch alone of the same kernel")

    def context_init():
        code = ("import time, cupy\nfrom cupy.cuda import runtime\nt = time.perf_counter()\n"
                "runtime.getDeviceCount(); runtime.setDevice(0); runtime.free(0)\n"
                "print(time.perf_counter() - t)\n")
        vals = child_times(rec, L, code, 7)
        if vals:
            rec.add(L, "context_init_ms", "ms", vals,
                    "fresh python3 after 'import cupy': runtime.getDeviceCount + setDevice + "
                    "free(0), timed inside the child (import excluded), %d children" % len(vals))

    rec.run(L, "scalar round trips", scalars)
    rec.run(L, "host<->device bandwidth", transfers, need_s=10)
    rec.run(L, "launch and sync latency", launches)
    rec.run(L, "allocation", allocs)
    rec.run(L, "device copy", device_copy)
    rec.run(L, "FMA throughput", fma, need_s=10)
    rec.run(L, "timer under-report", timer_underreport)
    cp.get_default_memory_pool().free_all_blocks()
    cp.get_default_pinned_memory_pool().free_all_blocks()
    rec.run(L, "context start-up", context_init, need_s=15)
    return None


def child_times(rec, lib, code, count):
    """Runs `code` in `count` fresh interpreters; each prints seconds; returns milliseconds."""
    vals = []
    for i in range(count):
        if rec.left() < 15:
            rec.note("%s: context_init_ms stopped after %d children: deadline" % (lib, i))
            break
        try:
            res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 timeout=min(90, max(rec.left() - 5, 5)), check=False)
        except subprocess.TimeoutExpired:
            rec.note("%s: context_init_ms child %d timed out" % (lib, i))
            break
        lines = res.stdout.strip().splitlines()
        if res.returncode != 0 or not lines:
            tail = (res.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError("child exited %d: %s" % (res.returncode, tail))
        vals.append(float(lines[-1]) * 1e3)
    return vals


# --- PyTorch ------------------------------------------------------------------------------------

def torch_section(rec):
    try:
        import torch
    except Exception as exc:  # noqa: BLE001
        return "torch not importable (%s: %s)" % (type(exc).__name__, exc)
    try:
        ok = torch.cuda.is_available() and torch.cuda.device_count() > 0
    except Exception as exc:  # noqa: BLE001
        return "torch's CUDA check failed (%s)" % exc
    if not ok:
        return "torch.cuda.is_available() is False"
    rec.doc["libraries"]["torch"] = torch.__version__
    dev = torch.device("cuda", 0)
    torch.cuda.set_device(dev)
    props = torch.cuda.get_device_properties(dev)
    if not rec.doc["device"].get("name"):
        rec.doc["device"].update({"name": props.name, "cc": "%d.%d" % (props.major, props.minor),
                                  "sm_count": props.multi_processor_count,
                                  "memory_bytes": props.total_memory})
    rec.doc["device"]["torch_cuda_version"] = torch.version.cuda
    rec.save()
    stream = torch.cuda.current_stream(dev)
    L = "torch"

    def scalars():
        d0 = torch.full((), 1.5, dtype=torch.float32, device=dev)
        d1 = torch.full((1,), 1.5, dtype=torch.float32, device=dev)
        hp = torch.ones(1, dtype=torch.float32)
        pp = torch.ones(1, dtype=torch.float32).pin_memory()
        torch.cuda.synchronize()
        latency(rec, L, "item_roundtrip_us", "torch 0-d float32 CUDA tensor .item()",
                d0.item, batch=10, samples=200, warmup=50)
        assert d0.item() == 1.5
        latency(rec, L, "get_1elem_us", "torch 1-element CUDA tensor .cpu() (new tensor)",
                d1.cpu, batch=10, samples=200, warmup=50)
        latency(rec, L, "memcpy_d2h_4B_us",
                "pageable 1-element CPU tensor .copy_(CUDA tensor) (blocking)",
                lambda: hp.copy_(d1), batch=10, samples=200, warmup=50)
        assert hp.item() == 1.5

        def pinned_scalar():
            pp.copy_(d1, non_blocking=True)
            stream.synchronize()
        latency(rec, L, "d2h_scalar_pinned_us",
                "pinned 1-element tensor .copy_(non_blocking=True) + stream.synchronize()",
                pinned_scalar, batch=10, samples=200, warmup=50)
        assert pp.item() == 1.5

    def transfers():
        n = BW_BYTES
        d = torch.full((n,), 7, dtype=torch.uint8, device=dev)
        hpage = torch.ones(n, dtype=torch.uint8)              # written: every page faulted in
        hpin = torch.empty(n, dtype=torch.uint8, pin_memory=True)
        hpin.fill_(2)
        torch.cuda.synchronize()
        sync = torch.cuda.synchronize
        bandwidth(rec, L, "h2d_pageable_GBps", "cuda_tensor.copy_(pageable tensor), 256 MiB",
                  n, lambda: d.copy_(hpage), sync)
        assert int(d[n - 1].item()) == 1
        bandwidth(rec, L, "h2d_pinned_GBps",
                  "cuda_tensor.copy_(pin_memory tensor, non_blocking=True), 256 MiB",
                  n, lambda: d.copy_(hpin, non_blocking=True), sync)
        assert int(d[n - 1].item()) == 2
        d.fill_(9)
        bandwidth(rec, L, "d2h_pageable_GBps", "pageable_tensor.copy_(cuda tensor), 256 MiB",
                  n, lambda: hpage.copy_(d), sync)
        assert int(hpage[n - 1]) == 9
        bandwidth(rec, L, "d2h_pinned_GBps",
                  "pin_memory_tensor.copy_(cuda tensor, non_blocking=True), 256 MiB",
                  n, lambda: hpin.copy_(d, non_blocking=True), sync)
        assert int(hpin[n - 1]) == 9

    def launches():
        x = torch.ones(1, dtype=torch.float32, device=dev)

        def op():
            x.add_(1.0)

        def op_sync():
            x.add_(1.0)
            stream.synchronize()
        latency(rec, L, "launch_async_us",
                "x.add_(1) on a 1-element CUDA tensor (dispatcher included), batches of 100, "
                "no sync inside", op, batch=100, samples=100, warmup=200,
                after=stream.synchronize)
        latency(rec, L, "launch_sync_us", "x.add_(1) on a 1-element tensor + stream.synchronize()",
                op_sync, batch=20, samples=100, warmup=50)
        torch.cuda.synchronize()
        latency(rec, L, "sync_idle_us", "torch.cuda.synchronize() with nothing pending",
                torch.cuda.synchronize, batch=100, samples=100, warmup=100)

    def allocs():
        for size, label in ALLOC_SIZES:
            latency(rec, L, "pool_alloc_%s_us" % label,
                    "torch.empty(%s, uint8, device='cuda') dropped at once: the caching "
                    "allocator, warmed" % label,
                    lambda s=size: torch.empty(s, dtype=torch.uint8, device=dev),
                    batch=20, samples=100, warmup=20)

    def device_copy():
        n = D2D_BYTES
        src = torch.full((n,), 3, dtype=torch.uint8, device=dev)
        dst = torch.zeros(n, dtype=torch.uint8, device=dev)
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        for _ in range(3):
            dst.copy_(src)
        torch.cuda.synchronize()
        vals = []
        for _ in range(30):
            e0.record(stream)
            dst.copy_(src)
            e1.record(stream)
            e1.synchronize()
            vals.append(2.0 * n / (e0.elapsed_time(e1) * 1e-3) / 1e9)
        assert int(dst[n - 1].item()) == 3
        rec.add(L, "d2d_copy_GBps", "GB/s", vals,
                "dst.copy_(src), 1 GiB uint8 on one device, bytes read + written, CUDA events")

    def timer_underreport():
        # PyTorch has no public spin kernel: an FP32 matmul sized to run about SPIN_MS stands in.
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)

        def event_ms(n):
            a = torch.rand(n, n, device=dev)
            b = torch.rand(n, n, device=dev)
            c = torch.empty(n, n, device=dev)
            torch.matmul(a, b, out=c)
            e0.record(stream)
            torch.matmul(a, b, out=c)
            e1.record(stream)
            e1.synchronize()
            return e0.elapsed_time(e1), (a, b, c)
        t, _ = event_ms(4096)
        n = int(round(4096 * (SPIN_MS / max(t, 1e-3)) ** (1.0 / 3.0) / 256.0)) * 256
        n = min(max(n, 1024), 16384)
        t, (a, b, c) = event_ms(n)
        pairs = timer_pairs(lambda: torch.matmul(a, b, out=c), stream.synchronize)
        what = "torch.matmul(out=) of two %dx%d float32 matrices (%.3g ms on events)" % (n, n, t)
        add_timer_underreport(rec, L, pairs, "host timer, launch + sync: " + what,
                              "host timer, launch alone: " + what)

    def context_init():
        code = ("import time, torch\nt = time.perf_counter()\ntorch.cuda.init()\n"
                "torch.cuda.set_device(0)\ntorch.empty(1, device='cuda')\n"
                "torch.cuda.synchronize()\nprint(time.perf_counter() - t)\n")
        vals = child_times(rec, L, code, 5)
        if vals:
            rec.add(L, "context_init_ms", "ms", vals,
                    "fresh python3 after 'import torch': torch.cuda.init + set_device + "
                    "first 1-element CUDA tensor + synchronize, %d children" % len(vals))

    rec.run(L, "scalar round trips", scalars)
    rec.run(L, "host<->device bandwidth", transfers, need_s=10)
    rec.run(L, "launch and sync latency", launches)
    rec.run(L, "allocation", allocs)
    rec.run(L, "device copy", device_copy)
    rec.note("torch: no FMA throughput or cudaMalloc+free: PyTorch's public API has no raw "
             "kernels and no uncached device allocation")
    rec.run(L, "timer under-report", timer_underreport)
    torch.cuda.empty_cache()
    rec.run(L, "context start-up", context_init, need_s=30)
    return None


def main(argv):
    ap = argparse.ArgumentParser(description="Measure gpulint-probe's quantities with CuPy and "
                                             "PyTorch (see the module docstring).")
    ap.add_argument("-o", "--output", default="reference.json")
    ap.add_argument("--lib", choices=("cupy", "torch", "both"), default="both")
    ap.add_argument("--deadline-s", type=float, default=300.0,
                    help="stop starting new measurements after this many seconds (default 300)")
    args = ap.parse_args(argv)
    rec = Recorder(args.output, args.deadline_s)
    try:
        rec.save()
    except OSError as exc:
        print("reference.py: cannot write %s: %s" % (args.output, exc), file=sys.stderr)
        return 2
    sections = [fn for lib, fn in (("cupy", cupy_section), ("torch", torch_section))
                if args.lib in (lib, "both")]
    unusable = []
    for section in sections:
        why = section(rec)     # None once measured, else why the library could not be used
        if why:
            unusable.append(why)
            rec.doc["notes"].append(why)
    rec.save()
    if len(unusable) == len(sections):
        print("reference.py: nothing measured: %s" % "; ".join(unusable), file=sys.stderr)
        return 3
    for why in unusable:
        log("note: " + why)
    log("reference.py: wrote %s in %.1f s (%d errors)" % (
        args.output, rec.doc["duration_s"], len(rec.doc["errors"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
