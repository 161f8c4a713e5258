/* node.h: the questions the flow checks ask of one node: a call's callee, positional and keyword
 * arguments and method name, a node's text, whether the file imports a library, which def of
 * the file a name calls, whether a def's body synchronizes.
 * Owns: these helpers, one copy each for every pack.
 * Not: walking (walk.h), what a pack makes of the answers.
 * Threads: no state; the model and source are borrowed. */
#ifndef GL_CHECKS_NODE_H
#define GL_CHECKS_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/load.h"
#include "checks/walk.h"
#include "model/model.h"

/* The qualified name of a call's callee (gl_model_resolve) into buf; false when n is not a call
 * or its callee does not resolve. */
bool gl_check__callee(const gl_model *m, TSNode call, char *buf, size_t cap);

/* True when a call's callee resolves (gl_check__callee) to one of names[0..n). */
bool gl_check__callee_in(const gl_model *m, TSNode call, const char *const *names, size_t n);

/* The i-th positional argument of a call (0-based) in its argument_list, or a null node: none
 * after a splat or a keyword argument (what follows is not known by position), and none for a
 * call whose only argument is a bare generator expression. */
TSNode gl_check__arg(TSNode call, uint32_t i);

/* The value of keyword argument name of a call, or a null node. */
TSNode gl_check__kwarg(const gl_source *src, TSNode call, const char *name);

/* For a call `recv.meth(...)`: true when the callee is an attribute named meth; *recv gets the
 * object. */
bool gl_check__method(const gl_source *src, TSNode call, const char *meth, TSNode *recv);

/* The name of the method a call calls (`x.read()` -> "read") into buf, with *recv the object;
 * false when the callee is not an attribute or the name does not fit. */
bool gl_check__method_name(const gl_source *src, TSNode call, char *buf, size_t cap,
                           TSNode *recv);

/* True when n's source text equals s. */
bool gl_check__text_is(const gl_source *src, TSNode n, const char *s);

/* True when the two nodes' source texts are equal. */
bool gl_check__same_text(const gl_source *src, TSNode a, TSNode b);

/* True when some node of list has the source text of n. */
bool gl_check__has_text(const gl_source *src, const gl_check__nodes *list, TSNode n);

/* True when inner's bytes lie within outer's (false for a null inner). */
bool gl_check__contains(TSNode outer, TSNode inner);

/* Copies n's source text into buf (first line only, at most cap - 4 bytes, "..." when cut). */
void gl_check__text(const gl_source *src, TSNode n, char *buf, size_t cap);

/* The text as its author wrote it at bytes [start, end) (in a notebook the original cell text,
 * magics not blanked), cut at the first line end and at max bytes; *len gets its length. The
 * result points into src. */
const char *gl_check__written(const gl_source *src, uint32_t start, uint32_t end, int max,
                              int *len);

/* True when src is a notebook with a line magic `%load_ext <ext>` (ext its first word, followed
 * by the end or a space); false for a NULL ext. */
bool gl_check__loads_ext(const gl_source *src, const char *ext);

/* True when the file imports (anywhere) a module whose top-level package is one of libs[0..n)
 * (gl_model_imports): the cheap first question of a check. */
bool gl_check__imports_any(const gl_model *m, const char *const *libs, size_t n);
/* True when call's model entry (gl_model_call_entry) has one of the roles (GL_ROLE_* bits, those
 * the model does not record on nodes included: GL_ROLE_LAUNCH). */
bool gl_check__call_has_role(const gl_model *m, TSNode call, uint32_t roles);
/* The model entry of call when it allocates its array on the device its `device=` names, or by
 * default on the library's default device or its argument's (an `alloc` entry whose result is
 * `default-device` or `arg0`: Warp's constructors, wp.zeros(n, device="cuda")); else NULL. */
const gl_api_entry *gl_check__device_kwarg_alloc(const gl_model *m, TSNode call);
/* True when the file imports a top-level module under which some model function has one of the
 * roles (GL_ROLE_* bits): `import torch` for GL_ROLE_HANDLE, as torch.cuda.Stream has it. */
bool gl_check__imports_role(const gl_model *m, uint32_t roles);

/* The one def of defs (gl_check__defs) whose name has the text of identifier name; a null node
 * when there is none or several (the name is then ambiguous). */
TSNode gl_check__def_named(const gl_source *src, const gl_check__nodes *defs, TSNode name);

/* True when the body of def holds a call (or operation) with the sync or d2h role, outside the
 * scopes nested in it. */
bool gl_check__body_syncs(const gl_model *m, TSNode def);

#endif
