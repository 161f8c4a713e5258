/* cache.h: the result cache: what the engine found in a file, kept across runs.
 * Owns: the 128-bit content hash (MurmurHash3 x64-128), the run key (everything besides a file's
 *       bytes and path that changes what the engine finds in it), the entry format (magic,
 *       version, length, checksum) and its encoding of a gl_file_result, the cache directory
 *       (<root>/.gpulint_cache/<run key>/<hash of the path>, with CACHEDIR.TAG and a .gitignore),
 *       atomic entry writes (temp file + rename), pruning, and `gpulint clean`.
 * Not: deciding what to lint (engine.c asks), calibration, baselines and per-file-ignores (they
 *       run after the engine on cached and fresh results alike), printing.
 * Threads: gl_cache_open / gl_cache_close / gl_cache_clean on the main thread; gl_cache_get and
 *          gl_cache_put from any worker at once (they touch only their own entry file; the first
 *          write error is kept under a mutex). Several processes may share one cache directory:
 *          an entry is replaced by rename, never written in place, and a reader checks it whole.
 *
 * Collisions: a hit needs the same display path, the same run key and the same 128-bit content
 * hash; for n distinct contents the chance that two collide is about n^2 / 2^129. The hash is
 * not cryptographic: the cache trusts whoever can write the project directory. */
#ifndef GL_CACHE_H
#define GL_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/load.h"
#include "base/vec.h"
#include "result/result.h"
#include "rules/rules.h"

#define GL_CACHE_DIRNAME ".gpulint_cache"
#define GL_CACHE_KEEP_RUNS 4         /* run-key directories kept; older ones are pruned */

typedef struct gl_hash128 {
  uint64_t lo, hi;
} gl_hash128;

/* MurmurHash3 x64-128 of data[0..len) with seed. */
gl_hash128 gl_hash128_of(const void *data, size_t len, uint64_t seed);

/* The run key: length-prefixed labelled fields appended to a buffer, hashed once. */
typedef gl_vec(char) gl_cache_keybuf;

/* Appends one field (label, then len bytes of data). */
void gl_cache_key_add(gl_cache_keybuf *kb, const char *label, const void *data, size_t len);
/* Appends the ruleset: each rule's id, whole rule file, enabled flag, level and option values in
 * effect; each pack's name, triggers and default; the number of library models. */
void gl_cache_key_ruleset(gl_cache_keybuf *kb, const gl_ruleset *set);
/* Appends the bytes of the file at path (or a marker when it cannot be read, is not a regular
 * file or has more than cap bytes: gl_load_read). */
void gl_cache_key_file(gl_cache_keybuf *kb, const char *label, const char *path, size_t cap);
/* Appends dir/models/ *.json (sorted by name, names and bytes): a --rules directory's models. */
void gl_cache_key_models_dir(gl_cache_keybuf *kb, const char *dir);
/* Appends the identity of the running executable (size, mtime, inode of /proc/self/exe), so a
 * rebuilt gpulint never trusts an older build's entries. */
void gl_cache_key_self(gl_cache_keybuf *kb);

/* Encodes r (the display path, linted, findings with every field, notifications) as an entry
 * payload into out (appended). */
void gl_cache_encode(const gl_file_result *r, gl_cache_keybuf *out);
/* Decodes a payload: fills r (path included; rule pointers looked up by id in set). Returns false,
 * leaving r empty, for anything malformed, truncated, or naming a rule set lacks. */
bool gl_cache_decode(const char *data, size_t len, const gl_ruleset *set, gl_file_result *r);

/* A whole entry: header (magic, format version, payload length, content hash, payload checksum)
 * and payload. gl_cache_entry_check returns the payload's offset, or 0 when the entry is not a
 * valid one for content (wrong magic or version, short, long, bad checksum, other content). */
void gl_cache_entry_build(const gl_file_result *r, gl_hash128 content, gl_cache_keybuf *out);
size_t gl_cache_entry_check(const char *data, size_t len, gl_hash128 content);

typedef struct gl_cache gl_cache;

/* Opens (creating as needed) dir and its run-key folder, and marks the run-key folder used now.
 * dir is used only when gpulint made it (its CACHEDIR.TAG) or it is empty: then CACHEDIR.TAG
 * (with the cache format version) and a .gitignore holding "*" are written first. A folder that
 * holds anything else is someone else's: nothing is written into it. set is borrowed for the run.
 * Returns NULL with err ("cannot create cache directory DIR: permission denied", "cache directory
 * DIR is not empty and gpulint did not create it ...") and the run goes on without a cache. */
gl_cache *gl_cache_open(const char *dir, gl_hash128 run_key, const gl_ruleset *set, gl_diag *err);

/* The content hash of a loaded file: its bytes with what the loader rewrote folded in (a lone CR,
 * the offsets of NULs read as spaces), so a file never shares an entry with its rewritten form. */
gl_hash128 gl_cache_content_hash(const gl_source *src);

/* Fills out's findings, notifications and linted from the entry of path when it holds content;
 * true on a hit. A missing, corrupt, truncated or foreign entry is a miss. */
bool gl_cache_get(const gl_cache *c, const char *path, gl_hash128 content, gl_file_result *out);

/* Stores r for (r->path, content), unless r was not fully linted (a GL_NOTE_SKIPPED or
 * GL_NOTE_PARTIAL notification, or !r->linted): those depend on time limits, not only inputs.
 * A write error is remembered (the first one) and the run goes on. */
void gl_cache_put(gl_cache *c, gl_hash128 content, const gl_file_result *r);

/* Closes c: prunes run-key folders beyond the GL_CACHE_KEEP_RUNS most recently used (only what
 * gl_cache_clean would remove) and temp files that killed runs left over ten minutes ago. Returns
 * true and fills err with the first write error of the run, if there was one. NULL is fine. */
bool gl_cache_close(gl_cache *c, gl_diag *err);

/* What `gpulint clean` did: whether the folder existed, the files it removed, and the entries it
 * left because gpulint did not create them (the folder then stays too). */
typedef struct gl_cache_cleaned {
  bool existed;
  size_t removed, kept;
} gl_cache_cleaned;

/* `gpulint clean`: when dir is a gpulint cache (it holds gpulint's CACHEDIR.TAG), removes what
 * gpulint's naming scheme produces there: run-key folders of 32 hex digits and, inside them,
 * entries of 32 hex digits and temp files, regular files only, never following a symlink, never
 * entering a folder it did not create; then, when nothing else is left, the tag, gpulint's
 * .gitignore and dir. Returns 0 (also when dir does not exist), GL_EINVAL when dir is not a
 * gpulint cache ("DIR is not a gpulint cache (no gpulint CACHEDIR.TAG): nothing removed"),
 * GL_EIO when dir could not be removed. */
int gl_cache_clean(const char *dir, gl_cache_cleaned *out, gl_diag *err);

#endif
