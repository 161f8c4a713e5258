/* vecio.h: the checks of the search-io-portability pack (GPU85x vector search, GPU86x I/O,
 * GPU87x portability), declared for the checks[] table.
 * Owns: the entry points of staged_io.c (fromfile-staged-upload GPU861, host-reader-then-upload
 *       GPU863), vsearch.c (approximate-index-without-recall GPU851), vmetric.c
 *       (metric-mismatch-in-port GPU852) and portability.c (no-gpu-availability-guard GPU871,
 *       cross-device-array-use GPU872).
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

#endif
