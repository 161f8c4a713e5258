/* query_build.h: the text side of the combined query: concatenating rule blocks, mapping offsets
 * back to rule-file positions, and the small lexer that finds predicates and their arguments in a
 * pattern's source text (tree-sitter reports predicates as steps without positions).
 * Owns: gl_qtext (the combined text and each rule's byte range), TSQueryError -> gl_diag
 *       messages with the offending token, and the lexical checks done before compiling.
 * Not: compiling predicates or regexes (predicate.c), running queries (match.c).
 * Threads: used once at start-up by the thread building the matcher; no state between calls. */
#ifndef GL_QUERY_BUILD_H
#define GL_QUERY_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>
#include "base/diag.h"
#include "base/vec.h"
#include "rules/rules.h"

typedef struct gl_qspan {
  const gl_rule *rule;     /* borrowed */
  uint32_t start, end;     /* the rule's query block in the combined text: [start, end) */
} gl_qspan;

typedef struct gl_qtext {
  char *text;              /* owned, NUL-terminated: every block followed by "\n" */
  uint32_t len;
  gl_vec(gl_qspan) spans;  /* in the order given, ascending start */
} gl_qtext;

/* Concatenates rules[i]->query for every i (each block followed by "\n") into qt. */
void gl_qtext_build(gl_qtext *qt, const gl_rule *const *rules, size_t n);
void gl_qtext_free(gl_qtext *qt);

/* The span whose [start, end] holds offset (end included: the "\n" after a block belongs to it),
 * or NULL. */
const gl_qspan *gl_qtext_span_at(const gl_qtext *qt, uint32_t offset);

/* Rule-file position of byte `offset` of rule->query: line = query_line + newlines before it,
 * col = 1-based byte column. */
void gl_query_position(const gl_rule *rule, uint32_t offset, uint32_t *line, uint32_t *col);

/* Appends the diag for ts_query_new's (type, offset) on rule->query alone:
 * "invalid query syntax near 'X'" / "invalid query syntax at end of query",
 * "unknown node type 'foo'", "unknown field 'bar'", "invalid capture '@x'",
 * "impossible pattern structure '(...)'", "query language version mismatch". */
void gl_query_error(const gl_rule *rule, TSQueryError type, uint32_t offset, gl_diag_list *errs);

/* Compiles rule->query alone; on failure appends its error and returns false. */
bool gl_query_check_alone(const gl_rule *rule, const TSLanguage *lang, gl_diag_list *errs);

/* True when text[0..len) closes every '(' and '[' it opens, never closes one it did not open,
 * and ends no string: only then can it not merge with the block after it. */
bool gl_query_is_closed(const char *text, size_t len);

/* Limits on a rule's query, checked on its text before tree-sitter sees it: tree-sitter's query
 * parser recurses once per level of nesting (20,000 levels overflow the stack), its pattern
 * indices are 16-bit, and compiling 10,000 patterns takes seconds. */
#define GL_QUERY_MAX_DEPTH 256
#define GL_QUERY_MAX_PATTERNS 4096

/* The shape of a query's text: its top-level patterns and deepest nesting, and the offset of
 * the first quantifier that would repeat without end (UINT32_MAX when there is none): a `+` on
 * something that may match nothing (`(a)?+`, `(a)*+`, `((a)?)+`, `((a)? (b)*)+`, `[(a)? (b)*]+`),
 * on which tree-sitter's query compiler (top level) or cursor (nested) loops forever, growing
 * its states. Measured on tree-sitter 0.25: `*` or `?` on such a thing, `??`, `**`, `++` and
 * `[(a)? (b)]+` all end. */
typedef struct gl_qshape {
  uint32_t patterns;
  uint32_t depth, depth_off;   /* deepest nesting and where it first passes the limit */
  uint32_t endless_off;
} gl_qshape;
gl_qshape gl_query_shape(const char *text, uint32_t len);

/* Appends the error of the first limit rule->query breaks (depth, stacked quantifiers) and
 * returns false; true when it keeps them. The pattern limit is the combined query's (match.c). */
bool gl_query_check_shape(const gl_rule *rule, gl_qshape *shape, gl_diag_list *errs);

/* First offset in [start, end) that is not whitespace or a ';' comment (end when none). */
uint32_t gl_query_skip_space(const char *text, uint32_t start, uint32_t end);

/* End of the balanced (...) or [...] group opening at text[i] (strings and ';' comments inside
 * skipped), or end when it does not close. */
uint32_t gl_query_skip_group(const char *text, uint32_t i, uint32_t end);

/* Finds the k-th predicate (0-based, in text order) of text[start, end). *pred_off receives the
 * offset of its '#' (or '.'); *arg_off the offset of argument `arg` (0 = first after the name),
 * or *pred_off when it has fewer. False when there is no k-th predicate. */
bool gl_query_locate_predicate(const char *text, uint32_t start, uint32_t end, size_t k,
                               size_t arg, uint32_t *pred_off, uint32_t *arg_off);

/* Offset in text of byte `decoded` of the string literal whose opening quote is at lit_off,
 * undoing tree-sitter's escapes (\n \r \t \0 one byte; \X copies X). */
uint32_t gl_query_string_offset(const char *text, uint32_t lit_off, size_t decoded);

#endif
