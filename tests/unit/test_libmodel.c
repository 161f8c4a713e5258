/* test_libmodel.c: unit tests of the library-model loader (src/libmodel.h): every lookup of a
 * valid model (exact names, wildcards by length, builtins, methods, attributes, subscript,
 * operators, call, types), every load and freeze error with its exact file:line:column and
 * message, models fed through the ruleset (files, directories, the embedded models), and the
 * built-in models themselves. Owns: nothing shared; each test builds its own table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libmodel/libmodel.h"
#include "rules/rules.h"
#include "text_fixture.h"

/* Line numbers are on the right; the error tests edit copies of it. */
static const char demo_json[] =
    "{\"library\": \"demo\",\n"                                                                /* 1 */
    " \"description\": \"a \\\"demo\\\" {model} [of] everything\",\n"                         /* 2 */
    " \"functions\": {\n"                                                                     /* 3 */
    "  \"demo.asnumpy\": {\"roles\": [\"d2h\"], \"when\": \"arg0-device\", \"result\": \"host\", \"type\": \"demo.host\"},\n" /* 4 */
    "  \"demo.*\": {\"roles\": [\"gpu-work\"], \"result\": \"device\", \"type\": \"demo.array\"},\n" /* 5 */
    "  \"demo.random.*\": {\"roles\": [\"gpu-work\", \"device-returning\"], \"result\": \"device\"},\n" /* 6 */
    "  \"demo.random.seed\": {},\n"                                                            /* 7 */
    "  \"demo.zeros_like\": {\"roles\": [\"alloc\"], \"result\": \"arg0\", \"type\": \"demo.array\"},\n" /* 8 */
    "  \"demo.jit\": {\"decorates\": \"demo.Kernel\"},\n"                                      /* 9 */
    "  \"demo.device\": {\"result\": \"device-spec\"},\n"                                      /* 10 */
    "  \"builtins.float\": {\"roles\": [\"d2h\", \"host-returning\"], \"when\": \"arg0-device\", \"result\": \"host\"},\n" /* 11 */
    "  \"time.perf_counter\": {\"roles\": [\"timer\"]}\n"                                      /* 12 */
    " },\n"                                                                                   /* 13 */
    " \"types\": {\n"                                                                         /* 14 */
    "  \"demo.array\": {\"provenance\": \"device\",\n"                                        /* 15 */
    "   \"methods\": {\"get\": {\"roles\": [\"d2h\"], \"when\": \"receiver-device\", \"result\": \"host\", \"type\": \"demo.host\"},\n" /* 16 */
    "               \"to\": {\"result\": \"to-arg\"},\n"                                       /* 17 */
    "               \"*\": {\"roles\": [\"gpu-work\"], \"result\": \"receiver\", \"type\": \"demo.array\"}},\n" /* 18 */
    "   \"attributes\": {\"shape\": {\"result\": \"host\"}, \"*\": {\"result\": \"receiver\"}},\n" /* 19 */
    "   \"subscript\": {\"result\": \"receiver\", \"type\": \"demo.array\"},\n"                 /* 20 */
    "   \"operators\": {\"roles\": [\"gpu-work\"], \"when\": \"receiver-device\", \"result\": \"receiver\"}},\n" /* 21 */
    "  \"demo.host\": {\"provenance\": \"host\"},\n"                                          /* 22 */
    "  \"demo.Kernel\": {\"call\": {\"roles\": [\"gpu-work\", \"sync\"]}}\n"                  /* 23 */
    " }\n"                                                                                    /* 24 */
    "}\n";                                                                                    /* 25 */

static gl_libmodels *load_demo(void) {
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  int rc = gl_libmodels_add(lm, "m/models/demo.json", demo_json, strlen(demo_json), &errs);
  print_errors(&errs);
  assert_int_equal(rc, GL_OK);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_OK);
  print_errors(&errs);
  assert_int_equal(errs.len, 0);
  gl_vec_free(&errs);
  return lm;
}

static const gl_api_entry *fn(const gl_libmodels *lm, const char *name) {
  return gl_libmodels_function(lm, name, strlen(name));
}

static uint16_t type_id(const gl_libmodels *lm, const char *name) {
  return gl_libmodels_type_id(lm, name, strlen(name));
}

/* --- roles ----------------------------------------------------------------------------------- */

static void test_roles(void **state) {
  (void)state;
  static const char *const names[] = {"device-returning", "host-returning", "d2h", "h2d",
                                      "sync", "alloc", "gpu-work", "timer",
                                      "buffer", "pinned", "handle", "mapped",
                                      "jit", "event", "launch", "availability",
                                      "primitive", "pins"};
  for (int i = 0; i < GL_ROLE_COUNT; i++) {
    assert_int_equal(gl_role_parse(names[i], strlen(names[i])), 1u << i);
    assert_string_equal(gl_role_name(1u << i), names[i]);
  }
  assert_int_equal(gl_role_parse("d2h", 3), GL_ROLE_D2H);
  assert_int_equal(gl_role_parse("d2hx", 3), GL_ROLE_D2H);  /* the length decides */
  assert_int_equal(gl_role_parse("d2h", 2), 0);
  assert_int_equal(gl_role_parse("D2H", 3), 0);
  assert_int_equal(gl_role_parse("", 0), 0);
  assert_null(gl_role_name(0));
  assert_null(gl_role_name(GL_ROLE_D2H | GL_ROLE_SYNC));
  assert_null(gl_role_name(1u << GL_ROLE_COUNT));
}

/* --- lookups of a valid model ---------------------------------------------------------------- */

static void test_functions_exact_and_wildcards(void **state) {
  (void)state;
  gl_libmodels *lm = load_demo();
  assert_int_equal(gl_libmodels_count(lm), 1);
  uint16_t array = type_id(lm, "demo.array"), host = type_id(lm, "demo.host");
  const gl_api_entry *e = fn(lm, "demo.asnumpy");
  assert_non_null(e);
  assert_int_equal(e->roles, GL_ROLE_D2H);
  assert_int_equal(e->when, GL_WHEN_ARG0_DEVICE);
  assert_int_equal(e->result, GL_RESULT_HOST);
  assert_int_equal(e->type, host);
  assert_int_equal(e->decorates, GL_TYPE_NONE);
  /* The length decides, not a NUL: "demo.asnumpyX" cut to 12 bytes is demo.asnumpy. */
  assert_ptr_equal(gl_libmodels_function(lm, "demo.asnumpyX", 12), e);
  /* The longer wildcard wins although the shorter one comes first in the file. */
  e = fn(lm, "demo.random.normal");
  assert_int_equal(e->roles, GL_ROLE_GPU_WORK | GL_ROLE_DEVICE_RETURNING);
  assert_int_equal(e->type, GL_TYPE_NONE);
  assert_ptr_equal(fn(lm, "demo.random.normal.deep"), e);
  /* An exact name beats every wildcard. */
  e = fn(lm, "demo.random.seed");
  assert_int_equal(e->roles, 0);
  assert_int_equal(e->result, GL_RESULT_UNKNOWN);
  /* "prefix.*" matches names below prefix only: demo.random itself falls to demo.*. */
  e = fn(lm, "demo.random");
  assert_int_equal(e->roles, GL_ROLE_GPU_WORK);
  assert_int_equal(e->result, GL_RESULT_DEVICE);
  assert_int_equal(e->type, array);
  assert_ptr_equal(fn(lm, "demo.sum"), e);
  assert_null(fn(lm, "demo"));
  assert_null(fn(lm, "demo."));       /* nothing below the prefix */
  assert_null(fn(lm, "demox.sum"));
  assert_null(fn(lm, "dem.sum"));
  assert_null(fn(lm, "numpy.sum"));
  assert_null(fn(lm, ""));
  e = fn(lm, "demo.zeros_like");
  assert_int_equal(e->roles, GL_ROLE_ALLOC);
  assert_int_equal(e->result, GL_RESULT_ARG0);
  assert_int_equal(fn(lm, "demo.jit")->decorates, type_id(lm, "demo.Kernel"));
  assert_int_equal(fn(lm, "demo.jit")->type, GL_TYPE_NONE);
  assert_int_equal(fn(lm, "demo.device")->result, GL_RESULT_DEVICE_SPEC);
  gl_libmodels_free(lm);
}

static void test_builtins_and_timers(void **state) {
  (void)state;
  gl_libmodels *lm = load_demo();
  const gl_api_entry *e = fn(lm, "builtins.float");
  assert_int_equal(e->roles, GL_ROLE_D2H | GL_ROLE_HOST_RETURNING);
  assert_int_equal(e->when, GL_WHEN_ARG0_DEVICE);
  assert_int_equal(e->result, GL_RESULT_HOST);
  assert_null(fn(lm, "builtins.int"));
  assert_null(fn(lm, "float"));
  e = fn(lm, "time.perf_counter");
  assert_int_equal(e->roles, GL_ROLE_TIMER);
  assert_int_equal(e->when, GL_WHEN_ALWAYS);
  assert_null(fn(lm, "time.perf_counter_ns"));
  gl_libmodels_free(lm);
}

static void test_types_and_members(void **state) {
  (void)state;
  gl_libmodels *lm = load_demo();
  uint16_t array = type_id(lm, "demo.array"), host = type_id(lm, "demo.host");
  uint16_t kernel = type_id(lm, "demo.Kernel");
  assert_int_equal(array, 0); /* ids in file order */
  assert_int_equal(host, 1);
  assert_int_equal(kernel, 2);
  assert_int_equal(type_id(lm, "demo.arra"), GL_TYPE_NONE);
  assert_int_equal(gl_libmodels_type_id(lm, "demo.arrayX", 10), array);
  assert_string_equal(gl_libmodels_type_name(lm, kernel), "demo.Kernel");
  assert_null(gl_libmodels_type_name(lm, GL_TYPE_NONE));
  assert_null(gl_libmodels_type_name(lm, 3));
  assert_int_equal(gl_libmodels_type_prov(lm, array), GL_PROV_DEVICE);
  assert_int_equal(gl_libmodels_type_prov(lm, host), GL_PROV_HOST);
  assert_int_equal(gl_libmodels_type_prov(lm, kernel), GL_PROV_UNKNOWN);
  assert_int_equal(gl_libmodels_type_prov(lm, GL_TYPE_NONE), GL_PROV_UNKNOWN);

  const gl_api_entry *get = gl_libmodels_method(lm, array, "get", 3);
  assert_int_equal(get->roles, GL_ROLE_D2H);
  assert_int_equal(get->when, GL_WHEN_RECEIVER_DEVICE);
  assert_int_equal(get->type, host);
  assert_int_equal(gl_libmodels_method(lm, array, "to", 2)->result, GL_RESULT_TO_ARG);
  const gl_api_entry *star = gl_libmodels_method(lm, array, "sum", 3);
  assert_int_equal(star->roles, GL_ROLE_GPU_WORK);
  assert_int_equal(star->result, GL_RESULT_RECEIVER);
  assert_int_equal(star->type, array);
  assert_ptr_equal(gl_libmodels_method(lm, array, "getx", 3), get);
  assert_ptr_equal(gl_libmodels_method(lm, array, "ge", 2), star);
  assert_null(gl_libmodels_method(lm, host, "get", 3));
  assert_null(gl_libmodels_method(lm, GL_TYPE_NONE, "get", 3));
  assert_null(gl_libmodels_method(lm, 3, "get", 3));

  assert_int_equal(gl_libmodels_attribute(lm, array, "shape", 5)->result, GL_RESULT_HOST);
  assert_int_equal(gl_libmodels_attribute(lm, array, "T", 1)->result, GL_RESULT_RECEIVER);
  assert_null(gl_libmodels_attribute(lm, host, "shape", 5));
  assert_null(gl_libmodels_attribute(lm, kernel, "T", 1));

  const gl_api_entry *sub = gl_libmodels_subscript(lm, array);
  assert_int_equal(sub->result, GL_RESULT_RECEIVER);
  assert_int_equal(sub->type, array);
  assert_int_equal(sub->roles, 0);
  const gl_api_entry *op = gl_libmodels_operator(lm, array);
  assert_int_equal(op->roles, GL_ROLE_GPU_WORK);
  assert_int_equal(op->when, GL_WHEN_RECEIVER_DEVICE);
  assert_int_equal(gl_libmodels_call(lm, kernel)->roles, GL_ROLE_GPU_WORK | GL_ROLE_SYNC);
  assert_null(gl_libmodels_call(lm, array));
  assert_null(gl_libmodels_subscript(lm, host));
  assert_null(gl_libmodels_operator(lm, kernel));
  assert_null(gl_libmodels_subscript(lm, GL_TYPE_NONE));
  gl_libmodels_free(lm);
}

/* Lookups answer on a frozen table only; adding a file thaws it, freezing again sees the file. */
static void test_freeze_and_refreeze(void **state) {
  (void)state;
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_libmodels_add(lm, "demo.json", demo_json, strlen(demo_json), &errs), GL_OK);
  assert_null(fn(lm, "demo.asnumpy"));
  assert_int_equal(type_id(lm, "demo.array"), GL_TYPE_NONE);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_OK);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_OK);
  assert_non_null(fn(lm, "demo.asnumpy"));
  static const char more[] = "{\"library\": \"more\", \"functions\": {\"more.f\": {\"type\": \"demo.array\"}}}";
  assert_int_equal(gl_libmodels_add(lm, "x/more.json", more, strlen(more), &errs), GL_OK);
  assert_null(fn(lm, "more.f"));
  assert_int_equal(gl_libmodels_freeze(lm, NULL), GL_OK);
  assert_int_equal(fn(lm, "more.f")->type, type_id(lm, "demo.array"));
  assert_non_null(fn(lm, "demo.asnumpy"));
  assert_int_equal(gl_libmodels_count(lm), 2);
  assert_int_equal(errs.len, 0);
  gl_libmodels_free(lm);
  gl_libmodels_free(NULL);
  gl_vec_free(&errs);
}

/* The smallest model, and one whose text is not NUL-terminated where len ends. */
static void test_minimal_and_unterminated(void **state) {
  (void)state;
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  static const char text[] = "{\"library\": \"x\"}GARBAGE";
  assert_int_equal(gl_libmodels_add(lm, "x.json", text, 16, &errs), GL_OK);
  static const char bom[] = "\xef\xbb\xbf{\"library\": \"y\", \"functions\": {\"y.f\": {\"roles\": [\"h2d\"]}}}\r\n";
  assert_int_equal(gl_libmodels_add(lm, "y.json", bom, strlen(bom), &errs), GL_OK);
  print_errors(&errs);
  assert_int_equal(errs.len, 0);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_OK);
  assert_int_equal(fn(lm, "y.f")->roles, GL_ROLE_H2D);
  assert_int_equal(gl_libmodels_count(lm), 2);
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

/* --- load errors ----------------------------------------------------------------------------- */

/* Loads demo_json with from replaced by to (as m/models/demo.json) and expects exactly one error. */
static void expect_one(const char *from, const char *to, uint32_t line, uint32_t col, const char *msg) {
  char *text = edit(demo_json, from, to);
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  int rc = gl_libmodels_add(lm, "m/models/demo.json", text, strlen(text), &errs);
  assert_int_equal(rc, GL_EINVAL);
  assert_one_diag(&errs, "m/models/demo.json", line, col, msg);
  free(text);
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

static void test_bad_json(void **state) {
  (void)state;
  /* cJSON's parse end, as the rule loader reports it: a missing ',' is found at the next key,
   * trailing bytes at their first byte; where a key was expected cJSON ends one byte past the
   * offending one (the '}' after a trailing ',' is at 23:59). */
  expect_one("\"result\": \"arg0\", \"type\"", "\"result\": \"arg0\" \"type\"", 8, 60, "invalid json in model file");
  expect_one("\"sync\"]}}\n", "\"sync\"]},}\n", 23, 60, "invalid json in model file");
  expect_one(" }\n}\n", " }\n}\nx\n", 26, 1, "invalid json in model file");
  expect_one("\"get\": {", "\"get\": {{", 16, 25, "invalid json in model file"); /* '{' is at 24 */
  /* A NUL byte cannot hide the rest of the file. */
  static const char nul[] = "{\"library\": \"n\"}\n\0{";
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_libmodels_add(lm, "n.json", nul, sizeof(nul) - 1, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1);
  assert_diag(&errs.data[0], "n.json", 2, 1, "model file contains a NUL byte");
  assert_int_equal(gl_libmodels_add(lm, "e.json", "", 0, &errs), GL_EINVAL);
  assert_diag(&errs.data[1], "e.json", 1, 1, "invalid json in model file");
  assert_int_equal(gl_libmodels_add(lm, "a.json", "[1]", 3, &errs), GL_EINVAL);
  assert_diag(&errs.data[2], "a.json", 1, 1, "a model file must be a json object");
  assert_int_equal(gl_libmodels_count(lm), 1); /* not json: not counted */
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

static void test_unknown_keys(void **state) {
  (void)state;
  expect_one(" \"description\"", " \"descripton\"", 2, 2,
             "unknown key 'descripton' (expected library, description, triggers, device-array, gpu-only-modules, per-step-defs, warm-up, synchronize, benchmark, functions or types)");
  expect_one("\"roles\": [\"timer\"]", "\"role\": [\"timer\"]", 12, 25,
             "unknown key 'role' (expected roles, when, result, type, decorates, clock, per-step, partial, host-sink, any-receiver, device-params, places, syncs, syncs-args, syncs-on or syncs-unless)");
  expect_one("{\"provenance\": \"host\"}", "{\"provenance\": \"host\", \"method\": {}}", 22, 39,
             "unknown key 'method' (expected provenance, traced, explicit-work, methods, attributes, subscript, operators or call)");
  expect_one("\"result\": \"device-spec\"", "\"result\": \"device-spec\", \"result\": \"host\"", 10, 44,
             "duplicate key 'result'");
  /* Columns count characters, as editors do: each "é" (two bytes) is one column. */
  expect_one("everything\",\n", "everything\u00e9\u00e9\", \"x\": 1,\n", 2, 57,
             "unknown key 'x' (expected library, description, triggers, device-array, gpu-only-modules, per-step-defs, warm-up, synchronize, benchmark, functions or types)");
  expect_one("\"types\": {", "\"library\": \"demo\", \"types\": {", 14, 2, "duplicate key 'library'");
}

/* demo_json with from replaced by to, loaded (and frozen) into a new set that must take it. */
static gl_libmodels *load_edited(const char *from, const char *to) {
  char *text = edit(demo_json, from, to);
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_libmodels_add(lm, "m/models/demo.json", text, strlen(text), &errs), GL_OK);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_OK);
  free(text);
  gl_vec_free(&errs);
  return lm;
}

/* "triggers" words reach the prefilter through gl_libmodels_triggers; anything else is an error. */
static void test_triggers(void **state) {
  (void)state;
  gl_libmodels *lm =
      load_edited(" \"functions\": {\n", " \"triggers\": [\"demo\", \"demo_ext\"],\n \"functions\": {\n");
  size_t n = 0;
  const char *const *words = gl_libmodels_triggers(lm, &n);
  assert_int_equal(n, 2);
  assert_string_equal(words[0], "demo");
  assert_string_equal(words[1], "demo_ext");
  gl_libmodels_free(lm);
  assert_null(gl_libmodels_triggers(NULL, &n));
  assert_int_equal(n, 0);
  expect_one(" \"functions\": {\n", " \"triggers\": [\"demo.x\"],\n \"functions\": {\n", 3, 14,
             "'triggers' must be an array of words");
  expect_one(" \"functions\": {\n", " \"triggers\": \"demo\",\n \"functions\": {\n", 3, 14,
             "'triggers' must be an array of words");
}

/* "device-array" and "gpu-only-modules" are read with their library; bad values are errors. */
static void test_device_array_and_gpu_only(void **state) {
  (void)state;
  gl_libmodels *lm = load_edited(
      " \"functions\": {\n",
      " \"device-array\": \"demo.ndarray\",\n \"gpu-only-modules\": [\"demo\", \"numbax.cuda\"],\n"
      " \"functions\": {\n");
  assert_int_equal(gl_libmodels_device_array_count(lm), 1);
  const char *library = NULL;
  assert_string_equal(gl_libmodels_device_array(lm, 0, &library), "demo.ndarray");
  assert_string_equal(library, "demo");
  assert_int_equal(gl_libmodels_gpu_only(lm, "demo"), 2);
  assert_int_equal(gl_libmodels_gpu_only(lm, "demo.cuda.runtime"), 1);
  assert_int_equal(gl_libmodels_gpu_only(lm, "demonstration"), 0);
  assert_int_equal(gl_libmodels_gpu_only(lm, "numbax"), 0);
  assert_int_equal(gl_libmodels_gpu_only(lm, "numbax.cuda"), 2);
  assert_int_equal(gl_libmodels_gpu_only(NULL, "demo"), 0);
  gl_libmodels_free(lm);
  assert_int_equal(gl_libmodels_device_array_count(NULL), 0);
  expect_one(" \"functions\": {\n", " \"device-array\": 3,\n \"functions\": {\n", 3, 18,
             "'device-array' must be a dotted type name");
  expect_one(" \"functions\": {\n", " \"gpu-only-modules\": [\"a b\"],\n \"functions\": {\n", 3, 22,
             "'gpu-only-modules' must be an array of dotted module names");
}

/* Top-level modules come from function names, with their entries' roles together; a model that
 * names a device-array (or gpu-only modules) makes its modules GPU libraries'. */
static void test_modules(void **state) {
  (void)state;
  gl_libmodels *lm = load_demo();
  assert_int_equal(gl_libmodels_module_count(lm), 3);
  size_t len;
  uint32_t roles;
  bool gpu = true;
  const char *m = gl_libmodels_module(lm, 0, &len, &roles, &gpu);
  assert_int_equal(len, 4);
  assert_memory_equal(m, "demo", 4);
  assert_int_equal(roles, GL_ROLE_D2H | GL_ROLE_GPU_WORK | GL_ROLE_DEVICE_RETURNING | GL_ROLE_ALLOC);
  assert_false(gpu);
  m = gl_libmodels_module(lm, 2, &len, &roles, NULL);
  assert_memory_equal(m, "time", len);
  assert_int_equal(roles, GL_ROLE_TIMER);
  assert_false(gl_libmodels_gpu_module(lm, "demo.zeros_like"));
  gl_libmodels_free(lm);
  lm = load_edited(" \"functions\": {\n", " \"device-array\": \"demo.array\",\n \"functions\": {\n");
  assert_true(gl_libmodels_gpu_module(lm, "demo.zeros_like"));
  assert_true(gl_libmodels_gpu_module(lm, "demo"));
  assert_false(gl_libmodels_gpu_module(lm, "demonstration.x"));
  assert_false(gl_libmodels_gpu_module(lm, "other.x"));
  assert_false(gl_libmodels_gpu_module(NULL, "demo"));
  gl_libmodels_free(lm);
  /* gpu-only modules count too, though no function names them */
  lm = load_edited(" \"functions\": {\n", " \"gpu-only-modules\": [\"demo_ext.cuda\"],\n \"functions\": {\n");
  assert_true(gl_libmodels_gpu_module(lm, "demo.zeros_like"));
  assert_true(gl_libmodels_gpu_module(lm, "demo_ext.cuda.x"));
  assert_false(gl_libmodels_gpu_module(lm, "demo_ext.x"));
  assert_int_equal(gl_libmodels_module_count(NULL), 0);
  gl_libmodels_free(lm);
}

/* "warm-up" belongs to its model file, which every entry knows; function entries can be listed. */
static void test_warm_up_and_entries(void **state) {
  (void)state;
  gl_libmodels *lm = load_edited(" \"functions\": {\n",
                                 " \"warm-up\": \"call it twice\",\n \"functions\": {\n");
  const gl_api_entry *e = fn(lm, "demo.zeros_like");
  assert_non_null(e);
  assert_string_equal(gl_libmodels_text(lm, e->library, GL_LM_WARM_UP), "call it twice");
  assert_null(gl_libmodels_text(lm, 7, GL_LM_WARM_UP));
  size_t functions = 0, wild = 0;
  for (size_t i = 0; i < gl_libmodels_entry_count(lm); i++) {
    const gl_api_entry *x;
    const char *name = gl_libmodels_function_at(lm, i, &x);
    functions += name != NULL;
    wild += name && strcmp(name, "demo.*") == 0;
    if (name && strcmp(name, "demo.zeros_like") == 0) assert_ptr_equal(x, e);
  }
  assert_int_equal(functions, 9);
  assert_int_equal(wild, 1);
  gl_libmodels_free(lm);
  lm = load_demo();
  assert_null(gl_libmodels_text(lm, fn(lm, "demo.zeros_like")->library, GL_LM_WARM_UP));
  assert_null(gl_libmodels_text(NULL, 0, GL_LM_WARM_UP));
  assert_int_equal(gl_libmodels_entry_count(NULL), 0);
  gl_libmodels_free(lm);
  expect_one(" \"functions\": {\n", " \"warm-up\": \"\",\n \"functions\": {\n", 3, 13,
             "'warm-up' must be a non-empty string");
  expect_one(" \"functions\": {\n", " \"synchronize\": 1,\n \"functions\": {\n", 3, 17,
             "'synchronize' must be a non-empty string");
  expect_one(" \"functions\": {\n", " \"benchmark\": [],\n \"functions\": {\n", 3, 15,
             "'benchmark' must be a non-empty string");
}

/* "clock" says which clock a timer reads; only functions have one. */
static void test_clock(void **state) {
  (void)state;
  gl_libmodels *lm =
      load_edited("{\"roles\": [\"timer\"]}", "{\"roles\": [\"timer\"], \"clock\": \"cpu\"}");
  const gl_api_entry *e = gl_libmodels_function_exact(lm, "time.perf_counter", 17);
  assert_non_null(e);
  assert_int_equal(e->clock, GL_CLOCK_CPU);
  e = gl_libmodels_function_exact(lm, "demo.asnumpy", 12);
  assert_int_equal(e->clock, GL_CLOCK_NONE);
  assert_false(e->per_step);
  gl_libmodels_free(lm);
  expect_one("\"to\": {\"result\": \"to-arg\"}", "\"to\": {\"result\": \"to-arg\", \"per-step\": 1}", 17, 55,
             "'per-step' must be true or false");
  expect_one("\"demo.jit\": {", "\"demo.jit\": {\"per-step\": true, ", 9, 28, "'per-step' applies to methods only");
  expect_one("{\"roles\": [\"timer\"]}", "{\"roles\": [\"timer\"], \"clock\": \"gpu\"}", 12, 54,
             "unknown clock 'gpu' (expected wall or cpu)");
  expect_one("\"to\": {\"result\": \"to-arg\"}", "\"to\": {\"result\": \"to-arg\", \"clock\": \"wall\"}", 17, 52,
             "'clock' applies to functions only");
}

/* A boolean function key (at `offset` in gl_api_entry): true where the model sets it, false
 * elsewhere; a value that is not a boolean, or the key on a method, is an error at its position. */
static void check_function_flag(const char *key, size_t offset) {
  char edited[96], bad[96], on_method[96], msg[64];
  int len = (int)strlen(key);
  snprintf(edited, sizeof(edited), "\"demo.device\": {\"%s\": true, ", key);
  gl_libmodels *lm = load_edited("\"demo.device\": {", edited);
  assert_true(*((const bool *)((const char *)gl_libmodels_function_exact(lm, "demo.device", 11) + offset)));
  assert_false(*((const bool *)((const char *)gl_libmodels_function_exact(lm, "demo.jit", 8) + offset)));
  gl_libmodels_free(lm);
  snprintf(bad, sizeof(bad), "\"demo.device\": {\"%s\": 0, ", key);
  snprintf(msg, sizeof(msg), "'%s' must be true or false", key);
  expect_one("\"demo.device\": {", bad, 10, 23 + len, msg);
  snprintf(on_method, sizeof(on_method), "\"to\": {\"result\": \"to-arg\", \"%s\": true}", key);
  snprintf(msg, sizeof(msg), "'%s' applies to functions only", key);
  expect_one("\"to\": {\"result\": \"to-arg\"}", on_method, 17, 47 + len, msg);
}

/* A boolean type key: true on demo.Kernel when set there, false elsewhere, on NULL and on no
 * type; any other value is an error at the value's column. */
static void check_type_flag(const char *key, bool (*get)(const gl_libmodels *, uint16_t)) {
  char edited[96], bad[96], msg[64];
  snprintf(edited, sizeof(edited), "\"demo.Kernel\": {\"%s\": true, \"call\"", key);
  gl_libmodels *lm = load_edited("\"demo.Kernel\": {\"call\"", edited);
  assert_true(get(lm, gl_libmodels_type_id(lm, "demo.Kernel", 11)));
  assert_false(get(lm, gl_libmodels_type_id(lm, "demo.array", 10)));
  assert_false(get(lm, GL_TYPE_NONE));
  assert_false(get(NULL, 0));
  gl_libmodels_free(lm);
  snprintf(bad, sizeof(bad), "\"demo.Kernel\": {\"%s\": 1, \"call\"", key);
  snprintf(msg, sizeof(msg), "'%s' must be true or false", key);
  expect_one("\"demo.Kernel\": {\"call\"", bad, 23, 23 + (int)strlen(key), msg);
}

/* "traced" marks a type whose defs run their body when traced, "explicit-work" one whose entries
 * say gpu-work wherever work is launched; "partial" a function that decorates as its first
 * argument does; "host-sink" a function that takes host data only. */
static void test_flags(void **state) {
  (void)state;
  check_type_flag("traced", gl_libmodels_type_traced);
  check_type_flag("explicit-work", gl_libmodels_type_explicit_work);
  check_function_flag("partial", offsetof(gl_api_entry, partial));
  check_function_flag("host-sink", offsetof(gl_api_entry, host_sink));
}

/* "device-params" on a method: how many parameters after self the framework fills with device
 * data; an integer from 0 to 8, on methods only. */
static void test_device_params(void **state) {
  (void)state;
  const char *from = "\"demo.random.seed\": {}";
  expect_one(from, "\"demo.random.seed\": {\"device-params\": 1}", 7, 41,
             "'device-params' applies to methods only");
  expect_one(from, "\"demo.random.seed\": {\"device-params\": 9}", 7, 41,
             "'device-params' must be an integer from 0 to 8");
  expect_one(from, "\"demo.random.seed\": {\"device-params\": true}", 7, 41,
             "'device-params' must be an integer from 0 to 8");
}

/* "syncs", "syncs-args", "syncs-on", "syncs-unless": read into the entry; bad values are errors
 * at their position. */
static void test_syncs(void **state) {
  (void)state;
  gl_libmodels *lm = load_edited(
      "\"demo.device\": {",
      "\"demo.device\": {\"syncs\": \"data-size\", \"syncs-args\": 1, \"syncs-on\": 2, "
      "\"syncs-unless\": \"output_size\", ");
  const gl_api_entry *e = gl_libmodels_function_exact(lm, "demo.device", 11);
  assert_non_null(e);
  assert_int_equal(e->syncs, GL_SYNCS_DATA_SIZE);
  assert_int_equal(e->syncs_args, 1);
  assert_int_equal(e->syncs_on, 3);
  assert_string_equal(e->syncs_unless, "output_size");
  e = gl_libmodels_function_exact(lm, "demo.jit", 8);
  assert_int_equal(e->syncs, GL_SYNCS_NONE);
  assert_int_equal(e->syncs_on, 0);
  assert_string_equal(e->syncs_unless, "");
  gl_libmodels_free(lm);
  const char *from = "\"demo.random.seed\": {}";
  expect_one(from, "\"demo.random.seed\": {\"syncs\": \"sometimes\"}", 7, 33,
             "unknown syncs 'sometimes' (expected data-size, validation or always)");
  expect_one(from, "\"demo.random.seed\": {\"syncs-args\": 0}", 7, 38,
             "'syncs-args' must be an integer from 1 to 8");
  expect_one(from, "\"demo.random.seed\": {\"syncs-on\": 8}", 7, 36,
             "'syncs-on' must be an integer from 0 to 7");
  expect_one(from, "\"demo.random.seed\": {\"syncs-unless\": \"a.b\"}", 7, 40,
             "'syncs-unless' must be a keyword name (at most 23 characters)");
}

/* "places": where a result that holds data (a module) was placed; functions and methods only,
 * and "receiver" for methods only. */
static void test_places(void **state) {
  (void)state;
  gl_libmodels *lm = load_edited("\"demo.device\": {", "\"demo.device\": {\"places\": \"arg0\", ");
  const gl_api_entry *e = gl_libmodels_function_exact(lm, "demo.device", 11);
  assert_non_null(e);
  assert_int_equal(e->places, GL_PLACES_ARG0);
  e = gl_libmodels_function_exact(lm, "demo.jit", 8);
  assert_int_equal(e->places, GL_PLACES_NONE);
  gl_libmodels_free(lm);
  lm = load_edited("\"demo.jit\": {", "\"demo.jit\": {\"result\": \"placed\", \"places\": \"to-arg\", ");
  e = gl_libmodels_function_exact(lm, "demo.jit", 8);
  assert_int_equal(e->result, GL_RESULT_PLACED);
  assert_int_equal(e->places, GL_PLACES_TO_ARG);
  gl_libmodels_free(lm);
  const char *from = "\"demo.random.seed\": {}";
  expect_one(from, "\"demo.random.seed\": {\"places\": \"gpu\"}", 7, 34,
             "unknown places 'gpu' (expected receiver, arg0, to-arg, device or host)");
  expect_one(from, "\"demo.random.seed\": {\"places\": \"receiver\"}", 7, 34,
             "places 'receiver' applies to methods only");
}

/* Errors after escaped quotes, braces and brackets inside strings still land on the right byte. */
static void test_positions_after_strings(void **state) {
  (void)state;
  expect_one("everything\",\n", "everything\", \"x\": 1,\n", 2, 55,
             "unknown key 'x' (expected library, description, triggers, device-array, gpu-only-modules, per-step-defs, warm-up, synchronize, benchmark, functions or types)");
  expect_one("\"demo.random.seed\": {}", "\"demo.random.seed\": {\"type\": \"a{b\"}", 7, 32,
             "invalid type name 'a{b' (expected a dotted name)");
}

static void test_bad_values(void **state) {
  (void)state;
  expect_one("[\"gpu-work\", \"device-returning\"]", "[\"gpu-work\", \"device_returning\"]", 6, 43,
             "unknown role 'device_returning' (expected device-returning, host-returning, d2h, h2d, sync, "
             "alloc, gpu-work, timer, buffer, pinned, handle, mapped, jit, event or launch)");
  expect_one("[\"gpu-work\", \"sync\"]", "[\"gpu-work\", \"gpu-work\"]", 23, 50, "duplicate role 'gpu-work'");
  expect_one("[\"gpu-work\", \"sync\"]", "[\"gpu-work\", 7]", 23, 50, "a role must be a string");
  expect_one("\"roles\": [\"timer\"]", "\"roles\": \"timer\"", 12, 34, "'roles' must be an array of role names");
  expect_one("\"when\": \"arg0-device\", \"result\": \"host\"}", "\"when\": \"arg0\", \"result\": \"host\"}", 11,
             66, "unknown when 'arg0' (expected always, receiver-device, arg0-device, result-device, arg0-not-host or "
             "arg0-not-device)");
  expect_one("\"result\": \"to-arg\"", "\"result\": \"to_arg\"", 17, 33,
             "unknown result 'to_arg' (expected unknown, device, host, receiver, arg0, device-kwarg, to-arg, "
             "device-spec, default-device or placed)");
  expect_one("\"result\": \"to-arg\"", "\"result\": 3", 17, 33, "'result' must be a string");
  expect_one("{\"provenance\": \"host\"}", "{\"provenance\": \"cpu\"}", 22, 31,
             "unknown provenance 'cpu' (expected device, host or unknown)");
  expect_one("\"type\": \"demo.host\"},\n", "\"type\": \"demo host\"},\n", 4, 87,
             "invalid type name 'demo host' (expected a dotted name)");
  expect_one("\"decorates\": \"demo.Kernel\"", "\"decorates\": [\"demo.Kernel\"]", 9, 29,
             "'decorates' must be a string");
  expect_one("\"demo.random.seed\": {}", "\"demo.random.seed\": []", 7, 23, "an entry must be a json object");
  expect_one("\"demo.host\": {\"provenance\": \"host\"}", "\"demo.host\": \"host\"", 22, 16,
             "a type must be a json object");
  expect_one("{\"shape\": {\"result\": \"host\"}, \"*\": {\"result\": \"receiver\"}}", "[]", 19, 18,
             "'attributes' must be an object");
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  static const char text[] = "{\"library\": \"demo\", \"functions\": [], \"types\": 7}";
  assert_int_equal(gl_libmodels_add(lm, "demo.json", text, strlen(text), &errs), GL_EINVAL);
  assert_int_equal(errs.len, 2);
  assert_diag(&errs.data[0], "demo.json", 1, 34, "'functions' must be an object");
  assert_diag(&errs.data[1], "demo.json", 1, 47, "'types' must be an object");
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

/* when and result values that make no sense for the kind of entry. */
static void test_kind_rules(void **state) {
  (void)state;
  expect_one("\"demo.random.seed\": {}", "\"demo.random.seed\": {\"result\": \"receiver\"}", 7, 34,
             "result 'receiver' does not apply to a function");
  expect_one("\"demo.random.seed\": {}", "\"demo.random.seed\": {\"when\": \"receiver-device\"}", 7, 32,
             "when 'receiver-device' does not apply to a function");
  expect_one("{\"shape\": {\"result\": \"host\"}", "{\"shape\": {\"result\": \"arg0\"}", 19, 39,
             "result 'arg0' does not apply to an attribute");
  expect_one("\"subscript\": {\"result\": \"receiver\"", "\"subscript\": {\"when\": \"arg0-device\"", 20, 26,
             "when 'arg0-device' does not apply to a subscript");
  expect_one("\"when\": \"receiver-device\", \"result\": \"receiver\"}}", "\"result\": \"to-arg\"}}", 21, 51,
             "result 'to-arg' does not apply to operators");
}

static void test_bad_names_and_library(void **state) {
  (void)state;
  expect_one("\"demo.zeros_like\"", "\"demo.zeros-like\"", 8, 3,
             "invalid function name 'demo.zeros-like' (expected a dotted name, optionally ending in '.*')");
  expect_one("\"demo.zeros_like\"", "\"*\"", 8, 3,
             "invalid function name '*' (expected a dotted name, optionally ending in '.*')");
  expect_one("\"demo.zeros_like\"", "\"demo.*.x\"", 8, 3,
             "invalid function name 'demo.*.x' (expected a dotted name, optionally ending in '.*')");
  expect_one("\"demo.zeros_like\"", "\"demo..x\"", 8, 3,
             "invalid function name 'demo..x' (expected a dotted name, optionally ending in '.*')");
  expect_one("\"to\": {", "\"to()\": {", 17, 16, "invalid method name 'to()' (expected an identifier or '*')");
  expect_one("{\"shape\"", "{\"sh.ape\"", 19, 19, "invalid attribute name 'sh.ape' (expected an identifier or '*')");
  expect_one("\"demo.Kernel\": {", "\"demo.Kernel.*\": {", 23, 3, "invalid type name 'demo.Kernel.*' (expected a dotted name)");
  expect_one("{\"library\": \"demo\"", "{\"library\": \"dem\"", 1, 13,
             "library 'dem' does not match the file name (expected 'demo')");
  expect_one("{\"library\": \"demo\"", "{\"library\": [\"demo\"]", 1, 13, "'library' must be a string");
  expect_one("{\"library\": \"demo\",", "{", 1, 1, "missing key 'library'");
  expect_one("\"description\": \"a \\\"demo\\\" {model} [of] everything\"", "\"description\": 5", 2, 17,
             "'description' must be a string");
}

/* A file with several problems reports all of them, in order, and keeps its valid parts. */
static void test_all_errors_and_valid_parts_kept(void **state) {
  (void)state;
  char *a = edit(demo_json, "\"roles\": [\"timer\"]", "\"roles\": [\"timers\"]");
  char *b = edit(a, "\"demo.random.seed\": {}", "\"demo.random.seed\": {\"when\": 1}");
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_libmodels_add(lm, "demo.json", b, strlen(b), &errs), GL_EINVAL);
  assert_int_equal(errs.len, 2);
  assert_diag(&errs.data[0], "demo.json", 7, 32, "'when' must be a string");
  assert_diag(&errs.data[1], "demo.json", 12, 35,
              "unknown role 'timers' (expected device-returning, host-returning, d2h, h2d, sync, alloc, "
              "gpu-work, timer, buffer, pinned, handle, mapped, jit, event or launch)");
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_OK);
  assert_int_equal(errs.len, 2);
  assert_null(fn(lm, "time.perf_counter"));         /* the bad entries are left out */
  assert_int_equal(fn(lm, "demo.random.seed")->roles, GL_ROLE_GPU_WORK | GL_ROLE_DEVICE_RETURNING);
  assert_non_null(fn(lm, "demo.asnumpy"));          /* the rest is there */
  free(a), free(b);
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

/* --- freeze errors (across files) ------------------------------------------------------------ */

static void test_undefined_type(void **state) {
  (void)state;
  char *text = edit(demo_json, "\"type\": \"demo.host\"},\n  \"demo.*\"", "\"type\": \"demo.hots\"},\n  \"demo.*\"");
  char *text2 = edit(text, "\"decorates\": \"demo.Kernel\"", "\"decorates\": \"demo.kernel\"");
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_libmodels_add(lm, "m/demo.json", text2, strlen(text2), &errs), GL_OK);
  assert_int_equal(errs.len, 0);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 2);
  assert_diag(&errs.data[0], "m/demo.json", 4, 87, "undefined type 'demo.hots' (no model defines it)");
  assert_diag(&errs.data[1], "m/demo.json", 9, 29, "undefined type 'demo.kernel' (no model defines it)");
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_EINVAL); /* the same answer, no new errors */
  assert_int_equal(errs.len, 2);
  assert_int_equal(fn(lm, "demo.asnumpy")->type, GL_TYPE_NONE);
  free(text), free(text2);
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

/* A type may be used by a file added before the one defining it. */
static void test_type_defined_in_a_later_file(void **state) {
  (void)state;
  static const char user[] = "{\"library\": \"user\",\n \"functions\": {\"user.load\": {\"result\": \"device\", \"type\": \"demo.array\"}}}";
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_libmodels_add(lm, "a/user.json", user, strlen(user), &errs), GL_OK);
  assert_int_equal(gl_libmodels_add(lm, "b/demo.json", demo_json, strlen(demo_json), &errs), GL_OK);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_OK);
  assert_int_equal(errs.len, 0);
  assert_int_equal(fn(lm, "user.load")->type, type_id(lm, "demo.array"));
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

static void test_duplicates_across_files(void **state) {
  (void)state;
  static const char other[] =
      "{\"library\": \"other\",\n"
      " \"functions\": {\"other.f\": {},\n"
      "  \"demo.asnumpy\": {\"roles\": [\"d2h\"]},\n"
      "  \"demo.random.*\": {},\n"
      "  \"other.f\": {\"roles\": [\"sync\"]}},\n"
      " \"types\": {\"demo.host\": {},\n"
      "  \"other.t\": {\"methods\": {\"m\": {}, \"m\": {}}, \"attributes\": {\"*\": {}, \"*\": {}}}}}\n";
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_libmodels_add(lm, "m/demo.json", demo_json, strlen(demo_json), &errs), GL_OK);
  assert_int_equal(gl_libmodels_add(lm, "u/other.json", other, strlen(other), &errs), GL_OK);
  assert_int_equal(errs.len, 0);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_EINVAL);
  print_errors(&errs);
  assert_int_equal(errs.len, 6);
  assert_diag(&errs.data[0], "u/other.json", 6, 12, "duplicate type 'demo.host' (first defined in m/demo.json:22:3)");
  assert_diag(&errs.data[1], "u/other.json", 3, 3, "duplicate function 'demo.asnumpy' (first defined in m/demo.json:4:3)");
  assert_diag(&errs.data[2], "u/other.json", 4, 3, "duplicate function 'demo.random.*' (first defined in m/demo.json:6:3)");
  assert_diag(&errs.data[3], "u/other.json", 5, 3, "duplicate function 'other.f' (first defined in u/other.json:2:16)");
  assert_diag(&errs.data[4], "u/other.json", 7, 36,
              "duplicate method 'm' of type 'other.t' (first defined in u/other.json:7:27)");
  assert_diag(&errs.data[5], "u/other.json", 7, 70,
              "duplicate attribute '*' of type 'other.t' (first defined in u/other.json:7:61)");
  /* The first definition stands. */
  assert_int_equal(fn(lm, "demo.asnumpy")->when, GL_WHEN_ARG0_DEVICE);
  assert_int_equal(fn(lm, "demo.random.x")->roles, GL_ROLE_GPU_WORK | GL_ROLE_DEVICE_RETURNING);
  assert_int_equal(fn(lm, "other.f")->roles, 0);
  assert_int_equal(gl_libmodels_type_prov(lm, type_id(lm, "demo.host")), GL_PROV_HOST);
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

static void test_duplicate_library(void **state) {
  (void)state;
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_libmodels_add(lm, "rules/models/demo.json", demo_json, strlen(demo_json), &errs), GL_OK);
  assert_int_equal(gl_libmodels_add(lm, "mine/models/demo.json", demo_json, strlen(demo_json), &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1); /* and no duplicate function or type for each of its names */
  assert_diag(&errs.data[0], "mine/models/demo.json", 1, 13,
              "duplicate library 'demo' (first defined in rules/models/demo.json)");
  assert_int_equal(gl_libmodels_count(lm), 1);
  assert_int_equal(gl_libmodels_freeze(lm, &errs), GL_OK);
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

/* --- through the ruleset --------------------------------------------------------------------- */

static void test_ruleset_feeds_models_folders_only(void **state) {
  (void)state;
  static const char other[] = "{\"library\": \"other\", \"functions\": {\"other.f\": {\"type\": \"demo.array\"}}}";
  gl_rule_file files[] = {
      {"p/models/other.json", other, strlen(other)},     /* added after demo.json: sorted by path */
      {"p/models/demo.json", demo_json, strlen(demo_json)},
      {"p/pack/notes.json", "not json", 8},               /* not in a models folder: ignored */
      {"p/mymodels/x.json", "not json", 8},
  };
  gl_ruleset *set = gl_rules_new();
  assert_non_null(set->models);
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 4, &errs), GL_OK);
  print_errors(&errs);
  assert_int_equal(gl_libmodels_count(set->models), 2);
  assert_null(fn(set->models, "other.f")); /* not frozen yet */
  assert_int_equal(gl_rules_finish(set, &errs), GL_OK);
  assert_int_equal(errs.len, 0);
  assert_int_equal(fn(set->models, "other.f")->type, type_id(set->models, "demo.array"));
  assert_int_equal(type_id(set->models, "demo.array"), 0);
  gl_rules_free(set);
  gl_vec_free(&errs);
}

static void test_ruleset_model_errors(void **state) {
  (void)state;
  static const char bad[] = "{\"library\": \"bad\",\n \"functions\": {\"bad.f\": {\"type\": \"nowhere.T\"}}}";
  gl_rule_file files[] = {{"d/models/bad.json", bad, strlen(bad)}};
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 1, &errs), GL_OK);
  assert_int_equal(gl_rules_finish(set, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1);
  assert_diag(&errs.data[0], "d/models/bad.json", 2, 34, "undefined type 'nowhere.T' (no model defines it)");
  gl_rules_free(set);
  files[0].path = "d/models/good.json";
  set = gl_rules_new();
  errs.len = 0;
  assert_int_equal(gl_rules_add_files(set, files, 1, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1);
  assert_diag(&errs.data[0], "d/models/good.json", 1, 13, "library 'bad' does not match the file name (expected 'good')");
  gl_rules_free(set);
  gl_vec_free(&errs);
}

static void write_file(const char *dir, const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
  assert_int_equal(fclose(f), 0);
}

/* --rules DIR: DIR/models/*.json, for a dir holding only models, a dir of packs and one pack. */
static void test_rules_dir_models(void **state) {
  (void)state;
  char root[] = "/tmp/gl_libmodel_XXXXXX", models[64], pack[64], pack_models[80];
  assert_non_null(mkdtemp(root));
  snprintf(models, sizeof(models), "%s/models", root);
  snprintf(pack, sizeof(pack), "%s/pack", root);
  snprintf(pack_models, sizeof(pack_models), "%s/pack/models", root);
  assert_int_equal(mkdir(models, 0700), 0);
  write_file(models, "demo.json", demo_json);
  write_file(models, "README.md", "# Models\n");
  write_file(models, "notes.txt", "not a model");
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_dir(set, root, &errs), GL_OK); /* models only: no "no rule packs" */
  print_errors(&errs);
  assert_int_equal(errs.len, 0);
  assert_int_equal(gl_rules_finish(set, &errs), GL_OK);
  assert_int_equal(fn(set->models, "demo.asnumpy")->roles, GL_ROLE_D2H);
  assert_int_equal(set->packs.len, 0);
  gl_rules_free(set);

  /* One pack (README.md in DIR) with DIR/models: the model is read once. */
  assert_int_equal(mkdir(pack, 0700), 0);
  assert_int_equal(mkdir(pack_models, 0700), 0);
  write_file(pack, "README.md",
             "# P\n\n```json\n{\"name\": \"pack\", \"prefix\": \"GPU9\", \"default\": true, \"triggers\": [\"x\"]}\n```\n");
  write_file(pack_models, "demo.json", "{\"library\": \"demo\", \"functions\": {\"pk.f\": {}}}");
  set = gl_rules_new();
  assert_int_equal(gl_rules_add_dir(set, pack, &errs), GL_OK);
  print_errors(&errs);
  assert_int_equal(gl_libmodels_count(set->models), 1);
  assert_int_equal(gl_rules_finish(set, &errs), GL_OK);
  assert_non_null(fn(set->models, "pk.f"));
  assert_int_equal(set->packs.len, 1);
  gl_rules_free(set);

  /* A dir of packs: ROOT/models and ROOT/pack; ROOT/pack/models is not read (not a pack's). */
  set = gl_rules_new();
  assert_int_equal(gl_rules_add_dir(set, root, &errs), GL_OK);
  print_errors(&errs);
  assert_int_equal(gl_libmodels_count(set->models), 1);
  assert_int_equal(gl_rules_finish(set, &errs), GL_OK);
  assert_non_null(fn(set->models, "demo.asnumpy"));
  assert_null(fn(set->models, "pk.f"));
  gl_rules_free(set);
  assert_int_equal(errs.len, 0);
  gl_vec_free(&errs);

  const char *paths[] = {"models/demo.json", "models/README.md", "models/notes.txt", "pack/models/demo.json",
                         "pack/README.md"};
  char path[128];
  for (size_t i = 0; i < 5; i++) {
    snprintf(path, sizeof(path), "%s/%s", root, paths[i]);
    unlink(path);
  }
  rmdir(pack_models), rmdir(pack), rmdir(models), rmdir(root);
}

/* --- the built-in models ----------------------------------------------------------------------- */

static const gl_api_entry *builtin_fn(const gl_ruleset *set, const char *name) {
  const gl_api_entry *e = fn(set->models, name);
  if (!e) print_message("no entry for %s\n", name);
  assert_non_null(e);
  return e;
}

static void test_builtin_models(void **state) {
  (void)state;
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  gl_rules_add_builtin(set, &errs);
  gl_rules_finish(set, &errs);
  print_errors(&errs);
  assert_int_equal(errs.len, 0);
  assert_true(gl_libmodels_count(set->models) >= 5); /* builtins, python, numpy, cupy, torch, ... */
  const gl_libmodels *lm = set->models;
  uint16_t cupy_nd = type_id(lm, "cupy.ndarray"), np_nd = type_id(lm, "numpy.ndarray");
  uint16_t tensor = type_id(lm, "torch.Tensor");
  assert_int_not_equal(cupy_nd, GL_TYPE_NONE);
  assert_int_not_equal(np_nd, GL_TYPE_NONE);
  assert_int_not_equal(tensor, GL_TYPE_NONE);
  assert_int_equal(gl_libmodels_type_prov(lm, cupy_nd), GL_PROV_DEVICE);
  assert_int_equal(gl_libmodels_type_prov(lm, np_nd), GL_PROV_HOST);
  assert_int_equal(gl_libmodels_type_prov(lm, tensor), GL_PROV_UNKNOWN);

  const gl_api_entry *e = builtin_fn(set, "cupy.asnumpy");
  assert_true(e->roles & GL_ROLE_D2H);
  assert_int_equal(e->result, GL_RESULT_HOST);
  assert_int_equal(e->type, np_nd);
  e = builtin_fn(set, "cupy.asarray");
  assert_true(e->roles & GL_ROLE_H2D);
  assert_int_equal(e->result, GL_RESULT_DEVICE);
  assert_int_equal(e->type, cupy_nd);
  e = builtin_fn(set, "cupy.random.rand"); /* a wildcard */
  assert_int_equal(e->result, GL_RESULT_DEVICE);
  assert_true(builtin_fn(set, "cupy.cuda.runtime.deviceSynchronize")->roles & GL_ROLE_SYNC);
  assert_int_equal(builtin_fn(set, "cupy.get_array_module")->result, GL_RESULT_UNKNOWN);
  assert_false(builtin_fn(set, "cupy.get_array_module")->roles & GL_ROLE_DEVICE_RETURNING);
  assert_false(builtin_fn(set, "cupy.cuda.Device")->roles & GL_ROLE_DEVICE_RETURNING);
  assert_true(gl_libmodels_method(lm, cupy_nd, "get", 3)->roles & GL_ROLE_D2H);
  assert_int_equal(gl_libmodels_method(lm, cupy_nd, "get", 3)->when, GL_WHEN_RECEIVER_DEVICE);
  assert_true(gl_libmodels_method(lm, cupy_nd, "set", 3)->roles & GL_ROLE_H2D);
  assert_int_equal(gl_libmodels_method(lm, cupy_nd, "reshape", 7)->result, GL_RESULT_RECEIVER);
  uint16_t dev = type_id(lm, "cupy.cuda.Device"), stream = type_id(lm, "cupy.cuda.Stream");
  assert_true(gl_libmodels_method(lm, dev, "synchronize", 11)->roles & GL_ROLE_SYNC);
  assert_true(gl_libmodels_method(lm, stream, "synchronize", 11)->roles & GL_ROLE_SYNC);
  assert_int_equal(builtin_fn(set, "cupy.cuda.Stream.null")->type, stream);
  assert_int_equal(builtin_fn(set, "cupy.cuda.get_current_stream")->type, stream);

  e = gl_libmodels_method(lm, tensor, "item", 4);
  assert_non_null(e);
  assert_true(e->roles & GL_ROLE_D2H);
  assert_int_equal(e->when, GL_WHEN_RECEIVER_DEVICE);
  assert_int_equal(e->result, GL_RESULT_HOST);
  assert_int_equal(gl_libmodels_method(lm, tensor, "to", 2)->result, GL_RESULT_TO_ARG);
  assert_int_equal(gl_libmodels_method(lm, tensor, "cuda", 4)->result, GL_RESULT_DEVICE);
  assert_int_equal(gl_libmodels_method(lm, tensor, "detach", 6)->result, GL_RESULT_RECEIVER);
  assert_int_equal(builtin_fn(set, "torch.zeros")->result, GL_RESULT_DEVICE_KWARG);
  assert_int_equal(builtin_fn(set, "torch.zeros")->type, tensor);
  assert_int_equal(builtin_fn(set, "torch.device")->result, GL_RESULT_DEVICE_SPEC);
  assert_int_equal(builtin_fn(set, "torch.from_numpy")->result, GL_RESULT_HOST);
  assert_true(builtin_fn(set, "torch.cuda.synchronize")->roles & GL_ROLE_SYNC);
  assert_int_equal(fn(lm, "torch.nn.Linear")->type, gl_libmodels_type_id(lm, "torch.nn.Module", 15));

  assert_int_equal(builtin_fn(set, "time.perf_counter")->roles, GL_ROLE_TIMER);
  assert_int_equal(builtin_fn(set, "timeit.default_timer")->roles, GL_ROLE_TIMER);
  e = builtin_fn(set, "builtins.float");
  assert_true(e->roles & GL_ROLE_D2H);
  assert_int_equal(e->when, GL_WHEN_ARG0_DEVICE);
  assert_int_equal(builtin_fn(set, "builtins.len")->roles, 0);
  e = builtin_fn(set, "numpy.asarray");
  assert_true(e->roles & GL_ROLE_D2H);
  assert_int_equal(e->when, GL_WHEN_ARG0_DEVICE);
  assert_int_equal(e->result, GL_RESULT_HOST);
  assert_false(gl_libmodels_method(lm, np_nd, "item", 4)->roles & GL_ROLE_D2H);
  gl_rules_free(set);
  gl_vec_free(&errs);
}

int main(void) {
  use_test_json_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roles),
      cmocka_unit_test(test_functions_exact_and_wildcards),
      cmocka_unit_test(test_builtins_and_timers),
      cmocka_unit_test(test_types_and_members),
      cmocka_unit_test(test_freeze_and_refreeze),
      cmocka_unit_test(test_minimal_and_unterminated),
      cmocka_unit_test(test_bad_json),
      cmocka_unit_test(test_unknown_keys),
      cmocka_unit_test(test_triggers),
      cmocka_unit_test(test_positions_after_strings),
      cmocka_unit_test(test_bad_values),
      cmocka_unit_test(test_kind_rules),
      cmocka_unit_test(test_bad_names_and_library),
      cmocka_unit_test(test_all_errors_and_valid_parts_kept),
      cmocka_unit_test(test_undefined_type),
      cmocka_unit_test(test_type_defined_in_a_later_file),
      cmocka_unit_test(test_duplicates_across_files),
      cmocka_unit_test(test_duplicate_library),
      cmocka_unit_test(test_device_array_and_gpu_only),
      cmocka_unit_test(test_modules),
      cmocka_unit_test(test_warm_up_and_entries),
      cmocka_unit_test(test_clock),
      cmocka_unit_test(test_flags),
      cmocka_unit_test(test_device_params),
      cmocka_unit_test(test_syncs),
      cmocka_unit_test(test_places),
      cmocka_unit_test(test_ruleset_feeds_models_folders_only),
      cmocka_unit_test(test_ruleset_model_errors),
      cmocka_unit_test(test_rules_dir_models),
      cmocka_unit_test(test_builtin_models),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
