/* test_summary.c: unit tests for function summaries and hot defs (model.h gl_model_prov,
 *       gl_model_roles, gl_model_local_call, gl_model_hot on calls of a file's own defs).
 * Owns: what a def returns at its calls (given device data, or always; not a generator's, not a
 *       def whose name is bound again), the d2h effect of a def at its calls (not under its own
 *       frequency guard), hot defs (called per iteration, through chains; not beside a loop of
 *       their own that does the GPU work; not under a guard), branches on the GPU path, and the
 *       accelerator a free variable's CUDA and CPU bindings select, names first bound in a
 *       branch or loop; each with near misses.
 * Not: the rest of the provenance pass (test_prov.c).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "libmodel/libmodel.h"
#include "model/model.h"
#include "model_fixture.h"
#include "parse/parse.h"

#include "prov_fixture.h"

#define HOT(f, spec, want) \
  do { if (gl_model_hot((f)->m, at((f), (spec))) != (want)) fail_msg("%s: hot %d", (spec), !(want)); } while (0)
#define LOCAL(f, spec, want) \
  do { if (gl_model_local_call((f)->m, at((f), (spec))) != (want)) fail_msg("%s: local call %d", (spec), !(want)); } while (0)

static void test_returns_at_calls(void **state) {
  fx *f = build_with(HEAD "def inc(a, n=3):\n    return a + 1\n"
                          "def make():\n    return cp.zeros(3)\n"
                          "def gen(a):\n    yield a\n"
                          "def ident(a):\n    return a\nident = wrap(ident)\n"
                          "def pair(k):\n    x = cp.zeros(k)\n    return x, x\n"
                          "def use():\n    y = inc(cp.zeros(3))\n    z = inc(np.zeros(3))\n"
                          "    w = make()\n    q = gen(cp.zeros(1))\n    r = ident(cp.zeros(1))\n"
                          "    p, s = pair(2)\n    y\n    z\n    w\n    q\n    r\n    p\n",
                     *state);
  PROV(f, "identifier:y#1", "device");   /* device data in, device data out */
  LOCAL(f, "call:inc(cp.zeros(3))", true);
  PROV(f, "identifier:z#1", "unknown");  /* host data in: the device walk says nothing */
  LOCAL(f, "call:inc(np.zeros(3))", false);
  PROV(f, "identifier:w#1", "device");   /* make returns device data whatever it is given */
  TYPE(f, "identifier:w#1", "cupy.ndarray");
  PROV(f, "identifier:q#1", "unknown");  /* a generator */
  PROV(f, "identifier:r#1", "unknown");  /* ident is bound again: no summary */
  PROV(f, "identifier:p#1", "device");   /* `return x, x` of device data, unpacked */
  done(f);
}

static void test_d2h_effects_at_calls(void **state) {
  fx *f = build_with("import cupy as cp\n"
                     "def show(t):\n    print(t.item())\n"
                     "def rare(i, t):\n    if i % 10 == 0:\n        t.item()\n"
                     "class Log:\n    def add(self, t):\n        self.v = t.item()\n"
                     "    def run(self, xs):\n        for x in xs:\n            self.add(cp.asarray(x))\n"
                     "            self.add(x)\n"
                     "def loop(xs):\n    for x in xs:\n        d = cp.asarray(x)\n        show(d)\n"
                     "        rare(1, d)\n        show(x)\n",
                     *state);
  ROLES(f, "call:show(d)", D2H);
  LOCAL(f, "call:show(d)", true);
  ROLES(f, "call:show(x)", 0);           /* x is of unknown provenance */
  ROLES(f, "call:rare(1, d)", 0);        /* rare reads under its own frequency guard */
  ROLES(f, "call:self.add(cp.asarray(x))", D2H);   /* a method of the class, through self */
  ROLES(f, "call:self.add(x)", 0);
  done(f);
}

static void test_hot_defs(void **state) {
  fx *f = build_with("import cupy as cp\n"
                     "def step(x):\n    y = cp.asarray(x)\n    y.get()\n"
                     "def epoch(xs):\n    for x in xs:\n        step(x)\n    z = cp.zeros(1)\n"
                     "    z.get()\n"
                     "def main(n, xs):\n    for i in range(n):\n        epoch(xs)\n"
                     "        cp.zeros(1).get()\n"
                     "    for i in range(n):\n        if i % 10 == 0:\n            rarely(xs)\n"
                     "def rarely(xs):\n    w = cp.zeros(1)\n    w.get()\n"
                     "def never(xs):\n    v = cp.zeros(1)\n    v.get()\n",
                     *state);
  HOT(f, "call:y.get()", true);              /* step runs per iteration of epoch's loop */
  HOT(f, "call:z.get()", false);             /* once per call, beside epoch's loop of steps */
  HOT(f, "call:cp.zeros(1).get()", false);   /* beside epoch(xs), a call with a GPU loop */
  HOT(f, "call:w.get()", false);             /* rarely is called every 10th iteration */
  HOT(f, "call:v.get()", false);             /* never is not called */
  done(f);
}

static void test_gpu_path_branches(void **state) {
  fx *f = build_with("import torch\n"
                     "def f(x, v, use_cuda, args):\n"
                     "    if use_cuda:\n        x = torch.tensor(x, device='cuda')\n    x\n"
                     "    if not use_cuda:\n        v = torch.tensor(v, device='cuda')\n    v\n"
                     "    w = args.w\n    if args.gpu is not None:\n"
                     "        w = torch.tensor(w, device='cuda')\n    w\n"
                     "    u = args.u\n    if args.device == 'cpu':\n"
                     "        u = torch.tensor(u, device='cuda')\n    u\n",
                     *state);
  PROV(f, "identifier:x#3", "device");    /* linted for its GPU path: the branch ran */
  PROV(f, "identifier:v#3", "unknown");   /* a negated condition: the GPU path skips it */
  PROV(f, "identifier:w#4", "device");    /* `is not None` is no negation */
  PROV(f, "identifier:u#4", "unknown");   /* a condition that names the CPU */
  done(f);
}

static void test_free_variable_accelerator(void **state) {
  fx *f = build_with("import torch\n"
                     "if ok:\n    dev = torch.device('cuda')\nelse:\n    dev = torch.device('cpu')\n"
                     "other = torch.device('cuda')\nother = make()\n"
                     "def g():\n    dev\n    other\n",
                     *state);
  TYPE(f, "identifier:dev#2", "torch.device");   /* the accelerator the program selects */
  TYPE(f, "identifier:other#2", "-");            /* bindings that disagree otherwise */
  done(f);
}

/* A name first bound inside nested loops keeps the body's value after them, also when the
 * outer loop needs its pessimistic second walk (`n` changes between its head and its end). */
static void test_unbound_through_loops(void **state) {
  fx *f = build_with(HEAD "n = np.zeros(1)\nfor i in r:\n    n = cp.zeros(1)\n    for j in r:\n"
                          "        v = cp.zeros(2)\n    v\n"
                          "w = np.zeros(1)\nfor i in r:\n    w = cp.zeros(1)\nw\n",
                     *state);
  PROV(f, "identifier:v#1", "device");   /* unbound before: only the body binds it */
  PROV(f, "identifier:w#2", "unknown");  /* host before the loop, device in it */
  done(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_returns_at_calls),
      cmocka_unit_test(test_d2h_effects_at_calls),
      cmocka_unit_test(test_hot_defs),
      cmocka_unit_test(test_gpu_path_branches),
      cmocka_unit_test(test_free_variable_accelerator),
      cmocka_unit_test(test_unbound_through_loops),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
