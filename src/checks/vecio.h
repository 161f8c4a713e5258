/* vecio.h: the checks of the search-io-portability pack (GPU85x vector search, GPU86x I/O,
 * GPU87x portability), declared for the checks[] table.
 * Owns: the entry points of staged_io.c (fromfile-staged-upload GPU861, host-reader-then-upload
 *       GPU863), vsearch.c (approximate-index-without-recall GPU851), vmetric.c
 *       (metric-mismatch-in-port GPU852), prt_guard.c (no-gpu-availability-guard GPU871) and
 *       prt_device.c (cross-device-array-use GPU872).
 * Not: the table (checks.c), the shared helpers (vio_scan.h, bench_scan.h).
 * Threads: each check reads one file's borrowed tree, source and model; no state. */
#ifndef GL_CHECKS_VECIO_H
#define GL_CHECKS_VECIO_H

#include "checks/checks.h"

/* A raw file read into host memory (np.fromfile, np.memmap, np.frombuffer of a file's bytes,
 * cp.fromfile) whose result an h2d call of the same scope copies to the GPU. */
void gl_check_fromfile_staged_upload(const gl_check_ctx *ctx);

/* A pandas reader (read_csv / read_parquet / read_json / read_orc) whose frame goes straight
 * into cudf.from_pandas / cudf.DataFrame / a cuGraph from_pandas_edgelist in the same scope. */
void gl_check_host_reader_then_upload(const gl_check_ctx *ctx);

/* An approximate cuVS / RAFT search (CAGRA, IVF-Flat, IVF-PQ, HNSW) in a file that also runs an
 * exact search (Faiss flat index, brute force), not in another branch of the same if / try /
 * match, in the same function or in a file that reads a wall clock, with no recall computed
 * anywhere in the file. */
void gl_check_approximate_index_without_recall(const gl_check_ctx *ctx);

/* A cuVS / RAFT index (IndexParams, brute_force.build / knn) whose metric ranks neighbours
 * differently from the one metric of every Faiss index of the file (L2 vs inner product or
 * cosine; inner product vs L2 only when nothing normalizes the vectors). */
void gl_check_metric_mismatch_in_port(const gl_check_ctx *ctx);

/* A GPU library imported at module level outside any try / if, in a file that shows a CPU
 * path (`cp if gpu else np`, a scope binding numpy in one place and a GPU package in another,
 * a gpu=False parameter, a try / except ImportError around another GPU import; not
 * cp.get_array_module alone) and checks nowhere for a GPU. */
void gl_check_no_gpu_availability_guard(const gl_check_ctx *ctx);

/* An array placed on one literal GPU (with cp.cuda.Device(n), device="cuda:n", .cuda(n)) used
 * in work on another literal GPU of the same scope without an explicit copy. */
void gl_check_cross_device_array_use(const gl_check_ctx *ctx);

#endif
