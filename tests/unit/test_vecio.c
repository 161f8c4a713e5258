/* test_vecio.c: the checks of the search-io-portability pack (GPU851, GPU852, GPU861, GPU863,
 * GPU871, GPU872) through the real engine, for what the rule fixtures cannot hold: exact
 * messages, positions and related locations, and the edges of what each check follows.
 * Threads: single-threaded test code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine_fixture.h"

static int setup(void **state) {
  static const char *const sel[] = {"search-io-portability"};
  return engine_setup(state, sel, 1);
}

static void test_fromfile_through_name(void **state) {
  gl_file_result r = lint_py(*state,
                             "import cupy as cp\nimport numpy as np\n\n"
                             "def load(p):\n"
                             "    h = np.fromfile(p, dtype=np.float32).reshape(-1, 8)\n"
                             "    return cp.asarray(h)\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_finding(f, "GPU861", 6, 12, 25);
  assert_string_equal(f->message,
                      "`np.fromfile` (line 5) reads the file into host memory and `cp.asarray` "
                      "then copies it to the GPU; KvikIO reads it straight into device memory "
                      "(`kvikio.CuFile(path, \"r\").read(buf)`)");
  assert_int_equal(f->nrelated, 1);
  assert_int_equal(f->related[0].start_line, 5);
  assert_int_equal(f->related[0].start_col, 9);
  assert_string_equal(f->related_msg[0], "the file is read into host memory here");
  gl_file_result_free(&r);
}

static void test_fromfile_edges(void **state) {
  /* a walrus binds, a later plain assignment forgets, a name of another function is unknown */
  gl_file_result r = lint_py(*state,
                             "import cupy as cp\nimport numpy as np\n"
                             "if (h := np.fromfile('a')) is not None:\n"
                             "    d = cp.asarray(h)\n"
                             "h = np.ones(3)\n"
                             "e = cp.asarray(h)\n"
                             "def f():\n"
                             "    return cp.asarray(h)\n");
  assert_int_equal(r.findings.len, 1);
  assert_finding(&r.findings.data[0], "GPU861", 4, 9, 22);
  gl_file_result_free(&r);
  r = lint_py(*state, "import cupy\nx = cupy.fromfile('a.bin', dtype=cupy.int8)\n");
  assert_int_equal(r.findings.len, 1);
  assert_finding(&r.findings.data[0], "GPU861", 2, 5, 44);
  assert_string_equal(r.findings.data[0].message,
                      "`cupy.fromfile` reads the file with NumPy into host memory and then copies "
                      "it to the GPU; KvikIO reads it straight into device memory "
                      "(`kvikio.CuFile(path, \"r\").read(buf)`)");
  assert_int_equal(r.findings.data[0].nrelated, 0);
  gl_file_result_free(&r);
}

static void test_pandas_reader(void **state) {
  gl_file_result r = lint_py(*state,
                             "import cudf\nimport pandas as pd\n"
                             "df = pd.read_parquet('x.parquet')[['a', 'b']]\n"
                             "g = cudf.DataFrame(df)\n"
                             "h = cudf.from_pandas(pd.read_csv('y.csv', iterator=True))\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_finding(f, "GPU863", 4, 5, 23);
  assert_string_equal(f->message,
                      "`pd.read_parquet` (line 3) parses the file on the CPU and `cudf.DataFrame` "
                      "then copies the frame to the GPU; read it with the matching `cudf.read_*` "
                      "function, which parses on the GPU");
  assert_string_equal(f->related_msg[0], "the file is parsed on the host here");
  gl_file_result_free(&r);
}

static void test_guard_message(void **state) {
  gl_file_result r = lint_py(*state,
                             "import numpy as np\nfrom numba import cuda\n\n"
                             "def pick(gpu):\n    if gpu:\n        return cuda\n    return np\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_finding(f, "GPU871", 2, 1, 23);
  assert_string_equal(f->message,
                      "`numba.cuda` is imported unconditionally, but this file has a CPU path "
                      "(`return np`, line 7): on a machine without it the module fails at import "
                      "before that path can run; import it in `try: ... except ImportError`, or "
                      "where the GPU path starts");
  assert_int_equal(f->related[0].start_line, 7);
  assert_int_equal(f->related[0].start_col, 5);
  gl_file_result_free(&r);
  /* the same file with an availability check anywhere: quiet */
  r = lint_py(*state,
              "import numpy as np\nfrom numba import cuda\n\n"
              "def pick(gpu):\n    xp = cuda if cuda.is_available() else np\n    return xp\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
  /* numpy alone, or numpy and the GPU package in two different functions: no CPU path */
  r = lint_py(*state,
              "import cupy as cp\nimport numpy as np\n"
              "def host():\n    xp = np\n    return xp\n"
              "def dev():\n    return cp\n"
              "try:\n    import cupy.cuda.cudnn\nexcept ImportError:\n    pass\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
}

static void test_cross_device_message(void **state) {
  gl_file_result r = lint_py(*state,
                             "import cupy as cp\n"
                             "with cp.cuda.Device(0):\n    a = cp.ones(4, dtype=cp.float32)\n"
                             "with cp.cuda.Device(1), open('log') as log:\n    b = 2 * a\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_finding(f, "GPU872", 5, 13, 14);
  assert_string_equal(f->message,
                      "`a` was made on GPU 0 (line 3) and is used here under "
                      "`cp.cuda.Device(1)`; copy it to this device first (`cp.asarray(a)` "
                      "inside the context) or keep the computation on one device");
  assert_int_equal(f->related[0].start_line, 3);
  assert_string_equal(f->related_msg[0], "the array is placed on its device here");
  gl_file_result_free(&r);
}

static void test_cross_device_torch(void **state) {
  gl_file_result r = lint_py(*state,
                             "import torch\n"
                             "x = torch.zeros(4, device='cuda:0')\n"
                             "y = torch.zeros(4, device='cuda:12')\n"
                             "z = torch.zeros(4, device='cuda:123')\n"
                             "w = x + y\nv = x + z\n");
  assert_int_equal(r.findings.len, 1); /* cuda:123 is not read as a device number */
  assert_finding(&r.findings.data[0], "GPU872", 5, 5, 6);
  assert_string_equal(r.findings.data[0].message,
                      "`x` is on cuda:0 (line 2) and is used here with data on cuda:12; move it "
                      "explicitly (`.to(...)`) or keep the computation on one device");
  gl_file_result_free(&r);
}

static void test_recall_and_metric(void **state) {
  const char *bench =
      "import faiss\nfrom cuvs.neighbors import brute_force, cagra\n"
      "def run(d, b, q):\n"
      "    cpu = faiss.IndexFlatIP(d)\n"
      "    i = cagra.build(cagra.IndexParams(), b)\n"
      "    return cagra.search(cagra.SearchParams(), i, q, 10)\n";
  gl_file_result r = lint_py(*state, bench);
  assert_int_equal(r.findings.len, 2);
  /* findings come in check order; the run sorts them later */
  size_t mi = strcmp(r.findings.data[0].rule->id, "GPU852") == 0 ? 0 : 1;
  const gl_finding *m = &r.findings.data[mi];
  const gl_finding *a = &r.findings.data[m == &r.findings.data[0] ? 1 : 0];
  assert_finding(m, "GPU852", 5, 21, 40);
  assert_string_equal(m->message,
                      "the GPU index uses squared L2 by default (`cagra.IndexParams()`) but the "
                      "Faiss index `faiss.IndexFlatIP` (line 4) uses inner product: the two rank "
                      "neighbours differently, so results and recall are not comparable; pass "
                      "`metric=\"inner_product\"`");
  assert_finding(a, "GPU851", 6, 12, 56);
  assert_string_equal(a->message,
                      "`cagra.search` is an approximate search and this file also runs the exact "
                      "search `faiss.IndexFlatIP` (line 4), but computes no recall: speed of an "
                      "approximate index means nothing without the fraction of true neighbours it "
                      "finds; report recall@k against the exact result");
  assert_string_equal(a->related_msg[0], "the exact search");
  gl_file_result_free(&r);
  /* a docstring that names recall is enough to stay quiet; so is a normalize call for GPU852 */
  r = lint_py(*state,
              "import faiss\nfrom cuvs.neighbors import cagra\n"
              "def run(d, b, q):\n"
              "    \"\"\"Recall is measured in eval.py.\"\"\"\n"
              "    faiss.normalize_L2(b)\n"
              "    cpu = faiss.IndexFlatIP(d)\n"
              "    i = cagra.build(cagra.IndexParams(), b)\n"
              "    return cagra.search(cagra.SearchParams(), i, q, 10)\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
}

int main(void) {
  gl_parse_install_hooks();
  gl_xalloc_install_cjson_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fromfile_through_name),
      cmocka_unit_test(test_fromfile_edges),
      cmocka_unit_test(test_pandas_reader),
      cmocka_unit_test(test_guard_message),
      cmocka_unit_test(test_cross_device_message),
      cmocka_unit_test(test_cross_device_torch),
      cmocka_unit_test(test_recall_and_metric),
  };
  return cmocka_run_group_tests(tests, setup, engine_teardown);
}
