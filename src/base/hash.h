/* hash.h: the one string hash of the project, FNV-1a in 32 and 64 bits (byte order independent,
 * so a shard or a table key is the same on every machine).
 * Owns: the constants and the byte loop; callers seed it (a table mixes its key's kind into the
 *       seed) and decide what an empty slot is.
 * Threads: pure functions. */
#ifndef GL_HASH_H
#define GL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define GL_FNV32_OFFSET 2166136261u
#define GL_FNV32_PRIME 16777619u
#define GL_FNV64_OFFSET 0xcbf29ce484222325ull
#define GL_FNV64_PRIME 0x100000001b3ull
/* The 64-bit seed the in-memory tables use (the standard offset with its last digit dropped, kept
 * so that table layouts, and the order they are walked in, do not move). */
#define GL_FNV64_TABLE_SEED 1469598103934665603ull

/* h after len more bytes of p. */
static inline uint32_t gl_fnv32(uint32_t h, const void *p, size_t len) {
  const unsigned char *b = p;
  for (size_t i = 0; i < len; i++) h = (h ^ b[i]) * GL_FNV32_PRIME;
  return h;
}

static inline uint64_t gl_fnv64(uint64_t h, const void *p, size_t len) {
  const unsigned char *b = p;
  for (size_t i = 0; i < len; i++) h = (h ^ b[i]) * GL_FNV64_PRIME;
  return h;
}

/* h after the bytes of the NUL-terminated string s. */
static inline uint64_t gl_fnv64_str(uint64_t h, const char *s) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * GL_FNV64_PRIME;
  return h;
}

#endif
