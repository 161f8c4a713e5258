/* model_eval.c: the value of each expression, from its children and the library models.
 * Owns: folding a finished child into its parent's frame (child slots, operand facts, call
 *       arguments, what a loop sees passed to a call), and the value and effective roles of
 *       identifiers, attributes (module attributes by qualified name, value attributes by
 *       type), calls (qualified functions, `builtins.<name>`, methods by receiver type, calling
 *       a typed value), subscripts, operators, conditionals, literals and device strings;
 *       decorator and annotation types.
 * Not: names and bindings (model_flow.c), the walk order (model_prov.c).
 * Threads: runs inside gl_model_build on one worker. */
#include "model/model_prov.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define DATA_ROLES \
  (GL_ROLE_D2H | GL_ROLE_H2D | GL_ROLE_DEVICE_RETURNING | GL_ROLE_HOST_RETURNING)

/* A value of `type` with provenance prov; a type all of whose values live on one side (its
 * model says so: cupy.ndarray device, numpy.ndarray host) makes an unknown provenance that side. */
static gl_pval make(const gl_prov_pass *pp, gl_prov prov, uint16_t type) {
  if (prov == GL_PROV_UNKNOWN && type != GL_TYPE_NONE) prov = gl_libmodels_type_prov(pp->lm, type);
  gl_pval v = {type, (uint8_t)prov};
  return v;
}

static gl_pval host(void) {
  gl_pval v = {GL_TYPE_NONE, GL_PROV_HOST};
  return v;
}

/* ---- devices named by values ------------------------------------------------------------- */

typedef enum names { NAMES_NOTHING, NAMES_CUDA, NAMES_CPU } names;

static names names_device(gl_pval v) {
  if (v.bits & GL_VAL_CPU) return NAMES_CPU;
  if ((v.bits & GL_VAL_CUDA) || gl_pval_prov(v) == GL_PROV_DEVICE) return NAMES_CUDA;
  return NAMES_NOTHING;
}

static gl_prov prov_of_names(names n) {
  return n == NAMES_CUDA ? GL_PROV_DEVICE : n == NAMES_CPU ? GL_PROV_HOST : GL_PROV_UNKNOWN;
}

static bool starts(const char *s, size_t len, const char *w) {
  size_t n = strlen(w);
  return len >= n && memcmp(s, w, n) == 0;
}

/* A string literal (or the first part of a concatenation): host data that names a CUDA device
 * when its text starts with "cuda", the CPU with "cpu" (prefix letters and quotes skipped, so
 * f"cuda:{rank}" counts). */
static gl_pval string_value(const gl_prov_pass *pp, TSNode n) {
  size_t len, i = 0;
  const char *s = gl_model__text(pp->m, n, &len);
  while (i < len && s[i] && strchr("rRbBuUfF", s[i])) i++;
  for (int q = 0; q < 3 && i < len && (s[i] == '"' || s[i] == '\''); q++) i++;
  gl_pval v = host();
  if (starts(s + i, len - i, "cuda")) v.bits |= GL_VAL_CUDA;
  else if (starts(s + i, len - i, "cpu")) v.bits |= GL_VAL_CPU;
  return v;
}

/* ---- applying an API entry --------------------------------------------------------------- */

typedef struct use {
  const gl_api_entry *e;
  gl_pval recv;            /* the receiver (method, attribute, subscript, operand, callee) */
  bool has_recv;
  uint32_t arg0, devkw;    /* node indexes or GL_MODEL__NONE */
  bool any_fd;             /* some input is from-device */
} use;

static use use_of(const gl_api_entry *e) {
  use u = {e, {GL_TYPE_NONE, 0}, false, GL_MODEL__NONE, GL_MODEL__NONE, false};
  return u;
}

/* True when node i, of unknown value, is what a program passes to `.to(...)` or torch.device()
 * to select its accelerator at run time: a name, attribute, call or subscript (`device`,
 * `args.device`, `self.device`, `get_device()`, `cfg["device"]`) that names no dtype (no
 * qualified name such as torch.float16, no name ending in `dtype`) and has no type (a tensor of
 * unknown device, `t.to(other)`, copies other's device, which may be the CPU). */
static bool may_name_accelerator(const gl_prov_pass *pp, uint32_t i) {
  if (i != GL_MODEL__NONE && pp->m->nodes.data[i].kind == GL_K_KEYWORD_ARGUMENT)   /* device=x */
    i = gl_model__index_of(pp->m, ts_node_child_by_field_id(pp->m->nodes.data[i].node, pp->m->f.value));
  if (i == GL_MODEL__NONE) return false;
  const gl_model__rec *r = &pp->m->nodes.data[i];
  if ((r->val & (GL_VAL_QUAL | GL_VAL_CPU | GL_VAL_CUDA)) || r->type != GL_TYPE_NONE ||
      (gl_prov)(r->val & GL_VAL_PROV) != GL_PROV_UNKNOWN)
    return false;
  switch ((gl_model__kind)r->kind) {
    case GL_K_IDENTIFIER: case GL_K_ATTRIBUTE: case GL_K_CALL: case GL_K_SUBSCRIPT: break;
    default: return false;
  }
  size_t len;
  const char *s = gl_model__text(pp->m, r->node, &len);
  size_t k = len;   /* the last identifier of the text */
  while (k > 0 && (isalnum((unsigned char)s[k - 1]) || s[k - 1] == '_')) k--;
  for (size_t j = k; j + 4 <= len; j++)
    if (memcmp(s + j, "type", 4) == 0) return false;
  return true;
}

/* The device `.to(x)` names (arg 0 or `device=`): device (named: accelerator marks), host, or
 * unknown. */
static gl_prov to_arg_prov(const gl_prov_pass *pp, const use *u, uint8_t *named) {
  uint32_t t = u->devkw != GL_MODEL__NONE ? u->devkw : u->arg0;
  if (t == GL_MODEL__NONE) return GL_PROV_UNKNOWN;
  gl_pval tv = gl_prov__val(pp, t);
  if (may_name_accelerator(pp, t)) {   /* x.to(device), x.to(args.device) */
    *named = GL_VAL_ACCEL;
    return GL_PROV_DEVICE;
  }
  *named = (uint8_t)(tv.bits & GL_VAL_ACCEL);
  return prov_of_names(names_device(tv));
}

/* Where an object that holds data (a module) was placed: its CUDA or CPU mark, when its own
 * provenance is unknown (device data names a CUDA device by the same marks: names_device). */
static names placed_on(gl_pval v) {
  if (gl_pval_prov(v) != GL_PROV_UNKNOWN) return NAMES_NOTHING;
  return (v.bits & GL_VAL_CUDA) ? NAMES_CUDA : (v.bits & GL_VAL_CPU) ? NAMES_CPU : NAMES_NOTHING;
}

/* The placement marks (GL_VAL_CUDA / GL_VAL_CPU, with GL_VAL_ACCEL) an entry's `places` gives
 * its result. */
static uint8_t placement(const gl_prov_pass *pp, const use *u, gl_pval a0) {
  const uint8_t marks = GL_VAL_CUDA | GL_VAL_CPU | GL_VAL_ACCEL;
  uint8_t named = 0;
  switch ((gl_places)u->e->places) {
    case GL_PLACES_RECEIVER:
      return u->has_recv && placed_on(u->recv) != NAMES_NOTHING ? (uint8_t)(u->recv.bits & marks) : 0;
    case GL_PLACES_ARG0: return placed_on(a0) != NAMES_NOTHING ? (uint8_t)(a0.bits & marks) : 0;
    case GL_PLACES_DEVICE: return GL_VAL_CUDA;
    case GL_PLACES_HOST: return GL_VAL_CPU;
    case GL_PLACES_TO_ARG: {
      gl_prov p = to_arg_prov(pp, u, &named);
      if (p == GL_PROV_DEVICE) return (uint8_t)(GL_VAL_CUDA | (named & GL_VAL_ACCEL));
      return p == GL_PROV_HOST ? GL_VAL_CPU : 0;
    }
    default: return 0;
  }
}

static gl_prov result_prov(const gl_prov_pass *pp, const use *u, gl_pval a0, uint8_t *named) {
  *named = 0;
  switch ((gl_result)u->e->result) {
    case GL_RESULT_DEVICE: return GL_PROV_DEVICE;
    case GL_RESULT_HOST: return GL_PROV_HOST;
    case GL_RESULT_RECEIVER: return u->has_recv ? gl_pval_prov(u->recv) : GL_PROV_UNKNOWN;
    case GL_RESULT_ARG0: return gl_pval_prov(a0);
    case GL_RESULT_DEFAULT_DEVICE: case GL_RESULT_DEVICE_KWARG:
      if (u->devkw == GL_MODEL__NONE) {
        if (u->e->result == GL_RESULT_DEVICE_KWARG) return GL_PROV_HOST;
        *named = GL_VAL_ACCEL;   /* the library's default device: CUDA on the GPU path */
        return GL_PROV_DEVICE;
      }
      if (may_name_accelerator(pp, u->devkw)) {   /* torch.zeros(n, device=device) */
        *named = GL_VAL_ACCEL;
        return GL_PROV_DEVICE;
      }
      *named = (uint8_t)(gl_prov__val(pp, u->devkw).bits & GL_VAL_ACCEL);
      return prov_of_names(names_device(gl_prov__val(pp, u->devkw)));
    case GL_RESULT_TO_ARG: return to_arg_prov(pp, u, named);
    case GL_RESULT_PLACED:
      if (gl_pval_prov(a0) != GL_PROV_UNKNOWN || !u->has_recv) return gl_pval_prov(a0);
      *named = (uint8_t)(u->recv.bits & GL_VAL_ACCEL);
      return prov_of_names(placed_on(u->recv));
    case GL_RESULT_DEVICE_SPEC: {
      names n = u->arg0 == GL_MODEL__NONE ? NAMES_NOTHING : names_device(a0);
      *named = n == NAMES_CUDA ? GL_VAL_CUDA : n == NAMES_CPU ? GL_VAL_CPU : 0;
      if (n == NAMES_CUDA) *named |= (uint8_t)(a0.bits & GL_VAL_ACCEL);
      if (n == NAMES_NOTHING && may_name_accelerator(pp, u->arg0)) {   /* torch.device(args.device) */
        *named = GL_VAL_CUDA | GL_VAL_ACCEL;
        return GL_PROV_DEVICE;
      }
      return prov_of_names(n);
    }
    default:
      return GL_PROV_UNKNOWN;
  }
}

/* The value of the entry's result and its roles once `when` is checked. */
static gl_pval apply(const gl_prov_pass *pp, const use *u, uint8_t *roles) {
  const gl_api_entry *e = u->e;
  gl_pval a0 = gl_prov__val(pp, u->arg0);
  uint32_t r = e->roles;
  if (e->when == GL_WHEN_RECEIVER_DEVICE &&
      !(u->has_recv && gl_pval_prov(u->recv) == GL_PROV_DEVICE))
    r &= ~(uint32_t)DATA_ROLES;
  if (e->when == GL_WHEN_ARG0_DEVICE && gl_pval_prov(a0) != GL_PROV_DEVICE)
    r &= ~(uint32_t)DATA_ROLES;
  if (e->when == GL_WHEN_ARG0_NOT_HOST && gl_pval_prov(a0) == GL_PROV_HOST)
    r &= ~(uint32_t)DATA_ROLES;
  if (e->when == GL_WHEN_ARG0_NOT_DEVICE && gl_pval_prov(a0) == GL_PROV_DEVICE)
    r &= ~(uint32_t)DATA_ROLES;
  uint8_t named;
  gl_pval v = make(pp, result_prov(pp, u, a0, &named), e->type);
  v.bits |= named;
  if (e->places && gl_pval_prov(v) == GL_PROV_UNKNOWN) v.bits |= placement(pp, u, a0);
  if (e->when == GL_WHEN_RESULT_DEVICE && gl_pval_prov(v) != GL_PROV_DEVICE)
    r &= ~(uint32_t)DATA_ROLES;
  if (gl_pval_prov(v) == GL_PROV_HOST && ((r & GL_ROLE_D2H) || u->any_fd))
    v.bits |= GL_VAL_FROM_DEVICE;
  *roles = (uint8_t)(r & GL_ROLES_RECORDED);
  return v;
}

static const char *node_text(const gl_prov_pass *pp, uint32_t i, size_t *len) {
  return gl_model__text(pp->m, pp->m->nodes.data[i].node, len);
}

static const gl_api_entry *function_entry(gl_prov_pass *pp, uint32_t i) {
  if (!gl_model_resolve(pp->m, pp->m->nodes.data[i].node, pp->qbuf, sizeof(pp->qbuf))) return NULL;
  return gl_libmodels_function(pp->lm, pp->qbuf, strlen(pp->qbuf));
}

static const gl_api_entry *builtin_entry(gl_prov_pass *pp, uint32_t i) {
  size_t len;
  const char *s = node_text(pp, i, &len);
  if (len + 10 > sizeof(pp->qbuf)) return NULL;
  memcpy(pp->qbuf, "builtins.", 9);
  memcpy(pp->qbuf + 9, s, len);
  return gl_libmodels_function(pp->lm, pp->qbuf, len + 9);
}

/* ---- children ---------------------------------------------------------------------------- */

static bool text_is(const gl_prov_pass *pp, uint32_t i, const char *w) {
  size_t len;
  const char *s = node_text(pp, i, &len);
  return len == strlen(w) && memcmp(s, w, len) == 0;
}

/* One argument of an argument_list: arg 0, `device=`, and (inside loops) a pass to the call. */
/* A library function that copies data between host and device (cp.asarray, torch.tensor,
 * cp.asnumpy) reads its arguments and never mutates them, so passing a name to several of them
 * in a loop leaves the name loop-invariant. Any other call may mutate what it is given
 * (np.copyto(h, batch)). */
static bool copies_only(gl_prov_pass *pp, const gl_pframe *call) {
  if (call->kid[0] == GL_MODEL__NONE) return false;
  const gl_model__rec *fr = &pp->m->nodes.data[call->kid[0]];
  if (!(fr->val & GL_VAL_QUAL)) return false;
  const gl_api_entry *e = function_entry(pp, call->kid[0]);
  return e && (e->roles & (GL_ROLE_H2D | GL_ROLE_D2H));
}

static void argument(gl_prov_pass *pp, gl_pframe *p, const gl_pframe *c) {
  TSNode passed = pp->m->nodes.data[c->rec].node;
  switch ((gl_model__kind)c->kind) {
    case GL_K_KEYWORD_ARGUMENT:
      if (c->kid[0] != GL_MODEL__NONE && text_is(pp, c->kid[0], "device")) p->devkw = c->rec;
      if (c->kid[1] == GL_MODEL__NONE) return;
      passed = pp->m->nodes.data[c->kid[1]].node;
      break;
    case GL_K_LIST_SPLAT: case GL_K_DICTIONARY_SPLAT:
      if (p->arg0 == GL_MODEL__NONE) p->fl |= PF_ARG_SEALED;
      break;
    default:
      if (p->arg0 == GL_MODEL__NONE && !(p->fl & PF_ARG_SEALED)) p->arg0 = c->rec;
      break;
  }
  if (pp->loops.len && pp->stack.len >= 2) {
    const gl_pframe *call = &pp->stack.data[pp->stack.len - 2];
    if (call->kind == GL_K_CALL && !copies_only(pp, call))
      gl_prov__touch_root(pp, passed, GL_TOUCH_PASSED, call->rec);
  }
}

void gl_prov__child(gl_prov_pass *pp, gl_pframe *p, const gl_pframe *c) {
  if (p->nkids < 3) p->kid[p->nkids] = c->rec;
  if (p->nkids < UINT8_MAX) p->nkids++;
  gl_pval v = gl_prov__val(pp, c->rec);
  if (gl_pval_prov(v) == GL_PROV_DEVICE && p->dev == GL_MODEL__NONE) p->dev = c->rec;
  if (v.type != GL_TYPE_NONE && p->typed == GL_MODEL__NONE) p->typed = c->rec;
  if (gl_pval_prov(v) != GL_PROV_HOST) p->fl &= (uint16_t)~PF_ALL_HOST;
  if (gl_pval_prov(v) != GL_PROV_DEVICE) p->fl &= (uint16_t)~PF_ALL_DEV;
  if (v.bits & GL_VAL_FROM_DEVICE) p->fl |= PF_ANY_FD;
  if (p->kind == GL_K_ARGUMENT_LIST) {
    argument(pp, p, c);
  } else if (p->kind == GL_K_CALL) {
    if (c->kind == GL_K_ARGUMENT_LIST) {
      p->arg0 = c->arg0;
      p->devkw = c->devkw;
      p->fl |= c->fl & PF_ANY_FD;
      if (c->dev != GL_MODEL__NONE) p->fl |= PF_ARG_DEV;
    } else if (c->kind == GL_K_GENERATOR_EXPRESSION) {
      p->arg0 = c->rec;
    } else if (c->kind == GL_K_ATTRIBUTE && c->field == pp->m->f.function) {
      p->recv = c->kid[0];
      p->meth = c->kid[1];
    }
  }
}

/* ---- expressions ------------------------------------------------------------------------- */

static void identifier(gl_prov_pass *pp, const gl_pframe *f) {
  gl_model__rec *r = &pp->m->nodes.data[f->rec];
  if (r->flags & (GL_REC_NOT_NAME | GL_REC_TARGET | GL_REC_FALLBACK)) return;
  uint8_t extra = 0;
  gl_prov__set(pp, f->rec, gl_prov__read(pp, f->rec, &extra), 0);
  r->val = (uint8_t)((r->val & ~(GL_VAL_QUAL | GL_VAL_BUILTIN)) | extra);
}

static void attribute(gl_prov_pass *pp, const gl_pframe *f, const gl_pframe *parent) {
  const gl_model *m = pp->m;
  uint8_t roles = 0;
  gl_pval v = gl_pval_unknown();
  const gl_model__rec *o = f->kid[0] != GL_MODEL__NONE ? &m->nodes.data[f->kid[0]] : NULL;
  bool qual = o && (o->val & GL_VAL_QUAL) &&
              (o->kind == GL_K_IDENTIFIER || o->kind == GL_K_ATTRIBUTE);
  bool callee = parent && parent->kind == GL_K_CALL && f->field == m->f.function;
  if (qual && !callee) {
    const gl_api_entry *e = function_entry(pp, f->rec);
    use u = use_of(e);
    if (e && !(e->roles & GL_ROLES_RECORDED)) v = apply(pp, &u, &roles);   /* a module attribute, not a function */
  } else if (o && gl_prov__attrs_read(pp, f->rec, &v)) {
    /* self.name in a method: what the class's methods store there */
  } else if (o && !callee && f->kid[1] != GL_MODEL__NONE) {
    gl_pval ov = gl_prov__val(pp, f->kid[0]);
    size_t len;
    const char *name = node_text(pp, f->kid[1], &len);
    const gl_api_entry *e =
        ov.type != GL_TYPE_NONE ? gl_libmodels_attribute(pp->lm, ov.type, name, len) : NULL;
    if (e) {
      use u = use_of(e);
      u.recv = ov;
      u.has_recv = true;
      u.any_fd = (ov.bits & GL_VAL_FROM_DEVICE) != 0;
      v = apply(pp, &u, &roles);
    }
  }
  gl_prov__set(pp, f->rec, v, roles);
  gl_model__rec *r = &pp->m->nodes.data[f->rec];
  r->val = (uint8_t)(qual ? (r->val | GL_VAL_QUAL) : (r->val & ~GL_VAL_QUAL));
}

static use finish_use(use *u) {
  if (u->has_recv && (u->recv.bits & GL_VAL_FROM_DEVICE)) u->any_fd = true;
  return *u;
}

/* The method entry of `recv.meth(...)` when recv has a type, else NULL (u->recv filled). */
static const gl_api_entry *typed_method(gl_prov_pass *pp, const gl_pframe *f, use *u) {
  if (f->recv == GL_MODEL__NONE || f->meth == GL_MODEL__NONE) return NULL;
  gl_pval recv = gl_prov__val(pp, f->recv);
  if (recv.type == GL_TYPE_NONE) return NULL;
  size_t len;
  const char *name = node_text(pp, f->meth, &len);
  /* by its own name only: `torch.nn.functional` is typed by the "torch.nn.*" wildcard, and a
   * module's "*" method must not hide "torch.nn.functional.*" */
  const gl_api_entry *e = gl_libmodels_method_exact(pp->lm, recv.type, name, len);
  if (e) {
    u->recv = recv;
    u->has_recv = true;
  }
  return e;
}

/* A method the models apply to receivers of unknown type (`batch.cuda()`, `x.to(device)`), in a
 * file that imports the library of the type that defines it. */
static const gl_api_entry *any_receiver_method(gl_prov_pass *pp, const char *name, size_t len) {
  uint16_t owner;
  const gl_api_entry *e = gl_libmodels_any_receiver_method(pp->lm, name, len, &owner);
  if (!e) return NULL;
  const char *tn = gl_libmodels_type_name(pp->lm, owner);
  const char *dot = strchr(tn, '.');
  size_t n = dot ? (size_t)(dot - tn) : strlen(tn);
  if (n >= sizeof(pp->qbuf)) return NULL;
  memcpy(pp->qbuf, tn, n);
  pp->qbuf[n] = 0;
  return gl_model_imports(pp->m, pp->qbuf) ? e : NULL;
}

/* True when callee (a call's function node) names no def of this file or of a module it
 * imports relatively: `model`, `self.net`, `criterion` are objects (modules) whose definition the
 * file does not show; `to_cpu(x)` and `utils.to_cpu(x)` after `from . import utils` are functions
 * of the project, which may return anything. */
static bool callee_is_opaque(const gl_prov_pass *pp, uint32_t callee) {
  const gl_model__rec *r = &pp->m->nodes.data[callee];
  TSNode n = r->node;
  size_t len;
  const char *s;
  if (r->kind == GL_K_ATTRIBUTE) {
    TSNode obj = ts_node_child_by_field_id(n, pp->m->f.object);
    if (gl_model__kind_of(pp->m, obj) == GL_K_IDENTIFIER) {
      s = gl_model__text(pp->m, obj, &len);
      if (gl_prov__file_defines(pp, s, len)) return false;
    }
    n = ts_node_child_by_field_id(n, pp->m->f.attribute);
  } else if (r->kind != GL_K_IDENTIFIER) {
    return false;
  }
  s = gl_model__text(pp->m, n, &len);
  return len > 0 && !gl_prov__file_defines(pp, s, len);
}

/* The entry of a call and what it applies to. */
static use call_use(gl_prov_pass *pp, const gl_pframe *f) {
  const gl_model__rec *fr = &pp->m->nodes.data[f->kid[0]];
  use u = use_of(NULL);
  u.arg0 = f->arg0;
  u.devkw = f->devkw;
  u.any_fd = (f->fl & PF_ANY_FD) != 0;
  const gl_api_entry *wild = NULL;
  if (fr->val & GL_VAL_QUAL) {
    u.e = function_entry(pp, f->kid[0]);
    /* A wildcard ("cupy.*") yields to the method of a typed receiver: cp.cuda.Stream.null is a
     * cupy.cuda.Stream, so its .synchronize() is a sync, not cupy gpu-work. */
    if (u.e && !gl_libmodels_function_exact(pp->lm, pp->qbuf, strlen(pp->qbuf))) {
      wild = u.e;
      u.e = typed_method(pp, f, &u);
      if (!u.e) u.e = wild;
      return finish_use(&u);
    }
  } else if (fr->kind == GL_K_IDENTIFIER && (fr->val & GL_VAL_BUILTIN)) u.e = builtin_entry(pp, f->kid[0]);
  if (!u.e && fr->kind == GL_K_ATTRIBUTE && f->recv != GL_MODEL__NONE && f->meth != GL_MODEL__NONE) {
    u.recv = gl_prov__typed(pp, gl_prov__val(pp, f->recv));
    u.has_recv = true;
    size_t len;
    const char *name = node_text(pp, f->meth, &len);
    if (u.recv.type != GL_TYPE_NONE) u.e = gl_libmodels_method(pp->lm, u.recv.type, name, len);
    else u.e = any_receiver_method(pp, name, len);
    /* a method a class of this file defines (`policy.act(x)` of a Policy(nn.Module)) is its
     * own, not the library type's "*" */
    if (u.e && u.recv.type != GL_TYPE_NONE &&
        !gl_libmodels_method_exact(pp->lm, u.recv.type, name, len) &&
        gl_prov__summary_names_def(pp, f->kid[0]))
      u.e = NULL;
    /* a method call may mutate its receiver, unless the model says it only copies (t.cuda()) */
    if (!u.e || !(u.e->roles & (GL_ROLE_H2D | GL_ROLE_D2H)))
      gl_prov__touch_root(pp, fr->node, GL_TOUCH_MUTATED, GL_MODEL__NONE);
  } else if (!u.e && !(fr->val & (GL_VAL_QUAL | GL_VAL_BUILTIN))) {
    u.recv = gl_prov__val(pp, f->kid[0]);   /* calling a value: kernel[grid, block](...) */
    u.has_recv = true;
    if (u.recv.type != GL_TYPE_NONE) u.e = gl_libmodels_call(pp->lm, u.recv.type);
  }
  return finish_use(&u);
}

/* A d2h call inside a device walk that counts as the def's own effect, made on each call of
 * the def (not under a frequency guard of its own): any but a builtin's (`float(x)` of a
 * parameter of unknown type may be a host number), which counts when its argument is typed
 * device data. */
static bool d2h_effect(const gl_prov_pass *pp, const gl_pframe *f, uint8_t roles) {
  if (!(roles & GL_ROLE_D2H) || f->kid[0] == GL_MODEL__NONE) return false;
  if (gl_model__guarded(pp->m, f->rec)) return false;
  if (!(pp->m->nodes.data[f->kid[0]].val & GL_VAL_BUILTIN)) return true;
  gl_pval a0 = gl_prov__val(pp, f->arg0);
  return gl_pval_prov(a0) == GL_PROV_DEVICE && a0.type != GL_TYPE_NONE;
}

/* A method call that is a whole statement and moves its receiver, a name, in place:
 * `model.to(device)`, `model.cuda()` (an entry with `places`), or the same on a name of unknown
 * type (`net = build(cfg)`): the name is rebound to the result, placed where it was moved. */
static void moved_in_place(gl_prov_pass *pp, const gl_pframe *f, const use *u, gl_pval v) {
  const gl_model__rec *r = &pp->m->nodes.data[f->rec];
  if (!u->e || !u->has_recv || f->recv == GL_MODEL__NONE || r->parent == GL_MODEL__NONE ||
      pp->m->nodes.data[r->parent].kind != GL_K_EXPRESSION_STATEMENT ||
      pp->m->nodes.data[f->recv].kind != GL_K_IDENTIFIER)
    return;
  if (!u->e->places) {
    if (u->recv.type != GL_TYPE_NONE || gl_pval_prov(u->recv) != GL_PROV_UNKNOWN ||
        !(u->e->roles & GL_ROLE_H2D) || gl_pval_prov(v) != GL_PROV_DEVICE)
      return;
    v = (gl_pval){GL_TYPE_NONE, (uint8_t)(GL_VAL_CUDA | (v.bits & GL_VAL_ACCEL))};
  } else if (placed_on(v) == NAMES_NOTHING) {
    return;
  }
  TSNode none = {{0}, NULL, NULL};
  pp->bind_cls = gl_prov__class_of(pp, f->recv);   /* still an instance of its class */
  gl_prov__assign(pp, pp->m->nodes.data[f->recv].node, none, v, false);
  pp->bind_cls = GL_MODEL__NONE;
}

/* `obj.m(...)` where obj holds an instance of a class the file imports: the class expression,
 * for the program stage (m->inst_class). */
static void inst_call(gl_prov_pass *pp, const gl_pframe *f) {
  gl_model *m = pp->m;
  if (f->recv == GL_MODEL__NONE || f->kid[0] == GL_MODEL__NONE ||
      m->nodes.data[f->kid[0]].kind != GL_K_ATTRIBUTE)
    return;
  uint32_t cls = gl_prov__class_of(pp, f->recv);
  if (cls == GL_MODEL__NONE || cls == 0 || m->nodes.data[cls].kind == GL_K_CLASS_DEFINITION)
    return;   /* 0: the module itself (`d2l = sys.modules[__name__]`) */
  if (!m->inst_class) {
    m->inst_class = gl_xmalloc(m->nodes.len * sizeof(*m->inst_class));
    for (size_t i = 0; i < m->nodes.len; i++) m->inst_class[i] = GL_MODEL__NONE;
  }
  m->inst_class[f->rec] = cls;
}

static void call(gl_prov_pass *pp, const gl_pframe *f) {
  uint8_t roles = 0;
  gl_pval v = gl_pval_unknown();
  bool local = false;
  if (f->kid[0] != GL_MODEL__NONE) {
    use u = call_use(pp, f);
    if (u.e) {
      v = apply(pp, &u, &roles);
    } else if (!(pp->m->nodes.data[f->kid[0]].val & (GL_VAL_QUAL | GL_VAL_BUILTIN))) {
      local = gl_prov__summary_apply(pp, f->kid[0], (f->fl & PF_ARG_DEV) != 0, &v, &roles);
      /* An object of unknown type called on device data, `model(x)`, `self.head(h)`,
       * `criterion(out, y)`: a module the file does not define maps device tensors to device
       * tensors of the same kind. A value typed by a model without a `call` entry counts too
       * (`model = GPT(cfg).to(device)` types it as `.to` of a tensor would; tensors are not
       * callable, modules are). */
      gl_pval a0 = gl_prov__val(pp, f->arg0);
      gl_pval callee = gl_prov__val(pp, f->kid[0]);
      if (!local && gl_pval_prov(a0) == GL_PROV_DEVICE && callee_is_opaque(pp, f->kid[0])) {
        v.type = a0.type;
        v.bits = (uint8_t)(GL_PROV_DEVICE | (a0.bits & GL_VAL_ACCEL));
        v = gl_prov__typed(pp, v);
      } else if (!local && gl_pval_prov(a0) == GL_PROV_UNKNOWN &&
                 (gl_pval_prov(callee) == GL_PROV_DEVICE || placed_on(callee) == NAMES_CUDA) &&
                 callee_is_opaque(pp, f->kid[0])) {
        /* an object moved to the GPU (`net = build(cfg).to(device)`, `net.cuda()`) called on
         * data of unknown device: that data must be on its device too */
        v.bits = (uint8_t)(GL_PROV_DEVICE | (callee.bits & GL_VAL_ACCEL));
        v = gl_prov__typed(pp, v);
      }
    }
    moved_in_place(pp, f, &u, v);
  }
  /* a def of another file that returns device data, or copies the device data this call gives
   * it to the host (the program stage) */
  uint32_t start = ts_node_start_byte(pp->m->nodes.data[f->rec].node);
  for (size_t k = 0; k < pp->m->nprogram_calls; k++) {
    const gl_model_call_fact *c = &pp->m->program_calls[k];
    if (c->start != start) continue;
    if (c->d2h) {
      roles |= GL_ROLE_D2H;
      local = true;   /* reported as a local call's copy is (#local-call?) */
    }
    if (c->returns && gl_pval_prov(v) == GL_PROV_UNKNOWN) {
      v = (gl_pval){c->type, GL_PROV_DEVICE};
      v = gl_prov__typed(pp, v);
    }
  }
  if (pp->hypo) {
    if (d2h_effect(pp, f, roles)) gl_prov__summary_d2h(pp);
  } else {
    if (f->kid[0] != GL_MODEL__NONE) gl_prov__summary_record_call(pp, f->rec, f->kid[0]);
    inst_call(pp, f);
    uint8_t *fl = &pp->m->nodes.data[f->rec].flags;
    *fl = (uint8_t)(local ? (*fl | GL_REC_LOCAL_CALL) : (*fl & ~GL_REC_LOCAL_CALL));
  }
  gl_prov__set(pp, f->rec, v, roles);
}

static void subscript(gl_prov_pass *pp, const gl_pframe *f) {
  uint8_t roles = 0;
  gl_pval v = gl_pval_unknown();
  gl_pval ov = gl_prov__val(pp, f->kid[0]);
  const gl_api_entry *e =
      ov.type != GL_TYPE_NONE ? gl_libmodels_subscript(pp->lm, ov.type) : NULL;
  if (e) {
    use u = use_of(e);
    u.recv = ov;
    u.has_recv = true;
    u.any_fd = (ov.bits & GL_VAL_FROM_DEVICE) != 0;
    v = apply(pp, &u, &roles);
  } else if (gl_pval_prov(ov) == GL_PROV_DEVICE) {
    v.bits = GL_PROV_DEVICE;   /* indexing device data stays on the device */
  }
  gl_prov__set(pp, f->rec, v, roles);
}

gl_pval gl_prov__operate(gl_prov_pass *pp, const gl_pval *dev, const gl_pval *typed,
                         bool all_host, bool any_fd, uint8_t *roles) {
  *roles = 0;
  if (dev) {
    const gl_api_entry *e =
        dev->type != GL_TYPE_NONE ? gl_libmodels_operator(pp->lm, dev->type) : NULL;
    gl_pval v = {e && e->type != GL_TYPE_NONE ? e->type : dev->type, GL_PROV_DEVICE};
    if (e) {
      use u = use_of(e);
      u.recv = *dev;
      u.has_recv = true;
      (void)apply(pp, &u, roles);   /* only its roles: a device operand decides the value */
    }
    return v;
  }
  uint16_t type = GL_TYPE_NONE;
  if (typed) {
    const gl_api_entry *e = gl_libmodels_operator(pp->lm, typed->type);
    type = e && e->type != GL_TYPE_NONE ? e->type : typed->type;
  }
  gl_pval v = make(pp, all_host ? GL_PROV_HOST : GL_PROV_UNKNOWN, type);
  if (gl_pval_prov(v) == GL_PROV_HOST && any_fd) v.bits |= GL_VAL_FROM_DEVICE;
  return v;
}

static void operator(gl_prov_pass *pp, const gl_pframe *f) {
  gl_pval dev = gl_prov__val(pp, f->dev), typed = gl_prov__val(pp, f->typed);
  uint8_t roles;
  gl_pval v = gl_prov__operate(pp, f->dev != GL_MODEL__NONE ? &dev : NULL,
                               f->typed != GL_MODEL__NONE ? &typed : NULL,
                               (f->fl & PF_ALL_HOST) && f->nkids, (f->fl & PF_ANY_FD) != 0, &roles);
  gl_prov__set(pp, f->rec, v, roles);
}

/* A comprehension of device elements (`[x.to(device) for x in batch]`, `{k: v * w for k, v in
 * d.items()}`: the values of a dict) holds device data, untyped, as a list of them does; else
 * unknown. */
static gl_pval comprehension(const gl_prov_pass *pp, const gl_pframe *f) {
  const gl_model *m = pp->m;
  TSNode body = ts_node_child_by_field_id(m->nodes.data[f->rec].node, m->f.body);
  if (gl_model__kind_of(m, body) == GL_K_PAIR) body = ts_node_child_by_field_id(body, m->f.value);
  uint32_t b = gl_model__index_of(m, body);
  gl_pval v = gl_pval_unknown();
  if (b != GL_MODEL__NONE && gl_pval_prov(gl_prov__val(pp, b)) == GL_PROV_DEVICE) v.bits = GL_PROV_DEVICE;
  return v;
}

bool gl_prov__eval(gl_prov_pass *pp, gl_pframe *f, const gl_pframe *parent) {
  switch ((gl_model__kind)f->kind) {
    case GL_K_IDENTIFIER: identifier(pp, f); return true;
    case GL_K_ATTRIBUTE: attribute(pp, f, parent); return true;
    case GL_K_CALL: call(pp, f); return true;
    case GL_K_SUBSCRIPT: subscript(pp, f); return true;
    case GL_K_BINARY_OPERATOR: case GL_K_UNARY_OPERATOR: operator(pp, f); return true;
    case GL_K_COMPARISON_OPERATOR:
      if (f->fl & PF_HOST_OP) gl_prov__set(pp, f->rec, host(), 0);
      else operator(pp, f);
      return true;
    case GL_K_BOOLEAN_OPERATOR:
      gl_prov__set(pp, f->rec,
                   gl_pval_join(gl_prov__val(pp, f->kid[0]), gl_prov__val(pp, f->kid[1])), 0);
      return true;
    case GL_K_CONDITIONAL_EXPRESSION:
      gl_prov__set(pp, f->rec,
                   gl_pval_join(gl_prov__val(pp, f->kid[0]), gl_prov__val(pp, f->kid[2])), 0);
      return true;
    case GL_K_PARENTHESIZED_EXPRESSION:
      gl_prov__set(pp, f->rec, gl_prov__val(pp, f->kid[0]), 0); return true;
    case GL_K_KEYWORD_ARGUMENT:
      gl_prov__set(pp, f->rec, gl_prov__val(pp, f->kid[1]), 0); return true;
    case GL_K_STRING: case GL_K_CONCATENATED_STRING:
      gl_prov__set(pp, f->rec, string_value(pp, pp->m->nodes.data[f->rec].node), 0); return true;
    case GL_K_INTEGER: case GL_K_FLOAT: case GL_K_TRUE: case GL_K_FALSE: case GL_K_NONE_LITERAL:
    case GL_K_NOT_OPERATOR:
      gl_prov__set(pp, f->rec, host(), 0); return true;
    case GL_K_LIST_COMPREHENSION: case GL_K_SET_COMPREHENSION: case GL_K_GENERATOR_EXPRESSION:
    case GL_K_DICTIONARY_COMPREHENSION:
      gl_prov__set(pp, f->rec, comprehension(pp, f), 0);
      return true;
    case GL_K_LIST: case GL_K_TUPLE: case GL_K_EXPRESSION_LIST:
      /* a Python list or tuple lives in host memory; of host elements it is host data
       * (torch.tensor([0.5, 0.5], device="cuda") uploads it); of device elements (`return
       * x, y`, `[cp.asarray(v) for ...]` is not one) it holds device data, untyped; else
       * unknown */
    {
      gl_pval v = (f->fl & PF_ALL_HOST) ? host() : gl_pval_unknown();
      if (f->nkids && (f->fl & PF_ALL_DEV)) v.bits = GL_PROV_DEVICE;
      if ((f->fl & PF_ALL_HOST) && (f->fl & PF_ANY_FD)) v.bits |= GL_VAL_FROM_DEVICE;
      gl_prov__set(pp, f->rec, v, 0);
      return true;
    }
    default:
      return false;
  }
}

/* ---- decorators and annotations ------------------------------------------------------------ */

uint16_t gl_prov__decorated_type(gl_prov_pass *pp, TSNode dd) {
  const gl_model *m = pp->m;
  uint32_t n = ts_node_named_child_count(dd);
  for (uint32_t i = 0; i < n; i++) {
    TSNode d = ts_node_named_child(dd, i);
    if (gl_model__kind_of(m, d) != GL_K_DECORATOR) continue;
    TSNode x = ts_node_named_child(d, 0), call = {0};
    if (gl_model__kind_of(m, x) == GL_K_CALL) {
      call = x;
      x = ts_node_child_by_field_id(x, m->f.function);
    }
    uint32_t xi = gl_model__index_of(m, x);
    if (xi == GL_MODEL__NONE || !(m->nodes.data[xi].val & GL_VAL_QUAL)) continue;
    const gl_api_entry *e = function_entry(pp, xi);
    if (e && e->partial && !ts_node_is_null(call)) {
      /* @partial(jax.jit, static_argnums=1): decorates as its first argument does */
      TSNode a0 = ts_node_named_child(ts_node_child_by_field_id(call, m->f.arguments), 0);
      uint32_t ai = gl_model__index_of(m, a0);
      e = ai != GL_MODEL__NONE && (m->nodes.data[ai].val & GL_VAL_QUAL) ? function_entry(pp, ai) : NULL;
    }
    if (e && e->decorates != GL_TYPE_NONE) return e->decorates;
  }
  return GL_TYPE_NONE;
}

uint16_t gl_prov__base_class_type(gl_prov_pass *pp, uint32_t i) {
  const gl_model__rec *r = &pp->m->nodes.data[i];
  if (r->kind == GL_K_KEYWORD_ARGUMENT) return GL_TYPE_NONE;   /* metaclass=... */
  if (r->val & GL_VAL_QUAL) {
    const gl_api_entry *e = function_entry(pp, i);
    return e ? e->decorates : GL_TYPE_NONE;
  }
  if (r->kind == GL_K_IDENTIFIER && r->type != GL_TYPE_NONE &&
      gl_libmodels_call(pp->lm, r->type))   /* a class of this file with a library base */
    return r->type;
  return GL_TYPE_NONE;
}

gl_pval gl_prov__annotation(gl_prov_pass *pp, TSNode type) {
  const gl_model *m = pp->m;
  if (ts_node_is_null(type)) return gl_pval_unknown();
  uint32_t xi = gl_model__index_of(m, ts_node_named_child(type, 0));
  if (xi == GL_MODEL__NONE || !(m->nodes.data[xi].val & GL_VAL_QUAL) ||
      !gl_model_resolve(m, m->nodes.data[xi].node, pp->qbuf, sizeof(pp->qbuf)))
    return gl_pval_unknown();
  uint16_t t = gl_libmodels_type_id(pp->lm, pp->qbuf, strlen(pp->qbuf));
  return t == GL_TYPE_NONE ? gl_pval_unknown() : make(pp, GL_PROV_UNKNOWN, t);
}
