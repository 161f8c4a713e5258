/* test_prov.c: unit tests for the provenance pass (model.h's provenance queries).
 * Owns: checks of docs/models.md's provenance rules on small sources with library models built
 *       from inline JSON (so a change to rules/models/ cannot break them): constructors, methods
 *       by receiver type, attributes, subscripts, operators, joins at branches, loops, try and
 *       with, loop-carried values, unpacking, device keywords and .to(), builtins, decorators,
 *       from-device, free variables, loop invariance; each with its near misses; and the six
 *       provenance predicates through a real query, with their load errors.
 * Not: name resolution (test_model.c), the model file format (test_libmodel.c).
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
#include "match/match.h"
#include "model/model.h"
#include "model_fixture.h"
#include "parse/parse.h"

#include "prov_fixture.h"


/* ---- calls, methods, attributes ----------------------------------------------------------- */

static void test_constructors_and_methods(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\nh = x.get()\nv = x.item()\nd = {}\ng = d.get('k')\n"
                          "n = np.zeros(3)\ni = n.item()\ns = x.sum()\n", *state);
  PROV(f, "call:cp.zeros(3)", "device");
  ROLES(f, "call:cp.zeros(3)", ALLOC | WORK | DR);
  TYPE(f, "call:cp.zeros(3)", "cupy.ndarray");
  PROV(f, "identifier:x", "device"); /* the target */
  TYPE(f, "identifier:x", "cupy.ndarray");
  PROV(f, "identifier:x#1", "device"); /* a read */
  PROV(f, "call:x.get()", "host");
  ROLES(f, "call:x.get()", D2H | HR);
  TYPE(f, "call:x.get()", "numpy.ndarray");
  ROLES(f, "call:x.item()", D2H | HR);
  ROLES(f, "call:d.get('k')", 0); /* a dict: no type, no method */
  PROV(f, "call:d.get('k')", "unknown");
  PROV(f, "identifier:n", "host");
  ROLES(f, "call:n.item()", 0); /* numpy's item: receiver-device fails */
  PROV(f, "call:n.item()", "host");
  ROLES(f, "call:x.sum()", WORK); /* the '*' method */
  TYPE(f, "call:x.sum()", "cupy.ndarray");
  PROV(f, "attribute:x.get", "unknown"); /* a callee is not a value */
  PROV(f, "identifier:get", "unknown");
  done(f);
}

/* A wildcard yields to the method of a typed receiver: with `cupy.*` as gpu-work,
 * cp.cuda.Stream.null.synchronize() is still the Stream's sync (the exact attribute entry types
 * the receiver), while an untyped name under the wildcard keeps the wildcard's roles. */
static void test_wildcard_yields_to_typed_receiver(void **state) {
  (void)state;
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  const char *json =
      "{\"library\": \"cupy\", \"functions\": {"
      " \"cupy.*\": {\"roles\": [\"gpu-work\"], \"result\": \"device\"},"
      " \"cupy.cuda.Stream.null\": {\"result\": \"host\", \"type\": \"cupy.cuda.Stream\"}},"
      " \"types\": {\"cupy.cuda.Stream\": {\"methods\": {\"synchronize\": {\"roles\": [\"sync\"]}}}}}";
  gl_libmodels_add(lm, "w/models/cupy.json", json, strlen(json), &errs);
  gl_libmodels_freeze(lm, &errs);
  assert_int_equal(errs.len, 0);
  fx *f = build_with("import cupy as cp\ncp.cuda.Stream.null.synchronize()\ncp.fft.fft(1)\n", lm);
  ROLES(f, "call:cp.cuda.Stream.null.synchronize()", SYNC);
  ROLES(f, "call:cp.fft.fft(1)", WORK);
  done(f);
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

/* arg0-not-host / arg0-not-device: copies of data already on the target side copy nothing, and
 * an unknown argument keeps the role. */
static void test_when_arg0_not(void **state) {
  (void)state;
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  const char *json =
      "{\"library\": \"cupy\", \"functions\": {"
      " \"cupy.zeros\": {\"result\": \"device\"},"
      " \"cupy.asnumpy\": {\"roles\": [\"d2h\"], \"when\": \"arg0-not-host\", \"result\": \"host\"},"
      " \"cupy.asarray\": {\"roles\": [\"h2d\"], \"when\": \"arg0-not-device\", \"result\": \"device\"}}}";
  const char *np = "{\"library\": \"numpy\", \"functions\": {\"numpy.zeros\": {\"result\": \"host\"}}}";
  gl_libmodels_add(lm, "w/models/cupy.json", json, strlen(json), &errs);
  gl_libmodels_add(lm, "w/models/numpy.json", np, strlen(np), &errs);
  gl_libmodels_freeze(lm, &errs);
  assert_int_equal(errs.len, 0);
  fx *f = build_with("import cupy as cp\nimport numpy as np\nd = cp.zeros(3)\nh = np.zeros(3)\n"
                     "cp.asnumpy(h)\ncp.asnumpy(d)\ncp.asnumpy(u)\n"
                     "cp.asarray(d)\ncp.asarray(h)\ncp.asarray(u)\n", lm);
  ROLES(f, "call:cp.asnumpy(h)", 0);
  ROLES(f, "call:cp.asnumpy(d)", D2H);
  ROLES(f, "call:cp.asnumpy(u)", D2H);
  ROLES(f, "call:cp.asarray(d)", 0);
  ROLES(f, "call:cp.asarray(h)", H2D);
  ROLES(f, "call:cp.asarray(u)", H2D);
  done(f);
  gl_libmodels_free(lm);
  gl_vec_free(&errs);
}

static void test_unannotated_parameter_is_unknown(void **state) {
  fx *f = build_with(HEAD "def f(a, b: cp.ndarray, c: 'cp.ndarray' = None, *d, **e):\n"
                          "    a.get()\n    b.get()\n    return a, b\n"
                          "def g(t: torch.Tensor):\n    return t.item()\n"
                          "def h(n: np.ndarray):\n    return n\n",
                     *state);
  PROV(f, "identifier:n#1", "host"); /* numpy.ndarray values are host data */
  ROLES(f, "call:a.get()", 0);
  PROV(f, "identifier:a#1", "unknown");
  ROLES(f, "call:b.get()", D2H | HR);
  PROV(f, "identifier:b", "device"); /* the parameter itself */
  TYPE(f, "identifier:b#1", "cupy.ndarray");
  PROV(f, "identifier:c", "unknown"); /* a string annotation is not read */
  PROV(f, "identifier:t#1", "unknown"); /* torch.Tensor: device only when made so */
  TYPE(f, "identifier:t#1", "torch.Tensor");
  ROLES(f, "call:t.item()", 0);
  PROV(f, "call:t.item()", "host");
  done(f);
}

static void test_attributes_and_subscripts(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\ns = x.shape\nt = x.T\nr = x[0]\nq = x[1:]\n"
                          "l = [1]\ne = l[0]\nf32 = cp.float32\n"
                          "cp.cuda.Stream.null.synchronize()\nz = cp.zeros\n",
                     *state);
  PROV(f, "attribute:x.shape", "host");
  PROV(f, "attribute:x.T", "device");
  TYPE(f, "attribute:x.T", "cupy.ndarray");
  PROV(f, "subscript:x[0]", "device");
  ROLES(f, "subscript:x[0]", WORK);
  PROV(f, "subscript:x[1:]", "device");
  PROV(f, "subscript:l[0]", "unknown");
  PROV(f, "attribute:cp.float32", "host"); /* a module attribute */
  TYPE(f, "attribute:cp.cuda.Stream.null", "cupy.cuda.Stream");
  ROLES(f, "call:cp.cuda.Stream.null.synchronize()", SYNC);
  PROV(f, "attribute:cp.zeros", "unknown"); /* a function, not its result */
  done(f);
}

static void test_operators(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\nh = np.zeros(3)\na = x + 1\nb = -x\nc = x > 0\n"
                          "d = x is None\ne = h + 1\ng = u + 1\nk = 1 + 2\nm = not x\n"
                          "o = x or h\np = (x)\nq = x if u else h\nr = x if u else cp.ones(2)\n"
                          "t = 2 * x\n",
                     *state);
  PROV(f, "binary_operator:x + 1", "device");
  ROLES(f, "binary_operator:x + 1", WORK);
  TYPE(f, "binary_operator:x + 1", "cupy.ndarray");
  PROV(f, "unary_operator:-x", "device");
  PROV(f, "comparison_operator:x > 0", "device");
  PROV(f, "comparison_operator:x is None", "host");
  PROV(f, "binary_operator:h + 1", "host");
  TYPE(f, "binary_operator:h + 1", "numpy.ndarray");
  ROLES(f, "binary_operator:h + 1", 0);
  PROV(f, "binary_operator:u + 1", "unknown");
  PROV(f, "binary_operator:1 + 2", "host");
  PROV(f, "not_operator:not x", "host");
  PROV(f, "boolean_operator:x or h", "unknown");
  PROV(f, "parenthesized_expression:(x)", "device");
  PROV(f, "conditional_expression:x if u else h", "unknown");
  PROV(f, "conditional_expression:x if u else cp.ones(2)", "device");
  TYPE(f, "conditional_expression:x if u else cp.ones(2)", "cupy.ndarray");
  PROV(f, "binary_operator:2 * x", "device");
  done(f);
}

/* ---- bindings -------------------------------------------------------------------------------- */

static void test_rebinding_and_unpacking(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\nx = np.zeros(3)\ny = x\n"
                          "a, b = cp.zeros(1), np.zeros(1)\nc, d = cp.zeros(2)\ne, g = make()\n"
                          "(k, l), m = (cp.ones(1), 1), 2\n[p, *q] = cp.zeros(3), 1, 2\n"
                          "s = t = cp.ones(4)\nu, w = v = cp.ones(5), 1\nz = a.shape\nz0, z1 = z\n",
                     *state);
  PROV(f, "identifier:x#2", "host"); /* y = x after x = np.zeros */
  PROV(f, "identifier:a", "device");
  TYPE(f, "identifier:a", "cupy.ndarray");
  PROV(f, "identifier:b", "host");
  PROV(f, "identifier:c", "device"); /* unpacking device data: its rows, of its type */
  TYPE(f, "identifier:c", "cupy.ndarray");
  PROV(f, "identifier:d", "device");
  PROV(f, "identifier:e", "unknown");
  PROV(f, "identifier:k", "device");
  PROV(f, "identifier:l", "host");
  PROV(f, "identifier:m", "host");
  PROV(f, "identifier:p", "unknown"); /* a splat: no element-wise match, a tuple is unknown */
  PROV(f, "identifier:q", "unknown");
  PROV(f, "identifier:s", "device");
  PROV(f, "identifier:t", "device");
  PROV(f, "identifier:u", "device");
  PROV(f, "identifier:w", "host");
  PROV(f, "identifier:z0", "host");
  done(f);
}

static void test_augmented_walrus_with_for(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\ntotal = 0\ntotal += x.sum()\ncount = 0\ncount += 1\n"
                          "if (n := cp.ones(2)) is not None:\n    n.get()\n"
                          "with cp.cuda.Stream() as s:\n    pass\nwith open(p) as fh:\n    pass\n"
                          "for row in x:\n    row.get()\nfor i in range(3):\n    i.get()\n"
                          "r = [q.sum() for q in x]\nw = [q for q in range(3)]\n",
                     *state);
  PROV(f, "identifier:total#1", "device");
  PROV(f, "augmented_assignment:total += x.sum()", "device");
  PROV(f, "identifier:count#1", "host");
  PROV(f, "identifier:n", "device");
  ROLES(f, "call:n.get()", D2H | HR); /* n has cp.ones's type */
  PROV(f, "identifier:n#1", "device");
  TYPE(f, "identifier:s", "cupy.cuda.Stream");
  PROV(f, "identifier:fh", "unknown");
  PROV(f, "identifier:row#1", "device");
  PROV(f, "identifier:i#1", "unknown");
  PROV(f, "identifier:q#1", "device"); /* the comprehension target */
  ROLES(f, "call:q.sum()", 0);         /* an element has no type */
  PROV(f, "identifier:q#3", "unknown");
  done(f);
}

/* Comprehension clauses before their body, def and lambda bodies after their scope, class
 * bodies in place. */
static void test_evaluation_order(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\nm = [[y.get() for y in row] for row in x]\n"
                          "s = sum(r.get() for r in x)\nd = {k: v.item() for k, v in pairs}\n"
                          "g = lambda: x.get()\nh = lambda a: a.get()\n"
                          "class A:\n    w = cp.ones(3)\n    v = w.get()\n"
                          "    def meth(self):\n        return x.get(), w.get()\n"
                          "def outer():\n    z = cp.ones(2)\n    return [lambda: z.get() for _ in r]\n",
                     *state);
  PROV(f, "identifier:row#1", "device"); /* an element of x */
  PROV(f, "identifier:y#1", "device");   /* an element of row */
  ROLES(f, "call:y.get()", 0);           /* elements have no type */
  PROV(f, "identifier:r#1", "device");
  PROV(f, "identifier:v#1", "unknown");
  ROLES(f, "call:x.get()", D2H | HR);     /* in the lambda: x is free, device at the end */
  ROLES(f, "call:a.get()", 0);
  ROLES(f, "call:w.get()", D2H | HR);     /* the class body runs in place */
  ROLES(f, "call:x.get()#1", D2H | HR);
  ROLES(f, "call:w.get()#1", 0);          /* a method does not see the class's names */
  ROLES(f, "call:z.get()", D2H | HR);     /* a lambda in a comprehension in a def */
  done(f);
}

static void test_loop_second_walk_never_guesses_device(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\nfor i in r:\n    y = x.get()\n    x = np.zeros(3)\n"
                          "for i in r:\n    for j in r:\n        t = x\n        x = cp.ones(1)\n"
                          "        t.get()\n",
                     *state);
  /* The first walk saw x device at the head, the end of the body made it host: the body is
   * walked again with x unknown, so x.get() claims nothing. */
  ROLES(f, "call:x.get()", 0);
  PROV(f, "identifier:y", "unknown");
  PROV(f, "identifier:x#3", "unknown");   /* after the first loop */
  ROLES(f, "call:t.get()", 0);            /* host or device: it depends on the iteration */
  done(f);
  /* A loop inside a body walked a second time starts from unknown for every name it rebinds
   * (so each node is walked at most once per enclosing loop, plus once): k.get() is missed. */
  f = build_with(HEAD "x = cp.zeros(3)\nfor i in r:\n    k = cp.zeros(1)\n    for j in r:\n"
                      "        k.get()\n        k = k + 1\n        c = cp.ones(1)\n        c.get()\n"
                      "    x = np.zeros(3)\n",
                 *state);
  ROLES(f, "call:k.get()", 0);
  ROLES(f, "call:c.get()", D2H | HR); /* bound before its use in the iteration */
  done(f);
}

/* ---- joins ----------------------------------------------------------------------------------- */

static void test_branch_joins(void **state) {
  fx *f = build_with(HEAD "if c:\n    a = cp.zeros(3)\nelse:\n    a = np.zeros(3)\na\n"
                          "if c:\n    b = cp.zeros(3)\nelif d:\n    b = cp.ones(3)\nelse:\n"
                          "    b = cp.zeros(1)\nb\n"
                          "e = cp.zeros(3)\nif c:\n    e = cp.ones(3)\ne\n"
                          "g = np.zeros(3)\nif c:\n    g = cp.zeros(3)\ng\n"
                          "if c:\n    h = cp.zeros(3)\nh\n"
                          "if c:\n    k = cp.zeros(1)\n    k\nelse:\n    k\n",
                     *state);
  PROV(f, "identifier:a#2", "unknown");
  PROV(f, "identifier:b#3", "device");
  TYPE(f, "identifier:b#3", "cupy.ndarray");
  PROV(f, "identifier:e#2", "device");
  PROV(f, "identifier:g#2", "unknown");
  PROV(f, "identifier:h#1", "device");  /* unbound before the if: the branch's value or an error */
  PROV(f, "identifier:k#1", "device");
  PROV(f, "identifier:k#2", "unknown"); /* the else branch starts from before the if */
  done(f);
}

static void test_try_with_match_joins(void **state) {
  fx *f = build_with(HEAD "try:\n    a = cp.zeros(3)\nexcept E:\n    a = cp.ones(3)\na\n"
                          "b = cp.zeros(1)\ntry:\n    b = cp.ones(1)\nfinally:\n    b\nb\n"
                          "c = np.zeros(1)\ntry:\n    c = cp.zeros(1)\nexcept E:\n    pass\nc\n"
                          "with ctx():\n    d = cp.zeros(1)\n    d\nd\n"
                          "e = cp.zeros(1)\nwith ctx():\n    e = cp.ones(1)\ne\n"
                          "g = np.zeros(1)\nmatch v:\n    case 1:\n        g = cp.zeros(1)\n    case _:\n"
                          "        g = cp.ones(1)\ng\n",
                     *state);
  PROV(f, "identifier:a#2", "device");  /* unbound before the try: joined without it */
  PROV(f, "identifier:b#2", "device");  /* in finally: device before, device in the body */
  PROV(f, "identifier:b#3", "device");
  PROV(f, "identifier:c#2", "unknown"); /* host before, device in the body */
  PROV(f, "identifier:d#1", "device");
  PROV(f, "identifier:d#2", "device");   /* a with body runs: no join with the value before */
  PROV(f, "identifier:e#2", "device");
  PROV(f, "identifier:g#3", "unknown"); /* host before: a case may match nothing */
  done(f);
}

static void test_loops_join_and_carry(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\nfor i in r:\n    y = x.sum()\n    x = x * 2\nx\n"
                          "h = np.zeros(3)\nfor i in r:\n    z = h.sum()\n    h = cp.asarray(h)\nh\n"
                          "w = np.zeros(3)\nwhile w.any():\n    w = cp.asarray(w)\nw\n"
                          "a = cp.zeros(1)\nfor i in r:\n    pass\nelse:\n    a = np.zeros(1)\na\n"
                          "for i in r:\n    for j in r:\n        k = np.zeros(1)\n        k.sum()\n"
                          "        k = cp.zeros(1)\n",
                     *state);
  PROV(f, "call:x.sum()", "device"); /* x * 2 keeps x device: the body is a fixpoint */
  ROLES(f, "call:x.sum()", WORK);
  PROV(f, "identifier:x#4", "device");
  PROV(f, "call:h.sum()", "unknown"); /* host, then device: the second walk makes h unknown */
  PROV(f, "identifier:h#3", "unknown");
  PROV(f, "identifier:h#4", "unknown");
  PROV(f, "call:w.any()", "unknown"); /* a while condition is in the loop too */
  PROV(f, "identifier:w#3", "unknown");
  PROV(f, "identifier:a#1", "host");    /* in the else clause */
  PROV(f, "identifier:a#2", "unknown"); /* after the loop: joined with before */
  PROV(f, "call:k.sum()", "host"); /* k is bound before its use in every iteration */
  done(f);
}

static void test_free_variables(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\ny = cp.zeros(3)\ny = np.zeros(3)\n"
                          "def f():\n    x.get()\n    y.get()\n    h = x.get()\n"
                          "    def g():\n        return h\n    return h\n"
                          "hh = x.get()\ndef k():\n    return hh\n"
                          "def late():\n    return z.get()\nz = cp.ones(2)\n",
                     *state);
  ROLES(f, "call:x.get()", D2H | HR);
  ROLES(f, "call:y.get()", 0); /* assignments disagree */
  PROV(f, "identifier:h#1", "host"); /* free in g: the summary, without from-device */
  FD(f, "identifier:h#1", false);
  FD(f, "identifier:h#2", true);
  FD(f, "identifier:hh#1", false); /* from-device holds within one function */
  PROV(f, "identifier:hh#1", "host");
  ROLES(f, "call:z.get()", D2H | HR); /* the scope's value at its end */
  done(f);
}

/* ---- devices --------------------------------------------------------------------------------- */

static void test_device_keywords_and_to(void **state) {
  fx *f = build_with(HEAD "a = torch.zeros(3)\nb = torch.zeros(3, device='cuda')\n"
                          "c = torch.zeros(3, device=torch.device('cuda', 0))\n"
                          "d = torch.zeros(3, device='cpu')\ne = torch.zeros(3, device=dev)\n"
                          "gpu = torch.device('cuda')\ncpu = torch.device('cpu')\n"
                          "g = a.to(gpu)\nh = b.to(cpu)\nk = a.to('cuda:0')\nl = a.to(dev)\n"
                          "m = a.to(device=f'cuda:{rank}')\nn = a.cuda()\no = a.to(b.device)\n"
                          "p = torch.tensor([1], device='cuda')\nq = torch.tensor([1])\n"
                          "s = 'cuda' if u else 'cpu'\nt = a.to(s)\n",
                     *state);
  PROV(f, "identifier:a", "host");
  PROV(f, "identifier:b", "device");
  TYPE(f, "identifier:b", "torch.Tensor");
  PROV(f, "identifier:c", "device");
  PROV(f, "identifier:d", "host");
  PROV(f, "identifier:e", "device"); /* device=dev: the accelerator chosen at run time */
  PROV(f, "identifier:gpu", "device"); /* a device spec naming CUDA */
  PROV(f, "identifier:cpu", "host");
  PROV(f, "identifier:g", "device");
  PROV(f, "identifier:h", "host");
  PROV(f, "identifier:k", "device");
  PROV(f, "identifier:l", "device"); /* a.to(dev): linted for its GPU path */
  PROV(f, "identifier:m", "device");
  PROV(f, "identifier:n", "device");
  ROLES(f, "call:a.cuda()", H2D);
  PROV(f, "identifier:o", "device"); /* b.device: b is on CUDA */
  ROLES(f, "call:torch.tensor([1], device='cuda')", H2D);
  ROLES(f, "call:torch.tensor([1])", 0); /* result-device: a host tensor uploads nothing */
  PROV(f, "identifier:t", "device"); /* 'cuda' if u else 'cpu': the accelerator */
  done(f);
}

static void test_builtins_and_host_reads(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\na = float(x)\nb = float(3)\nprint(x)\nprint(len(x))\n"
                          "n = np.asarray(x)\nm = np.asarray([1])\ndef g(float):\n    return float(x)\n"
                          "def h():\n    print = log\n    print(x)\n",
                     *state);
  ROLES(f, "call:float(x)", D2H | HR);
  PROV(f, "call:float(x)", "host");
  FD(f, "call:float(x)", true);
  ROLES(f, "call:float(3)", 0);
  FD(f, "call:float(3)", false);
  ROLES(f, "call:print(x)", D2H);
  ROLES(f, "call:print(len(x))", 0);
  PROV(f, "call:len(x)", "host");
  ROLES(f, "call:np.asarray(x)", D2H | HR);
  ROLES(f, "call:np.asarray([1])", 0);
  ROLES(f, "call:float(x)#1", 0); /* a parameter named float */
  ROLES(f, "call:print(x)#1", 0); /* print rebound in h */
  done(f);
}

static void test_kernel_launch_by_decorator(void **state) {
  fx *f = build_with("from numba import cuda\nimport numba\nimport numpy as np\n"
                     "@cuda.jit\ndef k(a):\n    pass\n"
                     "@numba.cuda.jit(device=True)\ndef dk(a):\n    pass\n"
                     "def plain(a):\n    pass\n"
                     "h = np.zeros(3)\nk[1, 32](h)\ndk(h)\nplain[1, 2](h)\nk(h)\n"
                     "def run():\n    k[4, 64](h)\n",
                     *state);
  TYPE(f, "identifier:k", "numba.cuda.Kernel");
  ROLES(f, "call:k[1, 32](h)", WORK);
  TYPE(f, "subscript:k[1, 32]", "numba.cuda.Kernel");
  ROLES(f, "call:dk(h)", WORK);
  ROLES(f, "call:plain[1, 2](h)", 0);
  ROLES(f, "call:k(h)", WORK);
  ROLES(f, "call:k[4, 64](h)", WORK); /* a free variable keeps its type */
  done(f);
}

static void test_from_device(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\nh = x.get()\nm = np.mean(h)\ns = h + 1\nt = cp.asarray(h)\n"
                     "z = np.zeros(3)\nw = np.mean(z)\nr = h.sum()\nq = cp.asnumpy(x)\nu = cp.asnumpy(z)\n",
                     *state);
  FD(f, "identifier:h", true);
  FD(f, "call:np.mean(h)", true);
  FD(f, "binary_operator:h + 1", true);
  FD(f, "call:cp.asarray(h)", false); /* device again */
  FD(f, "call:np.mean(z)", false);
  FD(f, "call:h.sum()", true); /* a host method on a copied array */
  FD(f, "call:cp.asnumpy(x)", true);
  FD(f, "call:cp.asnumpy(z)", false); /* arg0-device fails: not a copy from the device */
  ROLES(f, "call:cp.asnumpy(z)", 0);
  done(f);
}

static void test_optional_import(void **state) {
  fx *f = build_with("try:\n    import cupy as cp\nexcept ImportError:\n    cp = None\n"
                     "x = cp.zeros(3)\nx.get()\n",
                     *state);
  PROV(f, "identifier:x", "device");
  ROLES(f, "call:x.get()", D2H | HR);
  done(f);
}

static void test_without_models(void **state) {
  (void)state;
  fx *f = build_with(HEAD "x = cp.zeros(3)\nfor i in r:\n    x.get()\n    3\n", NULL);
  PROV(f, "call:cp.zeros(3)", "unknown");
  ROLES(f, "call:x.get()", 0);
  TYPE(f, "identifier:x", "-");
  FD(f, "call:x.get()", false);
  LI(f, "integer:3#1", false);
  done(f);
}

/* ---- loop invariance ------------------------------------------------------------------------- */

static void test_loop_invariant(void **state) {
  fx *f = build_with(HEAD "a = np.zeros(3)\nb = np.zeros(3)\nc = np.zeros(3)\nd = np.zeros(3)\n"
                          "e = np.zeros(3)\ng = np.zeros(3)\nm = np.zeros(3)\n"
                          "cp.asarray(a)\n"
                          "for i in range(10):\n"
                          "    cp.asarray(a)\n"        /* untouched: yes */
                          "    cp.asarray(b)\n    b = f(i)\n"
                          "    cp.asarray(c)\n    c[i] = 1\n"
                          "    cp.asarray(d)\n    d.fill(0)\n"
                          "    cp.asarray(i)\n"
                          "    cp.asarray(e)\n    log(e)\n"
                          "    cp.asarray(g.T)\n"
                          "    cp.asarray(m)\n    m += 1\n"
                          "    cp.asarray(37)\n    cp.asarray('s')\n    cp.asarray(f'{i}')\n"
                          "    cp.asarray(-1)\n    cp.asarray(np.pi)\n    cp.asarray(a + 1)\n"
                          "    cp.asarray(len)\n"
                          "[cp.asarray(a) for q in range(3)]\n[cp.asarray(q) for q in range(3)]\n"
                          "while True:\n    cp.asarray(a)\n    del a\n",
                     *state);
  LI(f, "identifier:a#1", false); /* outside any loop */
  LI(f, "identifier:a#2", true);
  LI(f, "identifier:b#1", false);
  LI(f, "identifier:c#1", false);
  LI(f, "identifier:d#1", false);
  LI(f, "identifier:i#3", false); /* the loop target */
  LI(f, "identifier:e#1", false); /* passed to another call */
  LI(f, "attribute:g.T", true);
  LI(f, "identifier:m#1", false);
  LI(f, "integer:37", true);
  LI(f, "string:'s'", true);
  LI(f, "string:f'{i}'", false);
  LI(f, "unary_operator:-1", true);
  LI(f, "attribute:np.pi", true);
  LI(f, "binary_operator:a + 1", false);
  LI(f, "identifier:len", true); /* a builtin */
  LI(f, "identifier:a#4", true);  /* in a comprehension that never touches a */
  LI(f, "identifier:q#1", false); /* the comprehension's target */
  LI(f, "identifier:a#5", false); /* del a */
  done(f);
}

/* Passing a name to copying calls (uploads, downloads) does not mutate it; np.copyto does. */
static void test_loop_invariant_through_copies(void **state) {
  fx *f = build_with(HEAD "h = np.zeros(3)\nk = np.zeros(3)\n"
                          "for i in range(10):\n"
                          "    cp.asarray(h)\n    torch.tensor(h, device='cuda')\n    cp.asnumpy(h)\n"
                          "    np.copyto(k, i)\n    cp.asarray(k)\n",
                     *state);
  LI(f, "identifier:h#1", true);
  LI(f, "identifier:h#2", true);
  LI(f, "identifier:k#2", false); /* np.copyto(k, ...) may write into k */
  done(f);
}

/* A list or tuple of constants is host data and the same every iteration. */
static void test_constant_displays(void **state) {
  fx *f = build_with(HEAD "x = cp.zeros(3)\nl = [1.0, 2.0]\nm = [x, 1]\nk = [x.get(), 1]\n"
                          "for i in range(3):\n    cp.asarray([1, -2.5, 'a'])\n    cp.asarray([i, 2])\n"
                          "    cp.asarray(((1, 2), (3, 4)))\n    cp.asarray([f'{i}'])\n",
                     *state);
  PROV(f, "list:[1.0, 2.0]", "host");
  PROV(f, "list:[x, 1]", "unknown");
  FD(f, "list:[x.get(), 1]", true);   /* a list of host copies remembers where they came from */
  LI(f, "list:[1, -2.5, 'a']", true);
  LI(f, "list:[i, 2]", false);
  LI(f, "tuple:((1, 2), (3, 4))", true);
  LI(f, "list:[f'{i}']", false);
  done(f);
}

static void test_loop_invariant_scopes(void **state) {
  fx *f = build_with(HEAD "h = np.zeros(3)\nfor i in r:\n    def inner():\n        cp.asarray(h)\n"
                          "    for j in r:\n        cp.asarray(h)\n    h = 1\n",
                     *state);
  LI(f, "identifier:h#1", false); /* inside a def: not in a loop of its function */
  LI(f, "identifier:h#2", true);  /* the outer loop rebinds h; only the innermost one counts */
  done(f);
  f = build_with(HEAD "h = np.zeros(3)\nfor i in r:\n    for j in r:\n        h.fill(0)\n"
                      "    cp.asarray(h)\n",
                 *state);
  LI(f, "identifier:h#2", false); /* a mutation in an inner loop touches the outer one too */
  done(f);
}

/* ---- predicates through the matcher ---------------------------------------------------------- */

static gl_rule *rule_new(const char *id, const char *query) {
  gl_rule *r = calloc(1, sizeof(*r));
  r->id = strdup(id);
  r->name = strdup(id);
  r->level = GL_LEVEL_WARNING;
  r->message = strdup("found {hit}");
  r->query = strdup(query);
  r->query_line = 10;
  r->path = strdup("rules/t/GPU900.md");
  r->enabled = true;
  return r;
}

static void rule_free(gl_rule *r) {
  free(r->id);
  free(r->name);
  free(r->message);
  free(r->query);
  free(r->path);
  free(r);
}

/* Runs query over code with the models; returns the findings' texts joined by '|' in `out`,
 * or the first load error. */
static void run_query(const gl_libmodels *lm, const char *query, const char *code, char *out,
                      size_t cap) {
  gl_ruleset set;
  memset(&set, 0, sizeof(set));
  set.models = (gl_libmodels *)lm;
  gl_rule *r = rule_new("GPU900", query);
  gl_vec_push(&set.rules, r);
  gl_diag_list errs = {0};
  gl_matcher *m = gl_match_new(&set, gl_parse_language(), &errs);
  out[0] = '\0';
  if (!m) {
    gl_diag_format(&errs.data[0], out, cap);
  } else {
    fx *f = build_with(code, lm);
    gl_match_ctx *ctx = gl_match_ctx_new(m, 0, 0);
    gl_file_result res;
    memset(&res, 0, sizeof(res));
    gl_match_run(ctx, &f->src, f->tree, f->m, &res);
    for (size_t i = 0; i < res.findings.len; i++) {
      const gl_region *g = &res.findings.data[i].region;
      size_t at = strlen(out);
      snprintf(out + at, cap - at, "%s%.*s", i ? "|" : "", (int)(g->end_byte - g->start_byte),
               f->src.bytes + g->start_byte);
    }
    gl_file_result_free(&res);
    gl_match_ctx_free(ctx);
    gl_match_free(m);
    done(f);
  }
  gl_vec_free(&errs);
  rule_free(r);
  gl_vec_free(&set.rules);
}

#define QUERY_EQ(lm, q, code, want)                       \
  do {                                                    \
    char buf_[1024];                                      \
    run_query((lm), (q), (code), buf_, sizeof(buf_));     \
    assert_string_equal(buf_, (want));                    \
  } while (0)

static void test_predicates_in_queries(void **state) {
  const gl_libmodels *lm = *state;
  const char *code = HEAD "x = cp.zeros(3)\nd = {}\nw = np.ones(2)\nfor b in r:\n"
                          "    h = x.get()\n    d.get(1)\n    cp.asarray(h)\n    cp.asarray(w)\n"
                          "    n = np.zeros(2)\n";
  QUERY_EQ(lm, "((call) @hit (#role? @hit \"d2h\" \"sync\"))", code, "x.get()");
  QUERY_EQ(lm, "((call) @hit (#role? @hit \"alloc\"))", code, "cp.zeros(3)");
  QUERY_EQ(lm, "((identifier) @hit (#device? @hit))", code, "x|x");
  QUERY_EQ(lm, "((call) @hit (#host? @hit) (#in-loop? @hit))", code, "x.get()|np.zeros(2)");
  QUERY_EQ(lm, "((call) @hit (#type? @hit \"numpy.ndarray\" \"cupy.ndarray\"))", code,
           "cp.zeros(3)|x.get()|cp.asarray(h)|cp.asarray(w)|np.zeros(2)");
  QUERY_EQ(lm, "((identifier) @hit (#from-device? @hit))", code, "h|h");
  /* outside a loop only constants are invariant (for defs that run per step as a whole) */
  QUERY_EQ(lm, "((argument_list (_) @hit) (#loop-invariant? @hit))", code, "3|2|1|w|2");
  QUERY_EQ(lm, "((call arguments: (argument_list (_) @hit)) @c (#role? @c \"h2d\") "
               "(#loop-invariant? @hit))",
           code, "w");
}

/* #builtin?: a name bound nowhere in its scope chain; a local def or import shadows it. */
static void test_builtin_predicate(void **state) {
  const gl_libmodels *lm = *state;
  const char *code = "print(1)\nlen(2)\ndef f():\n    def print(*a):\n        pass\n    print(3)\n"
                     "from rich import print as rp\nrp(4)\n";
  QUERY_EQ(lm, "((call function: (identifier) @hit) (#builtin? @hit \"print\" \"len\"))", code,
           "print|len");
  QUERY_EQ(lm, "((call function: (identifier) @hit) (#builtin? @hit \"len\"))", code, "len");
}

static void test_predicate_load_errors(void **state) {
  const gl_libmodels *lm = *state;
  QUERY_EQ(lm, "((call) @hit\n (#role? @hit \"d2h\" \"d2x\"))", "",
           "rules/t/GPU900.md:11:21: unknown role 'd2x'");
  QUERY_EQ(lm, "((call) @hit\n (#role? @hit \"pinned\"))", "",
           "rules/t/GPU900.md:11:15: unknown role 'pinned' for #role? (it names what a call makes; "
           "checks read it from the model)");
  QUERY_EQ(lm, "((call) @hit\n (#type? @hit \"cupy.Array\"))", "",
           "rules/t/GPU900.md:11:15: unknown type 'cupy.Array': no library model defines it");
  QUERY_EQ(lm, "((call) @hit\n (#device? @hit @hit))", "",
           "rules/t/GPU900.md:11:3: predicate '#device?' expects exactly one capture");
  QUERY_EQ(lm, "((call) @hit\n (#role? @hit))", "",
           "rules/t/GPU900.md:11:3: predicate '#role?' expects a capture, then one or more strings");
  QUERY_EQ(lm, "((call) @hit\n (#loop-invariant? \"x\"))", "",
           "rules/t/GPU900.md:11:3: predicate '#loop-invariant?' expects exactly one capture");
  QUERY_EQ(lm, "((call) @hit\n (#not-device? @hit))", "",
           "rules/t/GPU900.md:11:3: unknown predicate '#not-device?'");
  QUERY_EQ(NULL, "((call) @hit\n (#type? @hit \"cupy.ndarray\"))", "",
           "rules/t/GPU900.md:11:15: unknown type 'cupy.ndarray': no library model defines it");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_constructors_and_methods),
      cmocka_unit_test(test_wildcard_yields_to_typed_receiver),
      cmocka_unit_test(test_when_arg0_not),
      cmocka_unit_test(test_unannotated_parameter_is_unknown),
      cmocka_unit_test(test_attributes_and_subscripts),
      cmocka_unit_test(test_operators),
      cmocka_unit_test(test_rebinding_and_unpacking),
      cmocka_unit_test(test_augmented_walrus_with_for),
      cmocka_unit_test(test_evaluation_order),
      cmocka_unit_test(test_loop_second_walk_never_guesses_device),
      cmocka_unit_test(test_branch_joins),
      cmocka_unit_test(test_try_with_match_joins),
      cmocka_unit_test(test_loops_join_and_carry),
      cmocka_unit_test(test_free_variables),
      cmocka_unit_test(test_device_keywords_and_to),
      cmocka_unit_test(test_builtins_and_host_reads),
      cmocka_unit_test(test_kernel_launch_by_decorator),
      cmocka_unit_test(test_from_device),
      cmocka_unit_test(test_optional_import),
      cmocka_unit_test(test_without_models),
      cmocka_unit_test(test_loop_invariant),
      cmocka_unit_test(test_loop_invariant_through_copies),
      cmocka_unit_test(test_constant_displays),
      cmocka_unit_test(test_loop_invariant_scopes),
      cmocka_unit_test(test_predicates_in_queries),
      cmocka_unit_test(test_builtin_predicate),
      cmocka_unit_test(test_predicate_load_errors),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
