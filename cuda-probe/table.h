/* table.h: the readable terminal table of an evidence document.
 * Owns: column layout only.
 * Not: JSON, measuring.
 * Threads: the probe's one host thread. */
#ifndef GP_TABLE_H
#define GP_TABLE_H

#include <stdio.h>

#include "evidence_json.h"

/* Prints the device line, then one row per metric: metric, median, p10, p90, unit, samples. */
void gp_table_print(FILE *f, const gp_evidence *ev);

#endif
