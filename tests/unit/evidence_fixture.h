/* evidence_fixture.h: the evidence files of tests/fixtures/evidence for the unit tests that read
 * them (test_evidence.c, test_calibrate.c): their folder, and loading one that must be valid.
 * Owns: nothing outside a test; every function is static inline (header-only). Include after
 * <cmocka.h>; needs the compile definition GL_SOURCE_DIR. Threads: single-threaded test code. */
#ifndef GL_TEST_EVIDENCE_FIXTURE_H
#define GL_TEST_EVIDENCE_FIXTURE_H

#include <stdio.h>

#include "evidence/evidence.h"
#include "text_fixture.h"

#define FIXTURES GL_SOURCE_DIR "/tests/fixtures/evidence/"

/* Loads the fixture file name (relative to FIXTURES), which must be valid: on an error the test
 * prints it and fails. The caller frees the result with gl_evidence_free. */
static inline gl_evidence *load_fixture(const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s%s", FIXTURES, name);
  gl_diag err = {0};
  gl_evidence *ev = gl_evidence_load(path, &err);
  if (!ev) print_message("%s:%u:%u: %s\n", err.path, err.line, err.col, err.msg);
  assert_non_null(ev);
  return ev;
}

#endif
