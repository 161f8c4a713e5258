/* harness.h: what the libFuzzer harnesses of tests/fuzz share: the built-in rules and their
 * matcher built once per process, a private scratch directory for the inputs that only exist as
 * files (a path is what the loaders take), and writing a run in every output format to memory.
 * Owns: nothing outside a harness process. Threads: single-threaded (libFuzzer calls one input at
 * a time). Each harness defines LLVMFuzzerTestOneInput; replay.c or libFuzzer provides main. */
#ifndef GL_FUZZ_HARNESS_H
#define GL_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "match/match.h"
#include "result/result.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The built-in rules, every one enabled, and their compiled matcher (built on first use). */
const gl_ruleset *gl_fuzz_rules(void);
const gl_matcher *gl_fuzz_matcher(void);

/* Engine options of the harnesses: one job, a 2 s parse and match limit, a 4 MiB size cap. */
gl_engine_opts gl_fuzz_engine_opts(void);

/* Writes data to NAME in the harness's scratch directory (made on first use, removed at exit) and
 * returns its path (static storage, valid until the next call). Aborts when it cannot. */
const char *gl_fuzz_file(const char *name, const uint8_t *data, size_t size);

/* Sorts run and writes it in every output format into memory (checking that each writer
 * succeeds and that the JSON and SARIF it writes are valid UTF-8); aborts on a failure. */
void gl_fuzz_report_all(gl_run *run);

/* An empty run over the built-in rules, with a source root for SARIF's URIs. */
gl_run gl_fuzz_run(void);

/* Lints text (as the engine's in-memory entry does: no load stage) as a file named name, appending
 * its result to run. */
void gl_fuzz_lint_text(const char *name, const char *text, size_t len, gl_run *run);

/* A small training script with findings of many rules, several bound to probe metrics. */
extern const char gl_fuzz_train_py[];

/* Lints source (bytes as they would be on disk) as a file named name through the engine's whole
 * per-file pipeline, into run (one file). */
void gl_fuzz_lint_file(const char *name, const uint8_t *data, size_t size, gl_run *run);

#endif
