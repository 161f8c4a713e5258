/* main.c: gpulint-probe's command line, the order of the measurements, and the exit status.
 * Owns: option parsing (usage errors are status 2), printing the one failure line
 *       ("gpulint-probe: <sentence>"), progress lines (stderr, only once the device works), the
 *       table, and the evidence file through outfile.c.
 * Not: any measurement (measure_*.c, context.c), the JSON text, the error classes.
 * Threads: single-threaded; context.c forks before this process makes its first CUDA call. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"
#include "facts.h"
#include "outfile.h"
#include "probe.h"
#include "table.h"

typedef struct opts {
  int quick, no_table, device;
  const char *output;
} opts;

enum { PARSE_RUN = 0, PARSE_EXIT_OK = 1, PARSE_USAGE = 2 };

static void usage(FILE *f) {
  fputs("usage: gpulint-probe [--quick] [--device N] [-o FILE] [--no-table] [-h] [-V]\n"
        "Measures this machine's GPU and writes a gpulint evidence file (schema version 1).\n"
        "  --quick       fewer samples and smaller sizes (a few seconds)\n"
        "  --device N    the CUDA device to measure (default 0)\n"
        "  -o FILE       the evidence file (default gpulint-evidence.json; - for stdout)\n"
        "  --no-table    do not print the table of results\n"
        "  -h, --help    this text\n"
        "  -V, --version the probe's version\n"
        "Exit status: 0 ok, 2 usage, 3 no usable NVIDIA driver, 4 no CUDA device (or --device out\n"
        "of range), 5 device busy or prohibited, 6 out of memory, 7 no kernel image for this GPU,\n"
        "8 other CUDA error, 9 cannot write FILE, 10 a measurement failed its own check.\n", f);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("gpulint-probe: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs("; run gpulint-probe --help\n", stderr);
  va_end(ap);
  return PARSE_USAGE;
}

static int parse_device(const char *s, int *out) {
  if (!s || *s < '0' || *s > '9') return -1;
  errno = 0;
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < 0 || v > INT_MAX) return -1;
  *out = (int)v;
  return 0;
}

static int parse_args(int argc, char **argv, opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--quick") == 0) o->quick = 1;
    else if (strcmp(a, "--no-table") == 0) o->no_table = 1;
    else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return usage(stdout), PARSE_EXIT_OK;
    else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
      puts("gpulint-probe " GP_VERSION);
      return PARSE_EXIT_OK;
    } else if (strcmp(a, "--device") == 0 || strncmp(a, "--device=", 9) == 0) {
      const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v) return usage_error("--device needs a device index");
      if (parse_device(v, &o->device) != 0)
        return usage_error("--device needs a device index (0, 1, ...), not '%s'", v);
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
      if (i + 1 >= argc) return usage_error("%s needs a file name", a);
      o->output = argv[++i];
      if (!*o->output) return usage_error("%s needs a file name, not an empty one", a);
    } else {
      return usage_error("unknown option '%s'", a);
    }
  }
  return PARSE_RUN;
}

static int measure(gp_run *r, int n_total) {
  const gp_device_facts *d = &r->ev->device;
  char doing[64];
  snprintf(doing, sizeof doing, "selecting CUDA device %d", r->device);
  GP_CK(r, doing, cudaSetDevice(r->device));
  GP_CK(r, "creating the CUDA context", cudaFree(0));
  GP_TRY(gp_facts_cuda(r));
  gp_progress("measuring %s (device %d, cc %d.%d, %d SMs), %s mode", d->name, r->device, d->cc_major,
              d->cc_minor, d->sm_count, r->quick ? "quick" : "full");
  GP_CK(r, "creating a CUDA stream", cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking));
  gp_progress("[1/%d] 4-byte device-to-host round trips", n_total);
  GP_TRY(gp_measure_latency(r));
  gp_progress("[2/%d] host<->device bandwidth, pageable and pinned", n_total);
  GP_TRY(gp_measure_bandwidth(r));
  gp_facts_nvml(r); /* right after the copies: an idle GPU may lower its PCIe link generation */
  gp_progress("[3/%d] kernel launch and synchronize latency", n_total);
  GP_TRY(gp_measure_launch(r));
  gp_progress("[4/%d] a fixed-duration kernel timed with and without synchronizing", n_total);
  GP_TRY(gp_measure_fixed_kernel(r));
  gp_progress("[5/%d] cudaMalloc and pool allocation", n_total);
  GP_TRY(gp_measure_alloc(r));
  gp_progress("[6/%d] device-to-device copy", n_total);
  GP_TRY(gp_measure_d2d(r));
  gp_progress("[7/%d] FMA throughput", n_total);
  GP_TRY(gp_measure_fma(r, d->cc_major, d->cc_minor, d->sm_count));
  GP_CK(r, "destroying the CUDA stream", cudaStreamDestroy(r->stream));
  r->stream = NULL;
  return 0;
}

static void stamp(gp_evidence *ev, double seconds) {
  time_t now = time(NULL);
  struct tm tm;
  if (gmtime_r(&now, &tm)) strftime(ev->created, sizeof ev->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
  ev->duration_s = seconds;
}

static int fail_exit(const gp_fail *fail, gp_outfile *out) {
  if (out) gp_outfile_abort(out);
  fprintf(stderr, "gpulint-probe: %s\n", fail->msg);
  return fail->status ? fail->status : GP_EXIT_CUDA;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--context-child") == 0) gp_context_child(argv[2]);
  opts o = {0, 0, 0, "gpulint-evidence.json"};
  int pr = parse_args(argc, argv, &o);
  if (pr == PARSE_EXIT_OK) return GP_EXIT_OK;
  if (pr == PARSE_USAGE) return GP_EXIT_USAGE;

  double t0 = gp_now_s();
  gp_fail fail = {0, ""};
  gp_outfile out;
  if (gp_outfile_open(&out, o.output, &fail) != 0) return fail_exit(&fail, NULL);

  gp_evidence *ev = calloc(1, sizeof *ev);
  if (!ev) {
    gp_fail_set(&fail, GP_EXIT_MEMORY, "allocating the evidence document failed");
    return fail_exit(&fail, &out);
  }
  gp_evidence_init(ev, GP_VERSION);
  snprintf(ev->mode, sizeof ev->mode, "%s", o.quick ? "quick" : "full");
  int count = 0;
  if (gp_context_measure(o.device, o.quick ? 3 : 7, o.quick, 0, ev, &fail, &count) != 0)
    return fail_exit(&fail, &out);

  gp_run run = {o.quick, o.device, NULL, ev, &fail};
  if (measure(&run, 7) != 0) return fail_exit(&fail, &out);
  /* The same start-up while this process holds a context: the device is already initialized. */
  if (gp_context_measure(o.device, o.quick ? 3 : 7, o.quick, 1, ev, &fail, &count) != 0)
    return fail_exit(&fail, &out);
  stamp(ev, gp_now_s() - t0);
  char why[512];
  if (gp_evidence_check(ev, why, sizeof why) != 0) {
    gp_fail_set(&fail, GP_EXIT_CHECK, "a measurement gave an impossible value: %s; rerun the probe "
                "on an idle GPU", why);
    return fail_exit(&fail, &out);
  }
  if (gp_outfile_commit(&out, ev, &fail) != 0) return fail_exit(&fail, &out);
  if (!o.no_table) gp_table_print(strcmp(o.output, "-") == 0 ? stderr : stdout, ev);
  fflush(stdout);
  gp_progress("wrote %s: %zu metrics in %.1f s", strcmp(o.output, "-") == 0 ? "standard output" : o.output,
              ev->n_metrics, ev->duration_s);
  free(ev);
  return GP_EXIT_OK;
}
