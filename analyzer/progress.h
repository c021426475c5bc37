/*
 * progress.h - progress lines on stderr, only when stderr is a terminal.
 *
 * Owns: the "label: done/total files, elapsed, estimate" line that fix and migrate
 * redraw in place. Off a terminal (CI logs, pipes) or with -q it prints nothing.
 */
#ifndef BLKMIG_PROGRESS_H
#define BLKMIG_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

void progress_enable(bool quiet);	/* on iff !quiet and isatty(stderr) */
void progress_begin(const char *label, size_t total);
void progress_update(size_t done);
void progress_end(void);		/* finishes the line */

#endif
