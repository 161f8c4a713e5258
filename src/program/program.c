/* program.c: the program stage (program.h): files' summaries in, the defs hot through other
 *       files out.
 * Owns: parsing summaries (model_program.c writes them), module names from paths (`a/b/c.py` is
 *       `a.b.c` and, since the run may start anywhere inside a project, also `b.c` and `c`;
 *       `a/b/__init__.py` is the package `a.b`; a name two files share resolves to neither),
 *       resolving a call's dotted callee to a def, and the worklist that carries hotness down:
 *       a call that pass 1 found hot makes its def hot; a def hot this way makes hot the calls it
 *       makes on every run of its body (unless a loop of its own does the GPU work: then only
 *       that loop is per step, and its calls were hot in pass 1 already).
 * Not: deciding what is hot inside a file (model_freq.c), linting again (engine.c).
 * Threads: one thread; allocates its own tables. */
#include "program/program.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"

#define MAX_HOPS 4      /* re-exports followed from one module to the next */
#define MAX_CHAIN 6     /* calls shown in a why */
#define NAME_MAX_LEN 512

enum { D_HOT = 1, D_GPU_LOOP = 2, D_TRACED = 4 };
enum { C_HOT = 1, C_WITH_DEF = 2 };

typedef struct pdef {
  const char *qual;
  uint32_t start, end;
  unsigned flags;
  int newly;            /* hot through other files */
  int32_t pred_file, pred_call;   /* the call that made it hot */
  uint32_t dev;         /* device parameters: the AND of its calls' argument masks */
  uint32_t acc;         /* dev of the round under way */
  const char *dev_type; /* the device type its first caller passes */
  bool cross;           /* some call of it is in another file */
  int32_t site_file, site_call;   /* its first call in the run (-1: none) */
} pdef;

typedef struct pimp {
  const char *local, *module, *name;
  unsigned level;
} pimp;

typedef struct pcall {
  int32_t def;
  unsigned flags;
  uint32_t line;
  const char *args;     /* model_program.c: 'd', a parameter's hex position, '?', final '*' */
  const char *text;
  int32_t tfile, tdef;  /* the def it calls (-1: none of the run) */
  unsigned offset;      /* 1 when the def's first parameter is the receiver (`self.m(x)`) */
} pcall;

typedef struct pfile {
  const char *path;
  const char *dev_type; /* the type name of its device data ("" unknown) */
  char *text;           /* the summary, split in place */
  char *module;         /* dotted module name from the path; NULL: not importable */
  int package;          /* an __init__.py */
  gl_vec(pdef) defs;
  gl_vec(pimp) imps;
  gl_vec(pcall) calls;
} pfile;

/* ---- the module table: every dotted suffix of every module name -> file ------------------- */

typedef struct modtab {
  char **keys;
  int32_t *file;        /* -2: two files share the key */
  size_t cap;
} modtab;

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static void mod_put(modtab *t, const char *key, int32_t f) {
  size_t k = hash_str(key) & (t->cap - 1);
  while (t->keys[k] && strcmp(t->keys[k], key) != 0) k = (k + 1) & (t->cap - 1);
  if (!t->keys[k]) {
    t->keys[k] = gl_xstrdup(key);
    t->file[k] = f;
  } else if (t->file[k] != f) {
    t->file[k] = -2;
  }
}

static int32_t mod_get(const modtab *t, const char *key) {
  if (!t->cap) return -1;
  for (size_t k = hash_str(key) & (t->cap - 1); t->keys[k]; k = (k + 1) & (t->cap - 1))
    if (strcmp(t->keys[k], key) == 0) return t->file[k] >= 0 ? t->file[k] : -1;
  return -1;
}

/* `./a/b/c.py` -> "a.b.c"; `a/b/__init__.py` -> "a.b" (package); NULL for other files and for
 * names that are not dotted identifiers. */
static char *module_of(const char *path, int *package) {
  while (path[0] == '.' && path[1] == '/') path += 2;
  while (*path == '/') path++;
  size_t len = strlen(path);
  if (len < 4 || strcmp(path + len - 3, ".py") != 0) return NULL;
  char *m = gl_xstrdup(path);
  m[len - 3] = '\0';
  *package = 0;
  size_t ml = len - 3;
  if (ml >= 8 && strcmp(m + ml - 8, "__init__") == 0 && (ml == 8 || m[ml - 9] == '/')) {
    *package = 1;
    m[ml == 8 ? 0 : ml - 9] = '\0';
  }
  for (char *p = m; *p; p++) {
    if (*p == '/') *p = '.';
    else if (*p == '-' || *p == ' ') { free(m); return NULL; }
  }
  if (!*m) { free(m); return NULL; }
  return m;
}

/* ---- parsing a summary ------------------------------------------------------------------- */

static char *field(char **p) {
  char *s = *p, *e = s + strcspn(s, "\t\n");
  if (*e) *p = e + 1, *e = '\0';
  else *p = e;
  return s;
}

static void parse_summary(pfile *f) {
  for (char *p = f->text; *p;) {
    char *line_end = strchr(p, '\n');
    char kind = *p;
    char *q = p + 2;
    if (!line_end || p[1] != '\t') break;
    *line_end = '\0';
    if (kind == 'T') {
      f->dev_type = field(&q);
    } else if (kind == 'D') {
      pdef d = {0};
      d.qual = field(&q);
      d.start = (uint32_t)strtoul(field(&q), NULL, 10);
      d.end = (uint32_t)strtoul(field(&q), NULL, 10);
      d.flags = (unsigned)strtoul(field(&q), NULL, 10);
      d.pred_file = d.pred_call = d.site_file = d.site_call = -1;
      gl_vec_push(&f->defs, d);
    } else if (kind == 'I') {
      pimp im = {0};
      im.local = field(&q);
      im.level = (unsigned)strtoul(field(&q), NULL, 10);
      im.module = field(&q);
      im.name = field(&q);
      gl_vec_push(&f->imps, im);
    } else if (kind == 'C') {
      pcall c = {0};
      c.def = (int32_t)strtol(field(&q), NULL, 10);
      c.flags = (unsigned)strtoul(field(&q), NULL, 10);
      c.line = (uint32_t)strtoul(field(&q), NULL, 10);
      c.args = field(&q);
      c.text = field(&q);
      c.tfile = c.tdef = -1;
      if (c.def >= (int32_t)f->defs.len) c.def = -1;
      gl_vec_push(&f->calls, c);
    }
    p = line_end + 1;
  }
}

/* ---- resolving ----------------------------------------------------------------------------- */

typedef struct target {
  int32_t file, def;
} target;

static int32_t def_named(const pfile *f, const char *qual) {
  for (size_t i = 0; i < f->defs.len; i++)
    if (strcmp(f->defs.data[i].qual, qual) == 0) return (int32_t)i;
  return -1;
}

/* The import of f binding local, when exactly one does (or all alike). */
static const pimp *import_of(const pfile *f, const char *local, size_t len) {
  const pimp *found = NULL;
  for (size_t i = 0; i < f->imps.len; i++) {
    const pimp *im = &f->imps.data[i];
    if (strlen(im->local) != len || memcmp(im->local, local, len) != 0) continue;
    if (found && (found->level != im->level || strcmp(found->module, im->module) != 0 ||
                  strcmp(found->name, im->name) != 0))
      return NULL;
    found = im;
  }
  return found;
}

/* The absolute dotted name an import of f binds (module, or module.name), in out. */
static bool import_target(const pfile *f, const pimp *im, char *out, size_t cap) {
  char base[NAME_MAX_LEN];
  if (im->level == 0) {
    if (snprintf(base, sizeof(base), "%s", im->module) >= (int)sizeof(base)) return false;
  } else {
    if (!f->module) return false;
    snprintf(base, sizeof(base), "%s", f->module);
    unsigned up = im->level - (f->package ? 1u : 0u);
    for (unsigned k = 0; k < up; k++) {
      char *dot = strrchr(base, '.');
      if (!dot) {
        if (k + 1 < up) return false;
        base[0] = '\0';
        break;
      }
      *dot = '\0';
    }
    if (*im->module) {
      size_t bl = strlen(base);
      if (snprintf(base + bl, sizeof(base) - bl, "%s%s", bl ? "." : "", im->module) >=
          (int)(sizeof(base) - bl))
        return false;
    }
  }
  int n = *im->name ? snprintf(out, cap, "%s%s%s", base, *base ? "." : "", im->name)
                    : snprintf(out, cap, "%s", base);
  return n > 0 && (size_t)n < cap;
}

static target resolve_in(pfile *files, const modtab *t, int32_t fi, const char *text, int hops);

/* A fully dotted name: the longest prefix that names a module of the run, the rest a def of it
 * (or a name that module imports, followed). */
static target resolve_qualified(pfile *files, const modtab *t, const char *full, int hops) {
  target none = {-1, -1};
  char buf[NAME_MAX_LEN];
  if (strlen(full) >= sizeof(buf)) return none;
  strcpy(buf, full);
  for (char *dot = strrchr(buf, '.'); dot; dot = strrchr(buf, '.')) {
    *dot = '\0';
    int32_t fi = mod_get(t, buf);
    if (fi < 0) continue;
    const char *rest = full + (dot - buf) + 1;
    int32_t d = def_named(&files[fi], rest);
    if (d >= 0) return (target){fi, d};
    if (hops < MAX_HOPS) return resolve_in(files, t, fi, rest, hops + 1);
    return none;
  }
  return none;
}

/* The def a dotted callee text names in file fi (called in def caller, -1 at module level). */
static target resolve_call(pfile *files, const modtab *t, int32_t fi, int32_t caller,
                           const char *text) {
  target none = {-1, -1};
  const pfile *f = &files[fi];
  size_t hl = strcspn(text, ".");
  const char *rest = text[hl] ? text + hl + 1 : "";
  if (hl == 4 && memcmp(text, "self", 4) == 0) {
    if (caller < 0 || !*rest || strchr(rest, '.')) return none;
    const char *q = f->defs.data[caller].qual, *dot = strchr(q, '.');
    if (!dot) return none;
    char want[NAME_MAX_LEN];
    if (snprintf(want, sizeof(want), "%.*s.%s", (int)(dot - q), q, rest) >= (int)sizeof(want))
      return none;
    int32_t d = def_named(f, want);
    return d >= 0 ? (target){fi, d} : none;
  }
  return resolve_in(files, t, fi, text, 0);
}

/* A callee text read in file fi: through an import of its head, else a def of fi. */
static target resolve_in(pfile *files, const modtab *t, int32_t fi, const char *text, int hops) {
  target none = {-1, -1};
  const pfile *f = &files[fi];
  size_t hl = strcspn(text, ".");
  const pimp *im = import_of(f, text, hl);
  if (!im) {
    int32_t d = def_named(f, text);
    return d >= 0 ? (target){fi, d} : none;
  }
  char full[NAME_MAX_LEN];
  if (!import_target(f, im, full, sizeof(full))) return none;
  size_t fl = strlen(full);
  if (text[hl] && snprintf(full + fl, sizeof(full) - fl, "%s", text + hl) >= (int)(sizeof(full) - fl))
    return none;
  return resolve_qualified(files, t, full, hops);
}

/* ---- propagation --------------------------------------------------------------------------- */

typedef struct item {
  int32_t file, def;
} item;

typedef gl_vec(item) item_queue;

static void why_of(const pfile *files, int32_t fi, int32_t di, gl_strbuf *out) {
  int32_t chain_f[MAX_CHAIN], chain_c[MAX_CHAIN];
  int n = 0;
  for (int32_t f = fi, d = di; f >= 0 && d >= 0 && n < MAX_CHAIN;) {
    const pdef *pd = &files[f].defs.data[d];
    if (pd->pred_file < 0) break;
    chain_f[n] = pd->pred_file;
    chain_c[n++] = pd->pred_call;
    int32_t cf = pd->pred_file, cd = files[cf].calls.data[pd->pred_call].def;
    if (cd < 0 || !files[cf].defs.data[cd].newly) break;
    f = cf;
    d = cd;
  }
  const pdef *self = &files[fi].defs.data[di];
  if (!self->newly) {
    const pfile *sf = &files[self->site_file];
    gl_strbuf_addf(out, "`%s` is given device data (%s:%u)", self->qual, sf->path,
                   sf->calls.data[self->site_call].line);
    return;
  }
  gl_strbuf_addf(out, "`%s` runs on every step (", self->qual);
  if (!n) gl_strbuf_adds(out, ")");
  for (int k = n - 1; k >= 0; k--)
    gl_strbuf_addf(out, "%s:%u%s", files[chain_f[k]].path,
                   files[chain_f[k]].calls.data[chain_c[k]].line, k ? " -> " : ")");
}

/* The mask of positions where call c (of file f) passes device data, given its def's mask. */
static uint32_t args_mask(const pcall *c, const pfile *f) {
  uint32_t mask = 0, caller = c->def >= 0 ? f->defs.data[c->def].dev : 0;
  for (unsigned k = 0; c->args[k] && c->args[k] != '*' && k + c->offset < 32; k++) {
    char a = c->args[k];
    int pos = a >= '0' && a <= '9' ? a - '0' : a >= 'a' && a <= 'f' ? a - 'a' + 10 : -1;
    if (a == 'd' || (pos >= 0 && (caller >> pos) & 1u)) mask |= 1u << (k + c->offset);
  }
  return mask;
}

/* Device parameters to a fixed point (bounded): a def's are the positions where every call of
 * the run passes device data, a parameter passed on as it came counting as its caller's. */
static void device_params(pfile *files, size_t n) {
  for (int round = 0; round < 8; round++) {
    for (size_t i = 0; i < n; i++)
      for (size_t d = 0; d < files[i].defs.len; d++) {
        files[i].defs.data[d].site_file = -1;
        files[i].defs.data[d].acc = 0;
        files[i].defs.data[d].cross = false;
      }
    for (size_t i = 0; i < n; i++)
      for (size_t c = 0; c < files[i].calls.len; c++) {
        const pcall *pc = &files[i].calls.data[c];
        if (pc->tfile < 0) continue;
        pdef *d = &files[pc->tfile].defs.data[pc->tdef];
        uint32_t mask = args_mask(pc, &files[i]);
        if (pc->tfile != (int32_t)i) d->cross = true;
        if (d->site_file < 0) {
          d->site_file = (int32_t)i;
          d->site_call = (int32_t)c;
          d->acc = mask;
          d->dev_type = files[i].dev_type;
        } else {
          d->acc &= mask;
        }
      }
    bool changed = false;
    for (size_t i = 0; i < n; i++)
      for (size_t d = 0; d < files[i].defs.len; d++) {
        pdef *pd = &files[i].defs.data[d];
        changed |= pd->acc != pd->dev;
        pd->dev = pd->acc;
      }
    if (!changed) break;
  }
}

static bool mark(pfile *files, int32_t cf, int32_t ci, target t, item_queue *queue) {
  if (t.file < 0) return false;
  pdef *d = &files[t.file].defs.data[t.def];
  if ((d->flags & D_HOT) || d->newly) return false;
  d->newly = 1;
  d->pred_file = cf;
  d->pred_call = ci;
  item it = {t.file, t.def};
  gl_vec_push(queue, it);
  return true;
}

typedef struct run {
  pfile *files;
  size_t n;
  modtab t;
} run;

static void run_load(run *r, const char *const *paths, const char *const *summaries, size_t n) {
  pfile *files = r->files = gl_xcalloc(n ? n : 1, sizeof(*files));
  r->n = n;
  size_t nkeys = 0;
  for (size_t i = 0; i < n; i++) {
    files[i].path = paths[i];
    files[i].text = gl_xstrdup(summaries[i] ? summaries[i] : "");
    files[i].module = module_of(paths[i], &files[i].package);
    parse_summary(&files[i]);
    if (files[i].module)
      for (const char *p = files[i].module; p; p = strchr(p + 1, '.')) nkeys++;
  }
  modtab *t = &r->t;
  t->cap = 16;
  while (t->cap < 2 * nkeys) t->cap *= 2;
  t->keys = gl_xcalloc(t->cap, sizeof(char *));
  t->file = gl_xcalloc(t->cap, sizeof(int32_t));
  for (size_t i = 0; i < n; i++) {
    const char *m = files[i].module;
    if (!m) continue;
    for (const char *p = m; p; p = strchr(p, '.')) {
      if (*p == '.') p++;
      mod_put(t, p, (int32_t)i);
    }
  }
}

static void run_free(run *r) {
  for (size_t k = 0; k < r->t.cap; k++) free(r->t.keys[k]);
  free(r->t.keys);
  free(r->t.file);
  for (size_t i = 0; i < r->n; i++) {
    free(r->files[i].text);
    free(r->files[i].module);
    gl_vec_free(&r->files[i].defs);
    gl_vec_free(&r->files[i].imps);
    gl_vec_free(&r->files[i].calls);
  }
  free(r->files);
}

void gl_program_needed(const char *const *paths, const char *const *summaries, size_t n, bool *need) {
  run r;
  run_load(&r, paths, summaries, n);
  memset(need, 0, n * sizeof(*need));
  for (size_t i = 0; i < n; i++) {
    if (!summaries[i]) continue;
    for (size_t k = 0; k < r.files[i].imps.len; k++) {
      char full[NAME_MAX_LEN];
      if (!import_target(&r.files[i], &r.files[i].imps.data[k], full, sizeof(full))) continue;
      for (char *dot = full + strlen(full); dot; dot = strrchr(full, '.')) {
        *dot = '\0';
        int32_t fi = mod_get(&r.t, full);
        if (fi >= 0) {
          if (!summaries[fi]) need[fi] = true;
          break;
        }
      }
    }
  }
  run_free(&r);
}

gl_program_file *gl_program_solve(const char *const *paths, const char *const *summaries, size_t n) {
  gl_program_file *out = gl_xcalloc(n ? n : 1, sizeof(*out));
  run r;
  run_load(&r, paths, summaries, n);
  pfile *files = r.files;
  modtab t = r.t;
  for (size_t i = 0; i < n; i++)
    for (size_t c = 0; c < files[i].calls.len; c++) {
      pcall *pc = &files[i].calls.data[c];
      target tg = resolve_call(files, &t, (int32_t)i, pc->def, pc->text);
      pc->tfile = tg.file;
      pc->tdef = tg.def;
      if (tg.file < 0) continue;
      const char *q = files[tg.file].defs.data[tg.def].qual;
      size_t ql = strlen(q), tl = strlen(pc->text);
      pc->offset = strchr(q, '.') && !(tl >= ql && strcmp(pc->text + tl - ql, q) == 0);
    }
  device_params(files, n);
  /* roots: the calls pass 1 found hot; then the per-run calls of each def made hot */
  item_queue queue = {0};
  for (size_t i = 0; i < n; i++)
    for (size_t c = 0; c < files[i].calls.len; c++) {
      const pcall *pc = &files[i].calls.data[c];
      if (!(pc->flags & C_HOT)) continue;
      mark(files, (int32_t)i, (int32_t)c, (target){pc->tfile, pc->tdef}, &queue);
    }
  for (size_t q = 0; q < queue.len; q++) {
    item it = queue.data[q];
    pfile *f = &files[it.file];
    if (f->defs.data[it.def].flags & D_GPU_LOOP) continue;
    for (size_t c = 0; c < f->calls.len; c++) {
      const pcall *pc = &f->calls.data[c];
      if (pc->def != it.def || !(pc->flags & C_WITH_DEF)) continue;
      mark(files, it.file, (int32_t)c, (target){pc->tfile, pc->tdef}, &queue);
    }
  }
  for (size_t i = 0; i < n; i++) {
    pfile *f = &files[i];
    for (size_t d = 0; d < f->defs.len; d++) {
      const pdef *pd = &f->defs.data[d];
      /* device parameters only from another file's calls: a def of the file given device data
       * by its own file's loop is reported at that call (GPU201's local-call pattern) */
      uint32_t dev = pd->cross ? pd->dev : 0;
      bool hot = pd->newly || (pd->flags & D_HOT);
      if (!pd->newly && !(hot && dev)) continue;
      gl_strbuf why = {0};
      why_of(files, (int32_t)i, (int32_t)d, &why);
      out[i].hot = gl_xrealloc(out[i].hot, (out[i].n + 1) * sizeof(*out[i].hot));
      out[i].hot[out[i].n++] = (gl_program_hot){
          pd->start, pd->end, dev, pd->newly != 0,
          dev && pd->dev_type && *pd->dev_type ? gl_xstrdup(pd->dev_type) : NULL,
          gl_strbuf_take(&why)};
    }
  }
  gl_vec_free(&queue);
  run_free(&r);
  return out;
}

void gl_program_free(gl_program_file *files, size_t n) {
  if (!files) return;
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < files[i].n; k++) {
      free(files[i].hot[k].why);
      free(files[i].hot[k].device_type);
    }
    free(files[i].hot);
  }
  free(files);
}
