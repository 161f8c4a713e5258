/* tempfile.h: recognising and clearing away gpulint's own temp files.
 * Owns: the temp-file naming scheme shared by the cache and report files (a prefix that names
 *       gpulint, then mkstemp's six characters from [A-Za-z0-9]) and the removal of those that a
 *       killed run left behind, after GL_TMP_STALE_SECONDS.
 * Not: creating them (cache.c's write_atomic, output.c's create_temp).
 * Threads: any; the functions touch only the folder they are given. */
#ifndef GL_TEMPFILE_H
#define GL_TEMPFILE_H

#include <stdbool.h>

#define GL_TMP_TAG ".gpulint-tmp-"   /* what every gpulint temp file name holds before XXXXXX */
#define GL_TMP_STALE_SECONDS 600     /* older than this: its run was killed */

/* True when name is prefix followed by exactly six characters from [A-Za-z0-9]. */
bool gl_tmp_name_is(const char *name, const char *prefix);

/* Removes the entries of the folder dfd whose name gl_tmp_name_is(name, prefix), that are regular
 * files (never a symlink, never a folder) and were last modified over GL_TMP_STALE_SECONDS ago.
 * Errors are ignored: the files are retried by the next run. */
void gl_tmp_remove_stale(int dfd, const char *prefix);

#endif
