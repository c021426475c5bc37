/*
 * progress.h - progress lines on stderr, only when stderr is a terminal.
 *
 * Owns: the line "label: done/total files, elapsed, about N s left" that fix and migrate
 * keep redrawn while a stage runs (a small ticker thread redraws it twice a second, so
 * a stage that blocks in the analyzer or waits for spatch still shows time passing).
 * A message written to stderr while the line is shown (by blkmig, the analysis or a
 * child) clears the line first ("\r\033[K") and the line is drawn again below it: stderr
 * is a pipe the ticker reads while a stage runs.  Off a terminal (CI logs, pipes) or
 * with -q nothing of this happens and stderr is left alone.
 */
#ifndef BLKMIG_PROGRESS_H
#define BLKMIG_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

void progress_enable(bool quiet); /* on iff !quiet and isatty(stderr) */
/* start a stage; total 0 = unknown (elapsed time only, until progress_add_total) */
void progress_begin(const char *label, size_t total);
void progress_update(size_t done); /* files done so far in this stage */
void progress_add_total(size_t n); /* N more files for this stage (the analysis' rounds) */
void progress_step(size_t n);	   /* N more files done */
void progress_end(void);	   /* final redraw, newline; stderr the terminal again */
/* stderr back to the terminal now, what is still in the pipe shown; async-signal-safe
 * (the signal handler calls it before it says why the run stops) */
void progress_restore_stderr(void);

#endif
