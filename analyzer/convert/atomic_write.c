/*
 * atomic_write.c - temp file + fsync + rename in the same directory (see atomic_write.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "atomic_write.h"
#include "cleanup.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int read_whole_file(const char *path, char **data, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t cap, n = 0;
	char *buf;

	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				close(fd);
				snprintf(err, errlen, "%s: out of memory", path);
				return -1;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int atomic_precheck(const char *path, char *real, size_t real_len, struct stat *st_out, char *err,
		    size_t errlen)
{
	char buf[PATH_MAX];
	struct stat st;

	/* Write through a symlink to its target, so the link stays a link. */
	if (!realpath(path, buf)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (stat(buf, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file; left untouched", path);
		return -1;
	}
	/* root may write anything; a file without write permission is still read-only to us */
	if (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) || access(buf, W_OK) < 0) {
		snprintf(err, errlen, "%s: file is read-only; left untouched", path);
		return -1;
	}
	if (st.st_nlink > 1) {
		snprintf(err, errlen,
			 "%s: has %lu hard links, replacing it would split them; left untouched",
			 path, (unsigned long)st.st_nlink);
		return -1;
	}
	if (real)
		snprintf(real, real_len, "%s", buf);
	if (st_out)
		*st_out = st;
	return 0;
}

/* Same inode, size and mtime as when it was read. */
static bool same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* REAL still holds what was read: the stat SEEN and, when EXPECT, those bytes. */
static bool unchanged(const char *real, const struct stat *seen, const char *expect,
		      size_t expect_len)
{
	struct stat now_st;
	char *now;
	size_t now_len;
	char rerr[64];
	bool same;

	if (stat(real, &now_st) < 0 || !same_stat(&now_st, seen))
		return false;
	if (!expect)
		return true;
	if (read_whole_file(real, &now, &now_len, rerr, sizeof(rerr)) < 0)
		return false;
	same = now_len == expect_len && memcmp(now, expect, now_len) == 0;
	free(now);
	return same;
}

/*
 * Fault injection for the tests (tests/harden): BLKMIG_FAULT_SLOW_WRITE=TEXT makes the
 * write of a file whose path contains TEXT wait 2 s after the temporary file is written
 * and fsync'ed, before the last check and the rename, so that a test can change the file
 * inside that window.
 */
static void injected_write_delay(const char *path)
{
	const char *slow = getenv("BLKMIG_FAULT_SLOW_WRITE");
	struct timespec ts = {2, 0};

	if (slow && *slow && strstr(path, slow))
		nanosleep(&ts, NULL);
}

int atomic_replace(const char *path, const char *data, size_t len, const char *expect,
		   size_t expect_len, char *err, size_t errlen)
{
	char real[PATH_MAX], dir[PATH_MAX], tmp[PATH_MAX + 64];
	const char *dname;
	struct stat st, seen;
	int fd, dfd;

	if (atomic_precheck(path, real, sizeof(real), &st, err, errlen) < 0)
		return -1;
	/* what the caller read, still there: the bytes, and the same stat before and after
	 * reading them (the stat the last check compares with) */
	if (!unchanged(real, &st, expect, expect_len) || stat(real, &seen) < 0 ||
	    !same_stat(&seen, &st)) {
		snprintf(err, errlen, "%s: changed while blkmig ran; left untouched", path);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	dname = dirname(dir);
	/* the owner mark: our pid (cleanup_leftovers_in) */
	snprintf(tmp, sizeof(tmp), "%s/" CLEANUP_TMP_PREFIX "%ld.XXXXXX", dname, (long)getpid());
	fd = mkstemp(tmp);
	if (fd >= 0)
		cleanup_add_file(tmp); /* removed if a signal stops the run */
	if (fd < 0) {
		snprintf(err, errlen,
			 "%s: cannot create a temporary file beside it: %s; left untouched", path,
			 strerror(errno));
		return -1;
	}
	if (fchmod(fd, st.st_mode & 07777) < 0 ||
	    (fchown(fd, st.st_uid, st.st_gid) < 0 && errno != EPERM) ||
	    write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		snprintf(err, errlen, "%s: cannot write the new contents: %s; left untouched", path,
			 strerror(errno));
		close(fd);
		unlink(tmp);
		cleanup_del_file(tmp, false);
		return -1;
	}
	if (close(fd) < 0) {
		snprintf(err, errlen, "%s: cannot write the new contents: %s; left untouched", path,
			 strerror(errno));
		unlink(tmp);
		cleanup_del_file(tmp, false);
		return -1;
	}
	injected_write_delay(real);
	/* Again, right before the rename: an edit made while the new contents were written
	 * and fsync'ed (which can take long) is kept, not replaced. */
	if (!unchanged(real, &seen, expect, expect_len)) {
		snprintf(err, errlen, "%s: changed while blkmig ran; left untouched", path);
		unlink(tmp);
		cleanup_del_file(tmp, false);
		return -1;
	}
	if (rename(tmp, real) < 0) {
		snprintf(err, errlen, "%s: cannot replace: %s; left untouched", path,
			 strerror(errno));
		unlink(tmp);
		cleanup_del_file(tmp, false);
		return -1;
	}
	cleanup_del_file(tmp, true);
	dfd = open(dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd); /* durability of the rename; the replace already happened */
		close(dfd);
	}
	return 0;
}

int atomic_replace_new(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || write_all(fd, data, len) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (close(fd) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

FILE *out_open(struct out_file *o, const char *path, char *err, size_t errlen)
{
	char real[PATH_MAX], dir[PATH_MAX], *tmp;
	struct stat st;
	mode_t um;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return o->f;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w"); /* /dev/null, a FIFO, a terminal: no rename */
		if (!o->f)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		else
			o->path = xstrdup(path);
		return o->f;
	}
	/* a link is written through: its target is the file replaced */
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	snprintf(dir, sizeof(dir), "%s", real);
	tmp = xasprintf("%s/" CLEANUP_TMP_PREFIX "%ld.XXXXXX", dirname(dir), (long)getpid());
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(tmp);
		return NULL;
	}
	cleanup_add_file(tmp); /* removed if a signal stops the run */
	um = umask(0);
	umask(um);
	if (fchmod(fd, stat(real, &st) == 0 ? st.st_mode & 07777 : 0666 & ~um) < 0 ||
	    !(o->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		cleanup_del_file(tmp, false);
		free(tmp);
		return NULL;
	}
	o->path = xstrdup(real);
	o->tmp = tmp;
	return o->f;
}

int out_close(struct out_file *o, bool ok, char *err, size_t errlen)
{
	int r = 0, e = 0;

	if (!o->f)
		return -1;
	errno = 0;
	if (fflush(o->f) || ferror(o->f) || (o->tmp && fsync(fileno(o->f)) < 0))
		e = errno ? errno : EIO;
	if (o->f != stdout && fclose(o->f) && !e)
		e = errno ? errno : EIO;
	if (!e && ok && o->tmp && rename(o->tmp, o->path) < 0)
		e = errno;
	if (e || !ok) {
		if (e && err)
			snprintf(err, errlen, "%s: %s", o->path ? o->path : "standard output",
				 strerror(e));
		else if (err)
			snprintf(err, errlen, "%s: not written", o->path ? o->path : "output");
		r = -1;
		if (o->tmp)
			unlink(o->tmp);
	}
	if (o->tmp)
		cleanup_del_file(o->tmp, false);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return r;
}
