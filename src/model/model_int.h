/* model_int.h: what model.c, model_walk.c and model_names.c share (not a public contract).
 * Owns: the layout of gl_model (node index records, node kinds, field ids) and the interfaces
 *       between the three files: names and scopes (model_names.c), the walk (model_walk.c), the
 *       index and text helpers (model_index.c), the driver's tables (model.c).
 * Not: any behaviour; each function is documented here and owned by the file named above it.
 * Threads: a gl_model__names belongs to one model, hence to one worker. */
#ifndef GL_MODEL_INT_H
#define GL_MODEL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>
#include "base/load.h"
#include "base/vec.h"
#include "libmodel/libmodel.h"
#include "model/model.h"

#define GL_MODEL__NONE UINT32_MAX
#define GL_MODEL__MODULE_SCOPE 0u

/* ---- scopes and bindings (model_names.c) ----------------------------------------------------- */

typedef enum gl_model__scope_kind {
  GL_SCOPE_MODULE,
  GL_SCOPE_FUNCTION,        /* def and lambda */
  GL_SCOPE_CLASS,           /* class body: invisible from the functions nested in it */
  GL_SCOPE_COMPREHENSION,   /* list/set/dict comprehension, generator expression */
} gl_model__scope_kind;

typedef enum gl_model__event_kind {
  GL_BIND_IMPORT,    /* an absolute import: name -> qualified name */
  GL_BIND_OTHER,     /* anything else that binds (assignment, def, parameter, relative import) */
  GL_BIND_FALLBACK,  /* `name = None` / `= False` in an ImportError handler of a try whose body
                        imports name: binds, but leaves an import resolution as it is */
  GL_DECL_GLOBAL,    /* `global name` in this scope */
  GL_DECL_NONLOCAL,  /* `nonlocal name` in this scope */
} gl_model__event_kind;

typedef struct gl_model__scope {
  uint32_t parent;   /* GL_MODEL__NONE for the module */
  uint8_t kind;      /* gl_model__scope_kind */
} gl_model__scope;

typedef struct gl_model__event {
  uint32_t scope, name_off, name_len, qual_off, qual_len;
  uint8_t kind;      /* gl_model__event_kind */
} gl_model__event;

typedef struct gl_model__entry {
  uint32_t scope, name_off, name_len, hash;
  uint32_t qual_off, qual_len;   /* valid when state is GL_STATE_IMPORT */
  uint8_t decl;                  /* 0, GL_DECL_GLOBAL or GL_DECL_NONLOCAL */
  uint8_t state;                 /* gl_model__state */
  bool bound_here;               /* some binding event named this scope (before redirection) */
} gl_model__entry;

typedef enum gl_model__state {
  GL_STATE_NONE,     /* declared only, or bound only through redirection elsewhere */
  GL_STATE_IMPORT,   /* every binding is an import of the same qualified name */
  GL_STATE_OTHER,    /* some other binding, or imports of different names */
} gl_model__state;

typedef struct gl_model__names {
  gl_vec(gl_model__scope) scopes;   /* [0] is the module */
  gl_vec(gl_model__event) events;
  gl_vec(gl_model__entry) entries;
  gl_vec(char) pool;                /* names and qualified names, not NUL-terminated */
  uint32_t *slots;                  /* entry index + 1; 0 = empty */
  size_t nslots;                    /* power of two */
} gl_model__names;

/* Starts with the module scope only. */
void gl_model__names_init(gl_model__names *n);
void gl_model__names_free(gl_model__names *n);

uint32_t gl_model__scope_new(gl_model__names *n, gl_model__scope_kind kind, uint32_t parent);

/* Records one event; name and qual are copied (qual only for GL_BIND_IMPORT). */
void gl_model__event_add(gl_model__names *n, uint32_t scope, gl_model__event_kind kind,
                         const char *name, size_t name_len, const char *qual, size_t qual_len);

/* Folds the events into the table: declarations first, then each binding in the scope its name
 * really lives in (`global` -> module, `nonlocal` -> the enclosing function that binds it). */
void gl_model__names_finish(gl_model__names *n);

/* Resolves a name used in `scope` (after finish): true with the qualified name (pointing into
 * the pool) when the innermost scope that binds it binds it only by imports of one name. Class
 * scopes are skipped except when `scope` itself is the class. */
bool gl_model__lookup(const gl_model__names *n, uint32_t scope, const char *name, size_t len,
                      const char **qual, size_t *qual_len);

/* The entry (index into n->entries) that a name read in `scope` refers to, as gl_model__lookup
 * finds it; GL_MODEL__NONE when no scope of the chain knows the name (a builtin). */
uint32_t gl_model__entry_read(const gl_model__names *n, uint32_t scope, const char *name,
                              size_t len);

/* The entry that a binding of name in `scope` lands in (its home scope, after global / nonlocal);
 * GL_MODEL__NONE when the walk recorded no such binding. */
uint32_t gl_model__entry_bind(const gl_model__names *n, uint32_t scope, const char *name,
                              size_t len);

/* The nearest scope at or above `scope` that is not a comprehension (where `:=` binds). */
uint32_t gl_model__walrus_scope(const gl_model__names *n, uint32_t scope);

/* ---- the node index and the file (model_index.c) ----------------------------------------------- */

/* Node kinds the model looks at (named node types of tree-sitter-python); GL_K_NONE is every
 * other node. One list makes both the enum and model.c's name table. */
#define GL_MODEL__KINDS(X) \
  X(GL_K_ALIASED_IMPORT, "aliased_import") \
  X(GL_K_ARGUMENT_LIST, "argument_list") \
  X(GL_K_AS_PATTERN, "as_pattern") \
  X(GL_K_AS_PATTERN_TARGET, "as_pattern_target") \
  X(GL_K_ASSIGNMENT, "assignment") \
  X(GL_K_ATTRIBUTE, "attribute") \
  X(GL_K_AUGMENTED_ASSIGNMENT, "augmented_assignment") \
  X(GL_K_AWAIT, "await") \
  X(GL_K_BINARY_OPERATOR, "binary_operator") \
  X(GL_K_BLOCK, "block") \
  X(GL_K_BOOLEAN_OPERATOR, "boolean_operator") \
  X(GL_K_CALL, "call") \
  X(GL_K_CASE_CLAUSE, "case_clause") \
  X(GL_K_CLASS_DEFINITION, "class_definition") \
  X(GL_K_COMMENT, "comment") \
  X(GL_K_COMPARISON_OPERATOR, "comparison_operator") \
  X(GL_K_CONCATENATED_STRING, "concatenated_string") \
  X(GL_K_CONDITIONAL_EXPRESSION, "conditional_expression") \
  X(GL_K_DECORATED_DEFINITION, "decorated_definition") \
  X(GL_K_DECORATOR, "decorator") \
  X(GL_K_DEFAULT_PARAMETER, "default_parameter") \
  X(GL_K_DELETE_STATEMENT, "delete_statement") \
  X(GL_K_DICTIONARY_COMPREHENSION, "dictionary_comprehension") \
  X(GL_K_DICTIONARY_SPLAT, "dictionary_splat") \
  X(GL_K_DICTIONARY_SPLAT_PATTERN, "dictionary_splat_pattern") \
  X(GL_K_DOTTED_NAME, "dotted_name") \
  X(GL_K_ELIF_CLAUSE, "elif_clause") \
  X(GL_K_ELSE_CLAUSE, "else_clause") \
  X(GL_K_EXCEPT_CLAUSE, "except_clause") \
  X(GL_K_EXPRESSION_LIST, "expression_list") \
  X(GL_K_EXPRESSION_STATEMENT, "expression_statement") \
  X(GL_K_FALSE, "false") \
  X(GL_K_FINALLY_CLAUSE, "finally_clause") \
  X(GL_K_FLOAT, "float") \
  X(GL_K_FOR_IN_CLAUSE, "for_in_clause") \
  X(GL_K_FOR_STATEMENT, "for_statement") \
  X(GL_K_FUNCTION_DEFINITION, "function_definition") \
  X(GL_K_FUTURE_IMPORT_STATEMENT, "future_import_statement") \
  X(GL_K_GENERATOR_EXPRESSION, "generator_expression") \
  X(GL_K_GLOBAL_STATEMENT, "global_statement") \
  X(GL_K_IDENTIFIER, "identifier") \
  X(GL_K_IF_STATEMENT, "if_statement") \
  X(GL_K_IMPORT_FROM_STATEMENT, "import_from_statement") \
  X(GL_K_IMPORT_STATEMENT, "import_statement") \
  X(GL_K_INTEGER, "integer") \
  X(GL_K_INTERPOLATION, "interpolation") \
  X(GL_K_KEYWORD_ARGUMENT, "keyword_argument") \
  X(GL_K_LAMBDA, "lambda") \
  X(GL_K_LAMBDA_PARAMETERS, "lambda_parameters") \
  X(GL_K_LIST, "list") \
  X(GL_K_LIST_COMPREHENSION, "list_comprehension") \
  X(GL_K_LIST_PATTERN, "list_pattern") \
  X(GL_K_LIST_SPLAT, "list_splat") \
  X(GL_K_LIST_SPLAT_PATTERN, "list_splat_pattern") \
  X(GL_K_MATCH_STATEMENT, "match_statement") \
  X(GL_K_NAMED_EXPRESSION, "named_expression") \
  X(GL_K_NONE_LITERAL, "none") \
  X(GL_K_NONLOCAL_STATEMENT, "nonlocal_statement") \
  X(GL_K_NOT_OPERATOR, "not_operator") \
  X(GL_K_PAIR, "pair") \
  X(GL_K_PARAMETERS, "parameters") \
  X(GL_K_PARENTHESIZED_EXPRESSION, "parenthesized_expression") \
  X(GL_K_PATTERN_LIST, "pattern_list") \
  X(GL_K_RETURN_STATEMENT, "return_statement") \
  X(GL_K_SET_COMPREHENSION, "set_comprehension") \
  X(GL_K_STRING, "string") \
  X(GL_K_SUBSCRIPT, "subscript") \
  X(GL_K_TRUE, "true") \
  X(GL_K_TRY_STATEMENT, "try_statement") \
  X(GL_K_TUPLE, "tuple") \
  X(GL_K_TUPLE_PATTERN, "tuple_pattern") \
  X(GL_K_TYPED_DEFAULT_PARAMETER, "typed_default_parameter") \
  X(GL_K_TYPED_PARAMETER, "typed_parameter") \
  X(GL_K_UNARY_OPERATOR, "unary_operator") \
  X(GL_K_WHILE_STATEMENT, "while_statement") \
  X(GL_K_WITH_ITEM, "with_item") \
  X(GL_K_WITH_STATEMENT, "with_statement") \
  X(GL_K_YIELD, "yield")

#define GL_MODEL__KIND_ENUM(id, name) id,
typedef enum gl_model__kind {
  GL_K_NONE,
  GL_MODEL__KINDS(GL_MODEL__KIND_ENUM)
  GL_K_COUNT
} gl_model__kind;

/* gl_model__rec.flags, set by the walk. */
enum {
  GL_REC_IN_LOOP = 1,     /* inside a loop body or comprehension (model.h gl_model_in_loop) */
  GL_REC_NOT_NAME = 2,    /* an identifier that is not a name (attribute field, parameter...) */
  GL_REC_TARGET = 4,      /* an identifier bound here (assignment / for / with / as / := target) */
  GL_REC_FIRST_FOR = 8,   /* the first for_in_clause of its comprehension */
  GL_REC_FALLBACK = 16,   /* the target of an optional-import fallback (`cp = None`) */
  GL_REC_QUEUED = 32,     /* a def or lambda whose body is queued for its own walk */
  GL_REC_LOCAL_CALL = 64, /* a call of a def of this file whose summary gave its value or roles */
  GL_REC_HOT_DEF = 128,   /* a def called on every iteration of a hot loop, or from a hot def's
                             body (model_freq.c) */
};

/* gl_model__rec.val, set by the provenance pass (model_prov.c): the value's provenance in the low
 * two bits (gl_prov), then facts about the value and the node. */
enum {
  GL_VAL_PROV = 3,          /* mask: gl_prov */
  GL_VAL_FROM_DEVICE = 4,   /* host value computed from a d2h result in this function */
  GL_VAL_CUDA = 8,          /* names a CUDA device ("cuda:0", torch.device("cuda")) */
  GL_VAL_CPU = 16,          /* names the CPU ("cpu", torch.device("cpu")) */
  GL_VAL_ACCEL = 32,        /* the accelerator the program selects at run time: with GL_VAL_CUDA,
                               names it (`"cuda" if ok else "cpu"`, torch.device(args.device));
                               with provenance device, data moved to it (`x.to(device)`) */
  GL_VAL_BITS = 63,         /* the bits above: what a binding carries */
  GL_VAL_QUAL = 64,         /* an expression that resolves to a qualified name (an import) */
  GL_VAL_BUILTIN = 128,     /* an identifier bound in no scope of its chain */
};

typedef struct gl_model__rec {
  TSNode node;
  uint32_t parent;   /* index of the nearest named ancestor; GL_MODEL__NONE for the root */
  uint32_t scope;    /* scope where names in this node are looked up */
  TSFieldId field;   /* field under which it sits in its parent; 0 for none */
  uint8_t kind;
  uint8_t flags;     /* GL_REC_* */
  uint16_t type;     /* the value's type id (libmodel.h), GL_TYPE_NONE when unknown */
  uint8_t roles;     /* effective GL_ROLE_* bits of a call, attribute, subscript or operator */
  uint8_t val;       /* GL_VAL_* */
} gl_model__rec;

typedef struct gl_model__fields {
  TSFieldId alias, alternative, argument, arguments, attribute, body, condition, consequence,
      definition, function, left, module_name, name, object, parameters, right, superclasses, type,
      value;
} gl_model__fields;

/* What loops touch (model_loop.c): one record per (loop, names entry), plus one per loop
 * (entry GL_MODEL__NONE) heading the chain of its records through `next`. */
enum {
  GL_TOUCH_REBOUND = 1,       /* bound in the loop (assignment, for target, del, ...) */
  GL_TOUCH_MUTATED = 2,       /* subscript / attribute store, augmented store, method call */
  GL_TOUCH_PASSED = 4,        /* passed to the call `call` */
  GL_TOUCH_PASSED_MANY = 8,   /* passed to more than one call */
};

typedef struct gl_model__touch {
  uint32_t loop, entry;   /* loop node index, names entry (NONE: the loop's head record) */
  uint32_t call;          /* GL_TOUCH_PASSED: the call's node index */
  uint32_t next;          /* next record of the same loop; head: the first one */
  uint8_t flags;
} gl_model__touch;

typedef struct gl_model__loops {
  gl_vec(gl_model__touch) touches;
  uint32_t *slots;        /* touch index + 1, keyed by (loop, entry); 0 = empty */
  size_t nslots;          /* power of two, at least twice the records */
} gl_model__loops;

/* A call of a def of this file (recorded by the provenance pass, model_summary.c; read by
 * model_freq.c). */
typedef struct gl_model__call {
  uint32_t call, def;   /* node indexes */
  bool gpu_work;        /* the def's body does GPU work (through its own calls too) */
  bool gpu_loop;        /* the def's body holds a loop that does GPU work */
} gl_model__call;

struct gl_model {
  const gl_source *src;
  const TSTree *tree;
  gl_vec(gl_model__rec) nodes;      /* every named node, in document order */
  uint32_t *ends;              /* ends[i]: one past the last node of i's subtree */
  uint32_t *slots;             /* node index + 1, keyed by TSNode.id; 0 = empty */
  size_t nslots;               /* power of two, at least twice the node count */
  gl_vec(gl_comment) comments;
  uint32_t max_depth;
  gl_model__names names;
  uint8_t *kinds;              /* kind of each symbol of the language */
  uint32_t nsymbols;
  gl_model__fields f;
  const gl_libmodels *lm;      /* NULL: no provenance */
  gl_model__loops loops;
  gl_vec(gl_model__call) calls;     /* sorted by call, one per call (gl_model__calls_finish) */
  bool qual_known;             /* the provenance pass has run: GL_VAL_QUAL is final */
  bool captures_loop;          /* the file captures a loop into a CUDA graph (model_freq.c) */
  uint8_t *hot_root;            /* per node: 1 on a def hot by itself, not through callers: a
                                  framework's per-step method or a `# gpulint: hot` def (NULL
                                  when none); its loops do not make the rest of its body cold */
  uint16_t dev_type;           /* the array type of the file's device data (model_prov.c) */
  uint8_t *def_ret;            /* per node, on summarised defs: GL_DEF_RET_* (NULL when none) */
  uint16_t *def_ret_type;      /* per node: the type of what def_ret says it returns */
  uint32_t *inst_class;        /* per node, on a call `obj.m(...)` where obj holds an instance of
                                  a class the file imports: the node of the class expression it
                                  was made with (`utils.MetricLogger` of `utils.MetricLogger()`);
                                  GL_MODEL__NONE elsewhere; NULL when no call has one */
  const gl_model_def_fact *program; /* the program stage's facts on defs (borrowed for the build;
                                       gl_model_build_program) */
  size_t nprogram;
  const gl_model_call_fact *program_calls;  /* ... and on calls of other files' defs */
  size_t nprogram_calls;
  bool test_module;            /* the file is a test module (test_*.py): nothing in it is hot */
  bool per_step_defs;          /* some def is hot as a framework's per-step method (model_freq.c) */
  uint8_t *traced;             /* per node, 1 on a def whose body runs when traced (jax.jit,
                                  torch.compile) or that only such defs call; NULL when none */
  bool times_anywhere;         /* some call of the file reads a clock (gl_model__timing_finish) */
  gl_vec(uint32_t) timing_blocks;   /* blocks (or the module) with a statement of their own
                                       that reads a clock (a block may repeat) */
};

enum {
  GL_DEF_RET_DEVICE = 1,        /* returns device data whatever it is given */
  GL_DEF_RET_DEVICE_GIVEN = 2,  /* returns device data when given device data */
  GL_DEF_D2H_GIVEN = 4,         /* copies device data to the host when given device data */
};

/* The kind of n; GL_K_NONE for a null node too (an absent field). */
static inline gl_model__kind gl_model__kind_of(const gl_model *m, TSNode n) {
  if (!n.id) return GL_K_NONE;
  TSSymbol s = ts_node_symbol(n);
  return s < m->nsymbols ? (gl_model__kind)m->kinds[s] : GL_K_NONE;
}

/* The bytes of n in the source (clamped to it). */
const char *gl_model__text(const gl_model *m, TSNode n, size_t *len);

/* Copies the identifiers and dots of a dotted_name, without the whitespace, line continuations
 * and comments between them, into out (at most cap bytes). Returns the full length. */
size_t gl_model__dotted_copy(const gl_model *m, TSNode n, char *out, size_t cap);

/* Appends a record to the index; returns its index. */
uint32_t gl_model__index_add(gl_model *m, const gl_model__rec *r);

/* The index of node n in m->nodes, or GL_MODEL__NONE (anonymous, null, other tree). */
uint32_t gl_model__index_of(const gl_model *m, TSNode n);

/* The record of node n, or NULL (anonymous, null, other tree). */
const gl_model__rec *gl_model__rec_of(const gl_model *m, TSNode n);

/* ---- provenance (model_prov.c, model_eval.c, model_flow.c, model_loop.c) --------------------- */

/* The provenance pass: fills type, roles and val of every record and m->loops (m->lm set). */
void gl_model__prov(gl_model *m);

/* The loop-invariant query of model.h for node index i. */
bool gl_model__loop_invariant(const gl_model *m, uint32_t i);

void gl_model__loops_free(gl_model__loops *l);

/* ---- frequency (model_freq.c) ---------------------------------------------------------------- */

/* After the provenance pass: finds the blocks that read a clock (m->timing_blocks), so
 * gl_model_timed is a lookup. */
void gl_model__timing_finish(gl_model *m);

/* After the provenance pass: sorts m->calls, fills their gpu_work and gpu_loop, and marks GL_REC_HOT_DEF on
 * every def some call runs per iteration (to a fixed point: a hot def's calls make their defs
 * hot). */
void gl_model__calls_finish(gl_model *m);

/* The model entry of def when a framework calls it on every step: def is a method of class cls
 * (both node indexes), the class's name has a model type whose instances list def's name with
 * "per-step" (`forward` of an nn.Module subclass, Lightning's training_step); else NULL. Needs
 * the class name's type, so only after the provenance walk of the module. */
const gl_api_entry *gl_model__step_method(const gl_model *m, uint32_t cls, uint32_t def);

/* True when the body of def holds a loop that does GPU work (nested defs left out). */
bool gl_model__def_gpu_loop(const gl_model *m, uint32_t def);

/* True when node i lies in a traced def (its loops run once per trace). */
bool gl_model__in_traced(const gl_model *m, uint32_t i);

/* True when node i sits, within its def, in a branch that runs now and then: the consequence of
 * a frequency guard (`if step % N == 0:`, `if i == 0:`) or a block that ends in break / return
 * / raise. */
bool gl_model__guarded(const gl_model *m, uint32_t i);

/* ---- the walk (model_walk.c) ----------------------------------------------------------------- */

/* Walks the tree once: fills the index, the comments, the depth and the binding events. */
void gl_model__walk(gl_model *m, TSNode root);

#endif
