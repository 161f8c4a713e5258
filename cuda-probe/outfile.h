/* outfile.h: writing the evidence file atomically: a temporary file in the target's directory,
 * written, fsynced and renamed over the target; or standard output for "-".
 * Owns: the temporary file from open until commit or abort (abort removes it).
 * Not: the JSON text (evidence_json.c).
 * Threads: the probe's one host thread. */
#ifndef GP_OUTFILE_H
#define GP_OUTFILE_H

#include "probe.h"

typedef struct gp_outfile {
  const char *path;   /* as given; "-" is standard output */
  char tmp[4200];     /* the temporary file, "" when none */
  int fd;             /* -1 when none */
} gp_outfile;

/* Creates the temporary file next to path (not for "-"), so an unwritable directory fails before
 * any measurement. Returns 0 or GP_EXIT_WRITE with fail filled. */
int gp_outfile_open(gp_outfile *o, const char *path, gp_fail *fail);

/* Writes ev, fsyncs and renames the temporary file over path (or writes to stdout). On failure the
 * temporary file is removed, path is untouched, and GP_EXIT_WRITE is returned. */
int gp_outfile_commit(gp_outfile *o, const gp_evidence *ev, gp_fail *fail);

/* Removes the temporary file, if any. Safe to call twice. */
void gp_outfile_abort(gp_outfile *o);

#endif
