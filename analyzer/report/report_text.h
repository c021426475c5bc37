/*
 * report_text.h - the one printer of a site left for a human, in gcc's diagnostic form,
 * shared by report.txt (report_text.c) and by fix and migrate on stderr.
 */
#ifndef BLKMIG_REPORT_TEXT_H
#define BLKMIG_REPORT_TEXT_H

#include <stdio.h>

#include "site.h"

/*
 * `FILE:LINE:COL: warning: CALL in FUNCTION() left for manual review: TEXT [REASON]`,
 * then one `FILE:LINE:COL: note: ...` line for each located piece of evidence (the
 * lock's, from the lock analysis; the paired call, the caller, ... named in the reason),
 * so that editors and CI problem matchers jump to each.  A location the evidence gives
 * as "FILE:LINE" or "line N" (in the site's file); the column is that of the name the
 * evidence gives before it when that line of the file holds it, else the line's first
 * non-blank character.
 */
void bm_text_manual_site(FILE *out, const struct bm_site *s);

/*
 * `FILE:LINE:1: warning: file left untouched: TEXT [CODE]`: a file fix or migrate wrote
 * nothing to, as report.txt says it.  LINE is that of RUN's first site in the file (1 if
 * it has none), so that the line points into the file's legacy code.
 */
void bm_text_file_left(FILE *out, const struct bm_run *run, const char *path, const char *text,
		       const char *code);

#endif
