/* outfile.c: the atomic evidence file (see outfile.h).
 * Owns: mkstemp, fchmod to 0666 & ~umask, fsync, rename, unlink of the temporary file.
 * Not: JSON.
 * Threads: the probe's one host thread. */
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *errtext(int err, char *buf, size_t n) {
  if (strerror_r(err, buf, n) != 0) snprintf(buf, n, "errno %d", err);
  return buf;
}

static int fail_write(gp_fail *fail, const char *path, const char *doing, int err) {
  char eb[128];
  return gp_fail_set(fail, GP_EXIT_WRITE, "cannot write %s: %s failed: %s; choose a writable "
                     "path with -o FILE", path, doing, errtext(err, eb, sizeof eb));
}

int gp_outfile_open(gp_outfile *o, const char *path, gp_fail *fail) {
  o->path = path;
  o->tmp[0] = '\0';
  o->fd = -1;
  if (strcmp(path, "-") == 0) return 0;
  size_t len = strlen(path);
  if (len == 0 || len + 16 > sizeof o->tmp)
    return gp_fail_set(fail, GP_EXIT_WRITE, "cannot write '%s': the path is empty or too long; "
                       "choose another with -o FILE", path);
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return gp_fail_set(fail, GP_EXIT_WRITE, "cannot write %s: it is a directory; choose a file "
                       "with -o FILE", path);
  /* path + ".tmpXXXXXX" lies in path's own directory, so rename() replaces path atomically */
  snprintf(o->tmp, sizeof o->tmp, "%s.tmpXXXXXX", path);
  o->fd = mkstemp(o->tmp);
  if (o->fd < 0) {
    int err = errno;
    o->tmp[0] = '\0';
    return fail_write(fail, path, "creating a temporary file next to it", err);
  }
  mode_t mask = umask(0);
  umask(mask);
  if (fchmod(o->fd, 0666 & ~mask) != 0) {
    int err = errno;
    gp_outfile_abort(o);
    return fail_write(fail, path, "setting the temporary file's mode", err);
  }
  return 0;
}

void gp_outfile_abort(gp_outfile *o) {
  if (o->fd >= 0) close(o->fd);
  o->fd = -1;
  if (o->tmp[0]) unlink(o->tmp);
  o->tmp[0] = '\0';
}

int gp_outfile_commit(gp_outfile *o, const gp_evidence *ev, gp_fail *fail) {
  if (strcmp(o->path, "-") == 0) {
    if (gp_evidence_write(stdout, ev) != 0)
      return gp_fail_set(fail, GP_EXIT_WRITE, "cannot write the evidence to standard output");
    return 0;
  }
  FILE *f = fdopen(o->fd, "w");
  if (!f) {
    int err = errno;
    gp_outfile_abort(o);
    return fail_write(fail, o->path, "opening the temporary file", err);
  }
  o->fd = -1; /* f owns it now */
  errno = 0;
  int bad = gp_evidence_write(f, ev) != 0;
  int err = errno ? errno : EIO;
  if (!bad && fsync(fileno(f)) != 0) bad = 1, err = errno;
  if (fclose(f) != 0 && !bad) bad = 1, err = errno;
  if (bad) {
    gp_outfile_abort(o);
    return fail_write(fail, o->path, "writing the temporary file", err);
  }
  if (rename(o->tmp, o->path) != 0) {
    err = errno;
    gp_outfile_abort(o);
    return fail_write(fail, o->path, "renaming the temporary file over it", err);
  }
  o->tmp[0] = '\0';
  return 0;
}
