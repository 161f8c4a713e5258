/* toml_read.cpp: the C interface of toml_read.h over toml++ 3.3 (header-only, C++17).
 * Owns: turning toml++'s parse result into gl_toml_value trees, with every key's source position,
 *       and its syntax errors into a gl_diag. The only C++ translation unit of gpulint: nothing
 *       C++ (exceptions, std types) crosses the interface.
 * Not: the meaning of keys (config.c). Allocation of the tree goes through gl_xmalloc.
 * Threads: no shared state. */
#include "config/toml_read.h"

#define TOML_EXCEPTIONS 0
/* toml++'s debug assertions abort on ordinary typos (`[*x]`, `a = [}]`) where a release build
 * reports a parse error: every build behaves as the release build does. */
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

extern "C" {
#include "base/xalloc.h"
}

namespace {

struct work {
  const toml::node *node;
  gl_toml_value *dst;
};

uint32_t pos(toml::source_index v) { return v ? static_cast<uint32_t>(v) : 1u; }

/* Fills dst's kind and scalar value from node; containers only get their kind here. */
void set_scalar(const toml::node &node, gl_toml_value *dst) {
  switch (node.type()) {
    case toml::node_type::table: dst->kind = GL_TOML_TABLE; break;
    case toml::node_type::array: dst->kind = GL_TOML_ARRAY; break;
    case toml::node_type::string: {
      const std::string &s = node.as_string()->get();
      dst->kind = GL_TOML_STRING;
      dst->str = gl_xstrndup(s.data(), s.size());
      dst->len = s.size();
      break;
    }
    case toml::node_type::integer:
      dst->kind = GL_TOML_INTEGER;
      dst->integer = node.as_integer()->get();
      break;
    case toml::node_type::floating_point:
      dst->kind = GL_TOML_FLOAT;
      dst->number = node.as_floating_point()->get();
      break;
    case toml::node_type::boolean:
      dst->kind = GL_TOML_BOOL;
      dst->boolean = node.as_boolean()->get();
      break;
    default: dst->kind = GL_TOML_DATETIME; break;
  }
}

/* Lays out a table's entries in source order and queues them. */
void expand_table(const toml::table &t, gl_toml_value *dst, std::vector<work> &stack) {
  std::vector<std::pair<const toml::key *, const toml::node *>> entries;
  for (auto &&[k, v] : t) entries.emplace_back(&k, &v);
  std::sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) {
    const auto &pa = a.first->source().begin, &pb = b.first->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  dst->nitems = entries.size();
  dst->items = static_cast<gl_toml_value *>(gl_xcalloc(entries.size() ? entries.size() : 1,
                                                       sizeof(gl_toml_value)));
  for (size_t i = 0; i < entries.size(); i++) {
    gl_toml_value *item = &dst->items[i];
    const std::string_view k = entries[i].first->str();
    item->key = gl_xstrndup(k.data(), k.size());
    item->line = pos(entries[i].first->source().begin.line);
    item->col = pos(entries[i].first->source().begin.column);
    stack.push_back({entries[i].second, item});
  }
}

void expand_array(const toml::array &a, gl_toml_value *dst, std::vector<work> &stack) {
  dst->nitems = a.size();
  dst->items = static_cast<gl_toml_value *>(gl_xcalloc(a.size() ? a.size() : 1, sizeof(gl_toml_value)));
  for (size_t i = 0; i < a.size(); i++) {
    gl_toml_value *item = &dst->items[i];
    item->line = pos(a[i].source().begin.line);
    item->col = pos(a[i].source().begin.column);
    stack.push_back({&a[i], item});
  }
}

/* Copies the whole toml++ tree under root into dst, with an explicit stack (no recursion). */
void convert(const toml::table &root, gl_toml_value *dst) {
  std::vector<work> stack;
  stack.push_back({&root, dst});
  while (!stack.empty()) {
    work w = stack.back();
    stack.pop_back();
    set_scalar(*w.node, w.dst);
    if (const toml::table *t = w.node->as_table()) expand_table(*t, w.dst, stack);
    else if (const toml::array *a = w.node->as_array()) expand_array(*a, w.dst, stack);
  }
}

/* TOML allows no character above U+007F outside strings and comments, and toml++ 3.3 reaches
 * __builtin_unreachable() (undefined behaviour; a sanitizer trap) classifying some of them as
 * whitespace (U+00A1..U+0499, U+FB26..U+FEFE). So the first one is reported here, before toml++
 * sees the text: true with its 1-based line and column (in characters, as toml++ counts). */
bool non_ascii_outside_strings(const char *data, size_t len, uint32_t *line, uint32_t *col,
                               uint32_t *cp) {
  enum { CODE, COMMENT, BASIC, LITERAL, ML_BASIC, ML_LITERAL } st = CODE;
  uint32_t l = 1, c = 1;
  for (size_t i = 0; i < len; i++) {
    const unsigned char b = static_cast<unsigned char>(data[i]);
    const bool starts_char = (b & 0xC0) != 0x80;
    if (b == '\n') {
      l++;
      c = 1;
      if (st == COMMENT || st == BASIC || st == LITERAL) st = CODE;
      continue;
    }
    if (st == CODE && b >= 0x80) {
      *line = l;
      *col = c;
      uint32_t v = b, extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
      v &= extra == 3 ? 0x07 : extra == 2 ? 0x0F : extra == 1 ? 0x1F : 0x7F;
      for (uint32_t k = 1; k <= extra && i + k < len; k++)
        v = v << 6 | (static_cast<unsigned char>(data[i + k]) & 0x3F);
      *cp = v;
      return true;
    }
    if (starts_char) c++;
    const bool triple = i + 2 < len && data[i + 1] == data[i] && data[i + 2] == data[i];
    switch (st) {
      case CODE:
        if (b == '#') st = COMMENT;
        else if (b == '"' || b == '\'') {
          st = b == '"' ? (triple ? ML_BASIC : BASIC) : (triple ? ML_LITERAL : LITERAL);
          if (triple) i += 2, c += 2;
        }
        break;
      case BASIC:
      case ML_BASIC:
        if (b == '\\' && i + 1 < len && data[i + 1] != '\n') i++, c++;
        else if (b == '"' && (st == BASIC || triple)) {
          if (st == ML_BASIC) i += 2, c += 2;
          st = CODE;
        }
        break;
      case LITERAL:
      case ML_LITERAL:
        if (b == '\'' && (st == LITERAL || triple)) {
          if (st == ML_LITERAL) i += 2, c += 2;
          st = CODE;
        }
        break;
      case COMMENT:
        break;
    }
  }
  return false;
}

}  // namespace

extern "C" gl_toml_value *gl_toml_parse(const char *path, const char *data, size_t len, gl_diag *err) {
  uint32_t bad_line, bad_col, bad_cp;
  if (non_ascii_outside_strings(data, len, &bad_line, &bad_col, &bad_cp)) {
    gl_diag_set(err, path, bad_line, bad_col,
                "Encountered unexpected character U+%04X (TOML allows non-ASCII characters only in "
                "strings and comments)", bad_cp);
    return nullptr;
  }
  toml::parse_result res = toml::parse(std::string_view(data, len), std::string_view(path ? path : ""));
  if (!res) {
    const toml::parse_error &e = res.error();
    const std::string_view what = e.description();
    gl_diag_set(err, path, pos(e.source().begin.line), pos(e.source().begin.column), "%.*s",
                static_cast<int>(what.size()), what.data());
    return nullptr;
  }
  gl_toml_value *root = static_cast<gl_toml_value *>(gl_xcalloc(1, sizeof(gl_toml_value)));
  root->line = root->col = 1;
  convert(res.table(), root);
  return root;
}

extern "C" void gl_toml_free(gl_toml_value *root) {
  if (!root) return;
  std::vector<gl_toml_value *> stack{root};
  std::vector<gl_toml_value *> arrays; /* freed once nothing inside them is visited any more */
  while (!stack.empty()) {
    gl_toml_value *v = stack.back();
    stack.pop_back();
    for (size_t i = 0; i < v->nitems; i++) stack.push_back(&v->items[i]);
    if (v->items) arrays.push_back(v->items);
    free(v->key);
    free(v->str);
  }
  for (gl_toml_value *a : arrays) free(a);
  free(root);
}

extern "C" const gl_toml_value *gl_toml_get(const gl_toml_value *table, const char *key) {
  if (!table || table->kind != GL_TOML_TABLE) return nullptr;
  for (size_t i = 0; i < table->nitems; i++)
    if (std::strcmp(table->items[i].key, key) == 0) return &table->items[i];
  return nullptr;
}

extern "C" const char *gl_toml_kind_name(gl_toml_kind kind) {
  switch (kind) {
    case GL_TOML_TABLE: return "table";
    case GL_TOML_ARRAY: return "array";
    case GL_TOML_STRING: return "string";
    case GL_TOML_INTEGER: return "integer";
    case GL_TOML_FLOAT: return "float";
    case GL_TOML_BOOL: return "boolean";
    default: return "date-time";
  }
}
