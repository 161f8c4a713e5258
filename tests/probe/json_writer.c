/* json_writer.c: probe_json_writer OUT: writes an evidence file with the probe's own writer from
 * synthetic samples, for every metric key the probe writes in full mode, so check_evidence.py and
 * gpulint --evidence can read exactly what the probe would produce. Sample i of metric j is
 * base_j * (1 + i / 100), i = 0..n-1, so the medians are known: item_roundtrip_us has 21 samples
 * 10.0 .. 12.0 (median 11, p10 10.2, p90 11.8).
 * Owns: nothing beyond the program. Threads: single-threaded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence_json.h"

static const struct { const char *key, *unit; double base; } k_metrics[] = {
    {"context_init_ms", "ms", 250}, {"item_roundtrip_us", "us", 10},
    {"d2h_scalar_pinned_us", "us", 6}, {"h2d_pageable_GBps", "GB/s", 7},
    {"h2d_pinned_GBps", "GB/s", 55}, {"d2h_pageable_GBps", "GB/s", 15},
    {"d2h_pinned_GBps", "GB/s", 55}, {"h2d_pageable_64KiB_GBps", "GB/s", 2},
    {"h2d_pinned_64KiB_GBps", "GB/s", 9}, {"d2h_pageable_1MiB_GBps", "GB/s", 8},
    {"d2h_pinned_256MiB_GBps", "GB/s", 55}, {"launch_async_us", "us", 2.5},
    {"launch_sync_us", "us", 8}, {"sync_idle_us", "us", 1.5},
    {"cudaMalloc_free_1MiB_us", "us", 9}, {"cudaMalloc_free_64MiB_us", "us", 150},
    {"cudaMalloc_free_256MiB_us", "us", 400}, {"pool_alloc_1MiB_us", "us", 0.9},
    {"pool_alloc_64MiB_us", "us", 1}, {"pool_alloc_256MiB_us", "us", 1.1},
    {"d2d_copy_GBps", "GB/s", 4200}, {"float_fma_TFLOPs", "TFLOP/s", 60},
    {"double_fma_TFLOPs", "TFLOP/s", 33}, {"half_fma_TFLOPs", "TFLOP/s", 120},
    {"fp64_to_fp32_ratio", "ratio", 0.55}, {"fixed_kernel_synced_ms", "ms", 10.02},
    {"fixed_kernel_unsynced_ms", "ms", 0.004}, {"timer_underreport_x", "x", 2400},
};

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: probe_json_writer OUT\n", stderr);
    return 2;
  }
  gp_evidence *ev = calloc(1, sizeof *ev);
  if (!ev) return 1;
  gp_evidence_init(ev, "0.1.0");
  gp_device_facts *d = &ev->device;
  /* a name that needs every kind of escape, and one byte that is not UTF-8 */
  strcpy(d->name, "Test \"GPU\" \\ tab\t nl\n bell\x07 \xc3\xa9 bad\xff end");
  d->cc_major = 9, d->cc_minor = 0, d->sm_count = 132;
  d->memory_bytes = 150121971712ull, d->l2_bytes = 62914560;
  d->clock_mhz = 1980, d->memory_clock_mhz = 3201, d->memory_bus_bits = 6144;
  d->ecc = 1, d->driver_version = 13000, d->runtime_version = 13000;
  d->pci.known = 1;
  strcpy(d->pci.bus_id, "00000000:1B:00.0");
  d->pci.link_gen = d->pci.max_link_gen = 5;
  d->pci.link_width = d->pci.max_link_width = 16;
  d->pageable_memory_access = 0;
  strcpy(ev->created, "2026-11-29T23:10:00Z");
  ev->duration_s = 41.2;
  double v[64];
  for (size_t j = 0; j < sizeof k_metrics / sizeof *k_metrics; j++) {
    size_t n = j == 1 ? 21 : 15 + j;
    for (size_t i = 0; i < n; i++) v[i] = k_metrics[j].base * (1 + (double)i / 100);
    if (gp_evidence_add(ev, k_metrics[j].key, k_metrics[j].unit, "synthetic samples", v, n) != 0) {
      fprintf(stderr, "probe_json_writer: cannot add %s\n", k_metrics[j].key);
      return 1;
    }
  }
  FILE *f = fopen(argv[1], "w");
  if (!f || gp_evidence_write(f, ev) != 0) {
    fprintf(stderr, "probe_json_writer: cannot write %s\n", argv[1]);
    return 1;
  }
  if (fclose(f) != 0) return 1;
  free(ev);
  return 0;
}
