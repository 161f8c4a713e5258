/* run_order.c: the walk that tracks enclosing function bodies and branches (run_order.h).
 * Owns: the frame stack of one walk (what each entered node pushed, one frame per depth of the
 *       checks' walk), TYPE_CHECKING detection, the ordering test between two places.
 * Not: what the callers look for.
 * Threads: no state; the tree and source are borrowed. */
#include "checks/run_order.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "checks/node.h"
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
  gl_check__order_mode mode;
  gl_check__order_fn fn;
  void *user;
  gl_check__pos pos;
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

/* `TYPE_CHECKING` or `<anything>.TYPE_CHECKING`. */
static bool is_type_checking(const gl_source *src, TSNode cond) {
  if (ts_node_is_null(cond)) return false;
  if (GL_IS(cond, identifier)) return gl_check__text_is(src, cond, "TYPE_CHECKING");
  if (!GL_IS(cond, attribute)) return false;
  TSNode attr = gl_parse_child(cond, "attribute", 9);
  return !ts_node_is_null(attr) && gl_check__text_is(src, attr, "TYPE_CHECKING");
}

static bool push_branch(walker *w, uint32_t id, uint32_t idx) {
  if (w->pos.nbranch >= GL_CHECK__NEST) return false;
  w->pos.branch[w->pos.nbranch++] = (gl_check__branch){id, idx};
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
    if (w->pos.nscope >= GL_CHECK__NEST) return false;
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

/* Enters node n at depth d of the walk (field: its field name); returns whether to descend. */
static bool visit(walker *w, TSNode n, uint32_t d, const char *field) {
  if (!open_frame(w, d, n, field)) return false;
  w->pos.byte = ts_node_start_byte(n);
  bool want = w->fn(w->user, n, &w->pos);
  if (!want || d + 1 >= MAX_DEPTH) return false;
  return w->mode == GL_CHECK__ALL_NODES || is_compound(w->fr[d].type);
}

void gl_check__order_walk(const gl_model *m, const gl_source *src, const TSTree *tree,
                          gl_check__order_mode mode, gl_check__order_fn fn, void *user) {
  walker *w = gl_xcalloc(1, sizeof *w);
  *w = (walker){.src = src, .mode = mode, .fn = fn, .user = user};
  TSNode root = ts_tree_root_node(tree);
  w->fr[0] = (frame){.type = ts_node_type(root), .start = ts_node_start_byte(root)};
  gl_check__walk cw;
  gl_check__walk_init(&cw, m, root);
  TSNode n;
  uint32_t depth = 0;   /* frames 1..depth are open: the last node reached and its ancestors */
  while (gl_check__walk_next(&cw, &n)) {
    uint32_t d = gl_check__walk_depth(&cw);
    if (d == 0) continue;   /* the root: frame 0 */
    for (; depth >= d; depth--) close_frame(w, depth);
    depth = d;
    if (!visit(w, n, d, gl_check__walk_field(&cw))) gl_check__walk_skip(&cw);
  }
  gl_check__walk_free(&cw);
  free(w);
}

bool gl_check__order_before(const gl_check__pos *a, const gl_check__pos *b) {
  if (a->byte >= b->byte || a->nscope > b->nscope) return false;
  for (uint8_t i = 0; i < a->nscope; i++)
    if (a->scope[i] != b->scope[i]) return false;
  for (uint8_t i = 0; i < a->nbranch; i++)
    for (uint8_t j = 0; j < b->nbranch; j++)
      if (a->branch[i].id == b->branch[j].id && a->branch[i].idx != b->branch[j].idx) return false;
  return true;
}

static bool has_branch(const gl_check__pos *p, gl_check__branch br) {
  for (uint8_t i = 0; i < p->nbranch; i++)
    if (p->branch[i].id == br.id && p->branch[i].idx == br.idx) return true;
  return false;
}

bool gl_check__order_dominates(const gl_check__pos *a, const gl_check__pos *b) {
  if (!gl_check__order_before(a, b)) return false;
  for (uint8_t i = 0; i < a->nbranch; i++)
    if (!has_branch(b, a->branch[i])) return false;
  return true;
}

void gl_check__pos_module(gl_check__pos *pos, uint32_t byte) {
  memset(pos, 0, sizeof *pos);
  pos->byte = byte;
}
