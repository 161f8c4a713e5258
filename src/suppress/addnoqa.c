/* addnoqa.c: writes `# noqa: ID` comments for the current findings of one file.
 * Owns: grouping findings by noqa line, the edits (merge into an existing noqa, or append one),
 *       applying them to the file's raw bytes and the atomic rewrite.
 * Not: the noqa grammar or noqa lines (suppress.c), linting, printing.
 * Threads: main thread. */
#include "suppress/suppress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/load.h"
#include "base/output.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "model/model.h"
#include "parse/parse.h"

typedef struct edit {
  uint32_t line;
  size_t at;          /* byte offset of the insertion */
  char *text;         /* owned */
} edit;

typedef gl_vec(edit) edit_vec;

typedef struct line_codes {
  uint32_t line;
  const char *codes[GL_NOQA_MAX_CODES];
  int n;
} line_codes;

typedef gl_vec(line_codes) line_vec;

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The file as written (gl_load_read: a regular file only, within the load cap). */
static int read_all(const char *path, char **bytes, size_t *len, gl_diag *err) {
  gl_load_fail fail;
  if (gl_load_read(path, GL_LOAD_MAX_BYTES, bytes, len, &fail) == GL_OK) return 0;
  gl_diag why;
  int rc = gl_load_fail_diag(&why, &fail, GL_LOAD_MAX_BYTES);
  gl_diag_set(err, path, 0, 0, "cannot read '%s' to add noqa comments: %s", path, why.msg);
  return rc;
}

/* GPU001's findings get no noqa: silencing an unused directive with another one helps nobody. */
static bool is_unused_noqa(const gl_finding *f) {
  return f->rule->check && strcmp(f->rule->check, "unused-noqa") == 0;
}

static int by_code(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add_code(line_vec *lines, uint32_t line, const char *code) {
  line_codes *lc = NULL;
  for (size_t i = 0; i < lines->len && !lc; i++)
    if (lines->data[i].line == line) lc = &lines->data[i];
  if (!lc) {
    lc = gl_vec_grow(lines);
    memset(lc, 0, sizeof(*lc));
    lc->line = line;
  }
  for (int c = 0; c < lc->n; c++)
    if (strcmp(lc->codes[c], code) == 0) return;
  if (lc->n < GL_NOQA_MAX_CODES) lc->codes[lc->n++] = code;
}

/* The comment starting on `line`, or NULL. */
static const gl_comment *comment_on(const gl_source *src, const gl_comment *cs, size_t n,
                                    uint32_t line) {
  for (size_t i = 0; i < n; i++)
    if (gl_load_position(src, cs[i].start_byte).line == line) return &cs[i];
  return NULL;
}

/* Joins the codes of lc that `have` (n codes) lacks, after `lead`; NULL when none is missing. */
static char *join_missing(const line_codes *lc, char have[][16], int n, const char *lead) {
  gl_vec(char) s = {0};
  size_t lead_len = strlen(lead);
  bool first = true;
  for (int c = 0; c < lc->n; c++) {
    bool present = false;
    for (int h = 0; h < n && !present; h++) present = strcmp(have[h], lc->codes[c]) == 0;
    if (present) continue;
    const char *sep = first ? lead : ", ";
    size_t sl = first ? lead_len : 2, cl = strlen(lc->codes[c]);
    gl_vec_reserve(&s, sl + cl + 1);
    memcpy(s.data + s.len, sep, sl);
    memcpy(s.data + s.len + sl, lc->codes[c], cl);
    s.len += sl + cl;
    s.data[s.len] = '\0';
    first = false;
  }
  return s.data;
}

/* One edit for the codes of lc, or false when the line needs none (a bare noqa is there). */
static bool plan_line(const gl_source *src, const gl_comment *cs, size_t ncs, const line_codes *lc,
                      edit *e) {
  char have[GL_NOQA_MAX_CODES][16];
  const gl_comment *c = comment_on(src, cs, ncs, lc->line);
  if (c) {
    size_t end = 0;
    const char *text = src->bytes + c->start_byte;
    int n = gl_suppress_parse_noqa_at(text, c->end_byte - c->start_byte, have, GL_NOQA_MAX_CODES,
                                      &end);
    if (n == 0) return false;
    if (n > 0) {
      e->text = join_missing(lc, have, n, ", ");
      e->at = c->start_byte + end;
      return e->text != NULL;
    }
  }
  size_t len = 0;
  const char *p = gl_load_line(src, lc->line, &len);
  while (len && (p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
  e->text = join_missing(lc, have, 0, len ? "  # noqa: " : "# noqa: ");
  e->at = (size_t)(p - src->bytes) + len;
  return true;
}

static int by_offset_desc(const void *a, const void *b) {
  const edit *x = a, *y = b;
  return x->at < y->at ? 1 : x->at > y->at ? -1 : 0;
}

/* The new file: raw with every edit inserted (edits sorted by offset, last first). */
static char *apply_edits(const char *raw, size_t len, edit_vec *edits, size_t *out_len) {
  size_t extra = 0;
  for (size_t i = 0; i < edits->len; i++) extra += strlen(edits->data[i].text);
  char *out = gl_xmalloc(len + extra + 1);
  qsort(edits->data, edits->len, sizeof(edit), by_offset_desc);
  size_t tail = len, w = len + extra;
  for (size_t i = 0; i < edits->len; i++) {
    const edit *e = &edits->data[i];
    size_t seg = tail - e->at, tl = strlen(e->text);
    w -= seg;
    memcpy(out + w, raw + e->at, seg);
    w -= tl;
    memcpy(out + w, e->text, tl);
    tail = e->at;
  }
  memcpy(out, raw, tail);
  out[len + extra] = '\0';
  *out_len = len + extra;
  return out;
}

static int write_file(const char *path, const char *bytes, size_t len, gl_diag *err) {
  struct stat st;
  char *real = realpath(path, NULL);   /* a symlink keeps pointing at the rewritten file */
  const char *target = real ? real : path;
  gl_output o = {0};
  int rc = gl_output_open(&o, target);
  if (rc == 0) {
    FILE *fp = gl_output_stream(&o);
    if (stat(target, &st) == 0) fchmod(fileno(fp), st.st_mode & 07777);
    if (fwrite(bytes, 1, len, fp) != len) {
      gl_output_abort(&o);
      gl_diag_set(err, path, 0, 0, "cannot write '%s'", path);
      rc = GL_EIO;
    } else {
      rc = gl_output_commit(&o);
    }
  }
  if (rc != 0 && !err->msg[0]) *err = o.err;
  free(o.path);
  free(o.tmp_path);
  free(real);
  return rc;
}

/* The edits for the unsuppressed findings of res over src. */
static void plan(const gl_source *src, const TSTree *tree, const gl_model *model,
                 const gl_file_result *res, edit_vec *edits) {
  line_vec lines = {0};
  for (size_t i = 0; i < res->findings.len; i++) {
    const gl_finding *f = &res->findings.data[i];
    if (f->suppressed || is_unused_noqa(f)) continue;
    add_code(&lines, gl_suppress_noqa_line(src, tree, f->region.start_line), f->rule->id);
  }
  size_t ncs = 0;
  const gl_comment *cs = gl_model_comments(model, &ncs);
  for (size_t i = 0; i < lines.len; i++) {
    line_codes *lc = &lines.data[i];
    qsort(lc->codes, (size_t)lc->n, sizeof(lc->codes[0]), by_code);
    edit e = {.line = lc->line};
    if (plan_line(src, cs, ncs, lc, &e)) gl_vec_push(edits, e);
  }
  gl_vec_free(&lines);
}

static int rewrite(const gl_file_result *res, const char *raw, size_t len, size_t *added,
                   gl_diag *err) {
  gl_source src = {0};
  gl_load_buffer(&src, res->path, raw, len);
  if (src.len != len) {
    gl_source_free(&src);
    gl_diag_set(err, res->path, 0, 0, "'%s' changed while it was linted; no noqa comments added",
                res->path);
    return GL_EINVAL;
  }
  gl_parser *parser = gl_parse_new(0, 0);
  gl_diag perr = {0};
  TSTree *tree = gl_parse_source(parser, &src, &perr);
  gl_model *model = tree ? gl_model_build(&src, tree, NULL) : NULL;
  edit_vec edits = {0};
  if (model) plan(&src, tree, model, res, &edits);
  int rc = 0;
  if (edits.len) {
    size_t out_len = 0;
    char *out = apply_edits(raw, len, &edits, &out_len);
    rc = write_file(res->path, out, out_len, err);
    free(out);
  }
  *added = rc == 0 ? edits.len : 0;
  for (size_t i = 0; i < edits.len; i++) free(edits.data[i].text);
  gl_vec_free(&edits);
  gl_model_free(model);
  if (tree) ts_tree_delete(tree);
  gl_parse_free(parser);
  gl_source_free(&src);
  if (!tree) gl_diag_set(err, res->path, 0, 0, "cannot parse '%s' again: %s", res->path, perr.msg);
  return tree ? rc : GL_EIO;
}

int gl_addnoqa_file(const gl_file_result *res, size_t *added, gl_diag *err) {
  *added = 0;
  size_t n = 0;
  for (size_t i = 0; i < res->findings.len; i++)
    n += !res->findings.data[i].suppressed && !is_unused_noqa(&res->findings.data[i]);
  if (!n) return 0;
  if (ends_with(res->path, ".ipynb")) {
    gl_diag_set(err, res->path, 0, 0, "'%s' is a notebook; --add-noqa does not rewrite notebooks",
                res->path);
    return GL_EINVAL;
  }
  char *raw = NULL;
  size_t len = 0;
  int rc = read_all(res->path, &raw, &len, err);
  if (rc == 0) rc = rewrite(res, raw, len, added, err);
  free(raw);
  return rc;
}
