/* report_fixture.h: a hand-built ruleset and run for the report tests (test_sarif.c,
 * test_report.c), so the writers are tested without the engine.
 * Owns: fixture_init (4 rules in one pack, no files) and the file / finding / notification
 *       adders; the run's strings are heap copies that gl_run_free releases, the rules live in
 *       the fixture itself.
 * Not: tests. Threads: single-threaded. */
#ifndef GL_TEST_REPORT_FIXTURE_H
#define GL_TEST_REPORT_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include "result/result.h"
#include "rules/rules.h"

typedef struct fixture {
  gl_pack pack;
  gl_rule rules[4];
  gl_rule *rule_ptrs[4];
  char *tags[2];
  gl_ruleset set;
  gl_run run;
} fixture;

/* GPU101 error (on), GPU102 warning (on), GPU103 note (off), GPU104 warning (off). */
static inline void fixture_init(fixture *fx, const char *srcroot) {
  memset(fx, 0, sizeof *fx);
  fx->pack.name = (char *)"legacy";
  fx->pack.prefix = (char *)"GPU1";
  fx->tags[0] = (char *)"legacy";
  fx->tags[1] = (char *)"maintenance";
  static const struct {
    const char *id, *name, *precision;
    gl_level level;
    bool enabled;
  } spec[4] = {
      {"GPU101", "warp-sim-removed", "very-high", GL_LEVEL_ERROR, true},
      {"GPU102", "cuspatial-archived", "high", GL_LEVEL_WARNING, true},
      {"GPU103", "cuxfilter-sunset", "medium", GL_LEVEL_NOTE, false},
      {"GPU104", "raft-vector-search-moved", "high", GL_LEVEL_WARNING, false},
  };
  for (int i = 0; i < 4; i++) {
    gl_rule *r = &fx->rules[i];
    r->id = (char *)spec[i].id;
    r->name = (char *)spec[i].name;
    r->pack = &fx->pack;
    r->level = spec[i].level;
    r->precision = (char *)spec[i].precision;
    r->tags = fx->tags;
    r->ntags = i == 0 ? 2 : 1;
    r->short_desc = (char *)"Checks for a legacy library.";
    r->full_desc = (char *)"Checks for a legacy library that is no longer maintained.";
    r->help_text = (char *)"What it does\nChecks for a legacy library.";
    r->markdown = (char *)"# rule\n\n## What it does\nChecks for a legacy library.\n";
    r->enabled = spec[i].enabled;
    fx->rule_ptrs[i] = r;
  }
  fx->set.rules.data = fx->rule_ptrs;
  fx->set.rules.len = fx->set.rules.cap = 4;
  fx->run.rules = &fx->set;
  fx->run.srcroot = srcroot ? strdup(srcroot) : NULL;
  fx->run.elapsed_s = 0.0123;
}

static inline gl_file_result *fixture_file(fixture *fx, const char *path) {
  gl_file_result *f = gl_vec_grow(&fx->run.files);
  f->path = strdup(path);
  f->linted = true;
  return f;
}

typedef struct fixture_finding {
  int rule;                         /* index into fx->rules */
  gl_level level;
  uint32_t sl, sc, el, ec;          /* UTF-16 columns */
  uint32_t scp, ecp;                /* code-point columns */
  const char *message, *snippet, *hash;
  bool suppressed;
} fixture_finding;

static inline void fixture_add(fixture *fx, gl_file_result *f, fixture_finding spec) {
  gl_finding *x = gl_vec_grow(&f->findings);
  x->rule = &fx->rules[spec.rule];
  x->level = spec.level;
  x->region.start_line = spec.sl;
  x->region.start_col = spec.sc;
  x->region.end_line = spec.el;
  x->region.end_col = spec.ec;
  x->region.start_col_cp = spec.scp;
  x->region.end_col_cp = spec.ecp;
  x->message = strdup(spec.message);
  x->snippet = spec.snippet ? strdup(spec.snippet) : NULL;
  x->line_hash = spec.hash ? strdup(spec.hash) : NULL;
  x->suppressed = spec.suppressed;
}

/* Adds a related location (one line, code-point columns equal to UTF-16 ones) to the last
 * finding of f. */
static inline void fixture_relate(gl_file_result *f, uint32_t line, uint32_t col, uint32_t end_col,
                                  const char *message) {
  gl_finding *x = &f->findings.data[f->findings.len - 1];
  gl_region *r = &x->related[x->nrelated];
  r->start_line = r->end_line = line;
  r->start_col = r->start_col_cp = col;
  r->end_col = r->end_col_cp = end_col;
  x->related_msg[x->nrelated++] = strdup(message);
}

static inline void fixture_note(gl_file_result *f, gl_note_kind kind, gl_level level, uint32_t line,
                                uint32_t col, const char *message) {
  gl_notification *n = gl_vec_grow(&f->notes);
  n->kind = kind;
  n->level = level;
  n->line = line;
  n->col = col;
  n->message = strdup(message);
}

static inline void fixture_free(fixture *fx) { gl_run_free(&fx->run); }

#endif
