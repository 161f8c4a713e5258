/* rawkernel_sig.c: CUDA C kernel parameter lists (rawkernel_sig.h).
 * Owns: the signature scan and the type table.
 * Not: Python, reporting.
 * Threads: pure. */
#include "checks/kernel-correctness/rawkernel_sig.h"

#include <ctype.h>
#include <string.h>

typedef struct tname {
  const char *spelling;  /* words separated by one space, qualifiers removed */
  gl_rk_type type;
} tname;

static const tname tnames[] = {
    {"float", GL_RK_F32},           {"double", GL_RK_F64},
    {"half", GL_RK_F16},            {"__half", GL_RK_F16},
    {"int", GL_RK_I32},             {"signed", GL_RK_I32},
    {"signed int", GL_RK_I32},      {"unsigned", GL_RK_I32},
    {"unsigned int", GL_RK_I32},    {"int32_t", GL_RK_I32},
    {"uint32_t", GL_RK_I32},        {"bool", GL_RK_I_SMALL},
    {"char", GL_RK_I_SMALL},        {"signed char", GL_RK_I_SMALL},
    {"unsigned char", GL_RK_I_SMALL}, {"short", GL_RK_I_SMALL},
    {"unsigned short", GL_RK_I_SMALL}, {"short int", GL_RK_I_SMALL},
    {"int8_t", GL_RK_I_SMALL},      {"uint8_t", GL_RK_I_SMALL},
    {"int16_t", GL_RK_I_SMALL},     {"uint16_t", GL_RK_I_SMALL},
    {"long", GL_RK_I64},            {"long int", GL_RK_I64},
    {"unsigned long", GL_RK_I64},   {"long long", GL_RK_I64},
    {"long long int", GL_RK_I64},   {"unsigned long long", GL_RK_I64},
    {"unsigned long long int", GL_RK_I64}, {"size_t", GL_RK_I64},
    {"ssize_t", GL_RK_I64},         {"ptrdiff_t", GL_RK_I64},
    {"int64_t", GL_RK_I64},         {"uint64_t", GL_RK_I64},
};

static const char *const qualifiers[] = {"const", "volatile", "__restrict__", "restrict",
                                         "__restrict", "register"};

const char *gl_rk_type_name(gl_rk_type t) {
  switch (t) {
  case GL_RK_PTR: return "pointer";
  case GL_RK_F16: return "half";
  case GL_RK_F32: return "float";
  case GL_RK_F64: return "double";
  case GL_RK_I_SMALL: return "char/short/bool";
  case GL_RK_I32: return "int";
  case GL_RK_I64: return "long long";
  default: return "unknown";
  }
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool is_qualifier(const char *w, size_t n) {
  for (size_t i = 0; i < sizeof qualifiers / sizeof qualifiers[0]; i++)
    if (strlen(qualifiers[i]) == n && memcmp(qualifiers[i], w, n) == 0) return true;
  return false;
}

/* The class of one parameter's text [p, e), as if it were not a pointer ('*', '&' and "[]"
 * read as blanks). */
static gl_rk_type classify_words(const char *p, const char *e) {
  char words[96];
  size_t wl = 0, nwords = 0;
  const char *last = NULL;
  size_t last_len = 0;
  for (const char *q = p; q < e;) {
    if (!ident_char(*q)) {
      bool blank = isspace((unsigned char)*q) || *q == '*' || *q == '&' || *q == '[' || *q == ']';
      if (!blank) return GL_RK_UNKNOWN;  /* templates, ::, defaults */
      q++;
      continue;
    }
    const char *w = q;
    while (q < e && ident_char(*q)) q++;
    size_t n = (size_t)(q - w);
    if (is_qualifier(w, n)) continue;
    if (last) {
      if (wl + last_len + 2 > sizeof words) return GL_RK_UNKNOWN;
      if (wl) words[wl++] = ' ';
      memcpy(words + wl, last, last_len);
      wl += last_len;
      nwords++;
    }
    last = w;
    last_len = n;
  }
  if (nwords == 0) return GL_RK_UNKNOWN;  /* one word: a type without a name, or a name */
  words[wl] = '\0';
  for (size_t i = 0; i < sizeof tnames / sizeof tnames[0]; i++)
    if (strcmp(tnames[i].spelling, words) == 0) return tnames[i].type;
  return GL_RK_UNKNOWN;
}

/* The class of one parameter's text [p, e); *elem gets a pointer's element class. */
static gl_rk_type classify(const char *p, const char *e, gl_rk_type *elem) {
  *elem = GL_RK_UNKNOWN;
  int levels = 0;
  for (const char *q = p; q < e; q++) levels += *q == '*' || *q == '&' || *q == '[';
  if (levels == 0) return classify_words(p, e);
  if (levels == 1) *elem = classify_words(p, e);  /* float** points to pointers */
  return GL_RK_PTR;
}

/* True when the word before `at` (skipping blanks) is `void`. */
static bool after_void(const char *text, size_t at) {
  size_t i = at;
  while (i > 0 && isspace((unsigned char)text[i - 1])) i--;
  if (i < 4 || memcmp(text + i - 4, "void", 4) != 0) return false;
  return i == 4 || !ident_char(text[i - 5]);
}

/* Splits the list that starts after the '(' at open; false when unbalanced or too long. */
static bool split(const char *text, size_t len, size_t open, gl_rk_sig *out) {
  out->n = 0;
  size_t i = open + 1, start = i;
  int depth = 0;
  for (; i < len; i++) {
    char c = text[i];
    if (c == '(' || c == '<' || c == '[') depth++;
    else if ((c == ')' || c == '>' || c == ']') && depth > 0) depth--;
    else if ((c == ',' || c == ')') && depth == 0) {
      size_t a = start, b = i;
      while (a < b && isspace((unsigned char)text[a])) a++;
      while (b > a && isspace((unsigned char)text[b - 1])) b--;
      if (b > a || c == ',') {
        if (out->n == GL_RK_MAX_PARAMS) return false;
        gl_rk_param *prm = &out->params[out->n++];
        prm->type = classify(text + a, text + b, &prm->elem);
        prm->start = (uint32_t)a;
        prm->len = (uint32_t)(b - a);
      }
      if (c == ')') return true;
      start = i + 1;
    }
  }
  return false;
}

static bool same_sig(const gl_rk_sig *a, const gl_rk_sig *b) {
  if (a->n != b->n) return false;
  for (size_t i = 0; i < a->n; i++)
    if (a->params[i].type != b->params[i].type || a->params[i].elem != b->params[i].elem)
      return false;
  return true;
}

bool gl_rk_parse(const char *text, size_t len, const char *name, size_t name_len, gl_rk_sig *out) {
  bool found = false;
  gl_rk_sig cur;
  for (size_t i = 0; name_len > 0 && i + name_len <= len; i++) {
    if (memcmp(text + i, name, name_len) != 0) continue;
    if ((i > 0 && ident_char(text[i - 1])) || !after_void(text, i)) continue;
    size_t j = i + name_len;
    while (j < len && isspace((unsigned char)text[j])) j++;
    if (j >= len || text[j] != '(') continue;
    if (!split(text, len, j, &cur)) return false;
    if (found && !same_sig(out, &cur)) return false;
    *out = cur;
    found = true;
  }
  return found;
}
