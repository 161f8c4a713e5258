/* libmodel_int.h: what libmodel.c (the table, freezing, lookups) and libmodel_json.c (reading one
 * model file) share. Nobody else includes it.
 * Owns: the layout of gl_libmodels: model files, API entries as read (type references still by
 *       name, with their position for freeze-time errors), types, and the frozen lookup tables.
 * Not: the file format (libmodel_json.c), lookups (libmodel.c).
 * Threads: built in the main thread; read-only once frozen. */
#ifndef GL_LIBMODEL_INT_H
#define GL_LIBMODEL_INT_H

#include "base/vec.h"
#include "libmodel/libmodel.h"

/* What an entry describes; also part of its lookup key. */
typedef enum gl_lm__kind {
  GL_LM_FUNCTION = 0,  /* exact qualified name */
  GL_LM_WILDCARD,      /* "prefix.*" (name kept with the ".*") */
  GL_LM_METHOD,        /* a method of `owner`, or "*" */
  GL_LM_ATTRIBUTE,     /* an attribute of `owner`, or "*" */
  GL_LM_SUBSCRIPT,     /* the owner's subscript, operators or call (no name) */
  GL_LM_OPERATORS,
  GL_LM_CALL,
} gl_lm__kind;

/* A position in a model file (1-based line and byte column). */
typedef struct gl_lm__pos {
  uint32_t file;   /* index into gl_libmodels.files */
  uint32_t line, col;
} gl_lm__pos;

/* A type named by an entry, resolved by gl_libmodels_freeze. */
typedef struct gl_lm__ref {
  char *name;      /* owned; NULL when the entry names no type */
  gl_lm__pos at;   /* of the string value, for "undefined type" */
} gl_lm__ref;

typedef struct gl_lm__entry {
  char *name;      /* owned; NULL for subscript, operators and call */
  size_t name_len;
  uint8_t kind;    /* gl_lm__kind */
  uint16_t owner;  /* the type of a member, GL_TYPE_NONE for functions */
  gl_lm__pos at;   /* of the key that defines it */
  gl_api_entry api;
  gl_lm__ref type, decorates;
} gl_lm__entry;

typedef struct gl_lm__type {
  char *name;      /* owned */
  size_t name_len;
  gl_lm__pos at;
  gl_prov prov;
  bool traced;     /* "traced": a def of this type runs its body when traced, not per call */
  bool explicit_work; /* "explicit-work": an entry without the gpu-work role launches nothing */
  uint32_t subscript, operators, call;  /* entry index + 1, or 0 */
} gl_lm__type;

/* Open addressing, linear probing; val is an index + 1 (0 = empty). */
typedef struct gl_lm__slot {
  uint32_t hash;
  uint32_t val;
} gl_lm__slot;

typedef struct gl_lm__map {
  gl_lm__slot *slots;
  size_t mask;     /* capacity - 1 (a power of two), 0 when empty */
} gl_lm__map;

/* The wildcards sharing a first segment, longest prefix first: wild.data[start .. start+count). */
typedef struct gl_lm__group {
  const char *seg;
  size_t seg_len;
  uint32_t start, count;
} gl_lm__group;

/* A top-level module that some model's function names start with ("cupy", "cupyx", "torch"). */
typedef struct gl_lm__module {
  const char *seg;   /* borrowed from the first entry's name */
  size_t seg_len;
  uint32_t roles;    /* the roles of every function entry under it, together */
  bool gpu;          /* a GPU library's: its model file names a device-array or gpu-only modules */
  uint16_t library;  /* the model file of the first entry under it */
} gl_lm__module;

/* A model file's "device-array": the type of device data its library makes. */
typedef struct gl_lm__device_array {
  char *library;   /* owned */
  char *type;      /* owned */
} gl_lm__device_array;

struct gl_libmodels {
  gl_vec(char *) files;       /* paths, owned */
  gl_vec(char *) libraries;   /* library name of each file, owned */
  gl_vec(gl_lm__entry) entries;
  gl_vec(gl_lm__type) types;  /* id = index */
  gl_vec(char *) triggers;    /* prefilter words of every model file, owned */
  gl_vec(gl_lm__device_array) device_arrays;   /* of the files that name one */
  gl_vec(char *) gpu_only;    /* "gpu-only-modules" of every model file, owned */
  gl_vec(char *) step_defs;   /* "per-step-defs" patterns of every model file, owned */
  gl_vec(uint8_t) gpu_library; /* per file: it names a device-array or gpu-only modules */
  gl_vec(char *) texts[GL_LM_TEXT_COUNT];  /* per file: its "warm-up", ... (gl_lm_text), owned, or
                                            NULL */
  /* Built by gl_libmodels_freeze; cleared by gl_libmodels_add. */
  bool frozen;
  int freeze_rc;              /* what gl_libmodels_freeze returned */
  gl_lm__map names;           /* (kind, owner, name) -> entry */
  gl_lm__map type_names;      /* name -> type */
  gl_lm__map group_names;     /* first segment -> group */
  gl_vec(uint32_t) wild;      /* wildcard entry indices, by group, longest first */
  gl_vec(gl_lm__group) groups;
  gl_vec(uint32_t) any_receiver;  /* entry indices of "any-receiver" methods */
  gl_vec(gl_lm__module) modules;  /* first segments of function names, in entry order */
};

/* Drops the lookup tables (gl_libmodels_add calls it: a new file needs a new freeze). */
void gl_lm__unfreeze(gl_libmodels *lm);

/* FNV-1a of the bytes, mixed with kind and owner. */
uint32_t gl_lm__hash(uint8_t kind, uint16_t owner, const char *s, size_t len);

#endif
