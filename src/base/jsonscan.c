/* jsonscan.c: positions in accepted json text (see jsonscan.h).
 * Owns: the raw-text walk (whitespace, strings, escapes, nesting) shared by the rule metadata and
 *       evidence loaders. Not: parsing, validation, line / column arithmetic.
 * Threads: stateless. */
#include "base/jsonscan.h"

#include <string.h>

size_t gl_jsonscan_ws(const char *s, size_t len, size_t i) {
  while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
  return i;
}

/* Offset past the string whose opening quote is at i. */
static size_t string_end(const char *s, size_t len, size_t i) {
  for (i++; i < len; i++) {
    if (s[i] == '\\') i++;
    else if (s[i] == '"') return i + 1;
  }
  return len;
}

/* Offset past a number or literal starting at i. */
static size_t scalar_end(const char *s, size_t len, size_t i) {
  while (i < len && s[i] && !strchr(" \t\r\n,]}:", s[i])) i++;
  return i;
}

size_t gl_jsonscan_value_end(const char *s, size_t len, size_t i) {
  if (i >= len) return len;
  if (s[i] == '"') return string_end(s, len, i);
  if (s[i] != '{' && s[i] != '[') return scalar_end(s, len, i);
  size_t depth = 0;
  while (i < len) {
    char ch = s[i];
    if (ch == '"') {
      i = string_end(s, len, i);
      continue;
    }
    if (ch == '{' || ch == '[') depth++;
    if ((ch == '}' || ch == ']') && --depth == 0) return i + 1;
    i++;
  }
  return len;
}

bool gl_jsonscan_member(const char *s, size_t len, size_t obj, const char *key, int nth,
                        size_t *key_off, size_t *val_off) {
  if (obj >= len || s[obj] != '{') return false;
  size_t klen = strlen(key);
  size_t i = gl_jsonscan_ws(s, len, obj + 1);
  while (i < len && s[i] == '"') {
    size_t k = i, kend = string_end(s, len, i);
    i = gl_jsonscan_ws(s, len, kend);
    i = gl_jsonscan_ws(s, len, i + 1); /* past ':' */
    bool same = kend - k == klen + 2 && memcmp(s + k + 1, key, klen) == 0;
    if (same && nth-- == 0) {
      *key_off = k;
      *val_off = i;
      return true;
    }
    i = gl_jsonscan_ws(s, len, gl_jsonscan_value_end(s, len, i));
    if (i >= len || s[i] != ',') return false;
    i = gl_jsonscan_ws(s, len, i + 1);
  }
  return false;
}

/* Bytes that the UTF-8 form of code point cp takes. */
static size_t utf8_len(unsigned cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

static unsigned hex4(const char *s, size_t len, size_t i) {
  unsigned v = 0;
  for (size_t k = i; k < i + 4 && k < len; k++) {
    char ch = s[k];
    unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
                 : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                 : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 0;
    v = v * 16 + d;
  }
  return v;
}

size_t gl_jsonscan_string_offset(const char *s, size_t len, size_t str, size_t idx) {
  size_t i = str + 1, decoded = 0;
  while (i < len && s[i] != '"' && decoded < idx) {
    if (s[i] != '\\') {
      i++, decoded++;
      continue;
    }
    if (i + 1 < len && s[i + 1] != 'u') {
      i += 2, decoded++;
      continue;
    }
    unsigned cp = hex4(s, len, i + 2);
    bool pair = cp >= 0xD800 && cp < 0xDC00 && i + 7 < len && s[i + 6] == '\\' && s[i + 7] == 'u';
    decoded += pair ? 4 : utf8_len(cp);
    i += pair ? 12 : 6;
  }
  return i < len ? i : len;
}

typedef gl_vec(char) bracket_stack;

/* After a value: past commas and closing brackets to the start of the next value (its key when
 * inside an object). Returns false when the document ended. */
static bool next_value(const char *s, size_t len, size_t *i, bracket_stack *stack, size_t *key_off) {
  *i = gl_jsonscan_ws(s, len, *i);
  while (stack->len && *i < len && s[*i] != ',') {
    stack->len--; /* a closing bracket */
    *i = gl_jsonscan_ws(s, len, *i + 1);
  }
  if (!stack->len || *i >= len) return false;
  *i = gl_jsonscan_ws(s, len, *i + 1);
  *key_off = GL_JSONSCAN_NONE;
  if (stack->data[stack->len - 1] != '{') return true;
  *key_off = *i;
  *i = gl_jsonscan_ws(s, len, string_end(s, len, *i));
  *i = gl_jsonscan_ws(s, len, *i + 1);
  return true;
}

void gl_jsonscan_walk(const char *s, size_t len, size_t start, gl_jsonpos_list *out) {
  bracket_stack stack = {0};
  size_t i = gl_jsonscan_ws(s, len, start), key = GL_JSONSCAN_NONE;
  while (i < len) {
    gl_jsonpos *p = gl_vec_grow(out);
    p->key_off = key;
    p->val_off = i;
    if (s[i] != '{' && s[i] != '[') {
      i = gl_jsonscan_value_end(s, len, i);
      if (!next_value(s, len, &i, &stack, &key)) break;
      continue;
    }
    char open = s[i];
    size_t j = gl_jsonscan_ws(s, len, i + 1);
    if (j < len && (s[j] == '}' || s[j] == ']')) { /* empty container */
      i = j + 1;
      if (!next_value(s, len, &i, &stack, &key)) break;
      continue;
    }
    gl_vec_push(&stack, open);
    i = j;
    key = GL_JSONSCAN_NONE;
    if (open != '{') continue;
    key = i;
    i = gl_jsonscan_ws(s, len, string_end(s, len, i));
    i = gl_jsonscan_ws(s, len, i + 1);
  }
  gl_vec_free(&stack);
}

size_t gl_jsonscan_nul_escape(const char *s, size_t len, size_t i) {
  bool in_str = false;
  for (; i < len; i++) {
    if (!in_str) {
      in_str = s[i] == '"';
      continue;
    }
    if (s[i] == '"') in_str = false;
    if (s[i] != '\\') continue;
    if (i + 5 < len && s[i + 1] == 'u' && memcmp(s + i + 2, "0000", 4) == 0) return i;
    i++;
  }
  return GL_JSONSCAN_NONE;
}
