"""Benchmark RAFT's CAGRA index on random vectors, written for RAPIDS 24.04.

Since then the vector search moved to cuVS, RMM moved its CuPy allocator, CuPy deprecated its old
timing helpers, and nvprof cannot profile the GPUs this would run on.
"""
import subprocess
import sys

import cupy as cp
import rmm
from cupyx.time import repeat
from pylibraft.common import DeviceResources
from pylibraft.neighbors import cagra

rmm.reinitialize(pool_allocator=True)
cp.cuda.set_allocator(rmm.rmm_cupy_allocator)


def make_data(n, dim, seed=0):
    rng = cp.random.default_rng(seed)
    return rng.random((n, dim), dtype=cp.float32)


def build_and_search(dataset, queries, k=10):
    handle = DeviceResources()
    with cp.prof.time_range("cagra.build"):
        index = cagra.build(cagra.IndexParams(graph_degree=32), dataset, handle=handle)
    params = cagra.SearchParams(itopk_size=64)
    distances, neighbors = cagra.search(params, index, queries, k, handle=handle)
    handle.sync()
    return distances, neighbors


def main():
    dataset = make_data(100_000, 96)
    queries = make_data(1_000, 96, seed=1)
    print(repeat(build_and_search, (dataset, queries), n_repeat=5))


if __name__ == "__main__":
    if "--profile" in sys.argv:
        subprocess.run(["nvprof", "--print-gpu-summary", sys.executable, __file__], check=True)
    else:
        main()
