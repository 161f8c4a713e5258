/* test_cache.c: unit tests for the result cache (src/cache*.c): the hash, the entry encoding of a
 * finding with every field set, corrupt and foreign entries, the run key's inputs, the cache
 * directory (tag, .gitignore, hits, misses, what is not stored, pruning) and `gpulint clean`.
 * Not: the engine hook and the command line (tests/cli/cache-*).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache/cache.h"
#include "base/xalloc.h"

static gl_ruleset *builtin(void) {
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_builtin(set, &errs), 0);
  assert_int_equal(gl_rules_finish(set, &errs), 0);
  gl_diag err = {0};
  assert_int_equal(gl_rules_select(set, NULL, 0, NULL, 0, NULL, 0, &err), 0);
  gl_vec_free(&errs);
  return set;
}

static gl_region region(uint32_t base) {
  return (gl_region){base, base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7};
}

/* A result with one finding setting every field, one leaving the optional ones NULL, and a note. */
static void full_result(const gl_ruleset *set, gl_file_result *r) {
  *r = (gl_file_result){0};
  r->path = gl_xstrdup("pkg/mod.ipynb");
  r->linted = true;
  gl_finding f = {0};
  f.rule = gl_rules_find(set, "GPU201");
  f.level = GL_LEVEL_ERROR;
  f.region = region(10);
  f.message = gl_xstrdup("copies \xc3\xa9 every iteration");
  f.snippet = gl_xstrdup("for i in r:\n    x.get()\n");
  f.line_hash = gl_xstrdup("abc123:1");
  f.suppressed = true;
  f.baseline = GL_BASELINE_UNCHANGED;
  f.related[0] = region(20);
  f.related[1] = region(30);
  f.related_msg[0] = gl_xstrdup("the loop");
  f.related_msg[1] = gl_xstrdup("");
  f.nrelated = 2;
  f.calib = gl_xcalloc(1, sizeof(*f.calib));
  *f.calib = (gl_calibration){12.5, 0.1 + 0.2, gl_xstrdup("item_roundtrip_us"), gl_xstrdup("us"),
                              gl_xstrdup("H200"), GL_LEVEL_NOTE};
  f.cell = 7;
  f.cell_region = region(40);
  gl_vec_push(&r->findings, f);
  gl_finding g = {0};
  g.rule = gl_rules_find(set, "GPU101");
  g.level = GL_LEVEL_NOTE;
  g.region = region(1);
  g.message = gl_xstrdup("m");
  gl_vec_push(&r->findings, g);
  gl_file_result_note(r, GL_NOTE_SYNTAX_ERROR, GL_LEVEL_WARNING, 3, 4, "syntax error: %s", "x");
}

static void assert_region_equal(const gl_region *a, const gl_region *b) {
  assert_memory_equal(a, b, sizeof(*a));
}

static void test_hash(void **state) {
  (void)state;
  gl_hash128 e = gl_hash128_of("", 0, 0);
  assert_true(e.lo == 0 && e.hi == 0); /* MurmurHash3 x64-128 of nothing with seed 0 */
  gl_hash128 a = gl_hash128_of("hello world, a longer input", 27, 0);
  gl_hash128 b = gl_hash128_of("hello world, a longer input", 27, 0);
  gl_hash128 c = gl_hash128_of("hello world, a longer inpuu", 27, 0);
  gl_hash128 d = gl_hash128_of("hello world, a longer input", 27, 1);
  assert_true(a.lo == b.lo && a.hi == b.hi);
  assert_true(a.lo != c.lo && a.hi != c.hi);
  assert_true(a.lo != d.lo && a.hi != d.hi);
  /* what the loader rewrote is part of the key: "a\rb" and "a\0b" never share "a\nb"'s or
   * "a b"'s entry */
  gl_source lf, cr, sp, nul;
  gl_load_buffer(&lf, "x.py", "a\nb", 3);
  gl_load_buffer(&cr, "x.py", "a\rb", 3);
  gl_load_buffer(&sp, "x.py", "a b", 3);
  gl_load_buffer(&nul, "x.py", "a\0b", 3);
  gl_hash128 h_lf = gl_cache_content_hash(&lf), h_cr = gl_cache_content_hash(&cr);
  gl_hash128 h_sp = gl_cache_content_hash(&sp), h_nul = gl_cache_content_hash(&nul);
  assert_true(h_lf.lo != h_cr.lo);
  assert_true(h_sp.lo != h_nul.lo && h_sp.hi != h_nul.hi);
  gl_source_free(&lf);
  gl_source_free(&cr);
  gl_source_free(&sp);
  gl_source_free(&nul);
}

static void test_round_trip_every_field(void **state) {
  (void)state;
  gl_ruleset *set = builtin();
  gl_file_result r;
  full_result(set, &r);
  gl_cache_keybuf a = {0}, b = {0};
  gl_cache_encode(&r, &a);
  gl_file_result d;
  assert_true(gl_cache_decode(a.data, a.len, set, &d));
  assert_string_equal(d.path, "pkg/mod.ipynb");
  assert_true(d.linted);
  assert_int_equal(d.findings.len, 2);
  const gl_finding *f = &d.findings.data[0], *o = &r.findings.data[0];
  assert_ptr_equal(f->rule, o->rule);
  assert_int_equal(f->level, GL_LEVEL_ERROR);
  assert_region_equal(&f->region, &o->region);
  assert_string_equal(f->message, o->message);
  assert_string_equal(f->snippet, o->snippet);
  assert_string_equal(f->line_hash, "abc123:1");
  assert_true(f->suppressed);
  assert_int_equal(f->baseline, GL_BASELINE_UNCHANGED);
  assert_int_equal(f->nrelated, 2);
  assert_region_equal(&f->related[1], &o->related[1]);
  assert_string_equal(f->related_msg[0], "the loop");
  assert_string_equal(f->related_msg[1], "");
  assert_non_null(f->calib);
  assert_true(f->calib->rank == 12.5 && f->calib->value == 0.1 + 0.2); /* exact bits */
  assert_string_equal(f->calib->metric, "item_roundtrip_us");
  assert_string_equal(f->calib->unit, "us");
  assert_string_equal(f->calib->device, "H200");
  assert_int_equal(f->calib->default_level, GL_LEVEL_NOTE);
  assert_int_equal(f->cell, 7);
  assert_region_equal(&f->cell_region, &o->cell_region);
  const gl_finding *g = &d.findings.data[1];
  assert_string_equal(g->rule->id, "GPU101");
  assert_null(g->snippet);
  assert_null(g->line_hash);
  assert_null(g->calib);
  assert_int_equal(g->nrelated, 0);
  assert_int_equal(d.notes.len, 1);
  assert_int_equal(d.notes.data[0].kind, GL_NOTE_SYNTAX_ERROR);
  assert_int_equal(d.notes.data[0].level, GL_LEVEL_WARNING);
  assert_int_equal(d.notes.data[0].line, 3);
  assert_int_equal(d.notes.data[0].col, 4);
  assert_string_equal(d.notes.data[0].message, "syntax error: x");
  gl_cache_encode(&d, &b); /* nothing lost: the decoded result encodes to the same bytes */
  assert_int_equal(a.len, b.len);
  assert_memory_equal(a.data, b.data, a.len);
  gl_vec_free(&a);
  gl_vec_free(&b);
  gl_file_result_free(&d);
  gl_file_result_free(&r);
  gl_rules_free(set);
}

static void test_corrupt_entries(void **state) {
  (void)state;
  gl_ruleset *set = builtin();
  gl_file_result r;
  full_result(set, &r);
  gl_hash128 content = {1, 2};
  gl_cache_keybuf e = {0};
  gl_cache_entry_build(&r, content, &e);
  assert_int_equal(gl_cache_entry_check(e.data, e.len, content), 56);
  for (size_t n = 0; n < e.len; n++) assert_int_equal(gl_cache_entry_check(e.data, n, content), 0);
  for (size_t i = 0; i < e.len; i++) {
    e.data[i] ^= 0x20;
    assert_int_equal(gl_cache_entry_check(e.data, e.len, content), 0);
    e.data[i] ^= 0x20;
  }
  assert_int_equal(gl_cache_entry_check(e.data, e.len, (gl_hash128){1, 3}), 0);
  gl_file_result d;
  /* a payload cut short or with trailing bytes does not decode, and leaves d empty */
  assert_false(gl_cache_decode(e.data + 56, e.len - 57, set, &d));
  assert_null(d.path);
  assert_int_equal(d.findings.len, 0);
  gl_vec_push(&e, 'x');
  assert_false(gl_cache_decode(e.data + 56, e.len - 56, set, &d));
  /* a rule this run does not have (another pack) makes the entry foreign */
  gl_rule ghost = {.id = "GPU999"};
  r.findings.data[1].rule = &ghost;
  gl_cache_keybuf g = {0};
  gl_cache_encode(&r, &g);
  assert_false(gl_cache_decode(g.data, g.len, set, &d));
  r.findings.data[1].rule = gl_rules_find(set, "GPU101");
  gl_vec_free(&g);
  gl_vec_free(&e);
  gl_file_result_free(&r);
  gl_rules_free(set);
}

static gl_hash128 key_of(const gl_ruleset *set, const char *evidence, const char *rules_dir, uint64_t engine) {
  gl_cache_keybuf kb = {0};
  gl_cache_key_self(&kb);
  gl_cache_key_ruleset(&kb, set);
  if (rules_dir) gl_cache_key_models_dir(&kb, rules_dir);
  if (evidence) gl_cache_key_file(&kb, "evidence", evidence, 64);
  gl_cache_key_add(&kb, "engine", &engine, sizeof(engine));
  gl_hash128 h = gl_hash128_of(kb.data, kb.len, 0);
  gl_vec_free(&kb);
  return h;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void assert_key_differs(gl_hash128 a, gl_hash128 b) { assert_false(a.lo == b.lo && a.hi == b.hi); }

static void test_run_key_inputs(void **state) {
  (void)state;
  char tmp[] = "/tmp/gl_cache_keyXXXXXX";
  assert_non_null(mkdtemp(tmp));
  char ev[256], models[256], model[256];
  snprintf(ev, sizeof(ev), "%s/evidence.json", tmp);
  snprintf(models, sizeof(models), "%s/models", tmp);
  snprintf(model, sizeof(model), "%s/models/lib.json", tmp);
  write_text(ev, "{\"a\": 1}");
  assert_int_equal(mkdir(models, 0755), 0);
  write_text(model, "{}");
  gl_ruleset *set = builtin();
  gl_hash128 base = key_of(set, ev, tmp, 1);
  gl_hash128 same = key_of(set, ev, tmp, 1);
  assert_true(base.lo == same.lo && base.hi == same.hi);
  assert_key_differs(base, key_of(set, ev, tmp, 2));          /* engine options */
  assert_key_differs(base, key_of(set, NULL, tmp, 1));        /* no evidence */
  write_text(ev, "{\"a\": 2}");
  assert_key_differs(base, key_of(set, ev, tmp, 1));          /* evidence contents */
  write_text(ev, "{\"a\": 1}");
  gl_hash128 again = key_of(set, ev, tmp, 1);
  assert_true(base.lo == again.lo && base.hi == again.hi);
  write_text(ev, "{\"a\": \"over the cap of sixty-four bytes, so the key says unreadable\"}");
  gl_hash128 big = key_of(set, ev, tmp, 1);
  assert_key_differs(base, big);                              /* over the cap: unreadable */
  assert_int_equal(unlink(ev), 0);
  assert_int_equal(mkfifo(ev, 0600), 0);                      /* never opened for reading */
  gl_hash128 fifo = key_of(set, ev, tmp, 1);
  assert_true(big.lo == fifo.lo && big.hi == fifo.hi);        /* the same marker, no hang */
  assert_int_equal(unlink(ev), 0);
  write_text(ev, "{\"a\": 1}");
  write_text(model, "{ }");
  assert_key_differs(base, key_of(set, ev, tmp, 1));          /* a --rules model */
  write_text(model, "{}");
  gl_rule *r = set->rules.data[0];
  r->enabled = !r->enabled;
  assert_key_differs(base, key_of(set, ev, tmp, 1));          /* selection */
  r->enabled = !r->enabled;
  r->level = r->level == GL_LEVEL_ERROR ? GL_LEVEL_NOTE : GL_LEVEL_ERROR;
  gl_hash128 lv = key_of(set, ev, tmp, 1);
  assert_key_differs(base, lv);                               /* severity */
  r = (gl_rule *)gl_rules_find(set, "GPU301");
  assert_non_null(r);
  assert_true(r->options.len > 0);
  const char *v[] = {"my_timer"};
  gl_rule_option_set(&r->options.data[0], v, 1, "gpulint.toml:2:1");
  assert_key_differs(lv, key_of(set, ev, tmp, 1));            /* rule options */
  unlink(model);
  rmdir(models);
  unlink(ev);
  rmdir(tmp);
  gl_rules_free(set);
}

static char *path_in(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = gl_xmalloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = gl_xcalloc(1, 4096);
  size_t n = fread(buf, 1, 4095, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void test_directory(void **state) {
  (void)state;
  char tmp[] = "/tmp/gl_cache_dirXXXXXX";
  assert_non_null(mkdtemp(tmp));
  char *dir = path_in(tmp, "c");
  gl_ruleset *set = builtin();
  gl_diag err = {0};
  gl_cache *c = gl_cache_open(dir, (gl_hash128){5, 6}, set, &err);
  assert_non_null(c);
  char *ignore = path_in(dir, ".gitignore"), *tag = path_in(dir, "CACHEDIR.TAG");
  char *text = slurp(ignore);
  assert_string_equal(text, "# created by gpulint\n*\n");
  free(text);
  text = slurp(tag);
  assert_non_null(strstr(text, "Signature: 8a477f597d28d172789f06886806bc55\n"));
  free(text);
  gl_file_result r, out = {0};
  full_result(set, &r);
  gl_hash128 content = {7, 8};
  assert_false(gl_cache_get(c, r.path, content, &out));
  gl_cache_put(c, content, &r);
  assert_true(gl_cache_get(c, r.path, content, &out));
  assert_int_equal(out.findings.len, 2);
  assert_null(out.path); /* the caller's path stays */
  gl_file_result_free(&out);
  out = (gl_file_result){0};
  assert_false(gl_cache_get(c, r.path, (gl_hash128){7, 9}, &out)); /* edited file */
  assert_false(gl_cache_get(c, "other.py", content, &out));        /* other path */
  /* a truncated entry is a miss, and storing again repairs it */
  char *entry = path_in(dir, "00000000000000060000000000000005");
  struct stat st;
  assert_int_equal(stat(entry, &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  free(entry);
  gl_cache_keybuf e = {0};
  gl_cache_entry_build(&r, content, &e);
  gl_hash128 ph = gl_hash128_of(r.path, strlen(r.path), 1);
  char name[256];
  snprintf(name, sizeof(name), "%s/00000000000000060000000000000005/%016llx%016llx", dir,
           (unsigned long long)ph.hi, (unsigned long long)ph.lo);
  assert_int_equal(stat(name, &st), 0);
  assert_int_equal((size_t)st.st_size, e.len);
  assert_int_equal(truncate(name, (off_t)(e.len - 1)), 0);
  assert_false(gl_cache_get(c, r.path, content, &out));
  gl_cache_put(c, content, &r);
  assert_true(gl_cache_get(c, r.path, content, &out));
  gl_file_result_free(&out);
  /* not stored: a file cut short or skipped, or not linted */
  gl_file_result_note(&r, GL_NOTE_PARTIAL, GL_LEVEL_WARNING, 0, 0, "cut short");
  gl_cache_put(c, (gl_hash128){9, 9}, &r);
  r.notes.len = 1;
  r.linted = false;
  gl_cache_put(c, (gl_hash128){9, 9}, &r);
  out = (gl_file_result){0};
  assert_true(gl_cache_get(c, r.path, content, &out)); /* the earlier entry is still there */
  gl_file_result_free(&out);
  free(r.notes.data[1].message);
  assert_false(gl_cache_close(c, &err));
  /* clean removes the tag, the .gitignore, the run folder and its entry */
  gl_cache_cleaned done;
  assert_int_equal(gl_cache_clean(dir, &done, &err), 0);
  assert_true(done.existed);
  assert_int_equal(done.removed, 3);
  assert_int_equal(done.kept, 0);
  assert_int_equal(stat(dir, &st), -1);
  assert_int_equal(gl_cache_clean(dir, &done, &err), 0);
  assert_false(done.existed);
  assert_int_equal(done.removed, 0);
  e.len = 0;
  gl_vec_free(&e);
  gl_file_result_free(&r);
  free(ignore);
  free(tag);
  free(dir);
  rmdir(tmp);
  gl_rules_free(set);
}

static void test_prune_keeps_recent_runs(void **state) {
  (void)state;
  char tmp[] = "/tmp/gl_cache_pruneXXXXXX";
  assert_non_null(mkdtemp(tmp));
  gl_ruleset *set = builtin();
  gl_diag err = {0};
  for (uint64_t k = 1; k <= 6; k++) { /* older runs: used k seconds after the epoch */
    gl_cache *c = gl_cache_open(tmp, (gl_hash128){k, 0}, set, &err);
    assert_non_null(c);
    char name[128];
    snprintf(name, sizeof(name), "%s/0000000000000000%016llx", tmp, (unsigned long long)k);
    struct timespec t[2] = {{(time_t)k, 0}, {(time_t)k, 0}};
    assert_int_equal(utimensat(AT_FDCWD, name, t, 0), 0);
    assert_false(gl_cache_close(c, &err)); /* at most 6 folders: nothing pruned yet beyond 4 */
  }
  gl_cache *c = gl_cache_open(tmp, (gl_hash128){99, 0}, set, &err);
  assert_false(gl_cache_close(c, &err));
  size_t kept = 0;
  for (uint64_t k = 1; k <= 99; k++) {
    char name[128];
    snprintf(name, sizeof(name), "%s/0000000000000000%016llx", tmp, (unsigned long long)k);
    struct stat st;
    if (stat(name, &st) == 0) {
      kept++;
      assert_true(k == 99 || k >= 4); /* the newest: 99 (now), 6, 5, 4 */
      rmdir(name);
    }
  }
  assert_int_equal(kept, GL_CACHE_KEEP_RUNS);
  gl_cache_cleaned done;
  assert_int_equal(gl_cache_clean(tmp, &done, &err), 0);
  gl_rules_free(set);
}

static void test_open_and_clean_errors(void **state) {
  (void)state;
  char tmp[] = "/tmp/gl_cache_errXXXXXX";
  assert_non_null(mkdtemp(tmp));
  char *file = path_in(tmp, "file");
  write_text(file, "x");
  char *under = path_in(file, "cache");
  gl_ruleset *set = builtin();
  gl_diag err = {0};
  assert_null(gl_cache_open(under, (gl_hash128){1, 1}, set, &err));
  char want[512];
  snprintf(want, sizeof(want), "cannot create cache directory %s: not a directory", under);
  assert_string_equal(err.msg, want);
  gl_cache_cleaned done;
  assert_int_equal(gl_cache_clean(tmp, &done, &err), GL_EINVAL);
  snprintf(want, sizeof(want), "%s is not a gpulint cache (no gpulint CACHEDIR.TAG): nothing removed",
           tmp);
  assert_string_equal(err.msg, want);
  assert_true(done.existed);
  assert_int_equal(done.removed, 0);
  /* a folder that holds someone else's file is never adopted: no cache, nothing written */
  assert_null(gl_cache_open(tmp, (gl_hash128){1, 1}, set, &err));
  snprintf(want, sizeof(want), "cache directory %s is not empty and gpulint did not create it (no "
           "gpulint CACHEDIR.TAG): nothing is written to it", tmp);
  assert_string_equal(err.msg, want);
  char *tag = path_in(tmp, "CACHEDIR.TAG");
  assert_int_equal(access(tag, F_OK), -1);
  free(tag);
  struct stat st;
  assert_int_equal(stat(file, &st), 0); /* nothing removed */
  unlink(file);
  rmdir(tmp);
  free(file);
  free(under);
  gl_rules_free(set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hash),
      cmocka_unit_test(test_round_trip_every_field),
      cmocka_unit_test(test_corrupt_entries),
      cmocka_unit_test(test_run_key_inputs),
      cmocka_unit_test(test_directory),
      cmocka_unit_test(test_prune_keeps_recent_runs),
      cmocka_unit_test(test_open_and_clean_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
