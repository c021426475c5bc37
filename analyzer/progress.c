/*
 * progress.c - terminal-only progress output (see progress.h).
 */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static bool on;
static const char *cur_label;
static size_t cur_total;
static struct timespec t0, last;

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void progress_enable(bool quiet)
{
	on = !quiet && isatty(STDERR_FILENO);
}

void progress_begin(const char *label, size_t total)
{
	cur_label = label;
	cur_total = total;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	last.tv_sec = 0;
	last.tv_nsec = 0;
	progress_update(0);
}

void progress_update(size_t done)
{
	struct timespec now;
	double el;

	if (!on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (done && done < cur_total && since(&last, &now) < 0.2)
		return;	/* redraw at most five times a second */
	last = now;
	el = since(&t0, &now);
	if (cur_total && done)
		fprintf(stderr, "\r\033[K%s: %zu/%zu files, %.1fs elapsed, about %.0fs left",
			cur_label, done, cur_total, el, el / (double)done * (double)(cur_total - done));
	else
		fprintf(stderr, "\r\033[K%s: %zu/%zu files, %.1fs elapsed", cur_label, done,
			cur_total, el);
	fflush(stderr);
}

void progress_end(void)
{
	if (!on)
		return;
	progress_update(cur_total);
	fputc('\n', stderr);
}
