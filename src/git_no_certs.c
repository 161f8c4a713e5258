/* git_no_certs.c: keeps libgit2 from reading the system's TLS certificates at start-up.
 * Owns: the executable's definition of mbedtls_x509_crt_parse_file, a no-op.
 * Not: anything else of libgit2 or mbedTLS; it is linked into the gpulint executable only, never
 *      into gl_core (tests and tools link the library and keep the real function).
 * Why: Debian's libgit2 1.5 is built with mbedTLS, and git_libgit2_init parses every certificate
 *      of /etc/ssl/certs/ca-certificates.crt: 56 M instructions, about 3 ms of every run and a
 *      fifth of a default run over the standard library. gpulint opens repositories only to find
 *      the work tree and to ask what .gitignore excludes; it never fetches, so no TLS connection
 *      is ever made and the certificates are never used. A definition in the executable comes
 *      first in the dynamic linker's search, so libgit2's call binds here (checked by the test
 *      build/git-no-certs). A libgit2 built with OpenSSL or linked statically never calls it.
 * Threads: stateless. */
int mbedtls_x509_crt_parse_file(void *chain, const char *path);

int mbedtls_x509_crt_parse_file(void *chain, const char *path) {
  (void)chain;
  (void)path;
  return 0; /* "parsed, no certificate failed": an empty chain */
}
