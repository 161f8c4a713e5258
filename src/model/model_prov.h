/* model_prov.h: what the files of the provenance pass share (not a public contract).
 * Owns: the pass's state (gl_prov_pass), its walk frames, values and their join, and the
 *       interfaces between model_prov.c (the walk and its order), model_eval.c (the value of
 *       each expression from its children and the library models), model_flow.c (the value of
 *       each name: bindings, the undo log, joins at the end of branches and loops) and
 *       model_loop.c (what each loop rebinds or mutates).
 * Not: the index and names (model_int.h), the public queries (model.h).
 * Threads: a gl_prov_pass lives inside one gl_model_build call on one worker. */
#ifndef GL_MODEL_PROV_H
#define GL_MODEL_PROV_H

#include "model/model_int.h"

/* A value: its type and the GL_VAL_BITS part of gl_model__rec.val (provenance, from-device,
 * names a CUDA device / the CPU). */
typedef struct gl_pval {
  uint16_t type;
  uint8_t bits;
} gl_pval;

static inline gl_pval gl_pval_unknown(void) {
  gl_pval v = {GL_TYPE_NONE, 0};
  return v;
}

static inline gl_prov gl_pval_prov(gl_pval v) { return (gl_prov)(v.bits & GL_VAL_PROV); }

static inline bool gl_pval_eq(gl_pval a, gl_pval b) { return a.type == b.type && a.bits == b.bits; }

/* What a name's cell holds before any binding of the walk reaches it (provenance 3, never an
 * expression's value; a read gives unknown). A join ignores it: after `if c: x = dev`, or a loop
 * whose body binds x first, a use of x sees the value bound there (with no binding, Python
 * would raise NameError). */
static inline gl_pval gl_pval_unbound(void) {
  gl_pval v = {GL_TYPE_NONE, 3};
  return v;
}

static inline bool gl_pval_is_unbound(gl_pval v) { return v.type == GL_TYPE_NONE && v.bits == 3; }

/* Join of two values that may both reach a point (an unbound cell is no value): equal provenance stays (device + device =
 * device, host + host = host), anything else is unknown; equal types stay; a fact bit stays
 * when both have it. */
static inline gl_pval gl_pval_join(gl_pval a, gl_pval b) {
  if (gl_pval_is_unbound(a)) return b;
  if (gl_pval_is_unbound(b)) return a;
  gl_pval r;
  r.type = a.type == b.type ? a.type : GL_TYPE_NONE;
  uint8_t prov = (a.bits & GL_VAL_PROV) == (b.bits & GL_VAL_PROV) ? (a.bits & GL_VAL_PROV) : 0;
  r.bits = (uint8_t)(((a.bits & b.bits) & (GL_VAL_BITS & ~GL_VAL_PROV)) | prov);
  /* a CUDA device on one side and the CPU on the other (`"cuda" if ok else "cpu"`): the program
   * picks its accelerator at run time, and is linted for its GPU path */
  bool cuda_a = (a.bits & GL_VAL_CUDA) || (a.bits & GL_VAL_PROV) == GL_PROV_DEVICE;
  bool cuda_b = (b.bits & GL_VAL_CUDA) || (b.bits & GL_VAL_PROV) == GL_PROV_DEVICE;
  if ((cuda_a && (b.bits & GL_VAL_CPU)) || (cuda_b && (a.bits & GL_VAL_CPU)))
    r.bits = (uint8_t)((r.bits & ~GL_VAL_CPU) | GL_VAL_CUDA | GL_VAL_ACCEL);
  return r;
}

/* Frame flags (gl_pframe.fl). */
enum {
  PF_ALL_HOST = 1 << 0,     /* every child value so far is host */
  PF_ANY_FD = 1 << 1,       /* some child value is from-device */
  PF_ARG_SEALED = 1 << 2,   /* argument_list: a splat came first, there is no knowable arg 0 */
  PF_HOST_OP = 1 << 3,      /* comparison_operator: `is`, `is not`, `in`, `not in` */
  PF_BODY_PHASE = 1 << 4,   /* comprehension: its clauses are done, its body is being walked */
  PF_MARKED = 1 << 5,       /* block: mark and seg are set */
  PF_PASS2 = 1 << 6,        /* loop: a second (widened) or third (pessimistic) walk runs */
  PF_PESSIMISTIC = 1 << 7,  /* loop: started pessimistic (inside an enclosing second walk) */
  PF_HAS_ELSE = 1 << 8,     /* if_statement: has an else clause */
  PF_JOINED = 1 << 9,       /* try_statement: branches joined (at finally) */
  PF_LOOP_PUSHED = 1 << 10, /* comprehension: pushed itself on the loop stack */
  PF_ALL_DEV = 1 << 11,     /* every child value so far is device */
  PF_ARG_DEV = 1 << 12,     /* call: some argument is device data */
  PF_WIDENED = 1 << 13,     /* loop: the second walk starts from the join of head and end */
};

/* One node on the walk's path. Child slots hold node indexes (GL_MODEL__NONE when absent). */
typedef struct gl_pframe {
  uint32_t rec;            /* this node's index */
  uint32_t kid[3];         /* the first three named children (comments skipped) */
  uint32_t arg0, devkw;    /* argument_list / call: first positional argument, `device=` value */
  uint32_t recv, meth;     /* call with an attribute callee: its object and attribute name */
  uint32_t dev, typed;     /* operands: first device one, first one with a type */
  uint32_t mark, seg;      /* blocks: undo-log mark, start of the branch results */
  uint16_t nbranch;        /* blocks: branches collected */
  uint16_t fl;             /* PF_* */
  TSFieldId field;
  uint8_t kind, nkids;
} gl_pframe;

typedef struct gl_pundo {
  uint32_t entry;
  gl_pval old;
} gl_pundo;

typedef struct gl_ptarget {
  TSNode target, src;      /* src: the matching source expression, or a null node */
  gl_pval v;               /* the value when src is null */
} gl_ptarget;

typedef gl_vec(TSNode) gl_pnodes;

typedef struct gl_prov_attrs gl_prov_attrs;   /* model_attrs.c */

typedef struct gl_prov_pass {
  gl_model *m;
  const gl_libmodels *lm;
  /* names: one cell per names entry */
  gl_pval *cur;            /* the value now, during the walk of the entry's function */
  gl_pval *sum;            /* the join-free summary of every binding: for free variables */
  uint8_t *sum_state;      /* 0 no binding yet, 1 sum holds it, 2 bindings disagree */
  uint32_t *owner;         /* per scope: the function (or module) scope whose walk covers it */
  uint32_t walk_owner;     /* the function (or module) scope being walked */
  gl_vec(gl_pundo) log;    /* every cell write, for undo at branch ends */
  gl_vec(gl_pundo) res;    /* branch results waiting for their block's join */
  uint32_t *stamp;         /* per entry scratch for joins, valid when equal to token */
  gl_pval *acc;
  uint16_t *cnt;
  uint32_t token;
  /* the walk */
  gl_vec(gl_pframe) stack;
  gl_vec(uint32_t) deferred;   /* def / lambda nodes whose bodies are walked after their scope */
  gl_vec(uint32_t) loops;      /* enclosing loops of the current function, innermost last */
  uint32_t pessimistic;        /* > 0 inside a loop body's second walk */
  const uint32_t *end;         /* per node: one past the last node of its subtree (the model's) */
  TSTreeCursor scratch;
  gl_vec(gl_ptarget) targets;
  gl_pnodes ta, sa;            /* children of a target and of its source */
  /* function summaries (model_summary.c), per names entry */
  uint32_t *fdef;              /* the one def bound to the entry; NONE, or "bound otherwise" */
  gl_pval *fret;               /* the join of the def's returns in its device walk */
  gl_pval *freal;              /* ... and in its real walk */
  uint8_t *fstate;             /* what the device walk found */
  uint32_t fentry;             /* the entry of the def in its device walk, else NONE */
  uint64_t *defnames;          /* hashes of the names of every def of the file (0: empty) */
  size_t ndefnames;            /* slots, a power of two */
  uint32_t walk_def;           /* the def (or lambda) whose body is walked; NONE: the module */
  uint16_t dev_type;           /* the array type of the one device framework the file imports
                                  (torch, cupy, jax, warp), given to device data of unknown
                                  type; GL_TYPE_NONE when it imports none or several */
  bool hypo;                   /* a device walk: cells are undone after, no summary folds, no
                                  loop records */
  bool attr_walk;              /* with hypo: the attribute walk, parameters unknown, attribute
                                  sites stored (gl_model__prov) */
  gl_prov_attrs *attrs;        /* the file's `self.name` sites (model_attrs.c) */
  uint32_t bind_cls;           /* the class whose instance the binding under way stores */
  char qbuf[512];
} gl_prov_pass;

/* ---- model_attrs.c: `self.name` in methods ------------------------------------------------- */

void gl_prov__attrs_init(gl_prov_pass *pp);
void gl_prov__attrs_free(gl_prov_pass *pp);
/* Attribute node `node` stores v, an instance of class_definition cls or NONE, or (none) the
 * literal None (ignored unless it is a site, and in a walk that is real or the attribute walk). */
void gl_prov__attrs_store(gl_prov_pass *pp, uint32_t node, gl_pval v, uint32_t cls, bool none);
/* The value attribute node `node` reads (`self.name` in a method, `obj.name` where obj holds an
 * instance of a class of the file): true with *v the join of what every site of that name in
 * the class stored, once each has stored a value. */
bool gl_prov__attrs_read(const gl_prov_pass *pp, uint32_t node, gl_pval *v);
/* Names entry e was bound at name node i (to an instance of pp->bind_cls, or NONE). */
void gl_prov__attrs_bound(gl_prov_pass *pp, uint32_t e, uint32_t i);
/* The class_definition node whose instance expression node i is (a name or self attribute all
 * of whose bindings hold one, a call of the class, a method of it returning its receiver's
 * type), or GL_MODEL__NONE; and the scope its body opens (none for the callee node of a call of
 * an unmodelled import, `utils.MetricLogger()`, whose class another file may define). Node 0,
 * the module, for `sys.modules[__name__]`: its "class scope" is the module scope, so
 * `d2l.accuracy(x)` and `d2l.Accumulator(2)` name this file's defs. */
uint32_t gl_prov__class_of(const gl_prov_pass *pp, uint32_t i);
uint32_t gl_prov__class_scope(const gl_prov_pass *pp, uint32_t cls);
/* True when a site lies in the subtree of node def. */
bool gl_prov__attrs_any(const gl_prov_pass *pp, uint32_t def);

/* ---- model_flow.c: names -------------------------------------------------------------------- */

void gl_prov__flow_init(gl_prov_pass *pp);
void gl_prov__flow_free(gl_prov_pass *pp);

/* Value of the identifier node i read where it stands; sets GL_VAL_QUAL / GL_VAL_BUILTIN in
 * *extra for an import / a name bound nowhere. */
gl_pval gl_prov__read(gl_prov_pass *pp, uint32_t i, uint8_t *extra);

/* Binds the target tree `target` to src (a source expression whose shape may match, or a null
 * node) with value v: identifiers get the value, tuples are unpacked element-wise when src is a
 * tuple or list of the same length, else each element gets v's provenance without a type;
 * attribute and subscript targets mutate their root name. walrus: bind as `:=` does. */
void gl_prov__assign(gl_prov_pass *pp, TSNode target, TSNode src, gl_pval v, bool walrus);

/* Binds the target tree of `for target in iter` (iter a node index, or GL_MODEL__NONE) to the
 * elements of iter: part by part for `zip(...)`, `enumerate(...)` and `d.items()`. */
void gl_prov__iterate(gl_prov_pass *pp, TSNode target, uint32_t iter);

/* Binds the identifier node i (a parameter, def or class name, augmented target) to v, in the
 * entry a binding in `scope` lands in. */
void gl_prov__bind_node(gl_prov_pass *pp, uint32_t i, gl_pval v, uint32_t scope);

/* Restores every cell written since the undo log held `mark` entries (pp->log.len then). */
void gl_prov__undo(gl_prov_pass *pp, size_t mark);

/* `del` of target: names become unknown, attribute and subscript roots are mutated. */
void gl_prov__delete(gl_prov_pass *pp, TSNode target);

/* Blocks: mark the start; collect a finished branch and undo it; join the branches (and the
 * value before the block when implicit_before) into the cells. */
void gl_prov__block_mark(gl_prov_pass *pp, gl_pframe *f);
void gl_prov__branch_end(gl_prov_pass *pp, gl_pframe *f);
void gl_prov__block_join(gl_prov_pass *pp, gl_pframe *f, bool implicit_before);

/* Loops: true when every name written since f->mark has a value at the end of the body whose
 * join with its value at the loop head is that head value (the body is a fixpoint). */
bool gl_prov__loop_converged(gl_prov_pass *pp, const gl_pframe *f);
/* Undoes the body's writes before another walk of it. widen: every name it wrote gets the join
 * of its head and end values, and f->mark moves past those writes, so that the next walk's
 * convergence is judged against them; else every name it wrote becomes unknown. */
void gl_prov__loop_forget(gl_prov_pass *pp, gl_pframe *f, bool widen);
/* Makes every name that loop rebinds (as recorded by an earlier walk of it) unknown. */
void gl_prov__loop_forget_recorded(gl_prov_pass *pp, uint32_t loop);

/* Records a mutation (or a pass to call, when call is not GL_MODEL__NONE) of the name at the
 * root of expression node n (identifier, or attribute / subscript chains on one) for every
 * enclosing loop. */
void gl_prov__touch_root(gl_prov_pass *pp, TSNode n, uint8_t flags, uint32_t call);

/* ---- model_eval.c: expressions --------------------------------------------------------------- */

/* Folds the finished named child c into its parent frame p (child slots, operand facts,
 * arguments). */
void gl_prov__child(gl_prov_pass *pp, gl_pframe *p, const gl_pframe *c);

/* Computes and stores the value (and roles) of the expression of frame f, which is being left;
 * parent is its parent's frame or NULL. False when f is not an expression it knows. */
bool gl_prov__eval(gl_prov_pass *pp, gl_pframe *f, const gl_pframe *parent);

/* The value of an operator expression from its operands: the first device operand (NULL when
 * none) makes it device, typed by that operand's type's operator entry or else its own type;
 * otherwise host when every operand is host (from-device when one is), else unknown, typed
 * like the first typed operand. roles: the device operand's operator entry's roles. */
gl_pval gl_prov__operate(gl_prov_pass *pp, const gl_pval *dev, const gl_pval *typed,
                         bool all_host, bool any_fd, uint8_t *roles);

/* The type a def's decorators give its name (GL_TYPE_NONE when none has `decorates`). */
uint16_t gl_prov__decorated_type(gl_prov_pass *pp, TSNode decorated_definition);

/* The type a class gets from its base node i (an expression among its superclasses): the
 * `decorates` type of a library class's entry, or the type of a class of this file that has
 * one; GL_TYPE_NONE otherwise. */
uint16_t gl_prov__base_class_type(gl_prov_pass *pp, uint32_t i);

/* The value an annotation (a `type` node) gives a parameter. */
gl_pval gl_prov__annotation(gl_prov_pass *pp, TSNode type);

/* v, device data of unknown type, typed pp->dev_type; any other v as it is. */
static inline gl_pval gl_prov__typed(const gl_prov_pass *pp, gl_pval v) {
  if (gl_pval_prov(v) == GL_PROV_DEVICE && v.type == GL_TYPE_NONE) v.type = pp->dev_type;
  return v;
}

/* Stores v in node i's record (keeping its other bits). */
static inline void gl_prov__set(gl_prov_pass *pp, uint32_t i, gl_pval v, uint8_t roles) {
  gl_model__rec *r = &pp->m->nodes.data[i];
  r->type = v.type;
  r->val = (uint8_t)((r->val & ~GL_VAL_BITS) | (v.bits & GL_VAL_BITS));
  r->roles = roles;
}

static inline gl_pval gl_prov__val(const gl_prov_pass *pp, uint32_t i) {
  if (i == GL_MODEL__NONE) return gl_pval_unknown();
  const gl_model__rec *r = &pp->m->nodes.data[i];
  gl_pval v = {r->type, (uint8_t)(r->val & GL_VAL_BITS)};
  return v;
}

/* ---- model_summary.c: function summaries ---------------------------------------------------- */

void gl_prov__summary_init(gl_prov_pass *pp);
void gl_prov__summary_free(gl_prov_pass *pp);
/* True when some def of the file (in any scope) is named name[0, len). */
bool gl_prov__file_defines(const gl_prov_pass *pp, const char *name, size_t len);
/* Entry e was bound at identifier node i (a def's name, or any other binding). */
void gl_prov__summary_bound(gl_prov_pass *pp, uint32_t e, uint32_t i);
/* The entry whose only binding is the def node def, or NONE (then it gets no summary). */
uint32_t gl_prov__summary_entry(const gl_prov_pass *pp, uint32_t def);
/* The device walk (pp->hypo) or the real walk of the def bound to entry e starts / ends; the
 * summary's facts meanwhile. */
void gl_prov__summary_begin(gl_prov_pass *pp, uint32_t e);
void gl_prov__summary_end(gl_prov_pass *pp);
void gl_prov__summary_return(gl_prov_pass *pp, uint32_t value);   /* NONE: a bare return */
void gl_prov__summary_yield(gl_prov_pass *pp);
void gl_prov__summary_d2h(gl_prov_pass *pp);
/* At a call whose callee (node index) names a summarised def and that passes device data
 * (device_arg): the summary's value (device when its returns are) into *v and its roles (d2h)
 * into *roles; false when no summary applies. */
/* True when callee (a call's function node) names a def of this file (summarised or not). */
bool gl_prov__summary_names_def(const gl_prov_pass *pp, uint32_t callee);
bool gl_prov__summary_apply(gl_prov_pass *pp, uint32_t callee, bool device_arg, gl_pval *v,
                            uint8_t *roles);
/* Records (in m->calls) that node call, whose callee is node callee, calls a summarised def. */
void gl_prov__summary_record_call(gl_prov_pass *pp, uint32_t call, uint32_t callee);

/* ---- model_loop.c: what loops touch ---------------------------------------------------------- */

/* The record of (loop, entry), or NULL; entry GL_MODEL__NONE: the loop's head record, whose
 * `next` starts the chain of the loop's records. */
const gl_model__touch *gl_model__touch_find(const gl_model__loops *l, uint32_t loop,
                                           uint32_t entry);

/* Records flags (GL_TOUCH_*) for (loop, entry) for every loop in loops[0..n). */
void gl_model__touch_add(gl_model__loops *l, const uint32_t *loops, size_t n, uint32_t entry,
                     uint8_t flags, uint32_t call);

#endif
