/* replay.c: the main of a harness built without libFuzzer (the test suite, under GCC and the
 * sanitizers): runs LLVMFuzzerTestOneInput once on every file named, and on every regular file of
 * every directory named (in name order), and prints how many it ran. A crash, a sanitizer report
 * or an abort fails the test; a missing path is an error (exit 2). */
#define _GNU_SOURCE /* scandir's alphasort on a dirent */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  char *buf = NULL;
  size_t len = 0, cap = 0, n;
  char chunk[65536];
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (len + n > cap) {
      cap = (len + n) * 2;
      buf = realloc(buf, cap);
      if (!buf) abort();
    }
    memcpy(buf + len, chunk, n);
    len += n;
  }
  fclose(f);
  /* libFuzzer hands over a buffer of exactly the input's length: so does the replay, so a read past
   * the end is caught by the sanitizer here as well. */
  uint8_t *exact = malloc(len ? len : 1);
  if (!exact) abort();
  if (len) memcpy(exact, buf, len);
  free(buf);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 0;
}

static int only_files(const struct dirent *d) { return d->d_name[0] != '.'; }

int main(int argc, char **argv) {
  size_t ran = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 2;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (run_file(argv[i]) != 0) return 2;
      ran++;
      continue;
    }
    struct dirent **names;
    int n = scandir(argv[i], &names, only_files, alphasort);
    if (n < 0) return 2;
    for (int k = 0; k < n; k++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
      if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        if (run_file(path) != 0) return 2;
        ran++;
      }
      free(names[k]);
    }
    free(names);
  }
  printf("replayed %zu inputs\n", ran);
  return 0;
}
