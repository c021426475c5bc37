/*
 * progress.c - terminal-only progress output (see progress.h).
 */
#include "progress.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static bool on;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_t ticker;
static bool running;
static const char *cur_label;
static size_t cur_total, cur_done;
static struct timespec t0;

static double elapsed(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
}

/* caller holds mu */
static void draw(void)
{
	double el = elapsed();

	if (cur_total && cur_done && cur_done < cur_total)
		fprintf(stderr, "\r\033[K%s: %zu/%zu files, %.1fs elapsed, about %.0fs left",
			cur_label, cur_done, cur_total, el,
			el / (double)cur_done * (double)(cur_total - cur_done));
	else if (cur_total)
		fprintf(stderr, "\r\033[K%s: %zu/%zu files, %.1fs elapsed", cur_label, cur_done,
			cur_total, el);
	else
		fprintf(stderr, "\r\033[K%s: %.1fs elapsed", cur_label, el);
	fflush(stderr);
}

static void *tick(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	while (running) {
		struct timespec until;

		draw();
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 500000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&cv, &mu, &until);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

void progress_enable(bool quiet)
{
	on = !quiet && isatty(STDERR_FILENO);
}

void progress_begin(const char *label, size_t total)
{
	if (!on)
		return;
	pthread_mutex_lock(&mu);
	cur_label = label;
	cur_total = total;
	cur_done = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	running = pthread_create(&ticker, NULL, tick, NULL) == 0;
	if (!running)
		draw();
	pthread_mutex_unlock(&mu);
}

void progress_update(size_t done)
{
	if (!on)
		return;
	pthread_mutex_lock(&mu);
	cur_done = done;
	pthread_mutex_unlock(&mu);
}

void progress_end(void)
{
	bool joined;

	if (!on)
		return;
	pthread_mutex_lock(&mu);
	joined = running;
	running = false;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	if (joined)
		pthread_join(ticker, NULL);
	pthread_mutex_lock(&mu);
	if (cur_total)
		cur_done = cur_total;
	draw();
	fputc('\n', stderr);
	pthread_mutex_unlock(&mu);
}
