/* utf8.c: UTF-8 decoding and visible text (see utf8.h).
 * Owns: the one decoder (Unicode table 3-7 well-formedness), the escape and width tables.
 * Not: line tables (load.c), URIs (location.c). Threads: stateless. */
#include "base/utf8.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"

/* ---- UTF-8 ----------------------------------------------------------------------------------- */

/* Valid range of the second byte for each lead byte (Unicode table 3-7); later bytes 80..BF. */
static void lead_info(unsigned char b, size_t *n, unsigned char *lo, unsigned char *hi) {
  *lo = 0x80;
  *hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) *n = 2;
  else if (b >= 0xE0 && b <= 0xEF) *n = 3;
  else if (b >= 0xF0 && b <= 0xF4) *n = 4;
  else *n = 0;
  if (b == 0xE0) *lo = 0xA0;
  if (b == 0xED) *hi = 0x9F;
  if (b == 0xF0) *lo = 0x90;
  if (b == 0xF4) *hi = 0x8F;
}

size_t gl_utf8_next(const char *s, size_t len, size_t i, bool maximal, uint32_t *cp,
                            bool *invalid) {
  const unsigned char *u = (const unsigned char *)s;
  *invalid = false;
  if (u[i] < 0x80) {
    *cp = u[i];
    return 1;
  }
  size_t n;
  unsigned char lo, hi;
  lead_info(u[i], &n, &lo, &hi);
  *cp = 0xFFFD;
  *invalid = true;
  if (n == 0) return 1;
  uint32_t v = u[i] & (0xFF >> (n + 1));
  for (size_t k = 1; k < n; k++) {
    bool ok = i + k < len && u[i + k] >= lo && u[i + k] <= hi;
    if (!ok) return maximal ? k : 1;
    v = (v << 6) | (u[i + k] & 0x3F);
    lo = 0x80;
    hi = 0xBF;
  }
  *cp = v;
  *invalid = false;
  return n;
}

static bool in_ranges(uint32_t cp, const uint32_t (*r)[2], size_t n) {
  for (size_t i = 0; i < n; i++)
    if (cp >= r[i][0] && cp <= r[i][1]) return true;
  return false;
}

/* Code points that reorder or break what a terminal or editor shows (Trojan Source set). */
static const uint32_t bidi_ranges[][2] = {
    {0x061C, 0x061C}, {0x200E, 0x200F}, {0x2028, 0x202E}, {0x2066, 0x2069},
};

static bool needs_escape(uint32_t cp) {
  if (cp == '\t') return false;
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;
  return in_ranges(cp, bidi_ranges, sizeof bidi_ranges / sizeof bidi_ranges[0]);
}

static size_t put_utf8(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

size_t gl_utf8_escape_cp(uint32_t cp, bool invalid, char out[16]) {
  size_t n;
  if (invalid) n = put_utf8(0xFFFD, out);
  else if (cp <= 0x7F && needs_escape(cp)) n = (size_t)snprintf(out, 16, "\\x%02" PRIx32, cp);
  else if (needs_escape(cp)) n = (size_t)snprintf(out, 16, "\\u%04" PRIx32, cp);
  else n = put_utf8(cp, out);
  out[n] = '\0';
  return n;
}

/* East Asian wide and fullwidth ranges, and emoji (after Markus Kuhn's wcwidth). */
static const uint32_t wide_ranges[][2] = {
    {0x1100, 0x115F},   {0x2329, 0x232A},   {0x2E80, 0x303E},   {0x3041, 0x33FF},
    {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
    {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF},
    {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

/* Combining marks and other zero-width code points that are shown as they are. */
static const uint32_t zero_ranges[][2] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x200B, 0x200D}, {0x20D0, 0x20FF},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

unsigned gl_utf8_cp_width(uint32_t cp, bool invalid) {
  if (invalid) return 1;
  if (needs_escape(cp)) {
    char tmp[16];
    return (unsigned)gl_utf8_escape_cp(cp, false, tmp);
  }
  if (in_ranges(cp, zero_ranges, sizeof zero_ranges / sizeof zero_ranges[0])) return 0;
  if (in_ranges(cp, wide_ranges, sizeof wide_ranges / sizeof wide_ranges[0])) return 2;
  return 1;
}

char *gl_utf8_safe_text(const char *s, size_t len) {
  gl_strbuf b = {0};
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    bool invalid;
    i += gl_utf8_next(s, len, i, false, &cp, &invalid);
    char esc[16];
    size_t n = gl_utf8_escape_cp(cp, invalid, esc);
    gl_strbuf_add(&b, esc, n);
  }
  return gl_strbuf_take(&b);
}

size_t gl_utf8_first_invalid(const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    bool invalid;
    size_t n = gl_utf8_next(s, len, i, false, &cp, &invalid);
    if (invalid) return i;
    i += n;
  }
  return SIZE_MAX;
}

char *gl_utf8_json_text(const char *s) {
  gl_strbuf b = {0};
  size_t len = s ? strlen(s) : 0;
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    bool invalid;
    size_t n = gl_utf8_next(s, len, i, false, &cp, &invalid);
    if (invalid) gl_strbuf_add(&b, "\xEF\xBF\xBD", 3);
    else gl_strbuf_add(&b, s + i, n);
    i += n;
  }
  return gl_strbuf_take(&b);
}
