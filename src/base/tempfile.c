/* tempfile.c: gpulint's temp-file names and the removal of stale ones (tempfile.h). */
#include "base/tempfile.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

bool gl_tmp_name_is(const char *name, const char *prefix) {
  static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  size_t p = strlen(prefix);
  return strncmp(name, prefix, p) == 0 && strlen(name + p) == 6 && strspn(name + p, alnum) == 6;
}

void gl_tmp_remove_stale(int dfd, const char *prefix) {
  int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* not dup: its own offset */
  DIR *d = fd < 0 ? NULL : fdopendir(fd);
  if (!d) {
    if (fd >= 0) close(fd);
    return;
  }
  time_t now = time(NULL);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    struct stat st;
    if (gl_tmp_name_is(e->d_name, prefix) &&
        fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        st.st_mtime + GL_TMP_STALE_SECONDS < now)
      (void)unlinkat(dfd, e->d_name, 0);
  }
  closedir(d);
}
