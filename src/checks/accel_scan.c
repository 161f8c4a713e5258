/* accel_scan.c: the walk that tracks enclosing function bodies and branches (accel_scan.h).
 * Owns: the frame stack of one walk (what each entered node pushed), TYPE_CHECKING detection,
 *       the ordering test between two places.
 * Not: what the callers look for.
 * Threads: no state; the tree and source are borrowed. */
#include "checks/accel_scan.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "parse/parse.h"

#define MAX_DEPTH 256

typedef struct frame {
  const char *type;     /* the node's type */
  uint32_t start;       /* its start byte */
  uint32_t alts;        /* branches counted so far (if_statement alternatives, match cases) */
  bool scope, branch;   /* what entering it pushed on pos */
  bool type_checking;   /* an if_statement whose condition is TYPE_CHECKING */
} frame;

typedef struct walker {
  const gl_source *src;
  gl_ascan_mode mode;
  gl_ascan_fn fn;
  void *user;
  gl_ascan_pos pos;
  frame fr[MAX_DEPTH];
} walker;

static const char *const compound[] = {
    "module", "block", "if_statement", "elif_clause", "else_clause", "try_statement",
    "except_clause", "except_group_clause", "finally_clause", "with_statement", "for_statement",
    "while_statement", "function_definition", "class_definition", "decorated_definition",
    "match_statement", "case_clause", "ERROR", NULL,
};

static bool is_compound(const char *type) {
  for (const char *const *k = compound; *k; k++)
    if (strcmp(*k, type) == 0) return true;
  return false;
}

static bool text_is(const gl_source *src, TSNode n, const char *s) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  size_t len = strlen(s);
  return b - a == len && b <= src->len && memcmp(src->bytes + a, s, len) == 0;
}

/* `TYPE_CHECKING` or `<anything>.TYPE_CHECKING`. */
static bool is_type_checking(const gl_source *src, TSNode cond) {
  if (ts_node_is_null(cond)) return false;
  if (GL_IS(cond, identifier)) return text_is(src, cond, "TYPE_CHECKING");
  if (!GL_IS(cond, attribute)) return false;
  TSNode attr = gl_parse_child(cond, "attribute", 9);
  return !ts_node_is_null(attr) && text_is(src, attr, "TYPE_CHECKING");
}

static bool push_branch(walker *w, uint32_t id, uint32_t idx) {
  if (w->pos.nbranch >= GL_ASCAN_NEST) return false;
  w->pos.branch[w->pos.nbranch++] = (gl_ascan_branch){id, idx};
  return true;
}

/* Pushes what the node at depth d opens; false when it must not be reached at all. */
static bool open_frame(walker *w, uint32_t d, TSNode n, const char *field) {
  frame *f = &w->fr[d], *up = &w->fr[d - 1];
  *f = (frame){.type = ts_node_type(n), .start = ts_node_start_byte(n)};
  bool in_if = strcmp(up->type, "if_statement") == 0;
  if (in_if && field && strcmp(field, "consequence") == 0) {
    if (up->type_checking) return false;
    return (f->branch = push_branch(w, up->start, 0));
  }
  if (in_if && field && strcmp(field, "alternative") == 0) {
    up->alts++;
    if (strcmp(f->type, "elif_clause") == 0 &&
        is_type_checking(w->src, gl_parse_child(n, "condition", 9)))
      return false;
    return (f->branch = push_branch(w, up->start, up->alts));
  }
  if (strcmp(f->type, "case_clause") == 0) return (f->branch = push_branch(w, up->start, ++up->alts));
  if (strcmp(f->type, "if_statement") == 0)
    f->type_checking = is_type_checking(w->src, gl_parse_child(n, "condition", 9));
  if (field && strcmp(field, "body") == 0 && strcmp(up->type, "function_definition") == 0) {
    if (w->pos.nscope >= GL_ASCAN_NEST) return false;
    w->pos.scope[w->pos.nscope++] = up->start;
    f->scope = true;
  }
  return true;
}

static void close_frame(walker *w, uint32_t d) {
  if (w->fr[d].scope) w->pos.nscope--;
  if (w->fr[d].branch) w->pos.nbranch--;
  w->fr[d].scope = w->fr[d].branch = false;
}

/* Enters the cursor's node at depth d; returns whether to descend into it. */
static bool visit(walker *w, TSTreeCursor *c, uint32_t d) {
  TSNode n = ts_tree_cursor_current_node(c);
  if (!ts_node_is_named(n)) {
    w->fr[d] = (frame){.type = ts_node_type(n), .start = ts_node_start_byte(n)};
    return false;
  }
  if (!open_frame(w, d, n, ts_tree_cursor_current_field_name(c))) return false;
  w->pos.byte = ts_node_start_byte(n);
  bool want = w->fn(w->user, n, &w->pos);
  if (!want || d + 1 >= MAX_DEPTH) return false;
  return w->mode == GL_ASCAN_ALL || is_compound(w->fr[d].type);
}

void gl_ascan_walk(const gl_source *src, const TSTree *tree, gl_ascan_mode mode, gl_ascan_fn fn,
                   void *user) {
  walker *w = gl_xcalloc(1, sizeof *w);
  *w = (walker){.src = src, .mode = mode, .fn = fn, .user = user};
  TSNode root = ts_tree_root_node(tree);
  w->fr[0] = (frame){.type = ts_node_type(root), .start = ts_node_start_byte(root)};
  TSTreeCursor c = ts_tree_cursor_new(root);
  uint32_t depth = 0;
  bool descend = true;
  for (;;) {
    if (descend && ts_tree_cursor_goto_first_child(&c)) {
      descend = visit(w, &c, ++depth);
      continue;
    }
    for (;;) {
      close_frame(w, depth);
      if (depth == 0) goto done;
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        descend = visit(w, &c, depth);
        break;
      }
      ts_tree_cursor_goto_parent(&c);
      depth--;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  free(w);
}

bool gl_ascan_ordered(const gl_ascan_pos *a, const gl_ascan_pos *b) {
  if (a->byte >= b->byte || a->nscope > b->nscope) return false;
  for (uint8_t i = 0; i < a->nscope; i++)
    if (a->scope[i] != b->scope[i]) return false;
  for (uint8_t i = 0; i < a->nbranch; i++)
    for (uint8_t j = 0; j < b->nbranch; j++)
      if (a->branch[i].id == b->branch[j].id && a->branch[i].idx != b->branch[j].idx) return false;
  return true;
}

static bool has_branch(const gl_ascan_pos *p, gl_ascan_branch br) {
  for (uint8_t i = 0; i < p->nbranch; i++)
    if (p->branch[i].id == br.id && p->branch[i].idx == br.idx) return true;
  return false;
}

bool gl_ascan_dominates(const gl_ascan_pos *a, const gl_ascan_pos *b) {
  if (!gl_ascan_ordered(a, b)) return false;
  for (uint8_t i = 0; i < a->nbranch; i++)
    if (!has_branch(b, a->branch[i])) return false;
  return true;
}

void gl_ascan_pos_module(gl_ascan_pos *pos, uint32_t byte) {
  memset(pos, 0, sizeof *pos);
  pos->byte = byte;
}
