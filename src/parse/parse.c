/* parse.c: source bytes -> tree-sitter tree, bounded in time, checked for coverage.
 * Owns: the TSParser of one worker, and the fresh one of each scratch parse (gl_parse_scratch,
 *       into the thread's parse arena, dropped whole by gl_parse_release), the monotonic parse
 *       deadline (progress callback), the reset after a cancelled parse, the post-parse coverage
 *       check and the first-syntax-error lookup.
 * Not: the depth guard itself (the model measures depth in its one walk; the engine compares
 *      gl_model_max_depth with gl_parse_max_depth), reading files, what names mean.
 * Threads: a gl_parser belongs to one worker; the language and the phrase table are shared. */
#include "parse/parse.h"

#include <pthread.h>
#include <string.h>

#include "base/deadline.h"
#include "base/xalloc.h"
#include "parse/parse_arena.h"

const TSLanguage *tree_sitter_python(void);

struct gl_parser {
  TSParser *ts;
  uint32_t timeout_ms;   /* 0 = no limit */
  uint32_t max_depth;    /* the resolved limit, never 0 */
};

const TSLanguage *gl_parse_language(void) { return tree_sitter_python(); }

gl_types gl_parse__types;
atomic_bool gl_parse__types_ready;
static pthread_once_t types_once = PTHREAD_ONCE_INIT;

/* Every symbol named `name` into t. Symbols at or past 512 (the error symbols) are left out:
 * no type of GL_PARSE_TYPES is an error. */
static void add_symbols(const char *name, gl_type_set *t) {
  const TSLanguage *lang = gl_parse_language();
  uint32_t n = ts_language_symbol_count(lang);
  for (uint32_t s = 0; s < n && s < 64 * GL_PARSE_SYMBOL_WORDS; s++) {
    const char *sn = ts_language_symbol_name(lang, (TSSymbol)s);
    if (sn && strcmp(sn, name) == 0) t->bits[s >> 6] |= 1ull << (s & 63);
  }
}

static void build_types(void) {
#define GL_PARSE_TYPE_ADD(name) add_symbols(#name, &gl_parse__types.name);
  GL_PARSE_TYPES(GL_PARSE_TYPE_ADD)
#undef GL_PARSE_TYPE_ADD
  add_symbols("function_definition", &gl_parse__types.scope);
  add_symbols("lambda", &gl_parse__types.scope);
  add_symbols("class_definition", &gl_parse__types.scope);
  atomic_store_explicit(&gl_parse__types_ready, true, memory_order_release);
}

bool gl_parse_type_is(TSNode n, const char *type) {
  return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

void gl_parse__types_build(void) { pthread_once(&types_once, build_types); }

/* One remembered field name: direct-mapped by the name's address, checked by its bytes. */
#define FIELD_MEMO_SLOTS 64
#define FIELD_MEMO_NAME 32
typedef struct field_memo {
  const char *at;
  uint32_t len;
  TSFieldId id;
  char name[FIELD_MEMO_NAME];
} field_memo;

static _Thread_local field_memo field_memos[FIELD_MEMO_SLOTS];

TSNode gl_parse_child(TSNode n, const char *field, uint32_t len) {
  if (ts_node_is_null(n)) return n;
  if (len >= FIELD_MEMO_NAME) return ts_node_child_by_field_name(n, field, len);
  field_memo *e = &field_memos[((uintptr_t)field >> 3) % FIELD_MEMO_SLOTS];
  if (e->at != field || e->len != len || memcmp(e->name, field, len) != 0) {
    e->id = ts_language_field_id_for_name(gl_parse_language(), field, len);
    e->at = field;
    e->len = len;
    memcpy(e->name, field, len);
  }
  return ts_node_child_by_field_id(n, e->id);
}

void gl_parse_install_hooks(void) {
  gl_arena_install();
}

void gl_parse_thread_done(void) {
  gl_arena_release_thread();
}

gl_parser *gl_parse_new(uint32_t timeout_ms, uint32_t max_depth) {
  gl_parser *p = gl_xcalloc(1, sizeof(*p));
  p->ts = ts_parser_new();
  ts_parser_set_language(p->ts, gl_parse_language());
  p->timeout_ms = timeout_ms;
  p->max_depth = max_depth ? max_depth : GL_PARSE_DEFAULT_MAX_DEPTH;
  return p;
}

void gl_parse_free(gl_parser *p) {
  if (!p) return;
  ts_parser_delete(p->ts);
  free(p);
}

uint32_t gl_parse_max_depth(const gl_parser *p) { return p->max_depth; }

/* ---- the deadline ------------------------------------------------------------------------- */

/* Progress callback: true (cancel) once the deadline in the payload has passed. */
static bool past_deadline(TSParseState *state) { return gl_deadline_passed(state->payload); }

/* TSInput reader over one contiguous buffer. */
static const char *read_source(void *payload, uint32_t byte, TSPoint pos, uint32_t *bytes_read) {
  const gl_source *src = payload;
  if (byte >= src->len) {
    *bytes_read = 0;
    return "";
  }
  *bytes_read = (uint32_t)(src->len - byte);
  return src->bytes + byte;
}

/* ---- coverage ----------------------------------------------------------------------------- */

static bool is_trailing_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool gl_parse_covers(const TSTree *tree, const gl_source *src, uint32_t *end_out) {
  size_t need = src->len;
  while (need > 0 && is_trailing_space(src->bytes[need - 1])) need--;
  *end_out = ts_node_end_byte(ts_tree_root_node(tree));
  return *end_out >= need;
}

/* Parses src with ts under p's time limit. NULL with err set when the file is too large, the
 * limit passed (the caller resets or drops ts) or the tree does not cover the source (the tree is
 * left to the caller through *partial, to delete or drop). */
static TSTree *parse_with(const gl_parser *p, TSParser *ts, const gl_source *src, gl_diag *err,
                          TSTree **partial) {
  *partial = NULL;
  if (src->len > UINT32_MAX - 1) {
    gl_diag_set(err, src->path, 0, 0, "file of %zu bytes is too large to parse", src->len);
    return NULL;
  }
  TSInput input = {.payload = (void *)src, .read = read_source, .encoding = TSInputEncodingUTF8};
  gl_deadline end = gl_deadline_after(p->timeout_ms);
  TSParseOptions opts = {.payload = NULL, .progress_callback = NULL};
  if (end.set) {
    opts.payload = &end;
    opts.progress_callback = past_deadline;
  }
  TSTree *tree = ts_parser_parse_with_options(ts, NULL, input, opts);
  if (!tree) {
    gl_diag_set(err, src->path, 0, 0, "parse time limit of %u ms exceeded", p->timeout_ms);
    return NULL;
  }
  uint32_t covered;
  if (!gl_parse_covers(tree, src, &covered)) {
    *partial = tree;
    gl_diag_set(err, src->path, 0, 0, "syntax tree covers only %u of %zu bytes", covered, src->len);
    return NULL;
  }
  return tree;
}

TSTree *gl_parse_source(gl_parser *p, const gl_source *src, gl_diag *err) {
  TSTree *partial;
  TSTree *tree = parse_with(p, p->ts, src, err, &partial);
  if (partial) ts_tree_delete(partial);
  else if (!tree) ts_parser_reset(p->ts);
  return tree;
}

TSTree *gl_parse_scratch(gl_parser *p, const gl_source *src, gl_diag *err) {
  if (!gl_arena_enter()) return gl_parse_source(p, src, err);
  /* A parser of its own, in the arena: a parser keeps a pool of freed subtrees across parses,
   * which must not outlive the arena's blocks. */
  TSParser *ts = ts_parser_new();
  ts_parser_set_language(ts, gl_parse_language());
  TSTree *partial;
  TSTree *tree = parse_with(p, ts, src, err, &partial);
  gl_arena_leave(tree ? tree : partial);
  /* Free the parser properly (its arena blocks are no-ops to free) when it holds heap memory:
   * part of the parse spilled to the heap, or the parse was cancelled, which keeps the grammar's
   * scanner state (allocated with malloc, freed only by a reset). */
  if ((!tree && !partial) || gl_arena_spilled()) ts_parser_delete(ts);
  if (!tree) {
    if (partial) gl_parse_release(partial);
    else gl_arena_drop();
    return NULL;
  }
  return tree;
}

void gl_parse_release(TSTree *tree) {
  if (!tree) return;
  if (!gl_arena_holds(tree)) {
    ts_tree_delete(tree);
    return;
  }
  if (gl_arena_spilled()) ts_tree_delete(tree);
  gl_arena_drop();
}

/* ---- first syntax error ------------------------------------------------------------------- */

typedef struct token_phrase {
  const char *type;
  const char *missing;
} token_phrase;

/* Phrases for the tokens tree-sitter-python may insert as MISSING (static, shared). */
static const token_phrase missing_phrases[] = {
    {")", "missing ')'"},          {"]", "missing ']'"},
    {"}", "missing '}'"},          {"(", "missing '('"},
    {"[", "missing '['"},          {"{", "missing '{'"},
    {":", "missing ':'"},          {",", "missing ','"},
    {".", "missing '.'"},          {"=", "missing '='"},
    {"->", "missing '->'"},        {"in", "missing 'in'"},
    {"import", "missing 'import'"}, {"as", "missing 'as'"},
    {"else", "missing 'else'"},    {"identifier", "missing identifier"},
    {"string_end", "missing end of string"},
    {"_newline", "missing end of line"},
    {"_indent", "missing indented block"},
    {"_dedent", "missing dedent"},
};

static const char *missing_phrase(TSNode node) {
  const char *type = ts_node_type(node);
  for (size_t i = 0; i < sizeof(missing_phrases) / sizeof(missing_phrases[0]); i++) {
    if (strcmp(type, missing_phrases[i].type) == 0) return missing_phrases[i].missing;
  }
  return "missing token";
}

bool gl_parse_first_error(const TSTree *tree, uint32_t *byte_out, const char **what_out) {
  TSNode root = ts_tree_root_node(tree);
  if (!ts_node_has_error(root)) return false;
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool found = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_is_error(n) || ts_node_is_missing(n)) {
      *byte_out = ts_node_start_byte(n);
      *what_out = ts_node_is_missing(n) ? missing_phrase(n) : "unexpected input";
      found = true;
      break;
    }
    /* Descend only into subtrees that hold an error; otherwise move on in document order. */
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&c))) {
      if (!ts_tree_cursor_goto_parent(&c)) break;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}
