/* notebook.h: a Jupyter notebook (nbformat 4) as one virtual Python source with a cell map.
 * Owns: validating the .ipynb text (json syntax, NaN / Infinity, duplicate keys at any depth, a
 *       `\u0000` escape in any string, nbformat 4, `cells`, each code cell's `source`), joining the
 *       code cells into one source (markdown and raw cells skipped), blanking IPython magics and
 *       shell escapes for the parser while keeping them as records (gl_nb_magic), and mapping a
 *       virtual position back to (cell, line in cell) and to the .ipynb's own line and UTF-16
 *       column (SARIF).
 * Not: reading the file (load.c), linting (engine.c), rules that read magics (src/checks/).
 * Threads: a gl_notebook belongs to one worker; functions keep no state between calls.
 *
 * Cell numbers are 1-based indexes among ALL cells of the notebook, markdown and raw included
 * (what Jupyter shows as the cell's position, and what Ruff prints as "cell N"). Each code cell
 * contributes its lines to the virtual source in order; a cell not ending in a newline gets one,
 * so virtual line k is exactly one line of one cell (cell lines never merge).
 *
 * Magics: a line whose first non-blank character is `%` (line magic), `!` (shell escape), `?`
 * (help), a line `name?` / `name??` (help), a first cell line `%%name` (cell magic), and
 * `x = !cmd` / `x = %magic` (the right side). Each becomes spaces of the same length, starting
 * with `pass` (or `0` when shorter than 4 bytes) so an indented block keeps a statement; the
 * right side of `x = !cmd` becomes `0` and spaces. `%time stmt` / `%timeit [-n N -r R ...]
 * stmt` blank only the magic and its options as `pass;` and spaces, so `stmt` is still parsed
 * (and linted). A `%%name` cell whose body is not Python (any cell magic but time, timeit,
 * capture, prun) is blanked whole. Columns and lines of everything else stay as written.
 * A future rule reads magics through gl_source.notebook (NULL for .py files): for example the
 * accelerator-order rule of issue 9 looks for a record with name "load_ext" and args
 * "cudf.pandas" and compares its `start` byte with the byte of the first pandas import. */
#ifndef GL_NOTEBOOK_H
#define GL_NOTEBOOK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/load.h"
#include "base/vec.h"

struct gl_file_result;

typedef enum gl_nb_magic_kind {
  GL_NB_LINE_MAGIC,     /* %name args */
  GL_NB_CELL_MAGIC,     /* %%name args, first line of a cell */
  GL_NB_SHELL,          /* !cmd */
  GL_NB_HELP,           /* ?obj, obj?, obj?? */
} gl_nb_magic_kind;

typedef struct gl_nb_magic {
  gl_nb_magic_kind kind;
  char name[32];        /* "timeit", "load_ext", "pip" (a shell command's first word), "" */
  char *args;           /* owned: the rest of the magic's line after name, trimmed ("cudf.pandas") */
  char *text;           /* owned: the magic as written, from its first byte to the line end */
  uint32_t start, end;  /* virtual bytes blanked for the magic itself ("%%time", "%timeit -n 3") */
  uint32_t body_end;    /* what it applies to ends here: a cell magic's cell end, a line magic's
                           line end (both virtual bytes) */
  uint32_t cell;        /* 1-based cell number */
} gl_nb_magic;

/* One piece of a code cell's text that one json string holds. */
typedef struct gl_nb_seg {
  uint32_t vstart;      /* virtual byte where the piece starts */
  uint32_t str_off;     /* the json string's opening quote in the .ipynb */
  uint32_t str_idx;     /* decoded byte of that string where the piece starts */
} gl_nb_seg;

typedef struct gl_nb_line {
  uint32_t cell;        /* 1-based among all cells */
  uint32_t cell_line;   /* 1-based line in the cell */
  uint32_t vstart;      /* virtual byte where the line starts */
} gl_nb_line;

typedef struct gl_notebook {
  char *code;           /* owned virtual source, magics blanked (what is parsed) */
  char *orig;           /* owned, same length and lines, magics as written (code frames) */
  size_t len;
  gl_vec(gl_nb_line) lines;   /* lines.data[k - 1] describes virtual line k */
  gl_vec(gl_nb_seg) segs;     /* sorted by vstart */
  gl_vec(gl_nb_magic) magics; /* in virtual order */
  uint32_t ncells;            /* all cells */
  uint32_t ncode;             /* code cells */
} gl_notebook;

/* Validates raw (the .ipynb's bytes as gl_load_file read them, BOM allowed) and builds nb.
 * Returns 0, or GL_EINVAL with err's line and column (UTF-16) pointing into the .ipynb and its
 * message saying what is wrong ("invalid json", "invalid json: NaN and Infinity are not json
 * numbers", "duplicate key 'source'", "a \\u0000 escape in a string (a NUL character)",
 * "nbformat 3 is not supported: only nbformat 4", "missing 'nbformat'", "missing 'cells'",
 * "'cells' must be an array", "cell 2 must be an object", "cell 2: missing 'cell_type'",
 * "cell 2: missing 'source'", "cell 2: 'source' must be a string or an array of strings",
 * "cell 2: line 3 of 'source' is not a string", "notebook contains a NUL byte"); err's path is
 * raw->path. On failure nb is left empty (safe to free). */
int gl_notebook_read(gl_notebook *nb, const gl_source *raw, gl_diag *err);

/* True when path names a notebook (ends in ".ipynb"). */
bool gl_notebook_is_path(const char *path);

/* The .ipynb position (line, UTF-16 and code-point columns) of virtual byte vbyte: the raw byte
 * where the json escape or character that decodes to it starts. A byte past its line's text
 * (the newline a cell gets added) maps to the end of the string holding the line. */
gl_pos gl_notebook_file_pos(const gl_notebook *nb, const gl_source *raw, uint32_t vbyte);

/* The cell line holding virtual byte vbyte (the last line for a byte past the end); all zero
 * for a notebook without code. */
gl_nb_line gl_notebook_cell_of(const gl_notebook *nb, uint32_t vbyte);

/* After the engine linted vsrc (nb's virtual source, read from raw) into out: moves every
 * finding's region and related regions to the .ipynb's json text (cell and cell_region keep the
 * cell view), replaces its snippet with the cell lines as written (magics shown) and its line
 * hash with the hash of its json line in raw's bytes; a notification's position moves to the
 * .ipynb too and its message gets a "cell N, line M: " prefix. */
void gl_notebook_remap(const gl_notebook *nb, const gl_source *raw, const gl_source *vsrc,
                       struct gl_file_result *out);

void gl_notebook_free(gl_notebook *nb);

#endif
