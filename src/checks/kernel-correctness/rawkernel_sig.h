/* rawkernel_sig.h: the parameter list of a CUDA C kernel, read from the source text that a
 * `cp.RawKernel` / `cp.RawModule` is built from (rawkernel_argument_mismatch.c).
 * Owns: finding `<name>(` after `void` (as in `extern "C" __global__ void name(...)`), splitting
 *       the parameters at top-level commas, and the width class of each parameter's type.
 * Not: Python; reporting. No allocation.
 * Threads: pure functions over borrowed text. */
#ifndef GL_CHECKS_RAWKERNEL_SIG_H
#define GL_CHECKS_RAWKERNEL_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GL_RK_MAX_PARAMS 64

typedef enum gl_rk_type {
  GL_RK_UNKNOWN = 0,  /* templates, structs, anything not below */
  GL_RK_PTR,          /* any pointer or reference */
  GL_RK_F16,          /* half, __half */
  GL_RK_F32,          /* float */
  GL_RK_F64,          /* double */
  GL_RK_I_SMALL,      /* bool, char, short and their fixed-width forms */
  GL_RK_I32,          /* int, unsigned int, int32_t, uint32_t */
  GL_RK_I64,          /* long long, long, size_t, ptrdiff_t, int64_t, uint64_t */
} gl_rk_type;

typedef struct gl_rk_param {
  gl_rk_type type;
  gl_rk_type elem;      /* for GL_RK_PTR, the pointed-to type (GL_RK_UNKNOWN for void, T, ...) */
  uint32_t start, len;  /* the parameter's text (trimmed) within the source text */
} gl_rk_param;

typedef struct gl_rk_sig {
  gl_rk_param params[GL_RK_MAX_PARAMS];
  size_t n;
} gl_rk_sig;

/* Reads the parameters of kernel `name` (name_len bytes) from text (len bytes). False when the
 * kernel is not found, is found twice with different lists, or has more than
 * GL_RK_MAX_PARAMS parameters. */
bool gl_rk_parse(const char *text, size_t len, const char *name, size_t name_len, gl_rk_sig *out);

/* "float", "int", ...: the C spelling of a width class, for messages. */
const char *gl_rk_type_name(gl_rk_type t);

#endif
