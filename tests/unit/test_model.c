/* test_model.c: unit tests for model.c / model_names.c (what names mean, loops, comments, depth).
 * Owns: checks of model.h's promises on trees parsed from strings with parse.c: every import alias
 *       form, scopes and shadowing (parameters, assignments, class bodies, comprehensions,
 *       global / nonlocal, walrus), identifiers that are not names, dotted names of imports,
 *       in-loop positions, comments, and deep trees walked without recursion.
 * Not: parsing limits (test_parse.c), query predicates (test_match.c).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "model_fixture.h"
#include "parse/parse.h"

/* ---- fixture ------------------------------------------------------------------------------- */

/* fx, done() and find() come from model_fixture.h; the name tests build without models. */
static fx *build_len(const char *code, size_t len) { return fx_build(code, len, NULL); }

static fx *build(const char *code) { return build_len(code, strlen(code)); }

/* Resolution of a node, or NULL when it does not resolve. */
static const char *res(fx *f, const char *type, const char *text, int nth) {
  TSNode n = find(f, type, text, nth);
  memset(f->buf, 'X', sizeof(f->buf));
  return gl_model_resolve(f->m, n, f->buf, sizeof(f->buf)) ? f->buf : NULL;
}

#define RES_EQ(f, type, text, nth, want)                                        \
  do {                                                                          \
    const char *got_ = res((f), (type), (text), (nth));                         \
    if (!got_) fail_msg("%s '%s' #%d: unresolved, want %s", (type), (text), (nth), (want)); \
    assert_string_equal(got_, (want));                                          \
  } while (0)

#define RES_NONE(f, type, text, nth)                                            \
  do {                                                                          \
    const char *got_ = res((f), (type), (text), (nth));                         \
    if (got_) fail_msg("%s '%s' #%d: resolved to %s, want none", (type), (text), (nth), got_); \
  } while (0)

/* Quick form: the first attribute with this text in `code`. */
static void attr_resolves(const char *code, const char *attr, const char *want) {
  fx *f = build(code);
  if (want) RES_EQ(f, "attribute", attr, 0, want);
  else RES_NONE(f, "attribute", attr, 0);
  done(f);
}

static bool loop_of(fx *f, const char *type, const char *text, int nth) {
  return gl_model_in_loop(f->m, find(f, type, text, nth));
}

/* ---- import forms -------------------------------------------------------------------------- */

static void test_import_as(void **state) {
  fx *f = build("import cupy as cp\nx = cp.zeros(3)\ny = cp\n");
  RES_EQ(f, "attribute", "cp.zeros", 0, "cupy.zeros");
  RES_NONE(f, "identifier", "cp", 0); /* the alias in the import statement */
  RES_EQ(f, "identifier", "cp", 1, "cupy");
  RES_EQ(f, "identifier", "cp", 2, "cupy");
  RES_EQ(f, "dotted_name", "cupy", 0, "cupy");
  RES_NONE(f, "identifier", "cupy", 0);
  RES_NONE(f, "identifier", "zeros", 0); /* attribute field */
  RES_NONE(f, "identifier", "x", 0);     /* assigned, not imported */
  done(f);
}

static void test_import_dotted_binds_first_segment(void **state) {
  fx *f = build("import a.b\nv = a.b.c\nw = a\nimport x.y.z\nx.y.z.f()\n");
  RES_EQ(f, "attribute", "a.b.c", 0, "a.b.c");
  RES_EQ(f, "attribute", "a.b", 0, "a.b");
  RES_EQ(f, "identifier", "a", 2, "a"); /* 0 and 1 are in dotted names */
  RES_EQ(f, "dotted_name", "a.b", 0, "a.b");
  RES_EQ(f, "attribute", "x.y.z.f", 0, "x.y.z.f");
  RES_NONE(f, "identifier", "b", 1);
  done(f);
}

static void test_from_import(void **state) {
  fx *f = build("from numba import cuda\n@cuda.jit\ndef k(a):\n    pass\n");
  RES_EQ(f, "attribute", "cuda.jit", 0, "numba.cuda.jit");
  RES_EQ(f, "identifier", "cuda", 1, "numba.cuda");
  RES_NONE(f, "identifier", "cuda", 0);
  RES_EQ(f, "dotted_name", "numba", 0, "numba");
  RES_EQ(f, "dotted_name", "cuda", 0, "numba.cuda");
  done(f);
}

static void test_from_import_as_and_lists(void **state) {
  fx *f = build("from a import b as c\nc.d\nfrom m.n import (p,\n    q as r)\np.x; r.y\n"
                "import s.t as u, v\nu.w; v.z\n");
  RES_EQ(f, "attribute", "c.d", 0, "a.b.d");
  RES_EQ(f, "dotted_name", "b", 0, "a.b");
  RES_EQ(f, "dotted_name", "a", 0, "a");
  RES_NONE(f, "identifier", "c", 0);
  RES_EQ(f, "attribute", "p.x", 0, "m.n.p.x");
  RES_EQ(f, "attribute", "r.y", 0, "m.n.q.y");
  RES_EQ(f, "dotted_name", "q", 0, "m.n.q");
  RES_EQ(f, "dotted_name", "m.n", 0, "m.n");
  RES_EQ(f, "attribute", "u.w", 0, "s.t.w");
  RES_EQ(f, "attribute", "v.z", 0, "v.z");
  RES_EQ(f, "dotted_name", "s.t", 0, "s.t");
  done(f);
}

static void test_dotted_name_whitespace_removed(void **state) {
  fx *f = build("import warp . sim as ws\nws.X\nimport warp.\\\n    optim\n");
  RES_EQ(f, "dotted_name", "warp . sim", 0, "warp.sim");
  RES_EQ(f, "attribute", "ws.X", 0, "warp.sim.X");
  RES_EQ(f, "dotted_name", "warp.\\\n    optim", 0, "warp.optim");
  done(f);
}

static void test_relative_wildcard_future(void **state) {
  fx *f = build("from . import x\nfrom .m import y\nfrom ..p.q import z as w\nx.f; y.g; w.h\n"
                "from cupy import *\nzeros(3)\nfrom __future__ import annotations\nannotations\n");
  RES_NONE(f, "attribute", "x.f", 0);
  RES_NONE(f, "attribute", "y.g", 0);
  RES_NONE(f, "attribute", "w.h", 0);
  RES_NONE(f, "dotted_name", "x", 0);
  RES_NONE(f, "dotted_name", "m", 0);
  RES_NONE(f, "dotted_name", "p.q", 0);
  RES_NONE(f, "dotted_name", "z", 0);
  RES_NONE(f, "identifier", "zeros", 0);
  RES_EQ(f, "dotted_name", "cupy", 0, "cupy");
  RES_NONE(f, "dotted_name", "annotations", 0);
  RES_NONE(f, "identifier", "annotations", 1);
  done(f);
}

static void test_import_inside_function_only_there(void **state) {
  fx *f = build("def f():\n    import cupy as cp\n    return cp.a\ncp.b\n"
                "def g():\n    return cp.c\n");
  RES_EQ(f, "attribute", "cp.a", 0, "cupy.a");
  RES_NONE(f, "attribute", "cp.b", 0);
  RES_NONE(f, "attribute", "cp.c", 0);
  done(f);
}

static void test_import_under_try(void **state) {
  attr_resolves("try:\n    import cupy as cp\nexcept ImportError:\n    pass\ncp.x\n", "cp.x",
                "cupy.x");
  attr_resolves("try:\n    import cupy as xp\nexcept ImportError:\n    import numpy as xp\nxp.x\n",
                "xp.x", NULL);
  attr_resolves("import cupy as cp\nimport cupy as cp\ncp.x\n", "cp.x", "cupy.x");
  attr_resolves("import a.b\nimport a.c\na.d\n", "a.d", "a.d");
}

/* The optional-import idiom: a None / False fallback in an ImportError handler keeps the name an
 * import; any other shape of fallback still makes it unresolved. */
static void test_import_fallback_none(void **state) {
  const char *pre = "try:\n    import cupy as cp\n";
  const struct {
    const char *handler;
    const char *want;
  } cases[] = {
      {"except ImportError:\n    cp = None\n", "cupy.x"},
      {"except ModuleNotFoundError:\n    cp = False\n", "cupy.x"},
      {"except (ImportError, ModuleNotFoundError) as e:\n    cp = None\n", "cupy.x"},
      {"except ImportError as e:\n    cp = None\n", "cupy.x"},
      {"except:\n    cp = None\n", "cupy.x"},
      {"except ImportError:\n    HAVE = False\n    cp = None\n", "cupy.x"},
      {"except ValueError:\n    cp = None\n", NULL},
      {"except (ImportError, ValueError):\n    cp = None\n", NULL},
      {"except ImportError:\n    cp = 0\n", NULL},
      {"except ImportError:\n    cp: object\n", NULL},
      {"except ImportError:\n    cp = make()\n", NULL},
      {"except ImportError:\n    if True:\n        cp = None\n", NULL},
      {"except ImportError:\n    cp, x = None, None\n", NULL},
      {"except ImportError:\n    pass\ncp = None\n", NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char code[256];
    snprintf(code, sizeof(code), "%s%scp.x\n", pre, cases[i].handler);
    attr_resolves(code, "cp.x", cases[i].want);
  }
  /* The try must import that very name, in the same scope. */
  attr_resolves("try:\n    import numpy as np\nexcept ImportError:\n    cp = None\ncp.x\n", "cp.x",
                NULL);
  attr_resolves("import cupy as cp\ntry:\n    pass\nexcept ImportError:\n    cp = None\ncp.x\n",
                "cp.x", NULL);
  attr_resolves("try:\n    import cupy as cp\nexcept ImportError:\n    def f():\n"
                "        cp = None\n        return cp.x\n",
                "cp.x", NULL);
  fx *f = build("try:\n    import cupy as cp\nexcept ImportError:\n    cp = None\ny = cp\n");
  RES_NONE(f, "identifier", "cp", 1); /* the fallback's target is not a use */
  RES_EQ(f, "identifier", "cp", 2, "cupy");
  done(f);
  attr_resolves("try:\n    from cupyx.scipy import ndimage\nexcept ImportError:\n"
                "    ndimage = None\nndimage.x\n",
                "ndimage.x", "cupyx.scipy.ndimage.x");
}

/* ---- shadowing ----------------------------------------------------------------------------- */

static void test_rebinding_in_same_scope(void **state) {
  attr_resolves("import cupy as cp\ncp.a\ncp = None\n", "cp.a", NULL);
  attr_resolves("import cupy\ncupy = 3\ncupy.x\n", "cupy.x", NULL);
  attr_resolves("import cupy as cp\ncp += 1\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\nfor cp in r:\n    pass\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\nwith f() as cp:\n    pass\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\nwith f() as (a, cp):\n    pass\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\ntry:\n    pass\nexcept E as cp:\n    pass\ncp.x\n", "cp.x",
                NULL);
  attr_resolves("import cupy as cp\na, (b, *cp) = t\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\n[a, cp] = t\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\ndef cp():\n    pass\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\nclass cp:\n    pass\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\nif (cp := 3):\n    pass\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\nimport numpy as cp\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\nfrom m import cp\ncp.x\n", "cp.x", NULL);
  attr_resolves("import cupy as cp\nfrom . import cp\ncp.x\n", "cp.x", NULL);
}

static void test_targets_that_do_not_rebind(void **state) {
  fx *f = build("import cupy as cp\ncp.x = 1\ncp[0] = 2\nx: cp.T = 3\ncp.y\n");
  RES_EQ(f, "attribute", "cp.x", 0, "cupy.x");
  RES_EQ(f, "attribute", "cp.T", 0, "cupy.T");
  RES_EQ(f, "attribute", "cp.y", 0, "cupy.y");
  done(f);
}

static void test_parameters_shadow(void **state) {
  static const char *const params[] = {"cp", "cp=1", "cp: int", "cp: int = 1", "*cp", "**cp",
                                       "a, *, cp", "a, /, cp", "a=cp.q, *cp"};
  for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
    char code[256];
    snprintf(code, sizeof(code), "import cupy as cp\ndef f(%s):\n    return cp.x\ncp.y\n",
             params[i]);
    fx *f = build(code);
    RES_NONE(f, "attribute", "cp.x", 0);
    RES_EQ(f, "attribute", "cp.y", 0, "cupy.y");
    done(f);
  }
}

static void test_parameter_defaults_and_annotations_outside(void **state) {
  fx *f = build("import cupy as cp\ndef f(cp=cp.ones, x: cp.ndarray = None) -> cp.ndarray:\n"
                "    return cp\n");
  RES_EQ(f, "attribute", "cp.ones", 0, "cupy.ones");
  RES_EQ(f, "attribute", "cp.ndarray", 0, "cupy.ndarray");
  RES_EQ(f, "attribute", "cp.ndarray", 1, "cupy.ndarray");
  RES_NONE(f, "identifier", "cp", 1); /* the parameter name */
  RES_EQ(f, "identifier", "cp", 2, "cupy"); /* the default value */
  RES_NONE(f, "identifier", "cp", 5); /* `return cp`: the parameter */
  RES_NONE(f, "identifier", "f", 0);
  done(f);
}

static void test_lambda_scope(void **state) {
  fx *f = build("import cupy as cp\ng = lambda cp: cp.x\nh = lambda a, b=cp.d: cp.y\n");
  RES_NONE(f, "attribute", "cp.x", 0);
  RES_EQ(f, "attribute", "cp.y", 0, "cupy.y");
  RES_EQ(f, "attribute", "cp.d", 0, "cupy.d");
  RES_NONE(f, "identifier", "cp", 1); /* lambda parameter */
  done(f);
}

static void test_class_body_scope(void **state) {
  fx *f = build("class A:\n    import cupy as cp\n    y = cp.a\n    def m(self):\n"
                "        return cp.b\n    z = [cp.c for i in r]\n    w = [i for i in cp.d]\n");
  RES_EQ(f, "attribute", "cp.a", 0, "cupy.a");
  RES_NONE(f, "attribute", "cp.b", 0); /* methods do not see the class body */
  RES_NONE(f, "attribute", "cp.c", 0); /* nor do comprehensions, except ... */
  RES_EQ(f, "attribute", "cp.d", 0, "cupy.d"); /* ... their first iterable */
  done(f);
  f = build("import cupy as cp\nclass A:\n    cp = 1\n    def m(self):\n        return cp.b\n"
            "    z = cp.c\n");
  RES_EQ(f, "attribute", "cp.b", 0, "cupy.b");
  RES_NONE(f, "attribute", "cp.c", 0);
  done(f);
}

static void test_comprehension_scope(void **state) {
  fx *f = build("import cupy as cp\n[cp.x for cp in y]\ncp.z\n[v for cp in cp.arange(3)]\n"
                "[v for a in b for v in cp.w]\n[v for a in b for cp in c for v in cp.u]\n"
                "{cp.k: 1 for cp in d}\n(cp.g for cp in e)\n{cp.s for cp in e}\n");
  RES_NONE(f, "attribute", "cp.x", 0);
  RES_EQ(f, "attribute", "cp.z", 0, "cupy.z");
  RES_EQ(f, "attribute", "cp.arange", 0, "cupy.arange");
  RES_EQ(f, "attribute", "cp.w", 0, "cupy.w");
  RES_NONE(f, "attribute", "cp.u", 0);
  RES_NONE(f, "attribute", "cp.k", 0);
  RES_NONE(f, "attribute", "cp.g", 0);
  RES_NONE(f, "attribute", "cp.s", 0);
  done(f);
}

static void test_nested_functions(void **state) {
  fx *f = build("import cupy as cp\ndef f():\n    import numpy as np\n    def g():\n"
                "        return cp.x, np.y\n    return g\n");
  RES_EQ(f, "attribute", "cp.x", 0, "cupy.x");
  RES_EQ(f, "attribute", "np.y", 0, "numpy.y");
  done(f);
  f = build("import cupy as cp\ndef f():\n    cp = 1\n    def g():\n        return cp.x\n");
  RES_NONE(f, "attribute", "cp.x", 0);
  done(f);
}

static void test_global_and_nonlocal(void **state) {
  attr_resolves("import cupy as cp\ndef f():\n    global cp\n    cp = None\ncp.x\n", "cp.x", NULL);
  fx *f = build("def f():\n    global cp\n    import cupy as cp\n    cp.a\ndef g():\n"
                "    return cp.y\ncp.z\n");
  RES_EQ(f, "attribute", "cp.a", 0, "cupy.a");
  RES_EQ(f, "attribute", "cp.y", 0, "cupy.y");
  RES_EQ(f, "attribute", "cp.z", 0, "cupy.z");
  RES_NONE(f, "identifier", "cp", 0); /* inside `global` */
  done(f);
  f = build("import cupy as cp\ndef f():\n    cp = 1\n    def g():\n        global cp\n"
            "        return cp.x\n    return cp.w\n");
  RES_EQ(f, "attribute", "cp.x", 0, "cupy.x");
  RES_NONE(f, "attribute", "cp.w", 0);
  done(f);
  f = build("def f():\n    import cupy as cp\n    def g():\n        nonlocal cp\n"
            "        cp = None\n    return cp.x\n");
  RES_NONE(f, "attribute", "cp.x", 0);
  done(f);
  /* nonlocal skips a function that does not bind the name */
  f = build("def f():\n    import cupy as cp\n    def g():\n        def h():\n"
            "            nonlocal cp\n            cp = 2\n    return cp.x\n");
  RES_NONE(f, "attribute", "cp.x", 0);
  done(f);
  f = build("def f():\n    import cupy as cp\n    def g():\n        nonlocal cp\n"
            "        return cp.v\n");
  RES_EQ(f, "attribute", "cp.v", 0, "cupy.v");
  done(f);
}

static void test_walrus_in_comprehension_binds_function(void **state) {
  fx *f = build("import cupy as cp\ndef f():\n    [(cp := y) for y in z]\n    return cp.x\ncp.w\n");
  RES_NONE(f, "attribute", "cp.x", 0);
  RES_EQ(f, "attribute", "cp.w", 0, "cupy.w");
  done(f);
}

/* ---- names that are not names -------------------------------------------------------------- */

static void test_non_names_do_not_resolve(void **state) {
  fx *f = build("import cupy\nx.cupy\nf(cupy=1)\ndef g(cupy):\n    pass\ndef h():\n    pass\n"
                "cupy.a\n");
  RES_NONE(f, "identifier", "cupy", 0); /* dotted_name in the import */
  RES_NONE(f, "identifier", "cupy", 1); /* attribute field of x.cupy */
  RES_NONE(f, "attribute", "x.cupy", 0);
  RES_NONE(f, "identifier", "cupy", 2); /* keyword argument name */
  RES_NONE(f, "identifier", "cupy", 3); /* parameter */
  RES_EQ(f, "identifier", "cupy", 4, "cupy");
  RES_EQ(f, "attribute", "cupy.a", 0, "cupy.a");
  RES_NONE(f, "identifier", "h", 0);
  done(f);
}

static void test_attribute_on_call_or_subscript(void **state) {
  fx *f = build("import cupy as cp\ncp.zeros(3).get\ncp.a[0].b\n(cp).c\n");
  RES_EQ(f, "attribute", "cp.zeros", 0, "cupy.zeros");
  RES_NONE(f, "attribute", "cp.zeros(3).get", 0);
  RES_EQ(f, "attribute", "cp.a", 0, "cupy.a");
  RES_NONE(f, "attribute", "cp.a[0].b", 0);
  RES_NONE(f, "attribute", "(cp).c", 0);
  RES_NONE(f, "call", "cp.zeros(3)", 0);
  done(f);
}

static void test_builtins_and_unbound(void **state) {
  fx *f = build("len(x)\nprint.y\n");
  RES_NONE(f, "identifier", "len", 0);
  RES_NONE(f, "attribute", "print.y", 0);
  done(f);
}

static void test_buffer_capacity(void **state) {
  fx *f = build("import cupy as cp\ncp.zeros\ncp\nimport a.bb\n");
  TSNode attr = find(f, "attribute", "cp.zeros", 0);
  char small[16];
  assert_false(gl_model_resolve(f->m, attr, small, 10));
  assert_true(gl_model_resolve(f->m, attr, small, 11));
  assert_string_equal(small, "cupy.zeros");
  TSNode id = find(f, "identifier", "cp", 2);
  assert_false(gl_model_resolve(f->m, id, small, 4));
  assert_true(gl_model_resolve(f->m, id, small, 5));
  assert_string_equal(small, "cupy");
  TSNode dn = find(f, "dotted_name", "a.bb", 0);
  assert_false(gl_model_resolve(f->m, dn, small, 4));
  assert_true(gl_model_resolve(f->m, dn, small, 5));
  assert_string_equal(small, "a.bb");
  assert_false(gl_model_resolve(f->m, dn, small, 0));
  done(f);
}

static void test_unindexed_nodes(void **state) {
  fx *f = build("import cupy\n");
  TSNode stmt = find(f, "import_statement", "import cupy", 0);
  TSNode kw = ts_node_child(stmt, 0); /* the anonymous `import` keyword */
  assert_false(ts_node_is_named(kw));
  assert_false(gl_model_resolve(f->m, kw, f->buf, sizeof(f->buf)));
  assert_false(gl_model_in_loop(f->m, kw));
  TSNode null = ts_node_child(kw, 0);
  assert_true(ts_node_is_null(null));
  assert_false(gl_model_resolve(f->m, null, f->buf, sizeof(f->buf)));
  assert_false(gl_model_resolve(f->m, stmt, f->buf, sizeof(f->buf)));
  done(f);
  gl_model_free(NULL);
}

/* ---- loops --------------------------------------------------------------------------------- */

static void test_in_loop_statements(void **state) {
  fx *f = build("for i in f():\n    g(i)\nelse:\n    h()\nwhile c():\n    d()\nelse:\n    e()\n"
                "k()\n");
  assert_false(loop_of(f, "call", "f()", 0));
  assert_true(loop_of(f, "call", "g(i)", 0));
  assert_true(loop_of(f, "identifier", "i", 1));
  assert_false(loop_of(f, "call", "h()", 0));
  assert_false(loop_of(f, "call", "c()", 0));
  assert_true(loop_of(f, "call", "d()", 0));
  assert_false(loop_of(f, "call", "e()", 0));
  assert_false(loop_of(f, "call", "k()", 0));
  done(f);
}

static void test_in_loop_comprehensions(void **state) {
  fx *f = build("[e(x) for x in s() if p(x) for y in t(x)]\n{k(x): v(x) for x in s2()}\n"
                "sum(q(x) for x in s3())\n{w(x) for x in s4()}\n");
  assert_true(loop_of(f, "call", "e(x)", 0));
  assert_false(loop_of(f, "call", "s()", 0));
  assert_true(loop_of(f, "call", "p(x)", 0));
  assert_true(loop_of(f, "call", "t(x)", 0));
  assert_true(loop_of(f, "call", "k(x)", 0));
  assert_true(loop_of(f, "call", "v(x)", 0));
  assert_false(loop_of(f, "call", "s2()", 0));
  assert_true(loop_of(f, "call", "q(x)", 0));
  assert_false(loop_of(f, "call", "s3()", 0));
  assert_false(loop_of(f, "call", "sum(q(x) for x in s3())", 0));
  assert_true(loop_of(f, "call", "w(x)", 0));
  assert_false(loop_of(f, "call", "s4()", 0));
  done(f);
}

static void test_in_loop_stops_at_definitions(void **state) {
  fx *f = build("for i in r:\n    def f(a=z()):\n        k()\n    f()\n    g = lambda: m()\n"
                "    class A:\n        w = n()\n    [a for a in it()]\n");
  assert_false(loop_of(f, "call", "k()", 0));
  assert_false(loop_of(f, "call", "z()", 0));
  assert_true(loop_of(f, "call", "f()", 0));
  assert_true(loop_of(f, "function_definition", "def f(a=z()):\n        k()", 0));
  assert_false(loop_of(f, "call", "m()", 0));
  assert_true(loop_of(f, "lambda", "lambda: m()", 0));
  assert_false(loop_of(f, "call", "n()", 0));
  assert_true(loop_of(f, "call", "it()", 0)); /* once per iteration of the for */
  done(f);
  f = build("def f():\n    while x:\n        def g():\n            for j in y:\n"
            "                a()\n            b()\n        c()\n");
  assert_true(loop_of(f, "call", "a()", 0));
  assert_false(loop_of(f, "call", "b()", 0));
  assert_true(loop_of(f, "call", "c()", 0));
  done(f);
}

/* ---- comments and depth -------------------------------------------------------------------- */

static void test_comments_collected_in_order(void **state) {
  fx *f = build("# a\nx = 1  # bb\ndef f():\n    # ccc\n    pass\ns = '# not a comment'\n");
  size_t n = 99;
  const gl_comment *c = gl_model_comments(f->m, &n);
  assert_int_equal(n, 3);
  assert_int_equal(c[0].start_byte, 0);
  assert_int_equal(c[0].end_byte, 3);
  assert_int_equal(c[1].start_byte, 11);
  assert_int_equal(c[1].end_byte, 15);
  assert_int_equal(c[2].start_byte, 29);
  assert_int_equal(c[2].end_byte, 34);
  assert_memory_equal(f->src.bytes + c[2].start_byte, "# ccc", 5);
  done(f);
  f = build("x = 1\n");
  gl_model_comments(f->m, &n);
  assert_int_equal(n, 0);
  assert_int_equal(gl_model_max_depth(f->m), 4); /* module > statement > assignment > x */
  done(f);
  f = build("");
  assert_int_equal(gl_model_max_depth(f->m), 1);
  done(f);
}

static void test_deep_parentheses(void **state) {
  size_t depth = 5000, len = 0;
  char *s = malloc(2 * depth + 32);
  assert_non_null(s);
  len += (size_t)snprintf(s, 32, "import cupy as cp\nx = ");
  memset(s + len, '(', depth);
  len += depth;
  len += (size_t)snprintf(s + len, 8, "cp.a");
  memset(s + len, ')', depth);
  len += depth;
  s[len++] = '\n';
  fx *f = build_len(s, len);
  /* module, expression_statement, assignment, 5,000 parenthesized_expression, attribute,
   * identifier */
  assert_int_equal(gl_model_max_depth(f->m), depth + 5);
  RES_EQ(f, "attribute", "cp.a", 0, "cupy.a");
  done(f);
  free(s);
}

static void test_long_attribute_chain(void **state) {
  size_t links = 5000, len = 0;
  char *s = malloc(2 * links + 32);
  char *want = malloc(2 * links + 8);
  assert_non_null(s);
  assert_non_null(want);
  len += (size_t)snprintf(s, 32, "import a as q\nx = q");
  size_t wl = (size_t)snprintf(want, 8, "a");
  for (size_t i = 0; i < links; i++) {
    memcpy(s + len, ".b", 2);
    memcpy(want + wl, ".b", 2);
    len += 2;
    wl += 2;
  }
  want[wl] = '\0';
  s[len++] = '\n';
  fx *f = build_len(s, len);
  assert_true(gl_model_max_depth(f->m) >= links + 3);
  TSNode top = ts_node_child_by_field_name(
      ts_node_named_child(ts_node_named_child(ts_tree_root_node(f->tree), 1), 0), "right", 5);
  assert_string_equal(ts_node_type(top), "attribute");
  assert_true(gl_model_resolve(f->m, top, f->buf, sizeof(f->buf)));
  assert_string_equal(f->buf, want);
  char small[64];
  assert_false(gl_model_resolve(f->m, top, small, sizeof(small)));
  done(f);
  free(s);
  free(want);
}

static void test_syntax_error_tree(void **state) {
  fx *f = build("import cupy as cp\ndef f(:\n    cp.x\nfor i in y:\n    cp.z(\n");
  RES_EQ(f, "dotted_name", "cupy", 0, "cupy");
  RES_EQ(f, "attribute", "cp.x", 0, "cupy.x");
  done(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_import_as),
      cmocka_unit_test(test_import_dotted_binds_first_segment),
      cmocka_unit_test(test_from_import),
      cmocka_unit_test(test_from_import_as_and_lists),
      cmocka_unit_test(test_dotted_name_whitespace_removed),
      cmocka_unit_test(test_relative_wildcard_future),
      cmocka_unit_test(test_import_inside_function_only_there),
      cmocka_unit_test(test_import_under_try),
      cmocka_unit_test(test_import_fallback_none),
      cmocka_unit_test(test_rebinding_in_same_scope),
      cmocka_unit_test(test_targets_that_do_not_rebind),
      cmocka_unit_test(test_parameters_shadow),
      cmocka_unit_test(test_parameter_defaults_and_annotations_outside),
      cmocka_unit_test(test_lambda_scope),
      cmocka_unit_test(test_class_body_scope),
      cmocka_unit_test(test_comprehension_scope),
      cmocka_unit_test(test_nested_functions),
      cmocka_unit_test(test_global_and_nonlocal),
      cmocka_unit_test(test_walrus_in_comprehension_binds_function),
      cmocka_unit_test(test_non_names_do_not_resolve),
      cmocka_unit_test(test_attribute_on_call_or_subscript),
      cmocka_unit_test(test_builtins_and_unbound),
      cmocka_unit_test(test_buffer_capacity),
      cmocka_unit_test(test_unindexed_nodes),
      cmocka_unit_test(test_in_loop_statements),
      cmocka_unit_test(test_in_loop_comprehensions),
      cmocka_unit_test(test_in_loop_stops_at_definitions),
      cmocka_unit_test(test_comments_collected_in_order),
      cmocka_unit_test(test_deep_parentheses),
      cmocka_unit_test(test_long_attribute_chain),
      cmocka_unit_test(test_syntax_error_tree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
