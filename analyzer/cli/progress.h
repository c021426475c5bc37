/*
 * progress.h - progress lines on stderr, only when stderr is a terminal.
 *
 * Owns: the line "label: done/total files, elapsed, about N s left" that fix and migrate
 * keep redrawn while a stage runs (a small ticker thread redraws it twice a second, so
 * a stage that blocks in the analyzer or waits for spatch still shows time passing).
 * Off a terminal (CI logs, pipes) or with -q nothing is printed.
 */
#ifndef BLKMIG_PROGRESS_H
#define BLKMIG_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

void progress_enable(bool quiet); /* on iff !quiet and isatty(stderr) */
/* start a stage; total 0 = unknown (elapsed time only) */
void progress_begin(const char *label, size_t total);
void progress_update(size_t done); /* files done so far in this stage */
void progress_end(void);	   /* final redraw, newline */

#endif
