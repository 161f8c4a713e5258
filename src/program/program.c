/* program.c: the program stage (program.h): files' summaries in, the defs hot through other
 *       files out.
 * Owns: parsing summaries (model_program.c writes them), module names from paths (`a/b/c.py` is
 *       `a.b.c` and, since the run may start anywhere inside a project, also `b.c` and `c`;
 *       `a/b/__init__.py` is the package `a.b`; a name two files share resolves to neither),
 *       resolving a call's dotted callee to a def, and the worklist that carries hotness down:
 *       a call that pass 1 found hot makes its def hot when it passes the def device data (the
 *       step's tensors: a loop over datasets or checkpoint shards that calls a loader with paths
 *       does GPU work too, and is no training step); a def hot this way makes hot the calls it
 *       makes on every run of its body with such data (unless a loop of its own does the GPU
 *       work: then only that loop is per step, and its calls were hot in pass 1 already); the
 *       per-step methods of classes typed through other files' bases are hot whatever they get;
 *       a def whose whole body runs per step (a root: a framework's per-step method, a per-step
 *       helper by name, hot-functions; or a def such a body calls) makes hot every call of its
 *       body, whatever it passes. Calls in hot code of another file's defs that return device
 *       data, or copy the device data the call gives them to the host, go back to the file.
 * Not: deciding what is hot inside a file (model_freq.c), linting again (engine.c).
 * Threads: one thread; allocates its own tables. */
#include "program/program.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "libmodel/libmodel.h"

#define MAX_HOPS 4      /* re-exports followed from one module to the next */
#define MAX_CHAIN 6     /* calls shown in a why */
#define NAME_MAX_LEN 512

enum { D_HOT = 1, D_GPU_LOOP = 2, D_TRACED = 4, D_RET_DEVICE = 8, D_RET_GIVEN = 16, D_D2H_GIVEN = 32,
       D_ROOT = 64 };
enum { C_HOT = 1, C_WITH_DEF = 2, C_INSTANCE = 4, C_KW_DEVICE = 8 };

typedef struct pdef {
  const char *qual;
  uint32_t start, end;
  unsigned flags;
  int newly;            /* hot through other files */
  int32_t pred_file, pred_call;   /* the call that made it hot */
  const char *root;     /* hot as a per-step method of this class type (its bases' model), or
                           "hot-functions" */
  bool user_root;       /* named in hot-functions */
  bool body;            /* its whole body runs once per step: a root (a framework's per-step
                           method, a per-step helper by name, hot-functions), or a def such a
                           body calls; its calls run per step whatever they pass */
  const char *name_root;/* its name matches this "per-step-defs" pattern of the models */
  const char *ret_type; /* D_RET_*: the returned data's type name ("" unknown) */
  uint32_t dev;         /* device parameters: the AND of its calls' argument masks */
  uint32_t acc;         /* dev of the round under way */
  const char *dev_type; /* the device type its first caller passes */
  bool cross;           /* some call of it is in another file */
  int32_t site_file, site_call;   /* its first call in the run (-1: none) */
} pdef;

typedef struct pclass {
  const char *name;
  uint32_t start;
  const char *type;     /* the model type of its name in pass 1 ("" none) */
  char *bases;          /* comma-separated dotted texts (split in place) */
  const char *got;      /* the type found through its bases (NULL none) */
  bool methods;         /* it defines a method besides __init__ */
} pclass;

typedef struct pimp {
  const char *local, *module, *name;
  unsigned level;
} pimp;

typedef struct pcall {
  int32_t def;
  unsigned flags;
  uint32_t line;
  uint32_t start;       /* the call node's start byte */
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
  gl_vec(pclass) classes;
} pfile;

/* ---- the module table: every dotted suffix of every module name -> file ------------------- */

typedef struct modtab {
  char **keys;
  int32_t *file;        /* -2: two files share the key */
  size_t cap;
} modtab;

static uint64_t hash_str(const char *s) {
  return gl_fnv64_str(GL_FNV64_TABLE_SEED, s);
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

/* True when s[0..len) is a Python identifier (ASCII letters, digits, '_'; not starting with a
 * digit); other names cannot be imported, so they end a module name. */
static bool identifier(const char *s, size_t len) {
  if (!len || (s[0] >= '0' && s[0] <= '9')) return false;
  for (size_t i = 0; i < len; i++)
    if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
          (s[i] >= '0' && s[i] <= '9') || (unsigned char)s[i] >= 0x80))
      return false;
  return true;
}

/* `./a/b/c.py` -> "a.b.c"; `a/b/__init__.py` -> "a.b" (package); the folders above the last
 * one that is not an identifier are left out (`my-project/src/a.py` -> "src.a"). NULL for other
 * files. */
static char *module_of(const char *path, int *package) {
  size_t len = strlen(path);
  *package = 0;
  if (len < 4 || strcmp(path + len - 3, ".py") != 0) return NULL;
  size_t end = len - 3;   /* the name is path[start, end) */
  const char *slash = NULL;
  for (size_t i = end; i > 0; i--)
    if (path[i - 1] == '/') { slash = path + i - 1; break; }
  const char *last = slash ? slash + 1 : path;
  if ((size_t)(path + end - last) == 8 && memcmp(last, "__init__", 8) == 0) {
    *package = 1;
    if (!slash) return NULL;
    end = (size_t)(slash - path);
  }
  /* from the right, components while they are identifiers */
  size_t start = end;
  for (;;) {
    size_t e0 = start == end ? end : start - 1;   /* this component is path[s0, e0) */
    size_t s0 = e0;
    while (s0 > 0 && path[s0 - 1] != '/') s0--;
    if (!identifier(path + s0, e0 - s0)) break;
    start = s0;
    if (s0 == 0) break;
  }
  if (start >= end) return NULL;
  char *out = gl_xstrndup(path + start, end - start);
  for (char *p = out; *p; p++)
    if (*p == '/') *p = '.';
  return out;
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
    } else if (kind == 'K') {
      pclass k = {0};
      k.name = field(&q);
      k.start = (uint32_t)strtoul(field(&q), NULL, 10);
      k.type = field(&q);
      k.bases = field(&q);
      gl_vec_push(&f->classes, k);
    } else if (kind == 'D') {
      pdef d = {0};
      d.qual = field(&q);
      d.start = (uint32_t)strtoul(field(&q), NULL, 10);
      d.end = (uint32_t)strtoul(field(&q), NULL, 10);
      d.flags = (unsigned)strtoul(field(&q), NULL, 10);
      d.ret_type = field(&q);
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
      c.start = (uint32_t)strtoul(field(&q), NULL, 10);
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

static int32_t class_named(const pfile *f, const char *name) {
  for (size_t i = 0; i < f->classes.len; i++)
    if (strcmp(f->classes.data[i].name, name) == 0) return (int32_t)i;
  return -1;
}

/* A def (cls false) or a module-level class (cls true) of f by name. */
static int32_t named(const pfile *f, const char *qual, bool cls) {
  return cls ? class_named(f, qual) : def_named(f, qual);
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

static target resolve_in(pfile *files, const modtab *t, int32_t fi, const char *text, int hops,
                         bool cls);

/* A fully dotted name: the longest prefix that names a module of the run, the rest a def of it
 * (or a name that module imports, followed). */
static target resolve_qualified(pfile *files, const modtab *t, const char *full, int hops,
                                bool cls) {
  target none = {-1, -1};
  char buf[NAME_MAX_LEN];
  if (strlen(full) >= sizeof(buf)) return none;
  strcpy(buf, full);
  for (char *dot = strrchr(buf, '.'); dot; dot = strrchr(buf, '.')) {
    *dot = '\0';
    int32_t fi = mod_get(t, buf);
    if (fi < 0) continue;
    const char *rest = full + (dot - buf) + 1;
    int32_t d = named(&files[fi], rest, cls);
    if (d >= 0) return (target){fi, d};
    if (hops < MAX_HOPS) return resolve_in(files, t, fi, rest, hops + 1, cls);
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
  return resolve_in(files, t, fi, text, 0, false);
}

/* A dotted text read in file fi (a callee, or a base class when cls): through an import of its
 * head, else a def (class) of fi. */
static target resolve_in(pfile *files, const modtab *t, int32_t fi, const char *text, int hops,
                         bool cls) {
  target none = {-1, -1};
  const pfile *f = &files[fi];
  size_t hl = strcspn(text, ".");
  const pimp *im = import_of(f, text, hl);
  if (!im) {
    int32_t d = named(f, text, cls);
    return d >= 0 ? (target){fi, d} : none;
  }
  char full[NAME_MAX_LEN];
  if (!import_target(f, im, full, sizeof(full))) return none;
  size_t fl = strlen(full);
  if (text[hl] && snprintf(full + fl, sizeof(full) - fl, "%s", text + hl) >= (int)(sizeof(full) - fl))
    return none;
  return resolve_qualified(files, t, full, hops, cls);
}

/* ---- class types ---------------------------------------------------------------------------- */

/* The type of a class through its bases (`class Layer(ProjectModule)` where ProjectModule, in
 * another file, derives torch.nn.Module), to a fixed point over chains of bases (bounded). */
static void class_types(pfile *files, const modtab *t, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < files[i].classes.len; k++) {
      pclass *c = &files[i].classes.data[k];
      size_t nl = strlen(c->name);
      for (size_t d = 0; d < files[i].defs.len && !c->methods; d++) {
        const char *q = files[i].defs.data[d].qual;
        c->methods = strncmp(q, c->name, nl) == 0 && q[nl] == '.' && strcmp(q + nl + 1, "__init__") != 0;
      }
    }
  for (int round = 0; round < 8; round++) {
    bool changed = false;
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < files[i].classes.len; k++) {
        pclass *c = &files[i].classes.data[k];
        if (*c->type || c->got) continue;
        for (const char *b = c->bases; *b && !c->got;) {
          char one[NAME_MAX_LEN];
          size_t bl = strcspn(b, ",");
          if (bl < sizeof(one)) {
            memcpy(one, b, bl);
            one[bl] = '\0';
            target tg = resolve_in(files, t, (int32_t)i, one, 0, true);
            if (tg.file >= 0) {
              const pclass *base = &files[tg.file].classes.data[tg.def];
              c->got = *base->type ? base->type : base->got;
            }
          }
          b += bl + (b[bl] == ',');
        }
        changed |= c->got != NULL;
      }
    if (!changed) break;
  }
}

/* ---- propagation --------------------------------------------------------------------------- */

typedef struct item {
  int32_t file, def;
} item;

typedef gl_vec(item) item_queue;

static void chain_out(const pfile *files, const int32_t *cf, const int32_t *cc, int n,
                      gl_strbuf *out) {
  for (int k = n - 1; k >= 0; k--)
    gl_strbuf_addf(out, "%s:%u%s", files[cf[k]].path, files[cf[k]].calls.data[cc[k]].line,
                   k ? " -> " : ")");
}

/* Why def di of file fi has facts: the calls from a hot loop (or a per-step method) down to it,
 * or the call that gives it device data. */
static void why_of(const pfile *files, int32_t fi, int32_t di, gl_strbuf *out) {
  int32_t chain_f[MAX_CHAIN], chain_c[MAX_CHAIN];
  int n = 0;
  const pdef *self = &files[fi].defs.data[di], *top = self;
  for (int32_t f = fi, d = di; n < MAX_CHAIN;) {
    top = &files[f].defs.data[d];
    if (top->pred_file < 0) break;
    chain_f[n] = top->pred_file;
    chain_c[n++] = top->pred_call;
    int32_t cf = top->pred_file, cd = files[cf].calls.data[top->pred_call].def;
    if (cd < 0 || !files[cf].defs.data[cd].newly) break;
    f = cf;
    d = cd;
  }
  if (!self->newly) {
    const pfile *sf = &files[self->site_file];
    gl_strbuf_addf(out, "`%s` is given device data (%s:%u)", self->qual, sf->path,
                   sf->calls.data[self->site_call].line);
  } else if (top->root && top->pred_file < 0) {
    gl_strbuf_addf(out, "`%s` runs on every step (", self->qual);
    if (top == self && top->name_root)
      gl_strbuf_addf(out, "a per-step helper by its name, `%s`)", top->name_root);
    else if (top == self && top->user_root) gl_strbuf_adds(out, "named in hot-functions)");
    else if (top == self) gl_strbuf_addf(out, "a per-step method of %s)", top->root);
    else if (top->name_root) gl_strbuf_addf(out, "the per-step helper `%s` -> ", top->qual);
    else if (top->user_root) gl_strbuf_addf(out, "`%s` in hot-functions -> ", top->qual);
    else gl_strbuf_addf(out, "%s's `%s` -> ", top->root, top->qual);
    chain_out(files, chain_f, chain_c, n, out);
  } else {
    gl_strbuf_addf(out, "`%s` runs on every step (", self->qual);
    if (!n) gl_strbuf_adds(out, ")");
    chain_out(files, chain_f, chain_c, n, out);
  }
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

static bool mark(pfile *files, int32_t cf, int32_t ci, target t, bool body, item_queue *queue) {
  if (t.file < 0) return false;
  pdef *d = &files[t.file].defs.data[t.def];
  if ((d->flags & D_HOT) || d->newly) return false;
  d->newly = 1;
  d->body = body;
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
    gl_vec_free(&r->files[i].classes);
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

/* The instance type's name when a framework calls method name of an instance of the class type
 * (a class name's type, torch.nn.ModuleClass) on every step ("per-step" in the models); else
 * NULL. */
static const char *step_method(const gl_libmodels *lm, const char *type, const char *name) {
  if (!lm) return NULL;
  uint16_t t = gl_libmodels_type_id(lm, type, strlen(type));
  if (t == GL_TYPE_NONE) return NULL;
  const gl_api_entry *call = gl_libmodels_call(lm, t);
  if (call && call->type != GL_TYPE_NONE) t = call->type;
  const gl_api_entry *e = gl_libmodels_method(lm, t, name, strlen(name));
  return e && e->per_step ? gl_libmodels_type_name(lm, t) : NULL;
}

/* Hot roots the files alone could not see: the per-step methods of classes typed through bases
 * in other files. */
static void class_roots(pfile *files, size_t n, const gl_libmodels *lm, item_queue *queue) {
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < files[i].classes.len; k++) {
      const pclass *c = &files[i].classes.data[k];
      if (!c->got) continue;
      size_t nl = strlen(c->name);
      for (size_t d = 0; d < files[i].defs.len; d++) {
        pdef *pd = &files[i].defs.data[d];
        if (strncmp(pd->qual, c->name, nl) != 0 || pd->qual[nl] != '.' || (pd->flags & D_HOT) ||
            pd->newly)
          continue;
        const char *inst = step_method(lm, c->got, pd->qual + nl + 1);
        if (!inst) continue;
        pd->newly = 1;
        pd->body = true;
        pd->root = inst;
        item it = {(int32_t)i, (int32_t)d};
        gl_vec_push(queue, it);
      }
    }
}

/* The user's hot-functions: each dotted name resolved like an import, else every def of the run
 * whose qualified name is that name. */
static void user_roots(pfile *files, const modtab *t, size_t n, const gl_program_roots *roots,
                       item_queue *queue) {
  for (size_t r = 0; roots && r < roots->n; r++) {
    const char *name = roots->names[r];
    target tg = resolve_qualified(files, t, name, 0, false);
    for (size_t i = 0; i < n; i++)
      for (size_t d = 0; d < files[i].defs.len; d++) {
        pdef *pd = &files[i].defs.data[d];
        bool named = tg.file >= 0 ? (tg.file == (int32_t)i && tg.def == (int32_t)d)
                                  : strcmp(pd->qual, name) == 0;
        if (!named || pd->newly) continue;
        pd->newly = 1;
        pd->body = true;
        pd->root = "hot-functions";
        pd->user_root = true;
        item it = {(int32_t)i, (int32_t)d};
        gl_vec_push(queue, it);
      }
  }
}

/* Defs whose own name a model's "per-step-defs" pattern matches (`clip_grad_norm_`,
 * `get_grad_norm_fp32`): per-step helpers wherever they are; not traced ones (their body runs
 * when traced, not per call). */
static void name_roots(pfile *files, size_t n, const gl_libmodels *lm, item_queue *queue) {
  for (size_t i = 0; lm && i < n; i++)
    for (size_t d = 0; d < files[i].defs.len; d++) {
      pdef *pd = &files[i].defs.data[d];
      if (pd->newly || (pd->flags & D_TRACED)) continue;
      const char *dot = strrchr(pd->qual, '.');
      const char *pattern = gl_libmodels_step_def(lm, dot ? dot + 1 : pd->qual);
      if (!pattern) continue;
      pd->newly = 1;
      pd->body = true;
      pd->root = "per-step-defs";
      pd->user_root = true;   /* its whole body runs per step */
      pd->name_root = pattern;
      item it = {(int32_t)i, (int32_t)d};
      gl_vec_push(queue, it);
    }
}

gl_program_file *gl_program_solve(const char *const *paths, const char *const *summaries, size_t n,
                                  const gl_libmodels *lm, const gl_program_roots *roots) {
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
      pc->offset = (pc->flags & C_INSTANCE) ||
                   (strchr(q, '.') && !(tl >= ql && strcmp(pc->text + tl - ql, q) == 0));
    }
  device_params(files, n);
  class_types(files, &t, n);
  /* roots: the calls pass 1 found hot (that pass device data, unless they are made in the body of
   * a def hot by itself: a per-step method's calls run per step whatever they pass); then the
   * per-run calls of each def made hot */
  item_queue queue = {0};
  user_roots(files, &t, n, roots, &queue);
  name_roots(files, n, lm, &queue);
  class_roots(files, n, lm, &queue);
  for (size_t i = 0; i < n; i++)
    for (size_t c = 0; c < files[i].calls.len; c++) {
      const pcall *pc = &files[i].calls.data[c];
      bool body = pc->def >= 0 && (files[i].defs.data[pc->def].flags & D_ROOT) &&
                  (pc->flags & C_WITH_DEF);
      if (!(pc->flags & C_HOT) || (!args_mask(pc, &files[i]) && !body)) continue;
      mark(files, (int32_t)i, (int32_t)c, (target){pc->tfile, pc->tdef}, body, &queue);
    }
  for (size_t q = 0; q < queue.len; q++) {
    item it = queue.data[q];
    pfile *f = &files[it.file];
    /* beside a def's own epoch loop nothing is per step; a per-step method's body is */
    if ((f->defs.data[it.def].flags & D_GPU_LOOP) && !f->defs.data[it.def].root) continue;
    for (size_t c = 0; c < f->calls.len; c++) {
      const pcall *pc = &f->calls.data[c];
      bool body = f->defs.data[it.def].body;
      if (pc->def != it.def || !(pc->flags & C_WITH_DEF) || (!args_mask(pc, f) && !body)) continue;
      mark(files, it.file, (int32_t)c, (target){pc->tfile, pc->tdef}, body, &queue);
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
          pd->start, pd->end, dev, pd->newly != 0, pd->user_root,
          dev && pd->dev_type && *pd->dev_type ? gl_xstrdup(pd->dev_type) : NULL,
          gl_strbuf_take(&why)};
    }
    /* calls of another file's defs in hot code that return device data, or copy the device
     * data the call gives them to the host */
    for (size_t c = 0; c < f->calls.len; c++) {
      const pcall *pc = &f->calls.data[c];
      if (pc->tfile < 0 || pc->tfile == (int32_t)i) continue;
      bool hot_call = (pc->flags & C_HOT) ||
                      (pc->def >= 0 && f->defs.data[pc->def].newly && (pc->flags & C_WITH_DEF));
      const pdef *td = &files[pc->tfile].defs.data[pc->tdef];
      uint32_t mask = args_mask(pc, f);
      bool ret = (td->flags & D_RET_DEVICE) || ((td->flags & D_RET_GIVEN) && mask);
      /* a copy to the host of what the call gives, reported at the call unless the callee's own
       * body is hot with those device parameters (then the copy is reported there) */
      bool inside = (td->newly || (td->flags & D_HOT)) && td->cross && (td->dev & mask) &&
                    !(pc->flags & C_KW_DEVICE);
      bool d2h = (td->flags & D_D2H_GIVEN) && (mask || (pc->flags & C_KW_DEVICE)) && !inside;
      if (!hot_call || (!ret && !d2h)) continue;
      const char *type = *td->ret_type ? td->ret_type : files[pc->tfile].dev_type;
      char *why = NULL;
      if (d2h) {
        gl_strbuf w = {0};
        gl_strbuf_addf(&w, "`%s` (%s) copies the device data it is given to the host", td->qual,
                       files[pc->tfile].path);
        why = gl_strbuf_take(&w);
      }
      out[i].calls = gl_xrealloc(out[i].calls, (out[i].ncalls + 1) * sizeof(*out[i].calls));
      out[i].calls[out[i].ncalls++] = (gl_program_call){
          pc->start, ret && type && *type ? gl_xstrdup(type) : NULL, ret, d2h, why};
    }
    for (size_t k = 0; k < f->classes.len; k++) {
      const pclass *c = &f->classes.data[k];
      if (!c->got || !c->methods) continue;
      out[i].classes = gl_xrealloc(out[i].classes, (out[i].nclasses + 1) * sizeof(*out[i].classes));
      out[i].classes[out[i].nclasses++] = (gl_program_class){c->start, gl_xstrdup(c->got)};
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
    for (size_t k = 0; k < files[i].nclasses; k++) free(files[i].classes[k].type);
    free(files[i].classes);
    for (size_t k = 0; k < files[i].ncalls; k++) {
      free(files[i].calls[k].type);
      free(files[i].calls[k].why);
    }
    free(files[i].calls);
  }
  free(files);
}
