/* prov_fixture.h: the library models and node checks the provenance tests share (test_prov.c,
 * test_summary.c): small models built from inline JSON (so a change to rules/models/ cannot
 * break the tests), setup / teardown that build and free them, and PROV / ROLES / TYPE / FD /
 * LI checks of one node named by "type:text#n".
 * Owns: nothing outside a test; every function is static (header-only).
 * Threads: single-threaded test code. Include after <cmocka.h>, model_fixture.h and the headers
 * test_prov.c includes. */
#ifndef GL_TEST_PROV_FIXTURE_H
#define GL_TEST_PROV_FIXTURE_H

/* ---- the models (single quotes become double quotes) -------------------------------------- */

static const char *const model_files[][2] = {
    {"m/models/builtins.json",
     "{'library': 'builtins', 'functions': {"
     " 'builtins.float': {'roles': ['d2h', 'host-returning'], 'when': 'arg0-device', 'result': 'host'},"
     " 'builtins.print': {'roles': ['d2h'], 'when': 'arg0-device'},"
     " 'builtins.len': {'result': 'host'}}}"},
    {"m/models/numpy.json",
     "{'library': 'numpy', 'functions': {"
     " 'numpy.*': {'result': 'host'},"
     " 'numpy.zeros': {'result': 'host', 'type': 'numpy.ndarray'},"
     " 'numpy.asarray': {'roles': ['d2h', 'host-returning'], 'when': 'arg0-device',"
     "                   'result': 'host', 'type': 'numpy.ndarray'}},"
     " 'types': {'numpy.ndarray': {'provenance': 'host', 'methods': {"
     "   'item': {'roles': ['d2h', 'host-returning'], 'when': 'receiver-device', 'result': 'host'},"
     "   '*': {'result': 'host', 'type': 'numpy.ndarray'}},"
     "  'operators': {'type': 'numpy.ndarray'}}}}"},
    {"m/models/cupy.json",
     "{'library': 'cupy', 'device-array': 'cupy.ndarray', 'functions': {"
     " 'cupy.zeros': {'roles': ['alloc', 'gpu-work', 'device-returning'], 'result': 'device',"
     "                'type': 'cupy.ndarray'},"
     " 'cupy.ones': {'roles': ['alloc', 'device-returning'], 'result': 'device', 'type': 'cupy.ndarray'},"
     " 'cupy.asarray': {'roles': ['h2d', 'device-returning'], 'result': 'device', 'type': 'cupy.ndarray'},"
     " 'cupy.asnumpy': {'roles': ['d2h', 'host-returning'], 'when': 'arg0-device', 'result': 'host',"
     "                  'type': 'numpy.ndarray'},"
     " 'cupy.float32': {'result': 'host'},"
     " 'cupy.cuda.Stream': {'result': 'host', 'type': 'cupy.cuda.Stream'},"
     " 'cupy.cuda.Stream.null': {'result': 'host', 'type': 'cupy.cuda.Stream'}},"
     " 'types': {"
     "  'cupy.ndarray': {'provenance': 'device', 'methods': {"
     "    'get': {'roles': ['d2h', 'host-returning'], 'when': 'receiver-device', 'result': 'host',"
     "            'type': 'numpy.ndarray'},"
     "    'item': {'roles': ['d2h', 'host-returning'], 'when': 'receiver-device', 'result': 'host'},"
     "    'fill': {'roles': ['gpu-work']},"
     "    '*': {'roles': ['gpu-work'], 'when': 'receiver-device', 'result': 'receiver',"
     "          'type': 'cupy.ndarray'}},"
     "   'attributes': {'shape': {'result': 'host'}, 'T': {'result': 'receiver', 'type': 'cupy.ndarray'}},"
     "   'subscript': {'roles': ['gpu-work'], 'result': 'receiver', 'type': 'cupy.ndarray'},"
     "   'operators': {'roles': ['gpu-work'], 'result': 'receiver', 'type': 'cupy.ndarray'}},"
     "  'cupy.cuda.Stream': {'methods': {'synchronize': {'roles': ['sync']}}}}}"},
    {"m/models/torch.json",
     "{'library': 'torch', 'device-array': 'torch.Tensor', 'functions': {"
     " 'torch.zeros': {'result': 'device-kwarg', 'type': 'torch.Tensor'},"
     " 'torch.tensor': {'roles': ['h2d'], 'when': 'result-device', 'result': 'device-kwarg',"
     "                  'type': 'torch.Tensor'},"
     " 'torch.device': {'result': 'device-spec', 'type': 'torch.device'}},"
     " 'types': {"
     "  'torch.device': {},"
     "  'torch.Tensor': {'methods': {"
     "    'to': {'result': 'to-arg', 'type': 'torch.Tensor'},"
     "    'cuda': {'roles': ['h2d'], 'result': 'device', 'type': 'torch.Tensor'},"
     "    'item': {'roles': ['d2h', 'host-returning'], 'when': 'receiver-device', 'result': 'host'}},"
     "   'attributes': {'device': {'result': 'receiver', 'type': 'torch.device'}},"
     "   'operators': {'roles': ['gpu-work'], 'when': 'receiver-device', 'type': 'torch.Tensor'}}}}"},
    {"m/models/numba.json",
     "{'library': 'numba', 'functions': {"
     " 'numba.cuda.jit': {'decorates': 'numba.cuda.Kernel'},"
     " 'numba.cuda.to_device': {'roles': ['h2d'], 'result': 'device'}},"
     " 'types': {'numba.cuda.Kernel': {'subscript': {'type': 'numba.cuda.Kernel'},"
     "                                 'call': {'roles': ['gpu-work']}}}}"},
};

static gl_libmodels *models_new(void) {
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  for (size_t i = 0; i < sizeof(model_files) / sizeof(model_files[0]); i++) {
    char *json = strdup(model_files[i][1]);
    for (char *p = json; *p; p++)
      if (*p == '\'') *p = '"';
    gl_libmodels_add(lm, model_files[i][0], json, strlen(json), &errs);
    free(json);
  }
  gl_libmodels_freeze(lm, &errs);
  if (errs.len) {
    char buf[1024];
    gl_diag_format(&errs.data[0], buf, sizeof(buf));
    fail_msg("model error: %s", buf);
  }
  gl_vec_free(&errs);
  return lm;
}

static int setup(void **state) {
  *state = models_new();
  return 0;
}

static int teardown(void **state) {
  gl_libmodels_free(*state);
  return 0;
}

/* ---- a built model ---------------------------------------------------------------------- */

/* fx, done() and find() come from model_fixture.h. */
static fx *build_with(const char *code, const gl_libmodels *lm) {
  return fx_build(code, strlen(code), lm);
}

static const char *prov_name(gl_prov p) {
  return p == GL_PROV_DEVICE ? "device" : p == GL_PROV_HOST ? "host" : "unknown";
}

/* Node shorthand: "call:x.get()" / "identifier:x#2" (the third one). */
static TSNode at(const fx *f, const char *spec) {
  char type[64], text[256];
  const char *colon = strchr(spec, ':');
  assert_non_null(colon);
  snprintf(type, sizeof(type), "%.*s", (int)(colon - spec), spec);
  snprintf(text, sizeof(text), "%s", colon + 1);
  int nth = 0;
  char *hash = strrchr(text, '#');
  if (hash && hash[1] >= '0' && hash[1] <= '9') {
    nth = atoi(hash + 1);
    *hash = '\0';
  }
  return find(f, type, text, nth);
}

#define PROV(f, spec, want)                                                                   \
  do {                                                                                        \
    const char *got_ = prov_name(gl_model_prov((f)->m, at((f), (spec))));                     \
    if (strcmp(got_, (want)) != 0) fail_msg("%s: %s, want %s", (spec), got_, (want));         \
  } while (0)

#define ROLES(f, spec, want)                                                                  \
  do {                                                                                        \
    uint32_t got_ = gl_model_roles((f)->m, at((f), (spec)));                                  \
    if (got_ != (uint32_t)(want)) fail_msg("%s: roles 0x%x, want 0x%x", (spec), got_, (unsigned)(want)); \
  } while (0)

static const char *type_name(const fx *f, const char *spec) {
  uint16_t t = gl_model_type(f->m, at(f, spec));
  return t == GL_TYPE_NONE ? "-" : gl_libmodels_type_name(f->lm, t);
}

#define TYPE(f, spec, want) assert_string_equal(type_name((f), (spec)), (want))
#define FD(f, spec, want) \
  do { if (gl_model_from_device((f)->m, at((f), (spec))) != (want)) fail_msg("%s: from-device %d", (spec), !(want)); } while (0)
#define LI(f, spec, want) \
  do { if (gl_model_loop_invariant((f)->m, at((f), (spec))) != (want)) fail_msg("%s: loop-invariant %d", (spec), !(want)); } while (0)

enum {
  D2H = GL_ROLE_D2H, H2D = GL_ROLE_H2D, DR = GL_ROLE_DEVICE_RETURNING,
  HR = GL_ROLE_HOST_RETURNING, WORK = GL_ROLE_GPU_WORK, ALLOC = GL_ROLE_ALLOC, SYNC = GL_ROLE_SYNC,
};

#define HEAD "import cupy as cp\nimport numpy as np\nimport torch\n"

#endif
