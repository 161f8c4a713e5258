/* rules_int.h: internal to the rules module: parsing ONE rule file or pack README into a gl_rule /
 * gl_pack. rulemd.c reads the Markdown (lines, fenced blocks), rulefile.c the structure of a rule
 * (heading, sections in order, blocks, texts), rulemeta.c the json metadata; rules.c uses them.
 * Owns: the declarations shared by those files (gl_rules__ names); nothing outside src/rules*.c
 *       and src/rulefile.c includes this header.
 * Not: grouping files into packs, cross-file checks (prefix, duplicates), selection (rules.c).
 * Threads: stateless; the caller owns everything passed in and out. */
#ifndef GL_RULEFILE_H
#define GL_RULEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/strbuf.h"
#include "rules/rules.h"

/* One line of a file: bytes [start, start + len) without the line end ("\n" or "\r\n"). */
typedef struct gl_mdline {
  const char *text;
  size_t len;
} gl_mdline;

typedef struct gl_mdblock {
  uint32_t open_line;    /* 1-based line of the opening ``` fence */
  uint32_t first_line;   /* open_line + 1: the first line inside */
  uint32_t close_line;   /* line of the closing fence */
  char info[32];         /* "json", "python", "query", ... (truncated) */
} gl_mdblock;

/* A file split into lines, with its fenced blocks (headings inside blocks are not headings). */
typedef struct gl_mdfile {
  const char *path;      /* borrowed, for errors */
  gl_vec(gl_mdline) lines;         /* lines.data[0] is line 1 */
  gl_vec(gl_mdblock) blocks;       /* in file order */
  gl_vec(uint8_t) in_block;        /* per line (index line-1): 1 inside or on a fence */
} gl_mdfile;

static inline const gl_mdline *gl_rules__line(const gl_mdfile *md, uint32_t line) {
  return &md->lines.data[line - 1];
}

/* True when the line holds only spaces and tabs. */
static inline bool gl_rules__blank(const gl_mdline *l) {
  for (size_t i = 0; i < l->len; i++)
    if (l->text[i] != ' ' && l->text[i] != '\t') return false;
  return true;
}

/* Appends an error at path:line:col to errs. */
void gl_rules__err(gl_diag_list *errs, const char *path, uint32_t line, uint32_t col, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));

/* Splits f into lines and blocks. An unterminated fence is an error; returns false then (the
 * file's structure cannot be trusted, so the caller stops). */
bool gl_rules__md_split(gl_mdfile *md, const gl_rule_file *f, gl_diag_list *errs);
void gl_rules__md_free(gl_mdfile *md);

/* The text of lines [first, last] (1-based, inclusive), each followed by "\n"; "" when empty. */
char *gl_rules__md_join(const gl_mdfile *md, uint32_t first, uint32_t last);

/* True for [a-z0-9]+(-[a-z0-9]+)*. */
bool gl_rules__is_kebab(const char *s, size_t len);

/* The block opening on line `line`, or NULL. */
const gl_mdblock *gl_rules__md_block_at(const gl_mdfile *md, uint32_t line);

/* The json block right after the heading on line 1: the first non-blank line after it must open a
 * ```json block; otherwise an error is added and NULL returned. */
const gl_mdblock *gl_rules__md_meta_block(const gl_mdfile *md, gl_diag_list *errs);

/* Parses and validates the rule metadata block into r (severity, precision, tags, message, check).
 * Returns the number of errors added. */
int gl_rules__meta_rule(const gl_mdfile *md, const gl_mdblock *b, gl_rule *r, gl_diag_list *errs);

/* A metadata block's text (lines joined with "\n") and where it sits, for errors of ruleopts.c. */
typedef struct gl_rules__metaloc {
  const char *path;
  const char *text;
  size_t len;
  uint32_t first_line;   /* rule-file line of the text's first byte */
} gl_rules__metaloc;

struct cJSON;

/* Validates the `options` object of a rule's metadata (its '{' at offset obj_off of loc->text)
 * and appends each option to r->options: a kebab-case name mapping to an object with "type"
 * ("string-list"), "default" (a value of that type) and "description" (a non-empty line), no
 * other key. Returns the number of errors added (at the offending key or value). The cJSON item
 * is borrowed and not kept. */
int gl_rules__meta_options(const gl_rules__metaloc *loc, size_t obj_off, const struct cJSON *obj,
                           gl_rule *r, gl_diag_list *errs);

/* Frees r->options and what they own. */
void gl_rules__options_clear(gl_rule *r);

/* Parses and validates the pack README block into p (name, prefix, default, triggers); the name
 * must equal folder, the pack folder's name. Returns the number of errors added. */
int gl_rules__meta_pack(const gl_mdfile *md, const gl_mdblock *b, const char *folder, gl_pack *p,
                 gl_diag_list *errs);

/* Parses one rule file. id_from_name is the file's base name without ".md". On success (0 errors
 * returned) r is filled and owned by the caller (gl_rules__rule_clear); on failure r is cleared. */
int gl_rules__parse_rule(const gl_rule_file *f, const char *id_from_name, gl_rule *r,
                           gl_diag_list *errs);

/* Parses one pack README; folder is the pack folder's name (must equal the json "name"). */
int gl_rules__parse_pack(const gl_rule_file *f, const char *folder, gl_pack *p,
                           gl_diag_list *errs);

/* Frees what a rule / pack owns and zeroes it. */
void gl_rules__rule_clear(gl_rule *r);
void gl_rules__pack_clear(gl_pack *p);

#endif
