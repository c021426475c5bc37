/*
 * cleanup.c - signals, private copies, leftovers of killed runs, the tree lock (see
 * cleanup.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* the test drivers build it without -D_GNU_SOURCE */
#endif
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

enum { MAX_DIRS = 16, MAX_FILES = 16, MAX_CHILDREN = 256, MAX_LOCKS = 256 };

static const char *prog = "blkmig";
static pid_t owner;
static char dirs[MAX_DIRS][PATH_MAX];
static char files[MAX_FILES][PATH_MAX];
static volatile pid_t children[MAX_CHILDREN]; /* < 0: a process group */
static volatile sig_atomic_t replaced;	      /* user files replaced so far */
static volatile sig_atomic_t stopping;

void (*cleanup_before_message)(void);

/* ---- async-signal-safe helpers ------------------------------------------------- */

static void say(const char *s)
{
	ssize_t r = write(2, s, strlen(s));

	(void)r;
}

static void say_num(long v)
{
	char b[24], *p = b + sizeof(b);

	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) && p > b);
	say(p);
}

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Remove everything under the directory open as FD (no malloc, no stdio). */
static void rm_tree_at(int fd, int depth)
{
	char buf[4096];
	long n;

	if (depth > 32)
		return;
	for (;;) { /* ends: a pass that goes on removed an entry */
		bool removed = false;

		n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			const char *name = d->d_name;

			off += d->d_reclen;
			/* the owner mark goes last (rm_tree): a run killed while it removes
			 * its folder leaves one the next run knows to be dead */
			if (!strcmp(name, ".") || !strcmp(name, "..") ||
			    (!depth && !strcmp(name, OWNER_MARK)))
				continue;
			if (unlinkat(fd, name, 0) == 0) {
				removed = true;
				continue;
			}
			int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub >= 0) {
				rm_tree_at(sub, depth + 1);
				close(sub);
				removed |= unlinkat(fd, name, AT_REMOVEDIR) == 0;
			}
		}
		if (!removed)
			break;		/* nothing more this pass can remove */
		lseek(fd, 0, SEEK_SET); /* entries were removed: read again from the start */
	}
}

static void rm_tree(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return;
	rm_tree_at(fd, 0);
	unlinkat(fd, OWNER_MARK, 0);
	close(fd);
	rmdir(dir);
}

static void stop_children(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		pid_t p = children[i];

		if (p > 0)
			kill(p, SIGKILL);
		else if (p < 0)
			kill(p, SIGKILL); /* the group -p */
	}
}

/*
 * Stop the children and remove every registered file and folder.  Marks the run as
 * stopping first, so a signal arriving now dies at once instead of doing this twice.
 */
static void leave_nothing(void)
{
	stopping = 1;
	stop_children();
	for (int i = 0; i < MAX_FILES; i++)
		if (files[i][0])
			unlink(files[i]);
	for (int i = 0; i < MAX_DIRS; i++)
		if (dirs[i][0])
			rm_tree(dirs[i]);
}

static void on_signal(int sig)
{
	if (getpid() != owner || stopping) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	leave_nothing();
	if (cleanup_before_message) /* fd 2 may be the progress line's pipe (progress.c) */
		cleanup_before_message();
	say(prog);
	say(": interrupted by ");
	say(sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP");
	if (replaced) {
		say("; ");
		say_num(replaced);
		say(" file(s) were converted whole, every other file is as it was\n");
	} else {
		say("; no file was changed\n");
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void cleanup_exit(int status)
{
	leave_nothing();
	exit(status);
}

/* ---- registration ----------------------------------------------------------------- */

void cleanup_init(const char *name)
{
	struct sigaction sa;

	prog = name;
	owner = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void block(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

static void unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static void slot_set(char (*tab)[PATH_MAX], int n, const char *path)
{
	sigset_t old;

	if (strlen(path) >= PATH_MAX)
		return;
	block(&old);
	for (int i = 0; i < n; i++)
		if (!tab[i][0]) {
			memcpy(tab[i], path, strlen(path) + 1);
			break;
		}
	unblock(&old);
}

static void slot_clear(char (*tab)[PATH_MAX], int n, const char *path)
{
	sigset_t old;

	block(&old);
	for (int i = 0; i < n; i++)
		if (!strcmp(tab[i], path))
			tab[i][0] = '\0';
	unblock(&old);
}

const char *cleanup_tmpdir(void)
{
	const char *td = getenv("TMPDIR");

	return td && *td ? td : "/tmp";
}

char *cleanup_make_dir(void)
{
	char *dir =
	    xasprintf("%s/" CLEANUP_DIR_PREFIX "%ld.XXXXXX", cleanup_tmpdir(), (long)getpid());

	if (!mkdtemp(dir)) {
		int err = errno;

		free(dir);
		errno = err;
		return NULL;
	}
	slot_set(dirs, MAX_DIRS, dir);
	return dir;
}

void cleanup_remove_dir(const char *dir)
{
	/* a signal meanwhile removes the rest (leave_nothing) and ends the run */
	rm_tree(dir);
	slot_clear(dirs, MAX_DIRS, dir);
}

void cleanup_del_dir(const char *dir)
{
	slot_clear(dirs, MAX_DIRS, dir);
}

void cleanup_add_file(const char *path)
{
	slot_set(files, MAX_FILES, path);
}

void cleanup_del_file(const char *path, bool renamed)
{
	slot_clear(files, MAX_FILES, path);
	if (renamed)
		replaced++;
}

void cleanup_add_child(pid_t pid, bool group)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (!children[i]) {
			children[i] = group ? -pid : pid;
			return;
		}
}

void cleanup_del_child(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid || children[i] == -pid)
			children[i] = 0;
}

/* ---- the supervisor of a child with a process group of its own ------------------------ */

/* The supervisor's parent (the run) is gone: the whole group goes, the supervisor too. */
static void supervisor_orphaned(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
	_exit(137);
}

/* The pid in /proc/PID/stat's PPID and PGRP fields (after the parenthesised name). */
static bool proc_ids(const char *pid, long *ppid, long *pgrp)
{
	char path[300], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && sscanf(p + 1, " %*c %ld %ld", ppid, pgrp) == 2;
}

/* Kill every process of our group but us, and every child handed to us (a subreaper):
 * a worker its parent left behind.  The number found. */
static int kill_the_rest(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long me = (long)getpid(), ppid, pgrp;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' || atol(e->d_name) == me)
			continue;
		if (proc_ids(e->d_name, &ppid, &pgrp) && (pgrp == me || ppid == me)) {
			kill((pid_t)atol(e->d_name), SIGKILL);
			n++;
		}
	}
	closedir(d);
	return n;
}

/*
 * The child that becomes the supervisor: leader of a new process group, a subreaper, and
 * killed with its parent by PDEATHSIG (SIGTERM, caught: it kills its whole group first).
 * It forks the real child (which returns from here to exec spatch) and waits for it;
 * then it kills what is left of the group or was handed to it (spatch's -j workers) and
 * exits as the child did.  A SIGKILL of blkmig thus takes every worker with it, and so
 * does the signal handler's kill of the group.
 */
static void supervise(void)
{
	struct sigaction sa;
	pid_t child;
	int status = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = supervisor_orphaned;
	sigfillset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	setpgid(0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (owner && getppid() != owner)
		supervisor_orphaned(SIGTERM); /* the run died before PDEATHSIG was armed */
	child = fork();
	if (child == 0) {
		signal(SIGTERM, SIG_DFL);
		prctl(PR_SET_CHILD_SUBREAPER, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* dies with the supervisor */
		return;
	}
	if (child < 0)
		_exit(127);
	for (;;) {
		int st;
		pid_t r = waitpid(-1, &st, 0);

		if (r == child)
			status = st;
		if (r < 0 && errno == ECHILD)
			break;
		if (r == child || (r < 0 && errno != EINTR)) {
			/* the child is done: what it left behind goes */
			for (int tries = 0; tries < 500 && kill_the_rest() > 0; tries++) {
				while (waitpid(-1, NULL, WNOHANG) > 0)
					;
				usleep(10000);
			}
		}
	}
	if (WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

void cleanup_in_child(bool new_group)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (new_group) {
		supervise(); /* returns in the supervised child only */
		return;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (owner && getppid() != owner)
		_exit(1); /* the parent died before PDEATHSIG was armed */
}

/* ---- leftovers of killed runs ----------------------------------------------------- */

static bool private_dir_name(const char *n)
{
	size_t l = strlen(n);

	return (!strncmp(n, "blkmig.", 7) && l == 13) ||
	       (!strncmp(n, "blkmig-migrate.", 15) && l == 21);
}

/* The pid in a private directory's name, CLEANUP_DIR_PREFIX "<pid>.XXXXXX", or 0. */
static long marked_dir_owner(const char *n)
{
	size_t pl = strlen(CLEANUP_DIR_PREFIX);
	char *end;
	long pid;

	if (strncmp(n, CLEANUP_DIR_PREFIX, pl) || n[pl] < '1' || n[pl] > '9')
		return 0;
	errno = 0;
	pid = strtol(n + pl, &end, 10);
	if (errno || pid <= 0 || pid > INT_MAX || *end != '.' || strlen(end + 1) != 6)
		return 0;
	return pid;
}

void cleanup_stale_private_dirs(void)
{
	const char *base = cleanup_tmpdir();
	DIR *d = opendir(base);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *dir, *mark;
		FILE *f;
		long pid = 0;
		struct stat st;

		long named = marked_dir_owner(e->d_name);

		if (named) { /* the owner in the name: no window without a mark */
			dir = xasprintf("%s/%s", base, e->d_name);
			if (named != (long)getpid() && kill((pid_t)named, 0) < 0 &&
			    errno == ESRCH && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
			    st.st_uid == geteuid())
				rm_tree(dir);
			free(dir);
			continue;
		}
		if (!private_dir_name(e->d_name))
			continue;
		dir = xasprintf("%s/%s", base, e->d_name);
		mark = xasprintf("%s/" OWNER_MARK, dir);
		f = fopen(mark, "r");
		if (f && fscanf(f, "%ld", &pid) == 1 && pid > 0 && lstat(dir, &st) == 0 &&
		    S_ISDIR(st.st_mode) && st.st_uid == geteuid() && kill((pid_t)pid, 0) < 0 &&
		    errno == ESRCH)
			rm_tree(dir);
		if (f)
			fclose(f);
		free(mark);
		free(dir);
	}
	closedir(d);
}

/* The pid in a temporary file's owner mark, CLEANUP_TMP_PREFIX "<pid>.XXXXXX", or 0 when
 * N is not such a name (a user's .blkmig-config, an unmarked .blkmig-XXXXXX). */
static long leftover_owner(const char *n)
{
	size_t pl = strlen(CLEANUP_TMP_PREFIX);
	const char *p = n + pl;
	char *end;
	long pid;

	if (strncmp(n, CLEANUP_TMP_PREFIX, pl) || *p < '1' || *p > '9')
		return 0;
	errno = 0;
	pid = strtol(p, &end, 10);
	if (errno || pid <= 0 || pid > INT_MAX || *end != '.' || strlen(end + 1) != 6)
		return 0;
	for (const char *c = end + 1; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9')))
			return 0;
	return pid;
}

unsigned cleanup_leftovers_beside(char *const *files, size_t n)
{
	struct bm_strlist seen = {0};
	unsigned removed = 0;

	for (size_t i = 0; i < n; i++) {
		char *d = xstrdup(files[i]), *slash = strrchr(d, '/');

		if (slash)
			*(slash == d ? slash + 1 : slash) = '\0';
		else
			strcpy(d, ".");
		if (!strlist_has(&seen, d)) {
			removed += cleanup_leftovers_in(d);
			strlist_push(&seen, d);
		}
		free(d);
	}
	strlist_free(&seen);
	return removed;
}

unsigned cleanup_leftovers_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *p;
		struct stat st;
		long pid = leftover_owner(e->d_name);

		/* ours (the mark), of a run that is gone (never a live run's, never this
		 * run's), a plain file of this user with no other link */
		if (!pid || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    st.st_nlink == 1 && unlink(p) == 0) {
			fprintf(stderr,
				"%s: removed %s, the unfinished write of an interrupted run "
				"(its file was left as it was)\n",
				prog, p);
			n++;
		}
		free(p);
	}
	closedir(d);
	return n;
}

/* ---- the tree lock ------------------------------------------------------------------ */

static struct bm_strlist locked; /* directories this run holds, "E:" or "S:" + path */
static int *locked_fd;
static size_t locked_fd_n, locked_fd_cap;

static int lock_dir(const char *dir, int how)
{
	char *want = xasprintf("%c:%s", how == LOCK_EX ? 'E' : 'S', dir);
	int fd, held = -1;

	for (size_t i = 0; i < locked.n; i++)
		if (!strcmp(locked.v[i] + 2, dir))
			held = (int)i;
	if (held >= 0 && (locked.v[held][0] == 'E' || how == LOCK_SH)) {
		free(want);
		return 0;
	}
	fd = held >= 0 ? locked_fd[held] : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		free(want);
		return 0; /* cannot open: nothing to lock (the run reports the path) */
	}
	if (flock(fd, how | LOCK_NB) < 0) {
		if (held < 0)
			close(fd);
		free(want);
		return -1;
	}
	if (held >= 0) {
		free(locked.v[held]);
		locked.v[held] = want;
	} else {
		strlist_push_owned(&locked, want);
		vec_append(locked_fd, locked_fd_n, locked_fd_cap, fd);
	}
	return 0; /* the descriptor stays open: the lock lasts until exit */
}

static int busy(const char *dir)
{
	fprintf(stderr,
		"%s: %s: another blkmig run is changing this tree; try again when it has "
		"finished\n",
		prog, dir);
	return -1;
}

int cleanup_lock_tree(char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char real[PATH_MAX], *slash;
		struct stat st;

		if (!realpath(paths[i], real) || stat(real, &st) < 0)
			continue;
		if (!S_ISDIR(st.st_mode) && (slash = strrchr(real, '/')))
			*(slash == real ? slash + 1 : slash) = '\0';
		if (lock_dir(real, LOCK_EX) < 0)
			return busy(real);
		while ((slash = strrchr(real, '/')) && slash != real) {
			*slash = '\0';
			if (lock_dir(real, LOCK_SH) < 0)
				return busy(real);
		}
	}
	return 0;
}

size_t cleanup_private_root(const char *path)
{
	for (const char *s = path; (s = strstr(s, "/" CLEANUP_DIR_PREFIX)); s++) {
		const char *d = s + 1 + strlen(CLEANUP_DIR_PREFIX), *end;

		if (*d < '1' || *d > '9')
			continue;
		while (*d >= '0' && *d <= '9')
			d++;
		end = strchr(d, '/');
		if (*d == '.' && end && end - d == 7)
			return (size_t)(end - path);
	}
	return 0;
}

bool cleanup_is_private(const char *path)
{
	return cleanup_private_root(path) > 0;
}
