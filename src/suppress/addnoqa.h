/* addnoqa.h: `--add-noqa`, writing `# noqa: ID` comments for a file's current findings.
 * Owns: where each comment goes (the finding's noqa line, gl_suppress_noqa_line: never inside a
 *       string or after a backslash continuation), merging codes into a `# noqa: X` already on
 *       that line (after its last code, before any free text), appending `  # noqa: A, B` at the
 *       end of the line's code otherwise, and rewriting the file atomically with every other byte
 *       (CRLF, BOM, trailing blanks) and its permission bits kept.
 * Not: linting (the engine found the findings), printing (main.c says how many were added).
 * Threads: main thread; one call per file. */
#ifndef GL_ADDNOQA_H
#define GL_ADDNOQA_H

#include <stddef.h>

#include "base/diag.h"
#include "result.h"

/* Adds comments for the findings of res that are not suppressed to the file res->path (read again
 * from disk, parsed again for its comments and strings). A finding whose line already holds a
 * bare noqa is suppressed and needs none; codes on one line are sorted and written once; findings
 * of the unused-noqa rule (GPU001) get none (remove the directive instead). *added
 * receives the number of lines that got a new or extended directive (0: the file is untouched).
 * Returns 0, GL_EIO (cannot read or write; err says which and why) or GL_EINVAL (the file changed
 * since it was linted, or is a notebook, whose cells are not rewritten). */
int gl_addnoqa_file(const gl_file_result *res, size_t *added, gl_diag *err);

#endif
