/* model_int.h: what model.c and model_names.c share (not a public contract).
 * Owns: the scope tree and the per-scope bindings of one file (gl_model__names): binding and
 *       declaration events collected during the walk, then folded into one hash table keyed by
 *       (scope, name); the lookup that follows Python's LEGB rule.
 * Not: walking the tree or deciding what binds (model.c).
 * Threads: a gl_model__names belongs to one model, hence to one worker. */
#ifndef GL_MODEL_INT_H
#define GL_MODEL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "vec.h"

#define GL_MODEL__NONE UINT32_MAX
#define GL_MODEL__MODULE_SCOPE 0u

typedef enum gl_model__scope_kind {
  GL_SCOPE_MODULE,
  GL_SCOPE_FUNCTION,        /* def and lambda */
  GL_SCOPE_CLASS,           /* class body: invisible from the functions nested in it */
  GL_SCOPE_COMPREHENSION,   /* list/set/dict comprehension, generator expression */
} gl_model__scope_kind;

typedef enum gl_model__event_kind {
  GL_BIND_IMPORT,    /* an absolute import: name -> qualified name */
  GL_BIND_OTHER,     /* anything else that binds (assignment, def, parameter, relative import) */
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

/* The nearest scope at or above `scope` that is not a comprehension (where `:=` binds). */
uint32_t gl_model__walrus_scope(const gl_model__names *n, uint32_t scope);

#endif
