/* toml_read.h: reads a TOML document into a plain C tree of values, each with its position.
 * Owns: the C interface over toml++ 3.3 (src/toml_read.cpp, the only C++ in gpulint): parsing,
 *       syntax errors with file:line:column, and the tree's values and 1-based key positions.
 * Not: what the keys mean (config.c), reading the file from disk.
 * Threads: no shared state; a tree belongs to its caller. */
#ifndef GL_TOML_READ_H
#define GL_TOML_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "base/diag.h"

typedef enum gl_toml_kind {
  GL_TOML_TABLE,
  GL_TOML_ARRAY,
  GL_TOML_STRING,
  GL_TOML_INTEGER,
  GL_TOML_FLOAT,
  GL_TOML_BOOL,
  GL_TOML_DATETIME,   /* a date, a time or a date-time; its value is not kept */
} gl_toml_kind;

typedef struct gl_toml_value gl_toml_value;
struct gl_toml_value {
  gl_toml_kind kind;
  char *key;           /* owned: the key within its table; NULL for the root and array items */
  uint32_t line, col;  /* 1-based: the key's position in a table, the value's in an array
                          (the root: 1, 1) */
  char *str;           /* STRING: owned, NUL-terminated copy (a "\u0000" in it ends it early:
                          use len) */
  size_t len;          /* STRING: bytes in str */
  int64_t integer;     /* INTEGER */
  double number;       /* FLOAT */
  bool boolean;        /* BOOL */
  gl_toml_value *items;/* TABLE: its entries sorted by position (source order); ARRAY: items */
  size_t nitems;
};

/* Parses len bytes of data as TOML (path is only used in errors). Returns the root table, owned
 * by the caller (gl_toml_free), or NULL with err = path:line:col and toml++'s description of the
 * first syntax error ("expected bare key starting character or string-literal, saw '='"). */
gl_toml_value *gl_toml_parse(const char *path, const char *data, size_t len, gl_diag *err);

/* Frees the tree; NULL does nothing. */
void gl_toml_free(gl_toml_value *root);

/* The entry named key of a TABLE value (case-sensitive), or NULL (also when table is NULL or not
 * a table). */
const gl_toml_value *gl_toml_get(const gl_toml_value *table, const char *key);

/* "table", "array", "string", "integer", "float", "boolean", "date-time". */
const char *gl_toml_kind_name(gl_toml_kind kind);

#ifdef __cplusplus
}
#endif

#endif
