/*
 * progress.c - terminal-only progress output (see progress.h).
 *
 * While a stage runs, file descriptor 2 is a pipe that the ticker thread reads: every
 * message written to stderr meanwhile (by blkmig, the analysis or a child it runs) is
 * put on the terminal after the progress line is cleared ("\r\033[K"), whole lines at a
 * time, and the line is drawn again below it.  Off a terminal nothing of this happens.
 */
#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

static bool on;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t ticker;
static bool running;
static const char *cur_label;
static size_t cur_total, cur_done;
static struct timespec t0;

/* fd 2 redirected: the terminal's own descriptor, the pipe, the ticker's wake-up pipe */
static volatile sig_atomic_t redirected;
static int tty_fd = -1, pipe_rd = -1, pipe_wr = -1, wake_rd = -1, wake_wr = -1;
static bool drawn; /* the progress line is on the terminal */
static char pend[4096];
static size_t npend; /* the start of a message line whose end has not come yet */

static double elapsed(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
}

static void put(const char *s, size_t n)
{
	int fd = redirected ? tty_fd : STDERR_FILENO;

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* "\r\033[K": the progress line goes before a message takes its place */
static void clear_line(void)
{
	if (drawn)
		put("\r\033[K", 4);
	drawn = false;
}

/* caller holds mu */
static void draw(void)
{
	double el = elapsed();
	char line[512];
	int n;

	if (cur_total && cur_done && cur_done < cur_total)
		n = snprintf(line, sizeof(line),
			     "\r\033[K%s: %zu/%zu files, %.1fs elapsed, about %.0fs left",
			     cur_label, cur_done, cur_total, el,
			     el / (double)cur_done * (double)(cur_total - cur_done));
	else if (cur_total)
		n = snprintf(line, sizeof(line), "\r\033[K%s: %zu/%zu files, %.1fs elapsed",
			     cur_label, cur_done, cur_total, el);
	else
		n = snprintf(line, sizeof(line), "\r\033[K%s: %.1fs elapsed", cur_label, el);
	if (n > 0)
		put(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	drawn = true;
}

/* Messages read from the pipe: whole lines go out now, over a cleared progress line; the
 * start of a line waits for its end (ALL: everything, the stage is over).  Holds mu. */
static void forward(const char *buf, size_t n, bool all)
{
	while (n) {
		size_t room = sizeof(pend) - npend, k = n < room ? n : room;

		memcpy(pend + npend, buf, k);
		npend += k;
		buf += k;
		n -= k;
		char *nl = memrchr(pend, '\n', npend);
		size_t out = nl ? (size_t)(nl - pend) + 1 : (npend == sizeof(pend) ? npend : 0);

		if (out) {
			clear_line();
			put(pend, out);
			memmove(pend, pend + out, npend - out);
			npend -= out;
		}
	}
	if (all && npend) {
		clear_line();
		put(pend, npend);
		put("\n", 1);
		npend = 0;
	}
}

/* Read what the pipe holds now (it does not block). Holds mu. */
static void drain(bool all)
{
	char buf[4096];
	ssize_t r;

	while ((r = read(pipe_rd, buf, sizeof(buf))) > 0)
		forward(buf, (size_t)r, false);
	forward("", 0, all);
}

static void *tick(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	while (running) {
		struct pollfd p[2] = {{pipe_rd, POLLIN, 0}, {wake_rd, POLLIN, 0}};
		bool had_text;

		draw();
		pthread_mutex_unlock(&mu);
		poll(p, redirected ? 2 : 0, 500);
		pthread_mutex_lock(&mu);
		had_text = redirected && (p[0].revents & POLLIN);
		if (had_text)
			drain(false);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

/* fd 2 back to the terminal, whatever the pipe still holds shown first.  Only
 * async-signal-safe calls: the signal handler (cleanup.c) and exit use it too. */
void progress_restore_stderr(void)
{
	char buf[512];
	ssize_t r;

	if (!redirected)
		return;
	redirected = 0;
	while ((r = read(pipe_rd, buf, sizeof(buf))) > 0) {
		if (write(tty_fd, "\r\033[K", 4) < 0 || write(tty_fd, buf, (size_t)r) < 0)
			break;
	}
	if (drawn && write(tty_fd, "\r\033[K", 4) < 0)
		return;
	drawn = false;
	dup2(tty_fd, STDERR_FILENO);
}

static void at_exit_restore(void)
{
	progress_restore_stderr();
}

/* fd 2 becomes the pipe's write end (children inherit it); -1 when that cannot be */
static int redirect(void)
{
	int p[2], w[2];

	if (pipe_rd < 0) {
		if (pipe2(p, O_CLOEXEC) < 0)
			return -1;
		if (pipe2(w, O_CLOEXEC | O_NONBLOCK) < 0) {
			close(p[0]);
			close(p[1]);
			return -1;
		}
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		pipe_rd = p[0];
		pipe_wr = p[1];
		wake_rd = w[0];
		wake_wr = w[1];
		tty_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		if (tty_fd < 0)
			return -1;
		atexit(at_exit_restore);
		cleanup_before_message = progress_restore_stderr;
	}
	fflush(stderr);
	if (dup2(pipe_wr, STDERR_FILENO) < 0)
		return -1;
	redirected = 1;
	return 0;
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
	/* without the ticker nothing reads the pipe: then fd 2 stays the terminal */
	if (redirect() == 0) {
		running = pthread_create(&ticker, NULL, tick, NULL) == 0;
		if (!running)
			progress_restore_stderr();
	}
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

void progress_add_total(size_t n)
{
	if (!on)
		return;
	pthread_mutex_lock(&mu);
	cur_total += n;
	pthread_mutex_unlock(&mu);
}

void progress_step(size_t n)
{
	if (!on)
		return;
	pthread_mutex_lock(&mu);
	cur_done += n;
	pthread_mutex_unlock(&mu);
}

void progress_end(void)
{
	bool joined;

	if (!on)
		return;
	fflush(stderr);
	pthread_mutex_lock(&mu);
	joined = running;
	running = false;
	pthread_mutex_unlock(&mu);
	if (joined) {
		if (write(wake_wr, "x", 1) < 0) {
			/* the ticker wakes by itself within half a second */
		}
		pthread_join(ticker, NULL);
	}
	pthread_mutex_lock(&mu);
	if (redirected) {
		char b[64];

		while (read(wake_rd, b, sizeof(b)) > 0)
			;
		drain(true);
		progress_restore_stderr();
	}
	if (cur_total)
		cur_done = cur_total;
	draw();
	put("\n", 1);
	drawn = false;
	pthread_mutex_unlock(&mu);
}
