/* cache_key.c: the run key of the result cache: every input besides a file's own bytes and path
 * that changes what the engine finds in it.
 * Owns: the labelled, length-prefixed fields fed to the key (rules, packs, models, files, the
 *       running executable).
 * Not: which inputs main.c feeds (it adds the evidence file, --rules models and engine options),
 *      hashing (cache_ser.c).
 * Threads: main thread, before linting. */
#include "cache/cache.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/xalloc.h"

void gl_cache_key_add(gl_cache_keybuf *kb, const char *label, const void *data, size_t len) {
  size_t llen = strlen(label);
  uint64_t n[2] = {llen, len};
  gl_vec_reserve(kb, kb->len + sizeof(n) + llen + len);
  memcpy(kb->data + kb->len, n, sizeof(n));
  memcpy(kb->data + kb->len + sizeof(n), label, llen);
  if (len) memcpy(kb->data + kb->len + sizeof(n) + llen, data, len);
  kb->len += sizeof(n) + llen + len;
}

static void add_str(gl_cache_keybuf *kb, const char *label, const char *s) {
  if (s) gl_cache_key_add(kb, label, s, strlen(s));
  else gl_cache_key_add(kb, label, "\xff(null)", 7); /* never the bytes of a real string */
}

static void add_u64(gl_cache_keybuf *kb, const char *label, uint64_t v) {
  gl_cache_key_add(kb, label, &v, sizeof(v));
}

static void add_rule(gl_cache_keybuf *kb, const gl_rule *r) {
  add_str(kb, "rule", r->id);
  add_str(kb, "markdown", r->markdown);
  add_u64(kb, "enabled", r->enabled);
  add_u64(kb, "level", r->level);
  for (size_t i = 0; i < r->options.len; i++) {
    const gl_rule_option *o = &r->options.data[i];
    size_t n = 0;
    const char *const *v = gl_rule_option_strings(r, o->name, &n);
    add_str(kb, "option", o->name);
    add_u64(kb, "nvalues", n);
    for (size_t j = 0; j < n; j++) add_str(kb, "value", v[j]);
  }
}

void gl_cache_key_ruleset(gl_cache_keybuf *kb, const gl_ruleset *set) {
  for (size_t i = 0; i < set->packs.len; i++) {
    const gl_pack *p = set->packs.data[i];
    add_str(kb, "pack", p->name);
    add_str(kb, "prefix", p->prefix);
    add_u64(kb, "default", p->default_on);
    for (size_t j = 0; j < p->ntriggers; j++) add_str(kb, "trigger", p->triggers[j]);
  }
  for (size_t i = 0; i < set->rules.len; i++) add_rule(kb, set->rules.data[i]);
  add_u64(kb, "models", gl_libmodels_count(set->models));
}

void gl_cache_key_file(gl_cache_keybuf *kb, const char *label, const char *path, size_t cap) {
  add_str(kb, label, path);
  char *bytes = NULL;
  size_t len = 0;
  gl_load_fail fail;
  if (gl_load_read(path, cap, &bytes, &len, &fail) != GL_OK) {
    add_str(kb, "unreadable", path);
    return;
  }
  gl_cache_key_add(kb, "bytes", bytes, len);
  free(bytes);
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void gl_cache_key_models_dir(gl_cache_keybuf *kb, const char *dir) {
  size_t dlen = strlen(dir);
  char *models = gl_xmalloc(dlen + sizeof("/models"));
  memcpy(models, dir, dlen);
  memcpy(models + dlen, "/models", sizeof("/models"));
  add_str(kb, "rules-dir", dir);
  DIR *d = opendir(models);
  gl_vec(char *) names = {0};
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0)
      gl_vec_push(&names, gl_xstrdup(e->d_name));
  }
  if (d) closedir(d);
  if (names.len) qsort(names.data, names.len, sizeof(char *), cmp_names);
  for (size_t i = 0; i < names.len; i++) {
    size_t plen = strlen(models) + 1 + strlen(names.data[i]) + 1;
    char *path = gl_xmalloc(plen);
    snprintf(path, plen, "%s/%s", models, names.data[i]);
    gl_cache_key_file(kb, "model", path, GL_RULE_FILE_MAX_BYTES);
    free(path);
    free(names.data[i]);
  }
  gl_vec_free(&names);
  free(models);
}

void gl_cache_key_self(gl_cache_keybuf *kb) {
  struct stat st;
  if (stat("/proc/self/exe", &st) != 0) {
    add_str(kb, "self", "unknown");
    return;
  }
  add_u64(kb, "self-size", (uint64_t)st.st_size);
  add_u64(kb, "self-mtime", (uint64_t)st.st_mtim.tv_sec);
  add_u64(kb, "self-mtime-ns", (uint64_t)st.st_mtim.tv_nsec);
  add_u64(kb, "self-ino", (uint64_t)st.st_ino);
  add_u64(kb, "self-dev", (uint64_t)st.st_dev);
}
