/* notebook_magic.c: IPython magics, shell escapes and help lines of a notebook's code cells.
 * Owns: recognizing them line by line, recording them (gl_nb_magic) and blanking them in the
 *       virtual source so the parser sees valid Python with every other byte where it was.
 * Not: reading the notebook (notebook.c), what rules make of magics (src/checks/magic.c).
 * Threads: no state; works on the caller's gl_notebook. */
#include "notebook/notebook_int.h"

#include <string.h>

#include "base/xalloc.h"

/* Cell magics whose body is Python (the rest, %%bash, %%html, ..., are blanked whole; so is
 * %%writefile, unless it writes a Python file: writefile_python). */
static const char *const python_bodies[] = {"time", "timeit", "capture", "prun"};

static bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (unsigned char)c >= 0x80;
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static size_t skip_blank(const char *s, size_t i, size_t end) {
  while (i < end && is_blank(s[i])) i++;
  return i;
}

/* Overwrites code[a, b) with filler (or what of it fits) and spaces. */
static void blank(char *code, size_t a, size_t b, const char *filler) {
  size_t n = strlen(filler);
  for (size_t i = a; i < b; i++) code[i] = i - a < n ? filler[i - a] : ' ';
}

/* A statement that fills code[a, b): "pass" when it fits, else "0". */
static void blank_stmt(char *code, size_t a, size_t b) { blank(code, a, b, b - a >= 4 ? "pass" : "0"); }

static gl_nb_magic *record(gl_notebook *nb, gl_nb_magic_kind kind, uint32_t cell, size_t at,
                           size_t name_at, size_t end, size_t body_end) {
  const char *s = nb->orig;
  gl_nb_magic *m = gl_vec_grow(&nb->magics);
  memset(m, 0, sizeof *m);
  m->kind = kind;
  m->cell = cell;
  size_t n = name_at;
  while (n < end && is_word(s[n]) && n - name_at < sizeof m->name - 1) n++;
  memcpy(m->name, s + name_at, n - name_at);
  size_t a = skip_blank(s, n, end), b = end;
  while (b > a && is_blank(s[b - 1])) b--;
  m->args = gl_xstrndup(s + a, b - a);
  m->text = gl_xstrndup(s + at, end - at);
  m->start = (uint32_t)at;
  m->end = (uint32_t)end;
  m->body_end = (uint32_t)body_end;
  return m;
}

/* Past `%time` / `%timeit`'s options ("-n 10 -r 3 -q"), at the timed statement. */
static size_t past_options(const char *s, size_t i, size_t end) {
  i = skip_blank(s, i, end);
  while (i < end && s[i] == '-') {
    char opt = i + 1 < end ? s[i + 1] : 0;
    while (i < end && !is_blank(s[i])) i++;
    size_t j = skip_blank(s, i, end);
    bool has_value = (opt == 'n' || opt == 'r' || opt == 'p') && j < end && s[j] >= '0' && s[j] <= '9';
    if (has_value)
      while (j < end && !is_blank(s[j])) j++;
    i = skip_blank(s, has_value ? j : i, end);
  }
  return i;
}

static void line_magic(gl_notebook *nb, uint32_t cell, size_t t, size_t le) {
  size_t name_at = t + 1, n = name_at;
  while (n < le && is_word(nb->orig[n])) n++;
  bool timing = (n - name_at == 4 && memcmp(nb->orig + name_at, "time", 4) == 0) ||
                (n - name_at == 6 && memcmp(nb->orig + name_at, "timeit", 6) == 0);
  size_t stmt = timing ? past_options(nb->orig, n, le) : le;
  gl_nb_magic *m = record(nb, GL_NB_LINE_MAGIC, cell, t, name_at, le, le);
  if (stmt >= le) {
    blank_stmt(nb->code, t, le);
    return;
  }
  size_t opt_end = stmt;
  while (opt_end > n && is_blank(nb->orig[opt_end - 1])) opt_end--;
  m->end = (uint32_t)opt_end;
  blank(nb->code, t, stmt, "pass;"); /* "%time" alone is 5 bytes: "pass;" always fits */
}

/* `name?`, `name??`, `a.b?`: the whole (trimmed) line. */
static bool is_help(const char *s, size_t t, size_t le) {
  size_t b = le;
  while (b > t && is_blank(s[b - 1])) b--;
  if (b == t || s[b - 1] != '?') return false;
  size_t q = b - 1;
  if (q > t && s[q - 1] == '?') q--;
  if (q == t) return false;
  for (size_t i = t; i < q; i++)
    if (!is_word(s[i]) && s[i] != '.') return false;
  return !(s[t] >= '0' && s[t] <= '9');
}

/* `x = !cmd` / `x, y = %magic`: the offset of the '!' or '%', or 0. */
static size_t assigned_magic(const char *s, size_t t, size_t le) {
  size_t i = t;
  while (i < le && (is_word(s[i]) || s[i] == '.' || s[i] == ',' || is_blank(s[i]))) i++;
  if (i == t || i >= le || s[i] != '=' || (i + 1 < le && s[i + 1] == '=')) return 0;
  size_t j = skip_blank(s, i + 1, le);
  return j < le && (s[j] == '!' || s[j] == '%') ? j : 0;
}

/* One line [ls, le) (le at its '\n', or before a '\r\n'). */
static void scan_line(gl_notebook *nb, uint32_t cell, size_t ls, size_t le) {
  const char *s = nb->orig;
  size_t t = skip_blank(s, ls, le);
  if (t >= le) return;
  if (s[t] == '%') {
    line_magic(nb, cell, t, le);
  } else if (s[t] == '!') {
    record(nb, GL_NB_SHELL, cell, t, skip_blank(s, t + 1, le), le, le);
    blank_stmt(nb->code, t, le);
  } else if (s[t] == '?' || is_help(s, t, le)) {
    record(nb, GL_NB_HELP, cell, t, s[t] == '?' ? t + 1 : t, le, le);
    blank_stmt(nb->code, t, le);
  } else {
    size_t j = assigned_magic(s, t, le);
    if (!j) return;
    size_t name_at = s[j] == '!' ? skip_blank(s, j + 1, le) : j + 1;
    record(nb, s[j] == '!' ? GL_NB_SHELL : GL_NB_LINE_MAGIC, cell, j, name_at, le, le);
    blank(nb->code, j, le, "0");
  }
}

static bool python_body(const char *name) {
  for (size_t i = 0; i < sizeof python_bodies / sizeof python_bodies[0]; i++)
    if (strcmp(name, python_bodies[i]) == 0) return true;
  return false;
}

/* `%%writefile [-a] train.py`: the body is a Python module the notebook writes out (and runs
 * with `!python train.py`); it is linted where it stands. */
static bool writefile_python(const gl_nb_magic *m) {
  if (strcmp(m->name, "writefile") != 0) return false;
  size_t n = strlen(m->args);
  while (n && (m->args[n - 1] == '"' || m->args[n - 1] == '\'')) n--;
  return n >= 3 && memcmp(m->args + n - 3, ".py", 3) == 0;
}

static size_t content_end(const char *s, size_t ls, size_t nl) {
  return nl > ls && s[nl - 1] == '\r' ? nl - 1 : nl;
}

/* Blanks the lines of [from, end) that are not newlines. */
static void blank_body(char *code, size_t from, size_t end) {
  for (size_t i = from; i < end; i++)
    if (code[i] != '\n' && code[i] != '\r') code[i] = ' ';
}

static void scan_cell(gl_notebook *nb, const gl_nb_cellspan *c) {
  const char *s = nb->orig;
  size_t ls = c->start;
  if (c->end - ls >= 2 && s[ls] == '%' && s[ls + 1] == '%') {
    size_t nl = (size_t)((const char *)memchr(s + ls, '\n', c->end - ls) - s);
    size_t le = content_end(s, ls, nl);
    gl_nb_magic *m = record(nb, GL_NB_CELL_MAGIC, c->cell, ls, ls + 2, le, c->end);
    blank(nb->code, ls, le, "");
    if (!python_body(m->name) && !writefile_python(m)) {
      blank_body(nb->code, nl + 1, c->end);
      return;
    }
    ls = nl + 1;
  }
  while (ls < c->end) {
    size_t nl = (size_t)((const char *)memchr(s + ls, '\n', c->end - ls) - s);
    scan_line(nb, c->cell, ls, content_end(s, ls, nl));
    ls = nl + 1;
  }
}

void gl_notebook__blank(gl_notebook *nb, const gl_nb_cellspan *cells, size_t ncells) {
  for (size_t i = 0; i < ncells; i++) scan_cell(nb, &cells[i]);
}
