/* rulemd.c: the minimal Markdown reading of rule files: lines, ``` fenced blocks, the metadata
 * block after the heading, and the small string and error helpers the rule parsers share.
 * Owns: splitting a file into lines (LF or CRLF), finding fenced blocks (3+ backticks and an info
 *       string; closed by a line of at least as many backticks), joining lines back into text.
 * Not: what the sections mean (rulefile.c), json (rulemeta.c).
 * Threads: stateless. */
#include "rules/rules_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gl_rules__err(gl_diag_list *errs, const char *path, uint32_t line, uint32_t col, const char *fmt,
                   ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  gl_diag_set(gl_diag_list_add(errs), path, line, col, "%s", msg);
}


static size_t backticks(const gl_mdline *l) {
  size_t n = 0;
  while (n < l->len && l->text[n] == '`') n++;
  return n;
}

/* Opens a block when l is a fence (3+ backticks, info string without backticks). */
static bool fence_open(const gl_mdline *l, size_t *n, char *info, size_t cap) {
  *n = backticks(l);
  if (*n < 3 || memchr(l->text + *n, '`', l->len - *n)) return false;
  size_t a = *n, b = l->len;
  while (a < b && (l->text[a] == ' ' || l->text[a] == '\t')) a++;
  while (b > a && (l->text[b - 1] == ' ' || l->text[b - 1] == '\t')) b--;
  snprintf(info, cap, "%.*s", (int)(b - a), l->text + a);
  return true;
}

/* A closing fence: at least n backticks, then only blanks. */
static bool fence_close(const gl_mdline *l, size_t n) {
  size_t k = backticks(l);
  if (k < n) return false;
  gl_mdline rest = {l->text + k, l->len - k};
  return gl_rules__blank(&rest);
}

static void split_lines(gl_mdfile *md, const gl_rule_file *f) {
  const char *p = f->data, *end = f->data + f->len;
  if (f->len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;   /* a UTF-8 BOM: not text */
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
    size_t adv = nl ? len + 1 : len;
    if (len && p[len - 1] == '\r') len--;
    gl_mdline l = {p, len};
    gl_vec_push(&md->lines, l);
    gl_vec_push(&md->in_block, 0);
    p += adv;
  }
}

bool gl_rules__md_split(gl_mdfile *md, const gl_rule_file *f, gl_diag_list *errs) {
  memset(md, 0, sizeof(*md));
  md->path = f->path;
  split_lines(md, f);
  uint32_t n = (uint32_t)md->lines.len;
  for (uint32_t line = 1; line <= n; line++) {
    gl_mdblock b = {line, line + 1, 0, ""};
    size_t ticks;
    if (!fence_open(gl_rules__line(md, line), &ticks, b.info, sizeof(b.info))) continue;
    uint32_t close = line + 1;
    while (close <= n && !fence_close(gl_rules__line(md, close), ticks)) close++;
    if (close > n) {
      gl_rules__err(errs, md->path, line, 1, "code block is not closed");
      return false;
    }
    b.close_line = close;
    gl_vec_push(&md->blocks, b);
    for (uint32_t i = line; i <= close; i++) md->in_block.data[i - 1] = 1;
    line = close;
  }
  return true;
}

void gl_rules__md_free(gl_mdfile *md) {
  gl_vec_free(&md->lines);
  gl_vec_free(&md->blocks);
  gl_vec_free(&md->in_block);
}

char *gl_rules__md_join(const gl_mdfile *md, uint32_t first, uint32_t last) {
  gl_strbuf b = {0};
  for (uint32_t i = first; i <= last && i <= md->lines.len; i++) {
    gl_strbuf_add(&b, gl_rules__line(md, i)->text, gl_rules__line(md, i)->len);
    gl_strbuf_add(&b, "\n", 1);
  }
  return gl_strbuf_take(&b);
}

const gl_mdblock *gl_rules__md_block_at(const gl_mdfile *md, uint32_t line) {
  for (size_t i = 0; i < md->blocks.len; i++)
    if (md->blocks.data[i].open_line == line) return &md->blocks.data[i];
  return NULL;
}

const gl_mdblock *gl_rules__md_meta_block(const gl_mdfile *md, gl_diag_list *errs) {
  uint32_t line = 2;
  while (line <= md->lines.len && gl_rules__blank(gl_rules__line(md, line))) line++;
  const gl_mdblock *b = line <= md->lines.len ? gl_rules__md_block_at(md, line) : NULL;
  if (b && strcmp(b->info, "json") == 0) return b;
  if (line > md->lines.len) line = 1;
  gl_rules__err(errs, md->path, line, 1, "expected a ```json metadata block right after the heading");
  return NULL;
}

bool gl_rules__is_kebab(const char *s, size_t len) {
  if (!len || s[0] == '-' || s[len - 1] == '-') return false;
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || (ch == '-' && s[i + 1] != '-');
    if (!ok) return false;
  }
  return true;
}
