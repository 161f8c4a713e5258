/* utf8.h: UTF-8 decoding, and text made visible and valid for terminals and JSON.
 * Owns: the one UTF-8 decoder of gpulint (each invalid byte its own U+FFFD, or one U+FFFD for the
 *       maximal subpart of an ill-formed sequence), visible escapes for control characters,
 *       C1 controls and bidirectional overrides, terminal widths of code points.
 * Not: line and column tables (load.h), output formats.
 * Threads: stateless; safe from any thread. */
#ifndef GL_UTF8_H
#define GL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the code point at s[i] (i < len) into *cp and returns how many bytes it used (>= 1).
 * An ill-formed sequence gives U+FFFD and *invalid = true. With `maximal`, one U+FFFD stands for
 * the maximal subpart of an ill-formed sequence (WHATWG / Node's decoder, used for line hashes);
 * without it, every invalid byte is its own U+FFFD (as gl_load_position counts columns). */
size_t gl_utf8_next(const char *s, size_t len, size_t i, bool maximal, uint32_t *cp, bool *invalid);

/* UTF-16 code units of what gl_utf8_next decoded: 2 above U+FFFF, else 1 (an invalid byte is 1). */
static inline uint32_t gl_utf8_units(uint32_t cp, bool invalid) {
  return !invalid && cp > 0xFFFF ? 2 : 1;
}

/* True for a continuation byte (10xxxxxx): not where a character starts. */
static inline bool gl_utf8_is_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

/* Writes the visible form of one decoded code point into out (NUL-terminated) and returns its
 * length: controls as "\x1b", C1 controls and bidirectional overrides as "\u202e", an invalid
 * byte as U+FFFD, anything else as its UTF-8. Tab is kept. out must hold 16 bytes. */
size_t gl_utf8_escape_cp(uint32_t cp, bool invalid, char out[16]);

/* Terminal columns a code point takes once escaped (0 for combining marks, 2 for wide). Tab is
 * the caller's business. */
unsigned gl_utf8_cp_width(uint32_t cp, bool invalid);

/* Copies s[0, len), replacing control characters and terminal escapes with visible escapes
 * (\x1b) and invalid UTF-8 with U+FFFD, so text output can never drive the terminal. Caller
 * frees. */
char *gl_utf8_safe_text(const char *s, size_t len);

/* The offset of the first byte of s[0, len) that is not part of well-formed UTF-8, or SIZE_MAX
 * when all of it is. */
size_t gl_utf8_first_invalid(const char *s, size_t len);

/* A copy of s that is valid UTF-8 (each invalid byte replaced with U+FFFD), for JSON strings:
 * cJSON copies bytes through. NULL gives "". Caller frees. */
char *gl_utf8_json_text(const char *s);

#endif
