/* suppress_apply.c: applies `# noqa` and the file-level directives to one file's findings, and
 * reports unused line-level directives (the rule whose check is "unused-noqa", GPU001).
 * Owns: matching findings to directives by noqa line, which codes of a directive were used, the
 *       unused-noqa messages.
 * Not: the grammar and noqa lines (suppress.c), reading comments (model.c).
 * Threads: pure functions over one file's data. */
#include "suppress/suppress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "base/xalloc.h"

typedef struct directive {
  uint32_t line;                      /* where the comment starts */
  uint32_t start_byte, end_byte;      /* the comment */
  int ncodes;                         /* 0: bare */
  char codes[GL_NOQA_MAX_CODES][16];
  bool used[GL_NOQA_MAX_CODES];
  bool used_any;
} directive;

typedef struct file_noqa {
  bool all;                           /* skip-file, or a bare `# gpulint: noqa` */
  gl_vec(char *) codes;               /* owned */
} file_noqa;

typedef gl_vec(directive) directive_vec;

static void add_file_codes(file_noqa *fq, char codes[][16], int n) {
  for (int c = 0; c < n; c++) gl_vec_push(&fq->codes, gl_xstrdup(codes[c]));
}

static void collect(const gl_source *src, const gl_model *model, directive_vec *dirs,
                    file_noqa *fq) {
  size_t ncomments = 0;
  const gl_comment *comments = gl_model_comments(model, &ncomments);
  char codes[GL_NOQA_MAX_CODES][16];
  for (size_t i = 0; i < ncomments; i++) {
    const char *text = src->bytes + comments[i].start_byte;
    size_t len = comments[i].end_byte - comments[i].start_byte;
    if (gl_suppress_is_skip_file(text, len)) fq->all = true;
    int nf = gl_suppress_parse_file_noqa(text, len, codes, GL_NOQA_MAX_CODES);
    if (nf == 0) fq->all = true;
    if (nf > 0) add_file_codes(fq, codes, nf);
    directive *d = gl_vec_grow(dirs);
    memset(d, 0, sizeof(*d));
    d->ncodes = gl_suppress_parse_noqa(text, len, d->codes, GL_NOQA_MAX_CODES);
    if (d->ncodes < 0) {
      dirs->len--;
      continue;
    }
    d->start_byte = comments[i].start_byte;
    d->end_byte = comments[i].end_byte;
    d->line = gl_load_position(src, comments[i].start_byte).line;
  }
}

static bool file_suppresses(const file_noqa *fq, const char *id) {
  if (fq->all) return true;
  for (size_t i = 0; i < fq->codes.len; i++)
    if (strcmp(fq->codes.data[i], id) == 0) return true;
  return false;
}

/* Marks f suppressed by d when d is bare or names f's rule; records the use. */
static void apply_directive(directive *d, gl_finding *f) {
  if (d->ncodes == 0) {
    f->suppressed = true;
    d->used_any = true;
    return;
  }
  for (int c = 0; c < d->ncodes; c++) {
    if (strcmp(d->codes[c], f->rule->id) != 0) continue;
    f->suppressed = true;
    d->used[c] = true;
    d->used_any = true;
  }
}

static void apply_all(const gl_source *src, const TSTree *tree, directive_vec *dirs,
                      const file_noqa *fq, gl_file_result *out) {
  for (size_t i = 0; i < out->findings.len; i++) {
    gl_finding *f = &out->findings.data[i];
    uint32_t line = gl_suppress_noqa_line(src, tree, f->region.start_line);
    for (size_t k = 0; k < dirs->len; k++)
      if (dirs->data[k].line == line) apply_directive(&dirs->data[k], f);
    if (file_suppresses(fq, f->rule->id)) f->suppressed = true;
  }
}

static const gl_rule *unused_rule(const gl_ruleset *set) {
  if (!set) return NULL;
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    if (r->enabled && r->check && strcmp(r->check, "unused-noqa") == 0) return r;
  }
  return NULL;
}

static void append_code(char *buf, size_t cap, const char *label, const char *code, bool *first) {
  size_t n = strlen(buf);
  if (n + 1 >= cap) return;
  snprintf(buf + n, cap - n, "%s%s`%s`", *first ? label : "", *first ? "" : ", ", code);
  *first = false;
}

/* Writes the message for d into buf, or returns false when d is fully used. Codes not starting
 * with "GPU" belong to other tools; codes of rules that exist but are not enabled are skipped. */
static bool unused_message(const directive *d, const gl_ruleset *set, const gl_rule *self,
                           char *buf, size_t cap) {
  if (d->ncodes == 0) {
    if (d->used_any) return false;
    snprintf(buf, cap, "unused blanket `noqa` directive");
    return true;
  }
  char unused[512] = "", unknown[512] = "";
  bool fu = true, fk = true;
  for (int c = 0; c < d->ncodes; c++) {
    const char *code = d->codes[c];
    if (d->used[c] || strncmp(code, "GPU", 3) != 0 || strcmp(code, self->id) == 0) continue;
    const gl_rule *r = gl_rules_find(set, code);
    if (!r) append_code(unknown, sizeof(unknown), "unknown: ", code, &fk);
    else if (r->enabled) append_code(unused, sizeof(unused), "unused: ", code, &fu);
  }
  if (fu && fk) return false;
  snprintf(buf, cap, "unused `noqa` directive (%s%s%s)", unused, (!fu && !fk) ? "; " : "", unknown);
  return true;
}

static bool names_code(const directive *d, const char *id) {
  for (int c = 0; c < d->ncodes; c++)
    if (strcmp(d->codes[c], id) == 0) return true;
  return false;
}

static void report_unused(const gl_source *src, const directive_vec *dirs, const file_noqa *fq,
                          const gl_ruleset *set, const gl_rule *self, gl_file_result *out) {
  char msg[1200];
  for (size_t k = 0; k < dirs->len; k++) {
    const directive *d = &dirs->data[k];
    if (!unused_message(d, set, self, msg, sizeof(msg))) continue;
    gl_finding *f = gl_vec_grow(&out->findings);
    memset(f, 0, sizeof(*f));
    f->rule = self;
    f->level = self->level;
    f->region = gl_region_of(src, d->start_byte, d->end_byte);
    f->message = gl_xstrdup(msg);
    f->suppressed = names_code(d, self->id) || file_suppresses(fq, self->id);
  }
}

void gl_suppress_run(const gl_source *src, const TSTree *tree, const gl_model *model,
                     const gl_ruleset *set, gl_file_result *out) {
  const gl_rule *self = unused_rule(set);
  if (!out->findings.len && !self) return;
  directive_vec dirs = {0};
  file_noqa fq = {0};
  collect(src, model, &dirs, &fq);
  apply_all(src, tree, &dirs, &fq, out);
  if (self) report_unused(src, &dirs, &fq, set, self, out);
  for (size_t i = 0; i < fq.codes.len; i++) free(fq.codes.data[i]);
  gl_vec_free(&fq.codes);
  gl_vec_free(&dirs);
}

void gl_suppress_apply(const gl_source *src, const gl_model *model, gl_file_result *out) {
  gl_suppress_run(src, NULL, model, NULL, out);
}
