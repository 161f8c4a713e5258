/* model.h: what the names and values of one parsed file mean.
 * Owns: one iterative walk of the tree (a TSTreeCursor and our own parent stack; no recursion, no
 *       ts_node_parent) that indexes every named node (parent, field, scope, loop context), the
 *       scopes and their bindings, import alias resolution (`import a.b as c`, `from a import b
 *       as c`, `import a.b` binding `a`, nested scopes shadowing), and the file's comments; then,
 *       given library models, a second walk in evaluation order that records per node the
 *       value's provenance (device / host / unknown), type and from-device fact, each call's
 *       effective roles, and what each loop rebinds or mutates (docs/models.md).
 * Not: loading library models (libmodel.h), running queries (match.c).
 * Threads: a gl_model belongs to one worker and lives as long as its tree. */
#ifndef GL_MODEL_H
#define GL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>
#include "base/load.h"
#include "libmodel/libmodel.h"

typedef struct gl_model gl_model;

typedef struct gl_comment {
  uint32_t start_byte, end_byte;   /* the comment's bytes, '#' included */
} gl_comment;

/* Builds the model of tree, parsed from src, with the frozen library models lm (all borrowed;
 * all must outlive the model: queries read names from src's bytes). lm NULL: no provenance
 * pass, and every provenance query below answers false / unknown / 0. Never fails; a tree with
 * syntax errors is modelled as it is. Memory is proportional to the named nodes. Cost: one walk
 * for names, one for provenance (a loop body whose names change between its head and its end
 * is walked a second time). gl_model_free(NULL) does nothing. */
gl_model *gl_model_build(const gl_source *src, const TSTree *tree, const gl_libmodels *lm);
/* What the program stage learned of one def (or class) of the file from the rest of the run. */
typedef struct gl_model_def_fact {
  uint32_t start;          /* the def node's start byte */
  uint32_t device_params;  /* bit k: parameter k (self is 0) is given device data */
  uint16_t device_type;    /* its type (the callers' framework), GL_TYPE_NONE when unknown */
  bool hot;                /* called on every step: hot as a def of the file called from a hot
                              loop is (model_freq.c) */
  bool root;               /* named in hot-functions: hot by itself, as with `# gpulint: hot` */
  uint16_t class_type;     /* start is a class's: the type its name has through its bases in
                              other files (torch.nn.ModuleClass), GL_TYPE_NONE when none */
} gl_model_def_fact;

/* A call of a def of another file that returns device data (the program stage): whatever it
 * is given, or given the device data this call passes. */
typedef struct gl_model_call_fact {
  uint32_t start;          /* the call node's start byte */
  uint16_t type;           /* the returned data's type, GL_TYPE_NONE when unknown */
  bool returns;            /* it returns device data */
  bool d2h;                /* it copies the device data this call gives it to the host */
} gl_model_call_fact;

/* What the program stage learned of a file from the rest of the run (all borrowed). */
typedef struct gl_model_program {
  const gl_model_def_fact *defs;
  size_t ndefs;
  const gl_model_call_fact *calls;
  size_t ncalls;
} gl_model_program;

/* The same, with the program stage's facts (borrowed for the build; NULL: none). */
gl_model *gl_model_build_program(const gl_source *src, const TSTree *tree,
                                 const gl_libmodels *lm, const gl_model_program *prog);

/* What the program stage needs of the file (model_program.c): its defs, imports and calls that
 * may reach another file, as text the caller frees. Needs the library models (lm). */
char *gl_model_program_summary(const gl_model *m);
void gl_model_free(gl_model *m);

/* Qualified name of an expression node after alias resolution, written to buf (NUL-terminated):
 * - identifier in an expression: the module path it was imported as ("cp" -> "cupy"), or false
 *   when it is bound by anything but an import, ambiguous, or not bound at all (builtins);
 * - attribute chain a.b.c: resolution of `a` plus ".b.c" (false when `a` does not resolve, and
 *   when the chain starts at a call, subscript or parenthesized expression);
 * - dotted_name of `import a.b` / `import a.b as c`: "a.b"; of `from a import b`: module "a"
 *   and name "a.b"; relative imports (`from . import x`), `from __future__` and dotted names
 *   outside imports (match patterns) do not resolve. Whitespace, `\` continuations and comments
 *   inside a dotted name are dropped.
 * Binding rules (flow-insensitive, per scope, conservative): `import a.b` binds a -> "a";
 * `import a.b as c` c -> "a.b"; `from a.b import c [as d]` c/d -> "a.b.c"; relative imports
 * bind as non-imports; `*` imports are ignored. Any other binding in the same scope (assignment,
 * augmented assignment, for / with / except targets, def and class names, parameters, `:=`), or
 * two imports of different names, makes the name unresolved. Except the optional-import idiom:
 * `name = None` or `name = False`, written directly in the handler of a try statement whose body
 * imports name in the same scope, where the handler is bare or catches ImportError,
 * ModuleNotFoundError or a tuple of them (`as e` allowed), leaves the import resolution as is
 * (that fallback's target identifier itself does not resolve: it is not a use). Scopes: module, def and lambda
 * (defaults and annotations are evaluated outside), class bodies (not visible from nested
 * functions, lambdas and comprehensions), comprehensions (the first iterable is evaluated
 * outside); `global` / `nonlocal` send both bindings and lookups to the scope they name.
 * Identifiers that are not names (attribute fields, keyword names, parameters, def and class
 * names, identifiers inside imports, dotted names and global / nonlocal) do not resolve.
 * False when the name does not fit in cap (buf's content is then unspecified), and for nodes of
 * other trees, anonymous nodes and null nodes. O(1) on average plus the chain's length. */
bool gl_model_resolve(const gl_model *m, TSNode node, char *buf, size_t cap);

/* True when node is inside the body of a for/while loop or a comprehension, within the same
 * function (a def inside a loop starts afresh). Exactly: some ancestor, below the nearest
 * enclosing function_definition / lambda / class_definition (all of whose parts start afresh,
 * defaults included), is the `body` of a for_statement or while_statement (not its target,
 * iterable, condition or else clause), or a part of a comprehension or generator expression
 * other than the first for_in_clause's iterable (evaluated once) and that clause node itself.
 * False for anonymous nodes and nodes of other trees. O(1) on average. */
bool gl_model_in_loop(const gl_model *m, TSNode node);

/* True when node runs on every iteration of a hot loop: it is in a loop (gl_model_in_loop), or
 * in the body of a def of this file that is called so (from a hot position, through any chain
 * of such defs); not under a frequency guard between it and its innermost loop or def (the
 * consequence of an `if` whose condition takes a remainder, `step % N == 0`, or compares with
 * an integer, `i == 0`, or that ends in break / return / raise), not in a loop of a few literal
 * trips (`range(3)`, a literal tuple or list), and not in an outer loop (or a def) beside an
 * inner loop that does the GPU work (an inner loop under an `if` runs on some iterations only
 * and does not count), or beside a call of a def whose body has one (once per epoch, not per
 * step). Comprehensions are hot. Cost: a walk up to the loop plus a scan of the
 * loop's body. */
bool gl_model_hot(const gl_model *m, TSNode node);

/* True when node, a device-to-host read, feeds host code that cannot take device data: its value
 * (through `.numpy()`, `.cpu()`, subscripts) is an argument of an environment's `step` (a call
 * `<...env...>.step(...)`) or of a function the models mark "host-sink" (`plt.imshow`), directly
 * or through a name a later statement of the same block passes to one. Such a copy per step is
 * the loop's point, not a pitfall. */
bool gl_model_needed_transfer(const gl_model *m, TSNode node);

/* True when the loop whose iterations make node hot (the innermost for / while around it in its
 * def; else the hot def itself) already waits for the device on every iteration besides node: it
 * holds, not under an `if`, an explicit wait (a call with the sync role: `synchronize()`,
 * `block_until_ready()`) or a read the loop needs (gl_model_needed_transfer). A further read there
 * costs a copy, not a stall. */
bool gl_model_drained(const gl_model *m, TSNode node);

/* True when node is in a timing region: a statement of its own block, or of a block around it
 * up to its def (the module outside any def), reads a host clock (a call with the timer role:
 * `t0 = time.perf_counter()`, `with Timer(time.time)`), records an event or reads an event's
 * `.elapsed_time(...)` in its own code (not in the bodies of an `if`, a loop or a `try` beside
 * node: a clock read for another purpose there does not time node). A node in a def but in no loop of it (hot only
 * because a loop calls the def) is timed when any part of the file reads a clock: the caller
 * may time each call. Cost: the statements of the blocks around node (the file's nodes in
 * that case). */
bool gl_model_timed(const gl_model *m, TSNode node);

/* ---- provenance (docs/models.md); each O(1) on average from the node's record ------------- */

/* The provenance of an expression's value. Unknown for statements, nodes that are not values
 * (attribute fields, keyword names, callee attributes of method calls), anonymous nodes, nodes
 * of other trees, and without models. */
gl_prov gl_model_prov(const gl_model *m, TSNode node);

/* The GL_ROLE_* bits of a call (or of an attribute, subscript or operator whose model entry has
 * roles), after `when`: receiver-device / arg0-device data roles only when that value is
 * device. 0 for anything else. */
uint32_t gl_model_roles(const gl_model *m, TSNode node);

/* The type id (gl_libmodels_type_id) of an expression's value; GL_TYPE_NONE when unknown. */
uint16_t gl_model_type(const gl_model *m, TSNode node);

/* True for a host value that came from the device in the same function: the host result of a
 * d2h call, or a host result of a call, attribute, subscript or operator one of whose inputs
 * (receiver, arguments, operands) is from-device. */
bool gl_model_from_device(const gl_model *m, TSNode node);

/* True for an identifier bound in no scope of its chain: a reference to a Python builtin
 * (`print` in a file that defines no `print`). Needs the library models (false without). */
bool gl_model_is_builtin(const gl_model *m, TSNode node);

/* True for a call of a def of this file (by name, or `self.name` in a method of its class)
 * whose summary gave the call its value or its roles: the def returns device data when given
 * device data (or always), or copies what it is given to the host. */
bool gl_model_local_call(const gl_model *m, TSNode node);

/* True when node is in a loop (gl_model_in_loop) and is a literal (number, string without
 * interpolation, True / False / None, negative number), or a name or an attribute chain on a
 * name that the innermost enclosing loop (for / while body, comprehension) neither rebinds
 * (assignment, augmented assignment, for / with / except / := target, del, def, class) nor
 * mutates (subscript or attribute store or del, any method call on it or on an attribute
 * chain from it, passing it (or an attribute / subscript chain from it) to a call other than
 * the one node is a direct argument of). Names of imported modules are never touched; a
 * builtin name is invariant. False otherwise and without models. */
bool gl_model_loop_invariant(const gl_model *m, TSNode node);

/* True when node is the value a loop collects, one per iteration: the element of a list / set
 * comprehension or generator expression, or the one argument of `.append(...)`. Such work
 * cannot be hoisted out of the loop: each iteration keeps its own result. */
bool gl_model_collected(const gl_model *m, TSNode node);

/* True when node lies in a traced def: one a model types as traced (`@jax.jit`,
 * `@partial(jax.jit, ...)`, `@torch.compile`), one wrapped by such a call (`step =
 * jax.jit(step)`), a def nested in one, or a def of this file that only such defs call. Its body
 * runs when the library traces it, once per new input shape: a loop in it is unrolled into one
 * compiled program, not run on every call (so never hot by itself: gl_model_hot). */
bool gl_model_traced(const gl_model *m, TSNode node);

/* True for host data that a library call builds from shapes, constants or a random generator,
 * data the same call could build on the device: a call of a function whose model result is
 * `device-kwarg` (it takes `device=`) and that has no `h2d` role (it copies no data in:
 * `torch.zeros(n)`, `torch.randint(0, k, (n,))`), whose value here is host data, also through
 * methods on that host value (`torch.rand(8).float()`); or a list literal of values not known to
 * be on the device, repeated with `*` (`[bos] * n`). False without models. */
bool gl_model_host_built(const gl_model *m, TSNode node);

/* The library models the model was built with (NULL: none). */
/* gl_model_type, or for device data of no known type the array type of the one device framework
 * the file imports (a loop target over a CUDA tensor: torch.Tensor); GL_TYPE_NONE otherwise. */
uint16_t gl_model_device_type(const gl_model *m, TSNode node);

/* The model entry that describes call: its callee's `functions` entry (after import
 * resolution), else the exact `methods` entry of its receiver's type (gl_model_device_type; not the type's "*"
 * entry); NULL when none or without models. */
const gl_api_entry *gl_model_call_entry(const gl_model *m, TSNode call);

const gl_libmodels *gl_model_libmodels(const gl_model *m);

/* The file's comments in source order. */
const gl_comment *gl_model_comments(const gl_model *m, size_t *count);

/* Deepest nesting of the tree (for the depth guard): the number of nodes, named or anonymous, on
 * the longest root-to-leaf path; 1 for an empty module. */
uint32_t gl_model_max_depth(const gl_model *m);

/* ---- the node index: every named node in document order (pre-order), for code that visits
 * many nodes without walking the tree again (model_index.c; each O(1) unless said) ---------- */

#define GL_MODEL_NO_NODE UINT32_MAX

/* Number of named nodes; node i's subtree is the nodes [i, gl_model_node_end(m, i)). */
uint32_t gl_model_node_count(const gl_model *m);
TSNode gl_model_node_at(const gl_model *m, uint32_t i);
/* The index of a named node of this tree (O(1) on average); GL_MODEL_NO_NODE otherwise. */
uint32_t gl_model_node_index(const gl_model *m, TSNode n);
/* The nearest named ancestor's index; GL_MODEL_NO_NODE for the root. */
uint32_t gl_model_node_parent(const gl_model *m, uint32_t i);
/* The parent of n, as ts_node_parent gives it but from the index (O(1) on average, where
 * ts_node_parent walks down from the root: O(depth), quadratic when called per node of a deep
 * tree); ts_node_parent for a node the index does not hold; a null node for the root. */
TSNode gl_model_parent_of(const gl_model *m, TSNode n);
/* One past the last node of i's subtree. */
uint32_t gl_model_node_end(const gl_model *m, uint32_t i);
/* The field under which node i sits in its parent (0 for none). */
TSFieldId gl_model_node_field(const gl_model *m, uint32_t i);
/* True when node i is an identifier or attribute chain that gl_model_resolve resolves (known
 * after the provenance pass: always false without library models). */
bool gl_model_node_qualified(const gl_model *m, uint32_t i);
/* True when the model was built with library models (the provenance pass ran). */
bool gl_model_has_provenance(const gl_model *m);
/* True when some import of the file, in any scope, names module or a module or name inside it
 * (`import time`, `from time import perf_counter as pc`, `import datetime.datetime`): nothing
 * of module can resolve in a file where this is false. O(imports). */
bool gl_model_imports(const gl_model *m, const char *module);

#endif
