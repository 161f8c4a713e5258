/* notebook_int.h: what notebook.c and notebook_magic.c share.
 * Owns: the code cell spans handed from the reader to the magic blanking.
 * Not: public API (notebook.h). Threads: as notebook.h. */
#ifndef GL_NOTEBOOK_INT_H
#define GL_NOTEBOOK_INT_H
#include <stddef.h>
#include <stdint.h>
#include "notebook/notebook.h"

/* A code cell's bytes in the virtual source: [start, end), end just past its last newline. */
typedef struct gl_nb_cellspan {
  uint32_t cell;
  uint32_t start, end;
} gl_nb_cellspan;

/* Finds the magics of every cell in nb->code, records them in nb->magics and blanks them in
 * nb->code (nb->orig keeps them), keeping every byte's line and column. */
void gl_notebook__blank(gl_notebook *nb, const gl_nb_cellspan *cells, size_t ncells);

#endif
