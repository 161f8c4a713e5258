/* suppress.h: what the user silenced in the source.
 * Owns: reading `# noqa`, `# noqa: GPU101`, `# noqa: GPU101, GPU102` (Ruff/flake8 syntax, codes
 *       comma- or space-separated) from the file's comment nodes, and the file-level
 *       `# gpulint: skip-file`; marking findings suppressed (they still reach SARIF as
 *       suppressions, and no other format).
 * Not: fixture annotations (`# expect:` and `# ok:` are comments like any other here).
 * Threads: pure functions over one file's data. */
#ifndef GL_SUPPRESS_H
#define GL_SUPPRESS_H

#include "load.h"
#include "model.h"
#include "result.h"

/* Marks each finding of out suppressed when a noqa comment on its first line names its id (or is
 * bare), or when the file has `# gpulint: skip-file`. */
void gl_suppress_apply(const gl_source *src, const gl_model *model, gl_file_result *out);

/* Parses one comment's text ("# noqa: A, B") into whether it is a noqa comment and, if codes
 * follow, writes them into codes (each NUL-terminated, at most max). Returns -1 when the comment
 * is not a noqa comment, 0 for a bare noqa, else the number of codes. */
int gl_suppress_parse_noqa(const char *text, size_t len, char codes[][16], int max);

#endif
