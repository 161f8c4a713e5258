/* output.c: atomic report files: write a temp file next to the target, then rename it over.
 * Owns: the temp file's name, creation (O_EXCL, mode 0644 less the umask, applied by the kernel
 *       so no process-wide umask juggling), fsync, rename, clean-up on every failure path.
 *       A target that exists and is neither a regular file nor a directory (/dev/null, a FIFO)
 *       is written in place: renaming over a device would replace the device node.
 * Not: formatting (report.c). Threads: a gl_output belongs to the main thread. */
#include "base/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/xalloc.h"

enum { TMP_ATTEMPTS = 100 };

static void fail(gl_output *o, int err, const char *what, const char *file) {
  char text[128];
  gl_diag_errno_text(err, text, sizeof text);
  gl_diag_set(&o->err, o->path, 0, 0, "cannot %s '%.900s': %s", what, file, text);
}

/* Six characters from [A-Za-z0-9], from getrandom or, failing that, the clock and the pid. */
static void random_suffix(char out[7]) {
  static const char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char bytes[6];
  if (getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != (ssize_t)sizeof bytes) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long x = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)getpid() << 20);
    for (size_t i = 0; i < sizeof bytes; i++, x = x * 6364136223846793005ull + 1442695040888963407ull)
      bytes[i] = (unsigned char)(x >> 56);
  }
  for (size_t i = 0; i < 6; i++) out[i] = alphabet[bytes[i] % (sizeof alphabet - 1)];
  out[6] = '\0';
}

/* Creates <path>.XXXXXX exclusively; returns the fd (tmp_path set) or -1 with errno. */
static int create_temp(gl_output *o) {
  for (int attempt = 0; attempt < TMP_ATTEMPTS; attempt++) {
    char suffix[7];
    random_suffix(suffix);
    char *tmp = gl_xasprintf("%s.%s", o->path, suffix);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd >= 0) {
      o->tmp_path = tmp;
      return fd;
    }
    int err = errno;
    free(tmp);
    if (err != EEXIST) {
      errno = err;
      return -1;
    }
  }
  errno = EEXIST;
  return -1;
}

static int open_in_place(gl_output *o) {
  o->fp = fopen(o->path, "w");
  if (o->fp) return 0;
  fail(o, errno, "open", o->path);
  free(o->path);
  o->path = NULL;
  return GL_EIO;
}

int gl_output_open(gl_output *o, const char *path) {
  memset(o, 0, sizeof *o);
  if (!path || strcmp(path, "-") == 0) {
    o->fp = stdout;
    return 0;
  }
  o->path = gl_xstrdup(path);
  struct stat st;
  bool exists = stat(path, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    fail(o, EISDIR, "write", path);
    free(o->path);
    o->path = NULL;
    return GL_EIO;
  }
  if (exists && !S_ISREG(st.st_mode)) return open_in_place(o);
  int fd = create_temp(o);
  if (fd < 0) {
    char *pattern = gl_xasprintf("%s.XXXXXX", path);
    fail(o, errno, "create temp file", pattern);
    free(pattern);
    free(o->path);
    o->path = NULL;
    return GL_EIO;
  }
  o->fp = fdopen(fd, "w");
  if (o->fp) return 0;
  fail(o, errno, "open", o->tmp_path);
  close(fd);
  gl_output_abort(o);
  return GL_EIO;
}

FILE *gl_output_stream(gl_output *o) { return o->fp; }

static void finish(gl_output *o) {
  free(o->path);
  free(o->tmp_path);
  o->path = o->tmp_path = NULL;
  o->fp = NULL;
}

/* Best effort: makes the rename itself durable. */
static void sync_parent_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? gl_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : gl_xstrdup(".");
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    (void)fsync(fd);
    close(fd);
  }
  free(dir);
}

int gl_output_commit(gl_output *o) {
  if (!o->fp) return 0;
  if (o->fp == stdout) {
    int bad = fflush(stdout) != 0 || ferror(stdout);
    if (bad) fail(o, errno ? errno : EIO, "write", "<stdout>");
    o->fp = NULL;
    return bad ? GL_EIO : 0;
  }
  if (!o->tmp_path) { /* written in place */
    int bad = fflush(o->fp) != 0 || ferror(o->fp);
    int err = errno;
    if (fclose(o->fp) != 0) bad = 1;
    if (bad) fail(o, err ? err : EIO, "write", o->path);
    finish(o);
    return bad ? GL_EIO : 0;
  }
  int err = 0;
  if (fflush(o->fp) != 0 || ferror(o->fp)) err = errno ? errno : EIO;
  if (!err && fsync(fileno(o->fp)) != 0) err = errno;
  if (fclose(o->fp) != 0 && !err) err = errno;
  o->fp = NULL;
  if (!err && rename(o->tmp_path, o->path) != 0) err = errno;
  if (err) {
    fail(o, err, "write", o->path);
    unlink(o->tmp_path);
    finish(o);
    return GL_EIO;
  }
  sync_parent_dir(o->path);
  finish(o);
  return 0;
}

void gl_output_abort(gl_output *o) {
  if (o->fp == stdout) {
    fflush(stdout);
    o->fp = NULL;
    return;
  }
  if (o->fp) fclose(o->fp);
  if (o->tmp_path) unlink(o->tmp_path);
  finish(o);
}
