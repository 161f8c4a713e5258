/* embedded.h: the built-in rule packs, embedded into the binary by cmake/embed_rules.cmake.
 * Owns: nothing but the declaration of the generated table (paths are "rules/<pack>/<file>").
 * Threads: static const data, shared freely. */
#ifndef GL_EMBEDDED_H
#define GL_EMBEDDED_H

#include <stddef.h>

typedef struct gl_embedded_file {
  const char *path;
  const char *data;   /* NUL-terminated */
  size_t len;
} gl_embedded_file;

extern const gl_embedded_file gl_embedded_files[];
extern const size_t gl_embedded_count;

#endif
