/* table.c: the terminal table (see table.h): 4 significant digits, metrics in measurement order.
 * Owns: formatting only.
 * Not: JSON, measuring.
 * Threads: the probe's one host thread. */
#include "table.h"

void gp_table_print(FILE *f, const gp_evidence *ev) {
  const gp_device_facts *d = &ev->device;
  fprintf(f, "%s (device %d", d->name, d->index);
  if (d->cc_major >= 0) fprintf(f, ", cc %d.%d", d->cc_major, d->cc_minor);
  if (d->sm_count > 0) fprintf(f, ", %d SMs", d->sm_count);
  if (d->memory_bytes) fprintf(f, ", %.1f GiB", (double)d->memory_bytes / (1024.0 * 1024 * 1024));
  if (d->pci.known && d->pci.link_gen > 0)
    fprintf(f, ", PCIe gen %d x%d", d->pci.link_gen, d->pci.link_width);
  fprintf(f, "), %s mode", ev->mode);
  if (ev->duration_s >= 0) fprintf(f, ", %.1f s", ev->duration_s);
  fputc('\n', f);
  fprintf(f, "%-34s %11s %11s %11s  %-8s %7s\n", "metric", "median", "p10", "p90", "unit", "samples");
  for (size_t i = 0; i < ev->n_metrics; i++) {
    const gp_metric *m = &ev->metrics[i];
    fprintf(f, "%-34s %11.4g %11.4g %11.4g  %-8s %7zu\n", m->key, m->sum.median, m->sum.p10,
            m->sum.p90, m->unit, m->sum.samples);
  }
}
