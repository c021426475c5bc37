/*
 * migrate_spatch.c - migrate's private copies and spatch's passes on them (stage 2 of
 * cmd_migrate.c).
 *
 * Owns the candidates (every file with sites, copied into a private directory: spatch
 * never runs on the user's files), finding a candidate by either of its names, telling
 * a message about a copy with the user's names and lines, leaving a file untouched,
 * running each semantic patch within spatch's budget, and removing the copies.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "atomic_write.h"
#include "cleanup.h"
#include "ktree.h"
#include "migrate_stages.h"
#include "origin_map.h"
#include "progress.h"
#include "util.h"
#include "vec.h"

/* Index both names of every candidate (open addressing, 4 slots per name). */
void index_cands(struct mig *m)
{
	m->nslots = 8 * m->nc + 8;
	m->slots = xcalloc(m->nslots, sizeof(*m->slots));
	for (size_t i = 0; i < m->nc; i++) {
		const char *names[2] = {m->c[i].orig, m->c[i].tmp};

		for (int k = 0; k < 2; k++) {
			size_t h = bm_str_hash(names[k]) % m->nslots;

			while (m->slots[h])
				h = (h + 1) % m->nslots;
			m->slots[h] = &m->c[i];
		}
	}
}

struct cand *cand_of(struct mig *m, const char *path)
{
	size_t h;

	if (!m->nslots)
		return NULL;
	for (h = bm_str_hash(path) % m->nslots; m->slots[h]; h = (h + 1) % m->nslots)
		if (!strcmp(m->slots[h]->orig, path) || !strcmp(m->slots[h]->tmp, path))
			return m->slots[h];
	return NULL;
}

void leave_untouched(struct cand *c, const char *code, const char *why)
{
	if (c->problem)
		return;
	c->problem = xstrdup(why);
	c->problem_code = code;
	free(c->final);
	c->final = xmalloc(c->orig_len + 1);
	memcpy(c->final, c->orig_data, c->orig_len + 1);
	c->final_len = c->orig_len;
}

/* Copy the files that have sites into the private tree: TMP/<n>/<base name>. */
int make_copies(struct mig *m)
{
	char *t = cleanup_make_dir();
	size_t cap = 0;

	if (!t) {
		fprintf(stderr, "blkmig migrate: cannot create a temporary directory: %s\n",
			strerror(errno));
		return -1;
	}
	m->tmpdir = t;
	for (size_t i = 0; i < m->inv.nfiles; i++) {
		const struct bm_file *f = &m->inv.files[i];
		struct cand *c;
		char err[1024], *dir;
		const char *base;

		if (!f->nsites || f->status == BM_PARSE_SKIPPED)
			continue;
		vec_reserve(m->c, m->nc, cap, 1);
		c = &m->c[m->nc];
		memset(c, 0, sizeof(*c));
		c->orig = xstrdup(f->path);
		if (read_whole_file(f->path, &c->orig_data, &c->orig_len, err, sizeof(err)) < 0) {
			fprintf(stderr, "blkmig migrate: %s\n", err);
			free(c->orig);
			continue;
		}
		base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
		dir = xasprintf("%s/%zu", t, m->nc);
		c->tmp = xasprintf("%s/%s", dir, base);
		if (mkdir(dir, 0700) < 0 ||
		    atomic_replace_new(c->tmp, c->orig_data, c->orig_len, err, sizeof(err)) < 0) {
			if (errno == ENOSPC) /* a fault of the machine: exit 2, said so */
				fprintf(stderr,
					"blkmig migrate: no space left on device: TMPDIR %s "
					"(copying %s)\n",
					cleanup_tmpdir(), f->path);
			else
				fprintf(stderr, "blkmig migrate: cannot copy %s: %s\n", f->path,
					err);
			free(dir);
			return -1;
		}
		free(dir);
		c->final = xmalloc(c->orig_len + 1);
		memcpy(c->final, c->orig_data, c->orig_len + 1);
		c->final_len = c->orig_len;
		if (f->status == BM_PARSE_FAILED)
			leave_untouched(c, f->fail_code ? f->fail_code : "unparsed",
					f->reason ? f->reason : "the file could not be parsed");
		for (size_t k = 0; k < m->inv.nsites && !c->problem; k++) {
			const struct bm_site *s = &m->inv.sites[k];

			/* the analysis passed --timeout on the file (budget.c) */
			if (s->reason_code && !strcmp(s->reason_code, "timeout") &&
			    !strcmp(s->file, f->path))
				leave_untouched(c, "timeout", s->reason_text);
		}
		m->nc++;
	}
	return 0;
}

/*
 * spatch's budget (issue 25, item 11): --timeout T is each file's budget for all of
 * spatch's passes together.  spatch runs once per pass over all the run's files (N, the
 * batch), -j J at a time, so the batch has T x ceil(N / J) seconds for all its passes: T
 * for one file (or up to J).  Each pass gives spatch half of what is left (at most T) as
 * its own per-file --timeout: spatch 1.1.1 applies it to a file's parse and to its
 * transformation apart (--timeout 5 on a file it gives up on took 10 s).  When the
 * budget is spent the pass is killed (its supervisor's
 * process group: TERM, KILL 2 s later; a spatch that never returns included) and every
 * file of the batch is left untouched (timeout): which file spatch was on is not known.
 * A file spatch itself gives up on (its log) has spent its budget: it is left untouched
 * (timeout) and hidden from the later passes.
 */
double spatch_budget(const struct mig *m)
{
	unsigned t = m->inv.opt.timeout ? m->inv.opt.timeout : 120;
	size_t j = m->inv.opt.jobs > 1 ? (size_t)m->inv.opt.jobs : 1;

	return (double)t * (double)((m->nc + j - 1) / j);
}

static void spatch_set_aside(struct mig *m);

/* The pass @pid (a supervisor, leader of its process group) passed the budget: kill the
 * group, reap it, and leave every file untouched with its original in the private copy. */
static void spatch_out_of_time(struct mig *m, pid_t pid, int *status)
{
	char err[256], *why;

	kill(-pid, SIGTERM);
	for (int i = 0; i < 20 && waitpid(pid, status, WNOHANG) == 0; i++)
		usleep(100000);
	if (kill(-pid, SIGKILL) == 0 || errno != ESRCH)
		waitpid(pid, status, 0);
	m->spatch_timed_out = true;
	why = xasprintf("spatch did not finish within its budget (--timeout %u s per file for "
			"all its passes, %.0f s for the %zu file(s) of this run); left untouched",
			m->inv.opt.timeout ? m->inv.opt.timeout : 120, spatch_budget(m), m->nc);
	for (size_t i = 0; i < m->nc; i++) {
		leave_untouched(&m->c[i], "timeout", why);
		atomic_replace_new(m->c[i].tmp, m->c[i].orig_data, m->c[i].orig_len, err,
				   sizeof(err));
	}
	free(why);
}

/* Push "-I DIR" once for DIR made absolute (spatch runs in the private tree). */
static void push_include(struct bm_strlist *av, const char *dir)
{
	char *abs = realpath(dir, NULL);

	if (!abs)
		return;
	for (size_t i = 0; i + 1 < av->n; i++)
		if (!strcmp(av->v[i], "-I") && !strcmp(av->v[i + 1], abs)) {
			free(abs);
			return;
		}
	strlist_push(av, "-I");
	strlist_push_owned(av, abs);
}

/*
 * The folders where the patches look for <x/y.h> to read a header's #define constants
 * (cocci/src/decide.cocci: FAIL in <linux/ps2esdi.h>): on the user's own files plain
 * spatch finds the kernel tree's include/ above each file; the private copies have
 * none above them, so each file's tree, --kernel-tree and -I are named.
 */
void spatch_include_args(const struct mig *m, struct bm_strlist *av)
{
	for (size_t i = 0; i < m->nc; i++) {
		char *root = ktree_find_root(m->c[i].orig);

		if (root) {
			char *inc = xasprintf("%s/include", root);

			push_include(av, inc);
			free(inc);
		}
		free(root);
	}
	if (m->inv.opt.kernel_tree) {
		char *inc = xasprintf("%s/include", m->inv.opt.kernel_tree);

		push_include(av, inc);
		free(inc);
	}
	for (size_t i = 0; i < m->inv.opt.include_dirs.n; i++)
		push_include(av, m->inv.opt.include_dirs.v[i]);
}

/* Run one spatch over the private tree; 0 on success. Output goes to a log file. */
int run_spatch(struct mig *m, const char *spatch, const char *cocci, const char *options,
	       const char *macros)
{
	char *log = xasprintf("%s/spatch.log", m->tmpdir), *jobs;
	struct bm_strlist av = {0};
	char *optcopy = xstrdup(options), *tok, *save = NULL;
	pid_t pid;
	int status = 0, fd;
	unsigned per_file = m->inv.opt.timeout ? m->inv.opt.timeout : 120;
	double t0 = now_s();

	strlist_push(&av, spatch);
	strlist_push(&av, "--sp-file");
	strlist_push(&av, cocci);
	for (tok = strtok_r(optcopy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		strlist_push(&av, tok);
	if (macros) {
		strlist_push(&av, "--macro-file");
		strlist_push(&av, macros);
	}
	spatch_include_args(m, &av);
	/* coccicheck's MODE=patch: the patches' "virtual patch" rules */
	strlist_push(&av, "-D");
	strlist_push(&av, "patch");
	strlist_push(&av, "--in-place");
	strlist_push(&av, "--very-quiet");
	strlist_push(&av, "--timeout");
	if (m->spatch_left < per_file) /* what the earlier passes left */
		per_file = m->spatch_left > 0 ? (unsigned)m->spatch_left : 0;
	jobs = xasprintf("%u", per_file / 2 ? per_file / 2 : 1);
	strlist_push_owned(&av, jobs);
	if (m->inv.opt.jobs > 1) {
		strlist_push(&av, "-j");
		strlist_push_owned(&av, xasprintf("%d", m->inv.opt.jobs));
	}
	strlist_push(&av, "--dir");
	strlist_push(&av, m->tmpdir);
	vec_reserve(av.v, av.n, av.cap, 1);
	av.v[av.n] = NULL;
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		cleanup_in_child(true); /* its own group: spatch's workers stop with it */
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (chdir(m->tmpdir)) /* spatch's job folder goes there, not in the user's cwd */
			_exit(127);
		execv(spatch, av.v);
		_exit(127);
	}
	if (pid < 0) {
		status = -1;
	} else {
		cleanup_add_child(pid, true);
		/* wait, counting the private copies spatch has rewritten so far */
		time_t start = time(NULL);

		for (;;) {
			pid_t r = waitpid(pid, &status, WNOHANG);
			struct timespec nap = {0, 300000000L};
			size_t done = 0;
			struct stat st;

			if (r == pid)
				break;
			if (r < 0) {
				status = -1;
				break;
			}
			if (now_s() - t0 >= m->spatch_left) {
				spatch_out_of_time(m, pid, &status);
				break;
			}
			for (size_t i = 0; i < m->nc; i++)
				done += stat(m->c[i].tmp, &st) == 0 && st.st_mtime >= start &&
					st.st_size != (off_t)m->c[i].orig_len;
			progress_update(done);
			nanosleep(&nap, NULL);
		}
		cleanup_del_child(pid);
	}
	m->spatch_left -= now_s() - t0;
	free(optcopy);
	free(log);
	strlist_free(&av);
	if (m->spatch_timed_out)
		return 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	spatch_set_aside(m);
	return 0;
}

/*
 * spatch gives up on a file that takes longer than --timeout ("timeout (we abort):
 * FILE" in its log) and goes on with the others, silently for us: such a file is left
 * untouched and reported as such (reason timeout), whatever the analyzer could do.
 */
void spatch_timeouts(struct mig *m)
{
	/* one file: "timeout (we abort): FILE"; with --dir: "EXN: ...Timeout in FILE" */
	static const char *const marks[] = {"timeout (we abort): ", "Common.Timeout in "};
	char *log = xasprintf("%s/spatch.log", m->tmpdir), *data, err[256];
	size_t len;

	if (read_whole_file(log, &data, &len, err, sizeof(err)) < 0) {
		free(log);
		return;
	}
	for (size_t k = 0; k < 2; k++) {
		for (char *p = data; (p = strstr(p, marks[k])); p++) {
			char *name = p + strlen(marks[k]), *end = strchr(name, '\n');
			size_t n;

			while (!strncmp(name, "./", 2))
				name += 2;
			n = end ? (size_t)(end - name) : strlen(name);
			for (size_t i = 0; i < m->nc && n; i++) {
				const char *t = m->c[i].tmp;
				size_t tl = strlen(t);

				if ((tl == n && !strncmp(t, name, n)) ||
				    (tl > n && t[tl - n - 1] == '/' &&
				     !strncmp(t + tl - n, name, n))) {
					char *why = xasprintf(
					    "spatch did not finish within %u s on it "
					    "(--timeout); left untouched",
					    m->inv.opt.timeout ? m->inv.opt.timeout : 120);

					leave_untouched(&m->c[i], "timeout", why);
					free(why);
				}
			}
		}
	}
	free(data);
	free(log);
}

/* After a pass: the files spatch gave up on (spatch_timeouts) leave the private tree for
 * its later passes (renamed: spatch takes .c files only). */
static void spatch_set_aside(struct mig *m)
{
	spatch_timeouts(m);
	for (size_t i = 0; i < m->nc; i++) {
		struct cand *c = &m->c[i];
		char *to;

		if (c->aside || !c->problem_code || strcmp(c->problem_code, "timeout"))
			continue;
		to = xasprintf("%s.aside", c->tmp);
		c->aside = rename(c->tmp, to) == 0;
		free(to);
	}
}

/* After the last pass: the files set aside back in the private tree, as they were. */
void spatch_restore_aside(struct mig *m)
{
	for (size_t i = 0; i < m->nc; i++) {
		char *from;

		if (!m->c[i].aside)
			continue;
		from = xasprintf("%s.aside", m->c[i].tmp);
		rename(from, m->c[i].tmp);
		m->c[i].aside = false;
		free(from);
	}
}

void show_log_tail(const struct mig *m)
{
	char *log = xasprintf("%s/spatch.log", m->tmpdir), *data, err[256];
	size_t len;

	if (read_whole_file(log, &data, &len, err, sizeof(err)) == 0) {
		size_t from = len > 1500 ? len - 1500 : 0;

		fprintf(stderr, "%s", data + from);
		free(data);
	}
	free(log);
}

/* A message about the private copies told with the user's names and lines. */
char *user_names(struct mig *m, const char *msg)
{
	struct origin_copy *oc = xcalloc(m->nc + 1, sizeof(*oc));
	char *s;

	for (size_t i = 0; i < m->nc; i++)
		oc[i] = (struct origin_copy){m->c[i].tmp, m->c[i].orig, m->c[i].orig_data,
					     m->c[i].orig_len};
	s = origin_text(oc, m->nc, msg);
	free(oc);
	return s;
}

/* A message about a site of @c's private copy: its lines too are the original's. */
char *user_text_of(struct mig *m, const struct cand *c, const char *msg)
{
	char *t, *s;

	if (!c)
		return user_names(m, msg);
	t = origin_text_of(&(struct origin_copy){c->tmp, c->orig, c->orig_data, c->orig_len}, msg);
	s = user_names(m, t);
	free(t);
	return s;
}

void mig_free(struct mig *m)
{
	if (m->tmpdir) {
		cleanup_remove_dir(m->tmpdir);
		free(m->tmpdir);
	}
	for (size_t i = 0; i < m->nc; i++) {
		free(m->c[i].orig);
		free(m->c[i].tmp);
		free(m->c[i].orig_data);
		free(m->c[i].spatched);
		free(m->c[i].final);
		free(m->c[i].problem);
		bm_cache_close(m->c[i].spatch_entry);
	}
	free(m->c);
	free(m->origin);
	for (size_t i = 0; m->notes && i < m->inv.nsites; i++)
		free(m->notes[i]);
	free(m->notes);
	free(m->slots);
	free(m->a.paths);
	bm_run_free(&m->inv);
	bm_run_free(&m->post);
	bm_run_free(&m->ver);
}
