/* placeholder.c: parsing and filling rule message templates.
 * Owns: the placeholder syntax ({name}, {name.qualified}), the excerpt rule for capture text.
 * Not: choosing the message (calibrate may replace it later), output escaping.
 * Threads: templates are read-only after compiling; filling allocates only its result. */
#include "match/placeholder.h"
#include "base/strbuf.h"
#include "base/utf8.h"

#include <string.h>

#define QUALIFIED ".qualified"
#define ELLIPSIS "\xE2\x80\xA6"


static bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

static bool is_name_char(char c) {
  return is_name_start(c) || c == '.' || c == '?' || c == '!';
}

static int64_t capture_id(const TSQuery *query, const char *name, uint32_t len) {
  uint32_t n = ts_query_capture_count(query);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l;
    const char *s = ts_query_capture_name_for_id(query, i, &l);
    if (l == len && memcmp(s, name, len) == 0) return i;
  }
  return -1;
}

/* Length of the placeholder "{...}" at s (s[0] == '{'), or 0 when it is not one. */
static size_t placeholder_len(const char *s) {
  if (!is_name_start(s[1])) return 0;
  size_t i = 2;
  while (is_name_char(s[i])) i++;
  return s[i] == '}' ? i + 1 : 0;
}

bool gl_msg_compile(gl_msg_template *t, const gl_rule *rule, const TSQuery *query,
                    const bool *captured, gl_diag_list *errs) {
  memset(t, 0, sizeof(*t));
  t->text = rule->message ? rule->message : "";
  bool ok = true;
  for (const char *p = t->text; *p; p++) {
    size_t n = *p == '{' ? placeholder_len(p) : 0;
    if (!n) continue;
    const char *name = p + 1;
    uint32_t len = (uint32_t)(n - 2);
    size_t qlen = strlen(QUALIFIED);
    bool qualified = len > qlen && memcmp(name + len - qlen, QUALIFIED, qlen) == 0;
    int64_t id = capture_id(query, name, qualified ? len - (uint32_t)qlen : len);
    if (id < 0 || !captured[id]) {
      gl_diag_set(gl_diag_list_add(errs), rule->path, 1, 1,
                  "message placeholder '%.*s' names no capture", (int)n, p);
      ok = false;
    } else {
      gl_placeholder *ph = gl_vec_grow(&t->ph);
      ph->start = (uint32_t)(p - t->text);
      ph->end = (uint32_t)(ph->start + n);
      ph->capture = (uint32_t)id;
      ph->qualified = qualified;
    }
    p += n - 1;
  }
  return ok;
}

void gl_msg_free(gl_msg_template *t) {
  if (!t) return;
  gl_vec_free(&t->ph);
}

/* How many bytes of text[0, len) make its excerpt: the first line, at most
 * GL_PLACEHOLDER_MAX_CHARS code points. */
static size_t excerpt_len(const char *text, size_t len) {
  size_t i = 0, chars = 0;
  while (i < len && text[i] != '\n' && text[i] != '\r') {
    bool lead = !gl_utf8_is_cont((unsigned char)text[i]);
    if (lead && chars++ == GL_PLACEHOLDER_MAX_CHARS) break;
    i++;
  }
  return i;
}

/* The excerpt of text [start, end), NULs of src shown as the file holds them (a zeroed src for
 * text that is not the file's), "…" when cut. */
static void append_excerpt(gl_strbuf *b, const gl_source *src, const char *text, size_t start,
                           size_t end) {
  size_t n = excerpt_len(text + start, end - start);
  gl_load_add_shown(b, src, text, start, start + n);
  if (start + n < end) gl_strbuf_add(b, ELLIPSIS, strlen(ELLIPSIS));
}

static const TSNode *first_node(const TSQueryMatch *m, uint32_t capture) {
  for (uint16_t i = 0; i < m->capture_count; i++)
    if (m->captures[i].index == capture) return &m->captures[i].node;
  return NULL;
}

static void append_capture(gl_strbuf *b, const gl_placeholder *ph, const TSQueryMatch *m,
                           const gl_source *src, const gl_model *model) {
  const TSNode *n = first_node(m, ph->capture);
  if (!n) return;
  if (ph->qualified && model) {
    char q[1024];
    if (gl_model_resolve(model, *n, q, sizeof(q))) {
      static const gl_source resolved = {0}; /* a name the model built: no NULs of the file */
      append_excerpt(b, &resolved, q, 0, strlen(q));
      return;
    }
  }
  uint32_t start = ts_node_start_byte(*n), end = ts_node_end_byte(*n);
  if (end > src->len) end = (uint32_t)src->len;
  if (start > end) start = end;
  append_excerpt(b, src, src->bytes, start, end);
}

char *gl_msg_fill(const gl_msg_template *t, const TSQueryMatch *m, const gl_source *src,
                  const gl_model *model) {
  gl_strbuf b = {0};
  uint32_t at = 0;
  for (size_t i = 0; i < t->ph.len; i++) {
    const gl_placeholder *ph = &t->ph.data[i];
    gl_strbuf_add(&b, t->text + at, ph->start - at);
    append_capture(&b, ph, m, src, model);
    at = ph->end;
  }
  gl_strbuf_add(&b, t->text + at, strlen(t->text + at));
  return gl_strbuf_take(&b);
}
