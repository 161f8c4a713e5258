/* model.c: building the model of one parsed file: the driver of its passes.
 * Owns: gl_model_build / gl_model_free, the symbol -> kind and field tables, the order of the
 *       passes (walk, names, subtree ends, provenance, calls, timing) and the subtree ends.
 *       The passes call helpers (model_index.c, model_names.c, model_query.c, ...); no helper
 *       calls back into this file.
 * Not: the node index (model_index.c), the queries of model.h (model_query.c), the walk and what
 *      binds (model_walk.c), bindings and LEGB lookup (model_names.c), computing provenance
 *      (model_prov.c and its files).
 * Threads: a gl_model belongs to one worker; read-only after gl_model_build. */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "model/model_int.h"

#define KIND_NAME(id, name) [id] = name,
static const char *const kind_names[GL_K_COUNT] = {GL_MODEL__KINDS(KIND_NAME)};

/* ---- kinds and fields ----------------------------------------------------------------------- */

static int kind_cmp(const void *key, const void *elem) {
  return strcmp((const char *)key, *(const char *const *)elem);
}

/* kind_names[1..] is sorted (GL_MODEL__KINDS is written in order), so each symbol is one
 * binary search. */
static void init_kinds(gl_model *m, const TSLanguage *lang) {
  m->nsymbols = ts_language_symbol_count(lang);
  m->kinds = gl_xcalloc(m->nsymbols, 1);
  for (uint32_t s = 0; s < m->nsymbols; s++) {
    if (ts_language_symbol_type(lang, (TSSymbol)s) != TSSymbolTypeRegular) continue;
    const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
    const char *const *hit =
        bsearch(name, kind_names + 1, GL_K_COUNT - 1, sizeof(kind_names[0]), kind_cmp);
    if (hit) m->kinds[s] = (uint8_t)(hit - kind_names);
  }
}

static TSFieldId field_id(const TSLanguage *lang, const char *name) {
  return ts_language_field_id_for_name(lang, name, (uint32_t)strlen(name));
}

static void init_fields(gl_model__fields *f, const TSLanguage *lang) {
  f->alias = field_id(lang, "alias");
  f->alternative = field_id(lang, "alternative");
  f->argument = field_id(lang, "argument");
  f->arguments = field_id(lang, "arguments");
  f->attribute = field_id(lang, "attribute");
  f->body = field_id(lang, "body");
  f->condition = field_id(lang, "condition");
  f->consequence = field_id(lang, "consequence");
  f->definition = field_id(lang, "definition");
  f->function = field_id(lang, "function");
  f->left = field_id(lang, "left");
  f->module_name = field_id(lang, "module_name");
  f->name = field_id(lang, "name");
  f->object = field_id(lang, "object");
  f->parameters = field_id(lang, "parameters");
  f->right = field_id(lang, "right");
  f->type = field_id(lang, "type");
  f->value = field_id(lang, "value");
  f->superclasses = field_id(lang, "superclasses");
}

/* end[i]: one past the last node of i's subtree (subtrees are contiguous in document order). */
static uint32_t *subtree_ends(const gl_model *m) {
  size_t n = m->nodes.len;
  uint32_t *end = gl_xmalloc((n ? n : 1) * sizeof(*end));
  for (size_t i = 0; i < n; i++) end[i] = (uint32_t)i + 1;
  for (size_t i = n; i-- > 1;) {
    uint32_t p = m->nodes.data[i].parent;
    if (p != GL_MODEL__NONE && end[i] > end[p]) end[p] = end[i];
  }
  return end;
}

gl_model *gl_model_build(const gl_source *src, const TSTree *tree, const gl_libmodels *lm) {
  return gl_model_build_program(src, tree, lm, NULL);
}

gl_model *gl_model_build_program(const gl_source *src, const TSTree *tree,
                                 const gl_libmodels *lm, const gl_model_program *prog) {
  gl_model *m = gl_xcalloc(1, sizeof(*m));
  if (prog) {
    m->program = prog->defs;
    m->nprogram = prog->ndefs;
    m->program_calls = prog->calls;
    m->nprogram_calls = prog->ncalls;
  }
  m->src = src;
  m->tree = tree;
  m->lm = lm;
  const TSLanguage *lang = ts_tree_language(tree);
  init_kinds(m, lang);
  init_fields(&m->f, lang);
  gl_model__names_init(&m->names);
  gl_model__walk(m, ts_tree_root_node(tree));
  gl_model__names_finish(&m->names);
  m->ends = subtree_ends(m);
  if (lm) gl_model__prov(m);
  if (lm) gl_model__calls_finish(m);
  gl_model__timing_finish(m);
  m->qual_known = lm != NULL;
  m->program = NULL;
  m->nprogram = 0;
  m->program_calls = NULL;
  m->nprogram_calls = 0;
  return m;
}

void gl_model_free(gl_model *m) {
  if (!m) return;
  gl_vec_free(&m->nodes);
  gl_vec_free(&m->comments);
  gl_model__names_free(&m->names);
  gl_model__loops_free(&m->loops);
  gl_vec_free(&m->calls);
  gl_vec_free(&m->timing_blocks);
  free(m->traced);
  free(m->hot_root);
  free(m->def_ret);
  free(m->def_ret_type);
  free(m->inst_class);
  free(m->slots);
  free(m->ends);
  free(m->kinds);
  free(m);
}
