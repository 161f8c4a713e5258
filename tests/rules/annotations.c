/* annotations.c: parses fixture annotations out of one comment (see annotations.h).
 * A comment may hold several `kind: ids` groups ("# expect: GPU101  # ok: GPU102 reason").
 * Threads: test code. */
#include "annotations.h"

#include <string.h>

static const struct { const char *word; gl_ann_kind kind; } kinds[] = {
    {"expect:", GL_ANN_EXPECT}, {"ok:", GL_ANN_OK}, {"todo:", GL_ANN_TODO}};

static int parse_ids(const char *t, size_t len, size_t *i, gl_ann_kind kind, uint32_t line,
                     gl_annotation_list *out) {
  int n = 0;
  for (;;) {
    while (*i < len && (t[*i] == ' ' || t[*i] == ',')) (*i)++;
    size_t start = *i;
    while (*i < len && t[*i] >= 'A' && t[*i] <= 'Z') (*i)++;
    size_t letters = *i;
    while (*i < len && t[*i] >= '0' && t[*i] <= '9') (*i)++;
    if (letters == start || *i == letters || *i - start >= 16) {
      *i = start;
      return n;
    }
    gl_annotation *a = gl_vec_grow(out);
    a->kind = kind;
    a->line = line;
    memcpy(a->id, t + start, *i - start);
    a->id[*i - start] = '\0';
    n++;
  }
}

int gl_annotations_parse(const char *text, size_t len, uint32_t line, gl_annotation_list *out) {
  int total = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] != '#') continue;
    size_t j = i + 1;
    while (j < len && text[j] == ' ') j++;
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
      size_t wl = strlen(kinds[k].word);
      if (len - j < wl || memcmp(text + j, kinds[k].word, wl) != 0) continue;
      size_t at = j + wl;
      int n = parse_ids(text, len, &at, kinds[k].kind, line, out);
      if (n == 0) return -1;
      total += n;
      i = at - 1;
      break;
    }
  }
  return total;
}
