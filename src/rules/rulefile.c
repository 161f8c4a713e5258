/* rulefile.c: one rule file or pack README, from its Markdown lines to a gl_rule / gl_pack.
 * Owns: the heading "# <ID> <name>", the "## " sections and their order, the python / query
 *       blocks, and the texts derived from the documentation (short_desc, full_desc, help_text).
 *       Errors point at 1-based lines and byte columns of the file.
 * Not: lines and fenced blocks (rulemd.c), the json metadata (rulemeta.c), grouping and
 *      cross-file checks (rules.c).
 * Threads: stateless. */
#include "rules/rules_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { S_WHAT, S_WHY, S_EXAMPLE, S_USE, S_OPTS, S_REFS, S_PATTERN, S_COUNT };

static const struct {
  const char *title;
  bool required; /* Pattern: required unless the metadata names a "check" */
} sections[S_COUNT] = {
    {"What it does", true}, {"Why is this bad?", true}, {"Example", true},
    {"Use instead", true},  {"Options", false},         {"References", false},
    {"Pattern", true},
};


/* --- the heading -------------------------------------------------------------------------- */

static bool is_rule_id(const char *s, size_t len) {
  if (len != 6 || strncmp(s, "GPU", 3) != 0) return false;
  for (size_t i = 3; i < 6; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

/* "# <ID> <name>" on line 1; fills r->id and r->name. Returns the number of errors. */
static int parse_heading(const gl_mdfile *md, const char *file_id, gl_rule *r, gl_diag_list *errs) {
  const gl_mdline *l = md->lines.len ? gl_rules__line(md, 1) : &(gl_mdline){"", 0};
  size_t end = l->len;
  while (end > 0 && (l->text[end - 1] == ' ' || l->text[end - 1] == '\t')) end--;
  const char *id = l->text + 2;
  const char *sp = end > 2 ? memchr(id, ' ', end - 2) : NULL;
  const char *name = sp ? sp + 1 : NULL;
  size_t namelen = name ? (size_t)(l->text + end - name) : 0;
  if (strncmp(l->text, "# ", 2) != 0 || !sp || sp == id || !namelen || memchr(name, ' ', namelen) ||
      memchr(name, '\t', namelen)) {
    gl_rules__err(errs, md->path, 1, 1, "first line must be '# <ID> <name>'");
    return 1;
  }
  int n = 0;
  size_t idlen = (size_t)(sp - id);
  uint32_t namecol = (uint32_t)(name - l->text) + 1;
  r->id = gl_xstrndup(id, idlen);
  r->name = gl_xstrndup(name, namelen);
  if (strcmp(r->id, file_id) != 0) {
    gl_rules__err(errs, md->path, 1, 3, "rule id '%s' does not match the file name '%s.md'", r->id,
                  file_id);
    n++;
  } else if (!is_rule_id(r->id, idlen)) {
    gl_rules__err(errs, md->path, 1, 3, "rule id '%s' must be 'GPU' followed by three digits", r->id);
    n++;
  }
  if (!gl_rules__is_kebab(r->name, strlen(r->name))) {
    gl_rules__err(errs, md->path, 1, namecol, "rule name '%s' is not kebab-case", r->name);
    n++;
  }
  return n;
}

/* --- sections ----------------------------------------------------------------------------- */

typedef struct layout {
  uint32_t at[S_COUNT];   /* heading line of each section, 0 when absent */
  uint32_t end[S_COUNT];  /* last line of each section */
} layout;

static bool is_heading(const gl_mdfile *md, uint32_t line, const char *marker) {
  const gl_mdline *l = gl_rules__line(md, line);
  size_t n = strlen(marker);
  return !md->in_block.data[line - 1] && l->len >= n && strncmp(l->text, marker, n) == 0;
}

/* Ends the open section (the one without an end yet) on the line before line. */
static void close_section(layout *lay, uint32_t line) {
  for (int k = 0; k < S_COUNT; k++)
    if (lay->at[k] && !lay->end[k]) lay->end[k] = line - 1;
}

static int section_index(const gl_mdline *l) {
  size_t len = l->len;
  while (len > 3 && (l->text[len - 1] == ' ' || l->text[len - 1] == '\t')) len--;
  for (int k = 0; k < S_COUNT; k++)
    if (strlen(sections[k].title) == len - 3 && strncmp(l->text + 3, sections[k].title, len - 3) == 0)
      return k;
  return -1;
}

/* One "## " heading at line: unknown, duplicate or out of order. A duplicate heading does not
 * end the section it repeats (its blocks still count there), so one mistake is one error. */
static int visit_section(const gl_mdfile *md, uint32_t line, layout *lay, int *maxk,
                         gl_diag_list *errs) {
  const gl_mdline *l = gl_rules__line(md, line);
  int k = section_index(l);
  if (k >= 0 && lay->at[k]) {
    gl_rules__err(errs, md->path, line, 1, "duplicate section '## %s'", sections[k].title);
    return 1;
  }
  close_section(lay, line);
  if (k < 0) {
    gl_rules__err(errs, md->path, line, 1, "unknown section '%.*s'", (int)l->len, l->text);
    return 1;
  }
  lay->at[k] = line;
  if (k > *maxk) {
    *maxk = k;
    return 0;
  }
  gl_rules__err(errs, md->path, line, 1, "section '## %s' out of order: it must come before '## %s'",
      sections[k].title, sections[*maxk].title);
  return 1;
}

/* Finds the sections from line `from` on (the line after the metadata block). Text before the
 * first section is an error when text_before_is_error (not when the metadata block is missing:
 * that error already covers it). */
static int scan_sections(const gl_mdfile *md, uint32_t from, bool text_before_is_error, layout *lay,
                         gl_diag_list *errs) {
  int n = 0, maxk = -1;
  bool seen = false;
  uint32_t nlines = (uint32_t)md->lines.len;
  memset(lay, 0, sizeof(*lay));
  for (uint32_t line = from; line <= nlines; line++) {
    if (is_heading(md, line, "# ")) {
      gl_rules__err(errs, md->path, line, 1, "only line 1 may be a '# ' heading");
      n++;
    } else if (is_heading(md, line, "## ")) {
      n += visit_section(md, line, lay, &maxk, errs);
      seen = true;
    } else if (!seen && text_before_is_error && !gl_rules__blank(gl_rules__line(md, line))) {
      gl_rules__err(errs, md->path, line, 1, "unexpected text before '## What it does'");
      n++;
      seen = true; /* report once */
    }
  }
  for (int k = 0; k < S_COUNT; k++)
    if (lay->at[k] && !lay->end[k]) lay->end[k] = nlines;
  return n;
}

/* Required sections that are absent, reported where they should have been. */
static int check_missing(const gl_mdfile *md, const layout *lay, const gl_rule *r, bool meta_ok,
                         gl_diag_list *errs) {
  int n = 0;
  for (int k = 0; k < S_COUNT; k++) {
    if (lay->at[k] || !sections[k].required) continue;
    if (k == S_PATTERN && (r->check || !meta_ok)) continue; /* a broken json may hide a "check" */
    uint32_t line = md->lines.len ? (uint32_t)md->lines.len : 1;
    for (int j = k + 1; j < S_COUNT; j++)
      if (lay->at[j]) {
        line = lay->at[j];
        break;
      }
    gl_rules__err(errs, md->path, line, 1, "missing section '## %s'", sections[k].title);
    n++;
  }
  if (meta_ok && r->check && lay->at[S_PATTERN]) {
    gl_rules__err(errs, md->path, lay->at[S_PATTERN], 1,
                  "rule has both a \"check\" and a '## Pattern' section");
    n++;
  }
  return n;
}

/* True when lines [first, last] hold `name` (in backquotes) outside fenced blocks. */
static bool mentions(const gl_mdfile *md, uint32_t first, uint32_t last, const char *name) {
  size_t n = strlen(name);
  for (uint32_t line = first; line <= last; line++) {
    const gl_mdline *l = gl_rules__line(md, line);
    if (md->in_block.data[line - 1]) continue;
    for (size_t i = 0; i + n + 2 <= l->len; i++)
      if (l->text[i] == '`' && memcmp(l->text + i + 1, name, n) == 0 && l->text[i + n + 1] == '`')
        return true;
  }
  return false;
}

/* '## Options' exactly when the metadata declares options, naming each of them in backquotes. */
static int check_options_doc(const gl_mdfile *md, const layout *lay, const gl_rule *r, bool meta_ok,
                             gl_diag_list *errs) {
  if (!meta_ok) return 0;
  uint32_t at = lay->at[S_OPTS];
  if (at && !r->options.len) {
    gl_rules__err(errs, md->path, at, 1, "section '## Options' but the metadata declares no \"options\"");
    return 1;
  }
  if (!r->options.len) return 0;
  if (!at) {
    uint32_t line = lay->at[S_REFS]      ? lay->at[S_REFS]
                    : lay->at[S_PATTERN] ? lay->at[S_PATTERN]
                    : md->lines.len      ? (uint32_t)md->lines.len : 1;
    gl_rules__err(errs, md->path, line, 1, "missing section '## Options' (the metadata declares options)");
    return 1;
  }
  int n = 0;
  for (size_t i = 0; i < r->options.len; i++) {
    if (mentions(md, at + 1, lay->end[S_OPTS], r->options.data[i].name)) continue;
    gl_rules__err(errs, md->path, at, 1, "section '## Options' does not name option `%s`",
                  r->options.data[i].name);
    n++;
  }
  return n;
}

static bool in_section(const layout *lay, int k, uint32_t line) {
  return lay->at[k] && line > lay->at[k] && line <= lay->end[k];
}

/* The python blocks of section k (Example / Use instead): at least two, none empty. */
static int code_blocks(const gl_mdfile *md, const layout *lay, int k, gl_rule *r, gl_diag_list *errs) {
  if (!lay->at[k]) return 0;
  int n = 0;
  size_t count = 0;
  for (size_t i = 0; i < md->blocks.len; i++) {
    const gl_mdblock *b = &md->blocks.data[i];
    if (!in_section(lay, k, b->open_line) || strcmp(b->info, "python") != 0) continue;
    count++;
    if (b->close_line == b->first_line) {
      gl_rules__err(errs, md->path, b->open_line, 1, "empty python block");
      n++;
      continue;
    }
    gl_code_block cb = {gl_rules__md_join(md, b->first_line, b->close_line - 1), b->first_line};
    if (k == S_EXAMPLE)
      gl_vec_push(&r->examples, cb);
    else
      gl_vec_push(&r->use_instead, cb);
  }
  if (count >= 2) return n;
  gl_rules__err(errs, md->path, lay->at[k], 1,
                "section '## %s' needs at least 2 python blocks, found %zu", sections[k].title, count);
  return n + 1;
}

/* The query block: exactly one, inside "## Pattern"; none elsewhere. */
static int query_block(const gl_mdfile *md, const layout *lay, gl_rule *r, bool meta_ok,
                       gl_diag_list *errs) {
  int n = 0;
  for (size_t i = 0; i < md->blocks.len; i++) {
    const gl_mdblock *b = &md->blocks.data[i];
    if (strcmp(b->info, "query") != 0) continue;
    const char *why = !in_section(lay, S_PATTERN, b->open_line) ? "query block outside '## Pattern'"
                      : r->query ? "more than one query block in '## Pattern'"
                      : b->close_line == b->first_line ? "empty query block"
                                                       : NULL;
    if (why) {
      gl_rules__err(errs, md->path, b->open_line, 1, "%s", why);
      n++;
      continue;
    }
    r->query = gl_rules__md_join(md, b->first_line, b->close_line - 1);
    r->query_line = b->first_line;
  }
  if (meta_ok && lay->at[S_PATTERN] && !r->query && !r->check && !n) {
    gl_rules__err(errs, md->path, lay->at[S_PATTERN], 1, "section '## Pattern' has no query block");
    n++;
  }
  return n;
}

/* --- texts -------------------------------------------------------------------------------- */

/* Appends s[0..len) with runs of blanks collapsed to one space and the ends trimmed. */
static void add_collapsed(gl_strbuf *b, const char *s, size_t len) {
  bool space = false, any = false;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == ' ' || s[i] == '\t') {
      space = any;
      continue;
    }
    if (space) gl_strbuf_add(b, " ", 1);
    gl_strbuf_add(b, &s[i], 1);
    space = false;
    any = true;
  }
}

static bool is_list_item(const gl_mdline *l) {
  size_t i = 0;
  while (i < l->len && l->text[i] == ' ') i++;
  return i + 1 < l->len && (l->text[i] == '-' || l->text[i] == '*') && l->text[i + 1] == ' ';
}

/* The "What it does" text: paragraphs with their lines joined by one space, list items on their
 * own lines, code blocks verbatim; paragraphs separated by a blank line. */
static char *section_text(const gl_mdfile *md, uint32_t first, uint32_t last) {
  gl_strbuf b = {0};
  const char *sep = "";
  for (uint32_t line = first; line <= last; line++) {
    const gl_mdline *l = gl_rules__line(md, line);
    const gl_mdblock *blk = gl_rules__md_block_at(md, line);
    if (blk) {
      gl_strbuf_add(&b, sep, strlen(sep));
      char *code = gl_rules__md_join(md, blk->first_line, blk->close_line - 1);
      size_t n = strlen(code);
      gl_strbuf_add(&b, code, n ? n - 1 : 0);
      free(code);
      line = blk->close_line;
      sep = "\n\n";
    } else if (gl_rules__blank(l)) {
      if (b.len) sep = "\n\n";
    } else {
      if (b.len && sep[0] == ' ' && is_list_item(l)) sep = "\n";
      gl_strbuf_add(&b, b.len ? sep : "", b.len ? strlen(sep) : 0);
      add_collapsed(&b, l->text, l->len);
      sep = " ";
    }
  }
  return gl_strbuf_take(&b);
}

/* A non-blank line outside fenced blocks. */
static bool is_prose(const gl_mdfile *md, uint32_t line) {
  return !md->in_block.data[line - 1] && !gl_rules__blank(gl_rules__line(md, line));
}

/* The first sentence of the first prose paragraph: up to the first ". " outside `code`. */
static char *first_sentence(const gl_mdfile *md, uint32_t first, uint32_t last) {
  gl_strbuf b = {0};
  uint32_t line = first;
  while (line <= last && !is_prose(md, line)) line++;
  for (; line <= last && is_prose(md, line); line++) {
    if (b.len) gl_strbuf_add(&b, " ", 1);
    add_collapsed(&b, gl_rules__line(md, line)->text, gl_rules__line(md, line)->len);
  }
  bool code = false;
  for (size_t i = 0; i < b.len; i++) {
    if (b.data[i] == '`') code = !code;
    if (code || b.data[i] != '.' || b.data[i + 1] != ' ') continue;
    b.data[i + 1] = '\0';
    b.len = i + 1;
    break;
  }
  return gl_strbuf_take(&b);
}

/* help_text: the documentation from "## What it does" up to "## Pattern", trimmed. */
static char *help_text(const gl_mdfile *md, const layout *lay) {
  uint32_t last = lay->at[S_PATTERN] ? lay->at[S_PATTERN] - 1 : (uint32_t)md->lines.len;
  while (last > lay->at[S_WHAT] && gl_rules__blank(gl_rules__line(md, last))) last--;
  char *s = gl_rules__md_join(md, lay->at[S_WHAT], last);
  size_t n = strlen(s);
  if (n) s[n - 1] = '\0';
  return s;
}

static int texts(const gl_mdfile *md, const layout *lay, gl_rule *r, gl_diag_list *errs) {
  if (!lay->at[S_WHAT]) return 0;
  uint32_t a = lay->at[S_WHAT] + 1, z = lay->end[S_WHAT];
  r->short_desc = first_sentence(md, a, z);
  r->full_desc = section_text(md, a, z);
  r->help_text = help_text(md, lay);
  if (r->short_desc[0]) return 0;
  gl_rules__err(errs, md->path, lay->at[S_WHAT], 1, "section '## What it does' has no text");
  return 1;
}

/* --- entry points ------------------------------------------------------------------------- */

int gl_rules__parse_rule(const gl_rule_file *f, const char *id_from_name, gl_rule *r,
                           gl_diag_list *errs) {
  memset(r, 0, sizeof(*r));
  gl_mdfile md;
  int n = 0;
  if (!gl_rules__md_split(&md, f, errs)) {
    gl_rules__md_free(&md);
    return 1;
  }
  n += parse_heading(&md, id_from_name, r, errs);
  const gl_mdblock *meta = gl_rules__md_meta_block(&md, errs);
  int meta_errs = meta ? gl_rules__meta_rule(&md, meta, r, errs) : 1;
  n += meta_errs;
  layout lay;
  n += scan_sections(&md, meta ? meta->close_line + 1 : 2, meta != NULL, &lay, errs);
  n += check_missing(&md, &lay, r, !meta_errs, errs);
  n += check_options_doc(&md, &lay, r, !meta_errs, errs);
  n += code_blocks(&md, &lay, S_EXAMPLE, r, errs);
  n += code_blocks(&md, &lay, S_USE, r, errs);
  n += query_block(&md, &lay, r, !meta_errs, errs);
  n += texts(&md, &lay, r, errs);
  gl_rules__md_free(&md);
  if (n) {
    gl_rules__rule_clear(r);
    return n;
  }
  r->path = gl_xstrdup(f->path);
  r->markdown = gl_xstrndup(f->data, f->len);
  return 0;
}

int gl_rules__parse_pack(const gl_rule_file *f, const char *folder, gl_pack *p,
                           gl_diag_list *errs) {
  memset(p, 0, sizeof(*p));
  gl_mdfile md;
  if (!gl_rules__md_split(&md, f, errs)) {
    gl_rules__md_free(&md);
    return 1;
  }
  int n = 0;
  const gl_mdline *l = md.lines.len ? gl_rules__line(&md, 1) : &(gl_mdline){"", 0};
  gl_mdline title = {l->text + 2, l->len >= 2 ? l->len - 2 : 0};
  if (l->len < 2 || strncmp(l->text, "# ", 2) != 0 || gl_rules__blank(&title)) {
    gl_rules__err(errs, md.path, 1, 1, "first line must be '# <title>'");
    n++;
  } else {
    gl_strbuf b = {0};
    add_collapsed(&b, title.text, title.len);
    p->title = gl_strbuf_take(&b);
  }
  const gl_mdblock *meta = gl_rules__md_meta_block(&md, errs);
  n += meta ? gl_rules__meta_pack(&md, meta, folder, p, errs) : 1;
  gl_rules__md_free(&md);
  if (n) {
    gl_rules__pack_clear(p);
    return n;
  }
  p->readme_path = gl_xstrdup(f->path);
  return 0;
}

static void free_strings(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

void gl_rules__rule_clear(gl_rule *r) {
  if (!r) return;
  free(r->id), free(r->name), free(r->precision), free(r->message);
  free(r->short_desc), free(r->full_desc), free(r->markdown), free(r->help_text);
  free(r->check), free(r->query), free(r->path);
  free_strings(r->tags, r->ntags);
  for (size_t i = 0; i < r->examples.len; i++) free(r->examples.data[i].code);
  for (size_t i = 0; i < r->use_instead.len; i++) free(r->use_instead.data[i].code);
  gl_vec_free(&r->examples);
  gl_vec_free(&r->use_instead);
  gl_evidence_binding_free(r->evidence);
  gl_rules__options_clear(r);
  memset(r, 0, sizeof(*r));
}

void gl_rules__pack_clear(gl_pack *p) {
  if (!p) return;
  free(p->name), free(p->prefix), free(p->title), free(p->readme_path);
  free_strings(p->triggers, p->ntriggers);
  memset(p, 0, sizeof(*p));
}
