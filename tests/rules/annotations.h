/* annotations.h: fixture expectations (`# expect: GPU101`, `# ok: GPU101`, `# todo: GPU101`) read
 * from the comment nodes of a parsed fixture, never by a regex over lines.
 * Owns: parsing one comment into a kind and ids, and collecting them per line.
 * Threads: test code, single-threaded. */
#ifndef GL_TEST_ANNOTATIONS_H
#define GL_TEST_ANNOTATIONS_H

#include <stddef.h>
#include <stdint.h>
#include "base/vec.h"

typedef enum gl_ann_kind { GL_ANN_EXPECT, GL_ANN_OK, GL_ANN_TODO } gl_ann_kind;

typedef struct gl_annotation {
  gl_ann_kind kind;
  uint32_t line;      /* 1-based line of the comment */
  char id[16];
} gl_annotation;

typedef gl_vec(gl_annotation) gl_annotation_list;

/* Reads the annotations of one comment's text ("# expect: GPU101, GPU102 free text") at line;
 * returns how many were added, or -1 when the comment starts an annotation with no id. */
int gl_annotations_parse(const char *text, size_t len, uint32_t line, gl_annotation_list *out);

#endif
