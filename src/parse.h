/* parse.h: source bytes -> tree-sitter tree, bounded.
 * Owns: one TSParser per worker (reused across files), the per-file parse time limit (the parser is
 *       reset after a timeout), the tree-depth guard and the check that the tree covers the file.
 * Not: reading files (load.c), the language's meaning (model.c).
 * Threads: a gl_parser belongs to one worker. */
#ifndef GL_PARSE_H
#define GL_PARSE_H

#include <stdint.h>
#include <tree_sitter/api.h>
#include "diag.h"
#include "load.h"

typedef struct gl_parser gl_parser;

/* The tree-sitter-python language (static, shared). */
const TSLanguage *gl_parse_language(void);

/* timeout_ms: 0 = no limit; max_depth: 0 = default. */
gl_parser *gl_parse_new(uint32_t timeout_ms, uint32_t max_depth);
void gl_parse_free(gl_parser *p);

/* Parses src. Returns the tree (caller deletes it with ts_tree_delete), or NULL with err filled
 * (timeout, too deep, tree not covering the file) and the parser ready for the next file. */
TSTree *gl_parse_source(gl_parser *p, const gl_source *src, gl_diag *err);

/* First syntax error (ERROR or MISSING node) in tree, or false when there is none. */
bool gl_parse_first_error(const TSTree *tree, uint32_t *byte_out, const char **what_out);

#endif
