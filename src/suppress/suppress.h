/* suppress.h: what the user silenced in the source.
 * Owns: reading `# noqa`, `# noqa: GPU101`, `# noqa: GPU101, GPU102` (Ruff/flake8 syntax, codes
 *       comma- or space-separated) from the file's comment nodes, the file-level
 *       `# gpulint: skip-file`, `# gpulint: noqa` and `# gpulint: noqa: GPU101`; the line a finding's
 *       noqa belongs on (its first line, or the end of a multi-line string open there); marking
 *       findings suppressed (they still reach SARIF as suppressions, and no other format); the
 *       unused-noqa findings of a rule whose "check" is "unused-noqa" (GPU001), when enabled;
 *       `--add-noqa`, writing `# noqa: ID` comments for a file's findings (addnoqa.c).
 * Not: fixture annotations (`# expect:` and `# ok:` are comments like any other here).
 * Threads: pure functions over one file's data. */
#ifndef GL_SUPPRESS_H
#define GL_SUPPRESS_H

#include <stddef.h>
#include <tree_sitter/api.h>

#include "base/diag.h"
#include "base/load.h"
#include "model/model.h"
#include "result/result.h"
#include "rules/rules.h"

/* The most codes one directive holds; codes past it are ignored. */
#define GL_NOQA_MAX_CODES 32

/* Marks each finding of out suppressed when a noqa comment on its noqa line (gl_suppress_noqa_line)
 * names its id (or is bare), when a file-level `# gpulint: noqa` is bare or names its id, or when
 * the file has `# gpulint: skip-file`. tree may be NULL (the noqa line is then the first line).
 * When set (may be NULL) has an enabled rule whose check is "unused-noqa", appends one finding of
 * it per line-level directive that suppressed nothing it could (see suppress.c), after the rest are
 * marked; a file-level directive or skip-file applies to those findings too. */
void gl_suppress_run(const gl_source *src, const TSTree *tree, const gl_model *model,
                     const gl_ruleset *set, gl_file_result *out);

/* gl_suppress_run(src, NULL, model, NULL, out). */
void gl_suppress_apply(const gl_source *src, const gl_model *model, gl_file_result *out);

/* Parses one comment's text ("# noqa: A, B") into whether it is a noqa comment and, if codes
 * follow, writes them into codes (each NUL-terminated, at most max). Returns -1 when the comment
 * is not a noqa comment, 0 for a bare noqa, else the number of codes. When end is not NULL it
 * receives the offset in text just past the last code (past "noqa" for a bare one). */
int gl_suppress_parse_noqa_at(const char *text, size_t len, char codes[][16], int max, size_t *end);

/* gl_suppress_parse_noqa_at(text, len, codes, max, NULL). */
int gl_suppress_parse_noqa(const char *text, size_t len, char codes[][16], int max);

/* Parses a file-level directive: `# gpulint: noqa` (returns 0) or `# gpulint: noqa: A, B`
 * (returns the number of codes, written as gl_suppress_parse_noqa does); -1 for anything else,
 * including `# gpulint: skip-file` (see gl_suppress_is_skip_file). */
int gl_suppress_parse_file_noqa(const char *text, size_t len, char codes[][16], int max);

/* True when the comment text holds `# gpulint: skip-file`. */
bool gl_suppress_is_skip_file(const char *text, size_t len);

/* The line where the noqa for a finding that starts on `line` goes: `line` itself, or, when that
 * line ends inside a multi-line string, the line where the string ends, and when it ends with a
 * backslash continuation (outside a comment), the next line; repeatedly, as Ruff does. A comment
 * put there can never fall inside a string or break a continuation. tree NULL gives `line`. */
uint32_t gl_suppress_noqa_line(const gl_source *src, const TSTree *tree, uint32_t line);

/* --add-noqa (addnoqa.c): adds comments for the findings of res that are not suppressed to the
 * file res->path (read again from disk, parsed again for its comments and strings). Each comment
 * goes on the finding's noqa line (gl_suppress_noqa_line); codes merge into a `# noqa: X` already
 * on that line (after its last code, before any free text), else `  # noqa: A, B` is appended at
 * the end of the line's code; the file is rewritten atomically with every other byte (CRLF, BOM,
 * trailing blanks) and its permission bits kept. A finding whose line already holds a bare noqa
 * is suppressed and needs none; codes on one line are sorted and written once; findings of the
 * unused-noqa rule (GPU001) get none (remove the directive instead). *added receives the number
 * of lines that got a new or extended directive (0: the file is untouched). Returns 0, GL_EIO
 * (cannot read or write; err says which and why) or GL_EINVAL (the file changed since it was
 * linted, or is a notebook, whose cells are not rewritten). Main thread; one call per file. */
int gl_addnoqa_file(const gl_file_result *res, size_t *added, gl_diag *err);

#endif
