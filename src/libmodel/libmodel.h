/* libmodel.h: library models: what each GPU library's API does, as data (rules/models/<library>.json).
 * Owns: loading and validating model files into a frozen table: qualified function and attribute
 *       names (exact, or `prefix.*` wildcards) and types (methods, attributes, subscript, operators,
 *       call) -> an API entry (roles, when the data roles apply, how the result's provenance and
 *       type are decided). See docs/models.md for the file format.
 * Not: evaluating code (the provenance pass in model_prov.c reads this table).
 * Threads: loaded once in the main thread with the ruleset, then shared read-only. */
#ifndef GL_LIBMODEL_H
#define GL_LIBMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"

/* Roles of a call (bits). */
enum {
  GL_ROLE_DEVICE_RETURNING = 1u << 0, /* returns device data */
  GL_ROLE_HOST_RETURNING = 1u << 1,   /* returns host data */
  GL_ROLE_D2H = 1u << 2,              /* copies device data to the host, or syncs to read it */
  GL_ROLE_H2D = 1u << 3,              /* copies host data to the device */
  GL_ROLE_SYNC = 1u << 4,             /* waits for the device (explicit synchronize) */
  GL_ROLE_ALLOC = 1u << 5,            /* allocates device memory */
  GL_ROLE_GPU_WORK = 1u << 6,         /* enqueues device work (kernels, library calls) */
  GL_ROLE_TIMER = 1u << 7,            /* reads a host clock */
  /* What a call makes (kinds of entry, read from the entry through gl_model_call_entry; the
   * model records only the roles above on nodes, GL_ROLES_RECORDED): */
  GL_ROLE_BUFFER = 1u << 8,           /* a buffer whose contents come from sizes and fill values
                                         only (empty, zeros, full and their _like forms): made once
                                         outside a loop, it can be refilled */
  GL_ROLE_PINNED = 1u << 9,           /* allocates page-locked (pinned or mapped) host memory */
  GL_ROLE_HANDLE = 1u << 10,          /* creates a stream or a library handle (resources) */
  GL_ROLE_MAPPED = 1u << 11,          /* memory both sides reach without a copy (mapped and managed
                                         arrays): a kernel writes it in place */
  GL_ROLE_JIT = 1u << 12,             /* makes (or decorates into) a callable compiled on its first
                                         call: numba.cuda.jit, cupy.RawKernel, jax.jit */
  GL_ROLE_EVENT = 1u << 13,           /* makes a device event (records and times device work) */
  GL_ROLE_LAUNCH = 1u << 14,          /* launches the kernel given as its first argument or
                                         `kernel=` (warp.launch) */
  GL_ROLE_AVAILABILITY = 1u << 15,    /* tells whether a GPU is there: asks (is_available,
                                         getDeviceCount), or is the exception raised when none is */
  GL_ROLE_PRIMITIVE = 1u << 16,       /* makes an object that owns device memory and hands kernels
                                         a raw id of it (`.id`: warp.Mesh, HashGrid, Volume): the
                                         id dangles once the object is freed */
  GL_ROLE_PINS = 1u << 17,            /* page-locks host memory it is given (numba.cuda.pinned(h),
                                         cupy.cuda.runtime.hostRegister): no longer pageable */
};
#define GL_ROLE_COUNT 18
#define GL_ROLES_RECORDED 0xffu

/* "d2h" -> GL_ROLE_D2H ...; 0 for an unknown name. */
uint32_t gl_role_parse(const char *name, size_t len);
const char *gl_role_name(uint32_t one_role_bit);

/* Provenance of a value. */
typedef enum gl_prov { GL_PROV_UNKNOWN = 0, GL_PROV_HOST = 1, GL_PROV_DEVICE = 2 } gl_prov;

/* When an entry's data roles (d2h, h2d, device-returning, host-returning) apply. */
typedef enum gl_when {
  GL_WHEN_ALWAYS = 0,
  GL_WHEN_RECEIVER_DEVICE,   /* the method's receiver is device data */
  GL_WHEN_ARG0_DEVICE,       /* the first positional argument is device data */
  GL_WHEN_RESULT_DEVICE,     /* the call's own result is device data (torch.tensor(h, device=
                                "cuda") uploads, torch.tensor(h) does not) */
  GL_WHEN_ARG0_NOT_HOST,     /* the first argument is not known to be host data (cp.asnumpy of a
                                NumPy array copies nothing; of an unknown value, it does) */
  GL_WHEN_ARG0_NOT_DEVICE,   /* the first argument is not known to be device data (cp.asarray of a
                                CuPy array uploads nothing) */
} gl_when;

/* How the provenance of an entry's result (or of an attribute's value) is decided. */
typedef enum gl_result {
  GL_RESULT_UNKNOWN = 0,
  GL_RESULT_DEVICE,
  GL_RESULT_HOST,
  GL_RESULT_RECEIVER,        /* the receiver's provenance (methods, attributes, subscript) */
  GL_RESULT_ARG0,            /* the first positional argument's provenance */
  GL_RESULT_DEVICE_KWARG,    /* device when `device=` names a CUDA device, host when it names the
                                CPU or is absent, unknown otherwise (torch.zeros(..., device=)) */
  GL_RESULT_TO_ARG,          /* `.to(x)`: the device named by arg 0 or `device=` (same test) */
  GL_RESULT_DEVICE_SPEC,     /* a device specification (torch.device("cuda", 0)): device when
                                arg 0 names a CUDA device, host when it names the CPU */
  GL_RESULT_DEFAULT_DEVICE,  /* as device-kwarg, but without `device=` the library's default
                                device, which on a GPU machine is CUDA (wp.zeros(n)): device,
                                linted for the GPU path */
  GL_RESULT_PLACED,          /* calling an object that holds data (a module): arg 0's provenance,
                                or when that is unknown the side the object's data was placed on
                                ("places"): a module moved to the GPU returns device data */
} gl_result;

/* Where the data an entry's result holds lives, for results that hold data without being data
 * (a module's parameters): "places". Such a value keeps an unknown provenance; its CUDA or CPU
 * mark says where it was placed. A method with `places` called as a statement moves its receiver
 * in place (`model.to(device)`). */
typedef enum gl_places {
  GL_PLACES_NONE = 0,
  GL_PLACES_RECEIVER,        /* where the receiver was placed (model.train()) */
  GL_PLACES_ARG0,            /* where the first argument was placed (a wrapper: DDP(model)) */
  GL_PLACES_TO_ARG,          /* the device `.to(x)` names (arg 0 or `device=`) */
  GL_PLACES_DEVICE,          /* a CUDA device (model.cuda()) */
  GL_PLACES_HOST,            /* the CPU (model.cpu()) */
} gl_places;

#define GL_TYPE_NONE UINT16_MAX

/* What a timer function reads: the wall clock (it runs on while the device works) or the
 * process's CPU time (it stops while the host waits); GL_CLOCK_NONE when the model does not say
 * (time.clock_gettime takes the clock as an argument). */
typedef enum gl_clock { GL_CLOCK_NONE, GL_CLOCK_WALL, GL_CLOCK_CPU } gl_clock;

/* How a call synchronizes the host with the device though it reads nothing the code asked for
 * ("syncs"): the size of its result depends on the data (torch.nonzero), it checks its arguments
 * on the host (a torch.distributions object with validate_args), or always. */
typedef enum gl_syncs {
  GL_SYNCS_NONE = 0,
  GL_SYNCS_DATA_SIZE,        /* "data-size" */
  GL_SYNCS_VALIDATION,       /* "validation" */
  GL_SYNCS_ALWAYS,           /* "always" */
} gl_syncs;

#define GL_SYNCS_UNLESS_CAP 24

typedef struct gl_api_entry {
  uint32_t roles;            /* GL_ROLE_* bits */
  uint8_t when;              /* gl_when, for the data roles */
  uint8_t result;            /* gl_result */
  uint16_t type;             /* type id of the result, or GL_TYPE_NONE */
  uint16_t decorates;        /* as a decorator: the type given to the decorated def; as a base
                                class: the type given to the derived class; or NONE */
  bool any_receiver;         /* a method that also applies to a receiver of unknown type in a
                                file importing the type's library (`batch.cuda()`) */
  uint8_t clock;             /* gl_clock: what a `timer` reads ("clock": "wall" or "cpu") */
  bool per_step;             /* a method the framework calls on every step ("per-step": true:
                                torch.nn.Module.forward): its body is hot in a derived class */
  bool partial;              /* returns its first argument with arguments bound ("partial": true:
                                functools.partial): as a decorator it decorates as that does */
  bool host_sink;            /* takes host data only ("host-sink": true: matplotlib.pyplot.*): a
                                device-to-host copy passed to it is a transfer the code needs */
  uint8_t device_params;     /* a per-step method the framework calls with device data in its
                                first N parameters after self ("device-params": N: Lightning's
                                training_step(self, batch, batch_idx) gets the batch on the
                                accelerator) */
  uint8_t places;            /* gl_places ("places") */
  uint8_t syncs;             /* gl_syncs ("syncs") */
  uint8_t syncs_args;        /* "syncs-args": N: it syncs only when called with at most N
                                positional arguments (one-argument torch.where); 0: any */
  uint8_t syncs_on;          /* "syncs-on": N: 1 + the position of the argument whose device
                                values the sync waits for (repeat_interleave's repeats); 0: the
                                receiver of a method, the first argument of a function */
  uint16_t library;          /* the model file that defines it (gl_libmodels_text) */
  char syncs_unless[GL_SYNCS_UNLESS_CAP];  /* "syncs-unless": a keyword that, given with a value
                                other than True, removes the sync (repeat_interleave's
                                output_size, validate_args); "" when none */
} gl_api_entry;

typedef struct gl_libmodels gl_libmodels;

gl_libmodels *gl_libmodels_new(void);
void gl_libmodels_free(gl_libmodels *lm);

/* Adds one model file (path for errors, bytes borrowed). Every problem goes to errs with
 * path:line:column (json syntax from cJSON's parse end; unknown key, role, when, result or type
 * at the offending key or value); returns 0 or GL_EINVAL. A type may be referenced before the
 * file that defines it is added: references are checked by gl_libmodels_freeze. */
int gl_libmodels_add(gl_libmodels *lm, const char *path, const char *data, size_t len,
                     gl_diag_list *errs);

/* Checks cross-file references (every type named is defined by some model; no name defined
 * twice) and builds the lookup tables. Returns 0 or GL_EINVAL (errors appended). */
int gl_libmodels_freeze(gl_libmodels *lm, gl_diag_list *errs);

/* Lookups on a frozen table; NULL when nothing matches. Exact names win over wildcards, longer
 * wildcards over shorter ones. `qualified` is a dotted name after import resolution, e.g.
 * "cupy.asnumpy", "torch.cuda.synchronize", "builtins.float". */
const gl_api_entry *gl_libmodels_function(const gl_libmodels *lm, const char *qualified, size_t len);
/* Exact names only: no wildcard. */
const gl_api_entry *gl_libmodels_function_exact(const gl_libmodels *lm, const char *qualified, size_t len);
const gl_api_entry *gl_libmodels_method(const gl_libmodels *lm, uint16_t type, const char *name, size_t len);
/* A method the type lists by its name, not through its "*" entry. */
const gl_api_entry *gl_libmodels_method_exact(const gl_libmodels *lm, uint16_t type, const char *name,
                                              size_t len);
/* A method marked "any-receiver" named name, and the type that defines it (*owner); NULL when
 * none. */
const gl_api_entry *gl_libmodels_any_receiver_method(const gl_libmodels *lm, const char *name,
                                                     size_t len, uint16_t *owner);
const gl_api_entry *gl_libmodels_attribute(const gl_libmodels *lm, uint16_t type, const char *name, size_t len);
/* Subscript, binary/unary/comparison operators, and calling an object of the type. */
const gl_api_entry *gl_libmodels_subscript(const gl_libmodels *lm, uint16_t type);
const gl_api_entry *gl_libmodels_operator(const gl_libmodels *lm, uint16_t type);
const gl_api_entry *gl_libmodels_call(const gl_libmodels *lm, uint16_t type);

/* Type ids: GL_TYPE_NONE when unknown. A type's own provenance (cupy.ndarray is always device,
 * torch.Tensor is unknown until its device is known) comes from the file's "provenance" key. */
uint16_t gl_libmodels_type_id(const gl_libmodels *lm, const char *name, size_t len);
const char *gl_libmodels_type_name(const gl_libmodels *lm, uint16_t type);
gl_prov gl_libmodels_type_prov(const gl_libmodels *lm, uint16_t type);
/* True for a type whose model says "traced": a def of that type (decorated with jax.jit,
 * torch.compile) runs its Python body when the library traces it, once per new input shape,
 * not on every call: a loop in it is unrolled into one compiled program. */
bool gl_libmodels_type_traced(const gl_libmodels *lm, uint16_t type);
/* True for a type whose model says "explicit-work": its entries give the gpu-work role to every
 * call and operation that launches device work, so one without it launches none (cuDF's
 * `df.head()`, a column selection `df[cols]`). Other types' models leave gpu-work out where
 * the result's provenance says it (torch.json), so a check infers work from device results. */
bool gl_libmodels_type_explicit_work(const gl_libmodels *lm, uint16_t type);
size_t gl_libmodels_count(const gl_libmodels *lm);   /* number of model files */
/* The "triggers" words of every model file (the prefilter adds them to the packs' words). */
const char *const *gl_libmodels_triggers(const gl_libmodels *lm, size_t *count);
/* The i-th "device-array" (i < gl_libmodels_device_array_count): the type name of the device
 * data a library makes ("cupy.ndarray"), and in *library the library ("cupy"). */
size_t gl_libmodels_device_array_count(const gl_libmodels *lm);
const char *gl_libmodels_device_array(const gl_libmodels *lm, size_t i, const char **library);
/* The first "per-step-defs" pattern (a shell glob over a def's own name: "*grad_norm*") that
 * name matches, or NULL: a def so named runs on every training step wherever it is (a
 * gradient-clipping or grad-norm helper), so the program stage counts it a hot root. */
const char *gl_libmodels_step_def(const gl_libmodels *lm, const char *name);
/* 2 when the dotted module name q is one a model lists in "gpu-only-modules" (a package that
 * cannot be installed or imported without CUDA: "cudf", "numba.cuda"), 1 when q lies inside one
 * ("cupy.cuda.runtime"), 0 otherwise. */
int gl_libmodels_gpu_only(const gl_libmodels *lm, const char *q);

/* Top-level modules: the first segments of the models' function names ("cupy", "cupyx"), i <
 * gl_libmodels_module_count, in the order the models name them; *len its length (the text is not
 * terminated), *roles the roles of every function entry under it together, *gpu whether its model
 * is a GPU library's (it names a device-array or gpu-only modules). Either pointer may be NULL. */
size_t gl_libmodels_module_count(const gl_libmodels *lm);
const char *gl_libmodels_module(const gl_libmodels *lm, size_t i, size_t *len, uint32_t *roles,
                                bool *gpu);
/* What a model file says for messages (its keys, each a non-empty string). */
typedef enum gl_lm_text {
  GL_LM_WARM_UP,       /* "warm-up": what its jit callables do on their first call and how to warm
                          them up, as GPU304's message says it */
  GL_LM_SYNCHRONIZE,   /* "synchronize": how to wait for its device work, as Markdown
                          ("`torch.cuda.synchronize()`"); the timing checks name it */
  GL_LM_BENCHMARK,     /* "benchmark": a timer of its own that waits for the device, as Markdown */
  GL_LM_TEXT_COUNT
} gl_lm_text;
/* The model file `library`'s text `which`, or NULL. */
const char *gl_libmodels_text(const gl_libmodels *lm, uint16_t library, gl_lm_text which);
/* The model file (its index, as gl_api_entry.library) whose functions first name the top-level
 * module of the dotted name q[0..len) ("cupyx" of "cupyx.scipy.fft": cupy's), or -1. */
int gl_libmodels_module_library(const gl_libmodels *lm, const char *q, size_t len);
/* Every function entry, i < gl_libmodels_entry_count: its qualified name (a wildcard keeps its
 * ".*") and entry in *e, or NULL for an entry that is not a function's. */
size_t gl_libmodels_entry_count(const gl_libmodels *lm);
const char *gl_libmodels_function_at(const gl_libmodels *lm, size_t i, const gl_api_entry **e);
/* True when the dotted name q starts with a GPU library's module ("cupy.asarray", "torch") or
 * lies in a gpu-only module ("dask_cudf.read_csv"). */
bool gl_libmodels_gpu_module(const gl_libmodels *lm, const char *q);

#endif
