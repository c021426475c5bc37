/*
 * cmd_migrate.c - `blkmig migrate`: spatch and the analyzer together over a tree.
 *
 * 1. The analyzer inventories every legacy site of PATH... (the oracle).
 * 2. spatch runs our semantic patches, in order, on a private copy of the files that
 *    have sites (never on the user's files).
 * 3. The analyzer analyses spatch's result with its cross-function facts and rewrites the
 *    sites spatch left; a site spatch already converted is no longer a legacy call, so no
 *    site is converted twice or two ways.
 * 4. `blkmig verify` runs on the result; a file it finds a lock-variant problem in, a
 *    file where spatch converted a site the analyzer holds unsafe, a file whose edits
 *    conflict or that cannot be written stays byte-for-byte as it was, and its sites
 *    are reported.
 * 5. Output: --check, --patch FILE or --in-place; --report DIR writes report.txt,
 *    report.json, report.sarif and report.html.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <clang-c/Index.h>
#include <jansson.h>

#include "atomic_write.h"
#include "cache.h"
#include "cleanup.h"
#include "cli_options.h"
#include "commands.h"
#include "html_report.h"
#include "ktree.h"
#include "line_endings.h"
#include "migrate_combine.h"
#include "migrate_common.h"
#include "origin_map.h"
#include "output_guard.h"
#include "progress.h"
#include "report_text.h"
#include "rewrite_output.h"
#include "rewrite_plan.h"
#include "run_state.h"
#include "series.h"
#include "tool_paths.h"
#include "udiff.h"
#include "util.h"

void cmd_migrate_usage(FILE *out)
{
	fputs("NAME\n"
	      "    blkmig migrate - convert a whole tree with spatch and the analyzer\n"
	      "\n"
	      "SYNOPSIS\n"
	      "    blkmig migrate [--check | --patch FILE | --series DIR | --in-place]\n"
	      "                   [--report DIR] [--root DIR] [--spatch PROG]\n"
	      "                   [--cocci-dir DIR] [-j N] [OPTIONS] PATH...\n"
	      "\n"
	      "DESCRIPTION\n"
	      "    The analyzer first lists every legacy completion site of PATH...\n"
	      "    Then spatch applies blkmig's semantic patches, in their order, to a\n"
	      "    private copy of the files that have sites; the analyzer analyses that\n"
	      "    result with its cross-function facts (lock context, wrappers, byte\n"
	      "    counts) and rewrites the sites spatch left; `blkmig verify` checks\n"
	      "    the result.  No site is converted twice or two ways.  Every site that\n"
	      "    is not converted is reported with its reason.  A file with any\n"
	      "    problem (conflicting edits, a verify finding, spatch converting a site\n"
	      "    the analyzer holds unsafe, read-only) is left byte-for-byte as it was\n"
	      "    and reported.  Running migrate again on its output changes nothing.\n"
	      "    With -j N (COMMON OPTIONS) N spatch workers and N analyzer parses run\n"
	      "    at a time.\n"
	      "\n"
	      "OPTIONS\n"
	      "    --check\n"
	      "        Change nothing; exit 1 when something would change (the default).\n"
	      "        The files that would change are listed first, one per line, named\n"
	      "        as in the patch (relative to --root), on standard output (on\n"
	      "        stderr when the report goes there: --format without -o).\n"
	      "    --patch FILE\n"
	      "        Write one unified diff to FILE (- for standard output), for\n"
	      "        `git apply -p1` or `patch -p1` in the --root directory.\n"
	      "    --series DIR\n"
	      "        Write the conversion into DIR as a `git format-patch` series, one\n"
	      "        patch per driver (NNNN-PREFIX-convert-to-blk_end_request.patch,\n"
	      "        for `git am` in the --root directory, in order).  A driver is one\n"
	      "        kbuild module of one directory (the .c files its Makefile links\n"
	      "        into one object, else one .c), with the headers of that directory\n"
	      "        it includes and every file one site's edits span.  The subject is\n"
	      "        `PREFIX: convert to blk_end_request()` (block for block/, else the\n"
	      "        module without -core/_mod, after ARCH: under arch/); the message\n"
	      "        says what changed and why (lock variant, errno mapping, byte\n"
	      "        count, housekeeping removed, old lock bugs) and lists the sites\n"
	      "        left for a human with what to decide.  From: $GIT_AUTHOR_NAME\n"
	      "        <$GIT_AUTHOR_EMAIL>, Date: $SOURCE_DATE_EPOCH or now; no\n"
	      "        Signed-off-by (git am -s adds yours).  Earlier NNNN-*.patch files\n"
	      "        in DIR are removed.\n"
	      "    --in-place\n"
	      "        Replace the files atomically (temporary file, fsync, rename).\n"
	      "    --report DIR\n"
	      "        Write report.txt, report.json (analyzer/REPORT.md), report.sarif\n"
	      "        and a self-contained report.html into DIR.\n"
	      "    --format text|json|sarif|brief, -o FILE|-\n"
	      "        Also write the report in one format to FILE (- or no -o: standard\n"
	      "        output).\n"
	      "    --root DIR\n"
	      "        Name files in the patch, in SARIF and on the review page relative\n"
	      "        to DIR (default: current dir).\n"
	      "    --spatch PROG\n"
	      "        The spatch to run (default: $SPATCH, then spatch in PATH).\n"
	      "    --no-spatch\n"
	      "        The analyzer alone (without it, a spatch that fails or dies fails\n"
	      "        the run with exit 2).\n"
	      "    --cocci-dir DIR\n"
	      "        The semantic patches (default: $BLKMIG_COCCI_DIR, then\n"
	      "        PREFIX/share/blkmig/cocci beside the installed binary, then the\n"
	      "        source tree's cocci/ when run from build/).\n"
	      "    --no-cache\n"
	      "        Neither use nor store a cached result.  --check and --patch keep\n"
	      "        their result in $XDG_CACHE_HOME/blkmig (default ~/.cache/blkmig),\n"
	      "        valid while every file the run read or included (and every\n"
	      "        directory on the way to them) is unchanged, with the same\n"
	      "        blkmig, arguments, spatch and semantic patches; safe to delete.\n"
	      "        BLKMIG_NO_CACHE=1 does the same as --no-cache.\n"
	      "\n",
	      out);
	bm_options_usage(out);
	fputs("\nEXIT STATUS\n"
	      "    --check: 0 nothing would change, 1 something would change or a file\n"
	      "    could not be read as C (binary data, a parse failure).\n"
	      "    --patch, --series, --in-place: 0 every site converted or nothing to\n"
	      "    do, 1 sites left for manual review or files left untouched.\n"
	      "    2: usage error, missing spatch or cocci files, a path that does not\n"
	      "    exist, an I/O error, spatch failed, a file that could not be written\n"
	      "    (file_not_writable), or another run is changing the same tree.\n"
	      "    130/143: stopped by SIGINT/SIGTERM (files whole: converted or as they were).\n",
	      out);
}

enum mode { MODE_CHECK, MODE_PATCH, MODE_SERIES, MODE_IN_PLACE };

struct mig_args {
	enum mode mode;
	int modes_given;
	const char *patch, *series, *report, *root, *spatch, *cocci_dir;
	const char *format, *output; /* --format, -o: one report to a file or stdout */
	bool no_spatch;		     /* --no-spatch: the analyzer alone */
	bool no_cache;		     /* --no-cache: neither use nor store a cached result */
	char **paths;
	size_t npaths;
};

struct cand {
	char *orig; /* the file, as the analyzer named it */
	char *tmp;  /* its private copy */
	char *orig_data;
	size_t orig_len;
	char *spatched; /* the private copy after spatch */
	size_t spatched_len;
	char *final; /* the result (malloc'd), == orig_data contents if unchanged */
	size_t final_len;
	char *problem; /* left untouched: why */
	const char *problem_code;
	size_t by_spatch, by_analyzer;
	bool aside; /* spatch gave up on it: hidden from its later passes (spatch_set_aside) */
};

struct mig {
	struct mig_args a;
	struct bm_run inv;  /* inventory of the original files */
	struct bm_run post; /* analysis of spatch's result */
	struct bm_run ver;  /* verify of the final result */
	struct cand *c;
	size_t nc;
	char *tmpdir;
	bool spatch_failed;
	char *origin;	     /* per inventory site: 's' spatch, 'a' analyzer, 0 neither */
	char **notes;	     /* per inventory site: why spatch's rewrite was not taken */
	struct cand **slots; /* name -> candidate (index_cands) */
	size_t nslots;

	/* spatch's budget for all its passes (spatch_budget): seconds left, spent */
	double spatch_left;
	bool spatch_timed_out;
};

enum {
	MIG_CHECK = BM_OPT_OWN,
	MIG_IN_PLACE,
	MIG_NO_SPATCH,
	MIG_NO_CACHE,
	MIG_PATCH,
	MIG_SERIES,
	MIG_REPORT,
	MIG_ROOT,
	MIG_SPATCH,
	MIG_COCCI_DIR,
	MIG_FORMAT,
};

static const struct option mig_long[] = {
    {"check", no_argument, NULL, MIG_CHECK},
    {"in-place", no_argument, NULL, MIG_IN_PLACE},
    {"no-spatch", no_argument, NULL, MIG_NO_SPATCH},
    {"no-cache", no_argument, NULL, MIG_NO_CACHE},
    {"patch", required_argument, NULL, MIG_PATCH},
    {"series", required_argument, NULL, MIG_SERIES},
    {"report", required_argument, NULL, MIG_REPORT},
    {"root", required_argument, NULL, MIG_ROOT},
    {"spatch", required_argument, NULL, MIG_SPATCH},
    {"cocci-dir", required_argument, NULL, MIG_COCCI_DIR},
    {"format", required_argument, NULL, MIG_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {NULL, 0, NULL, 0},
};

static int mig_take(void *ctx, int code, const char *v)
{
	struct mig_args *a = ctx;

	if (code == MIG_CHECK || code == MIG_IN_PLACE || code == MIG_PATCH || code == MIG_SERIES) {
		a->mode = code == MIG_CHECK	 ? MODE_CHECK
			  : code == MIG_IN_PLACE ? MODE_IN_PLACE
			  : code == MIG_PATCH	 ? MODE_PATCH
						 : MODE_SERIES;
		a->modes_given++;
		if (code == MIG_PATCH)
			a->patch = v;
		else if (code == MIG_SERIES)
			a->series = v;
	} else if (code == MIG_NO_SPATCH) {
		a->no_spatch = true;
	} else if (code == MIG_NO_CACHE) {
		a->no_cache = true;
	} else if (code == MIG_REPORT) {
		a->report = v;
	} else if (code == MIG_ROOT) {
		a->root = v;
	} else if (code == MIG_SPATCH) {
		a->spatch = v;
	} else if (code == MIG_COCCI_DIR) {
		a->cocci_dir = v;
	} else if (code == MIG_FORMAT) {
		a->format = v;
	} else if (code == 'o') {
		a->output = v;
	} else {
		return -1;
	}
	return 0;
}

/* 0, 1 for --help (usage printed), -1 (said on stderr) */
static int parse_args(struct bm_run *run, int argc, char **argv, struct mig_args *a)
{
	int rc = bm_parse_options("migrate", argc, argv, "o:", mig_long, mig_take, a, &run->opt,
				  &a->paths, &a->npaths);

	if (rc > 0)
		cmd_migrate_usage(stdout);
	if (rc)
		return rc;
	if (a->format && strcmp(a->format, "text") && strcmp(a->format, "json") &&
	    strcmp(a->format, "sarif") && strcmp(a->format, "brief")) {
		fprintf(stderr, "blkmig migrate: --format wants text, json, sarif or brief\n");
		return -1;
	}
	if (a->modes_given > 1) {
		fprintf(stderr,
			"blkmig migrate: give at most one of --check, --patch FILE, --series DIR, "
			"--in-place\n");
		return -1;
	}
	if (!a->npaths) {
		fprintf(stderr, "blkmig migrate: no PATH given (try blkmig migrate --help)\n");
		return -1;
	}
	return 0;
}

static void copy_options(struct bm_options *dst, const struct bm_options *src)
{
	for (size_t i = 0; i < src->include_dirs.n; i++)
		strlist_push(&dst->include_dirs, src->include_dirs.v[i]);
	for (size_t i = 0; i < src->defines.n; i++)
		strlist_push(&dst->defines, src->defines.v[i]);
	dst->build_dir = src->build_dir ? xstrdup(src->build_dir) : NULL;
	dst->kernel_tree = src->kernel_tree ? xstrdup(src->kernel_tree) : NULL;
	dst->jobs = src->jobs;
	dst->timeout = src->timeout;
	dst->headers = src->headers;
	dst->quiet = src->quiet;
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

static size_t hash_str(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* Index both names of every candidate (open addressing, 4 slots per name). */
static void index_cands(struct mig *m)
{
	m->nslots = 8 * m->nc + 8;
	m->slots = xcalloc(m->nslots, sizeof(*m->slots));
	for (size_t i = 0; i < m->nc; i++) {
		const char *names[2] = {m->c[i].orig, m->c[i].tmp};

		for (int k = 0; k < 2; k++) {
			size_t h = hash_str(names[k]) % m->nslots;

			while (m->slots[h])
				h = (h + 1) % m->nslots;
			m->slots[h] = &m->c[i];
		}
	}
}

static struct cand *cand_of(struct mig *m, const char *path)
{
	size_t h;

	if (!m->nslots)
		return NULL;
	for (h = hash_str(path) % m->nslots; m->slots[h]; h = (h + 1) % m->nslots)
		if (!strcmp(m->slots[h]->orig, path) || !strcmp(m->slots[h]->tmp, path))
			return m->slots[h];
	return NULL;
}

static void leave_untouched(struct cand *c, const char *code, const char *why)
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

static int changed(const struct cand *c)
{
	return !c->problem &&
	       (c->final_len != c->orig_len || memcmp(c->final, c->orig_data, c->orig_len));
}

/* Copy the files that have sites into the private tree: TMP/<n>/<base name>. */
static int make_copies(struct mig *m)
{
	char tmpl[] = "/tmp/blkmig-migrate.XXXXXX";
	const char *td = getenv("TMPDIR");
	char *t = td && *td ? xasprintf("%s/blkmig-migrate.XXXXXX", td) : xstrdup(tmpl);
	size_t cap = 0;

	if (!mkdtemp(t)) {
		fprintf(stderr, "blkmig migrate: cannot create a temporary directory %s: %s\n", t,
			strerror(errno));
		free(t);
		return -1;
	}
	m->tmpdir = t;
	cleanup_add_dir(t);
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
					td && *td ? td : "/tmp", f->path);
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
static double spatch_budget(const struct mig *m)
{
	unsigned t = m->inv.opt.timeout ? m->inv.opt.timeout : 120;
	size_t j = m->inv.opt.jobs > 1 ? (size_t)m->inv.opt.jobs : 1;

	return (double)t * (double)((m->nc + j - 1) / j);
}

static double now_s(void); /* the monotonic clock, in seconds */
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
static void spatch_include_args(const struct mig *m, struct bm_strlist *av)
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
static int run_spatch(struct mig *m, const char *spatch, const char *cocci, const char *options,
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
static void spatch_timeouts(struct mig *m)
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
static void spatch_restore_aside(struct mig *m)
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

static void show_log_tail(const struct mig *m)
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

/* "function\x1fcall\x1ftrimmed line text": what identifies a site across rewrites */
static char *site_key(const struct bm_site *s, const char *data, size_t len)
{
	size_t a = s->offset < len ? s->offset : len, b;

	while (a > 0 && data[a - 1] != '\n')
		a--;
	b = a;
	while (b < len && data[b] != '\n')
		b++;
	while (a < b && (data[a] == ' ' || data[a] == '\t'))
		a++;
	while (b > a && (data[b - 1] == ' ' || data[b - 1] == '\t' || data[b - 1] == '\r'))
		b--;
	return xasprintf("%s\x1f%s\x1f%.*s", s->function ? s->function : "", s->call, (int)(b - a),
			 data + a);
}

/* The lines [first, last] (1-based) the site's "before" text covers in @data. */
/* "call(..); + a trailing comment" -> "call(..)": the statement's end is not part of the call */
static void trim_statement_end(char *r)
{
	size_t n = strlen(r);

	while (n && (r[n - 1] == ' ' || r[n - 1] == '\t'))
		n--;
	if (n >= 2 && r[n - 1] == '/' && r[n - 2] == '*') {
		char *open = NULL;

		for (char *q = r; (q = strstr(q, "/*")) && q < r + n - 2; q++)
			open = q;
		if (open)
			n = (size_t)(open - r);
		while (n && (r[n - 1] == ' ' || r[n - 1] == '\t'))
			n--;
	}
	if (n && r[n - 1] == ';')
		n--;
	r[n] = '\0';
}

/*
 * A spatch-converted site whose lines lie inside another site's edit (the
 * end_that_request_last of a pair spatch rewrote as one call) has no change
 * of its own: it is folded into that site's, and says so, as the analyzer's
 * folded sites do.
 */
static void fold_into_covering_site(const struct bm_run *run, struct bm_site *s)
{
	if (s->nedits)
		return;
	for (size_t i = 0; i < run->nsites; i++) {
		const struct bm_site *t = &run->sites[i];

		if (t == s || strcmp(t->file, s->file))
			continue;
		for (size_t k = 0; k < t->nedits; k++)
			if (!strcmp(t->edits[k].file, s->file) && t->edits[k].start <= s->offset &&
			    s->offset < t->edits[k].end) {
				free(s->replacement);
				s->replacement = xasprintf(
				    "(folded into the conversion spatch made at line %u)", t->line);
				return;
			}
	}
}

/*
 * The lines [*first, *last] of @data that hold the site's `before` text: its first
 * occurrence that covers the call.  An occurrence covers it only if it starts in
 * (offset - blen, offset], so only that window is searched, and the line is counted back
 * from the call's own line: a whole-file search per site made a file with thousands of
 * sites quadratic (issue 25, item 9).
 */
static void before_range(const struct bm_site *s, const char *data, size_t len, unsigned *first,
			 unsigned *last)
{
	unsigned nl = 0;
	const char *p;
	size_t blen = s->before ? strlen(s->before) : 0, from, to;

	*first = *last = s->line;
	if (!blen || s->offset >= len)
		return;
	for (size_t i = 0; i + 1 < blen; i++)
		nl += s->before[i] == '\n';
	from = s->offset + 1 >= blen ? s->offset + 1 - blen : 0;
	to = s->offset + blen < len ? s->offset + blen : len;
	p = memmem(data + from, to - from, s->before, blen);
	if (p && (size_t)(p - data) <= s->offset) {
		unsigned line = s->line;

		for (const char *q = p; q < data + s->offset; q++)
			line -= *q == '\n';
		*first = line;
		*last = line + nl;
	}
}

static int precheck_target(const char *plan_path, void *ctx, char *err, size_t errlen)
{
	struct cand *c = cand_of(ctx, plan_path);

	return atomic_precheck(c ? c->orig : plan_path, NULL, 0, NULL, err, errlen);
}

static int is_unsafe_reason(const char *code)
{
	/* every reason the analysis leaves a site for: nothing else proves spatch's
	 * rewrite of it exact (a conversion is taken only where the analysis proves it) */
	return code != NULL;
}

/* A message about the private copies told with the user's names and lines. */
static char *user_names(struct mig *m, const char *msg)
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
static char *user_text_of(struct mig *m, const struct cand *c, const char *msg)
{
	char *t, *s;

	if (!c)
		return user_names(m, msg);
	t = origin_text_of(&(struct origin_copy){c->tmp, c->orig, c->orig_data, c->orig_len}, msg);
	s = user_names(m, t);
	free(t);
	return s;
}

static void set_manual(struct bm_site *s, const char *code, const char *text)
{
	s->verdict = BM_MANUAL;
	s->reason_code = code;
	free(s->reason_text);
	s->reason_text = xstrdup(text);
	free(s->after);
	s->after = xstrdup("");
	free(s->replacement);
	s->replacement = xstrdup("");
	origin_drop_edits(s); /* REPORT.md: a manual site has no edits */
}

/*
 * spatch's output is not trusted (issue 25, item 1; output_guard.c): a file whose copy
 * spatch changed outside its sites and what their conversion may touch (a truncated
 * file, another function, garbage at file scope) is left byte for byte
 * (spatch_output_rejected), and its copy is restored for the analysis that follows.
 */
static void guard_spatch_output(struct mig *m)
{
	for (size_t ci = 0; ci < m->nc; ci++) {
		struct cand *c = &m->c[ci];
		struct og_site *sites;
		size_t n = 0, sp_len;
		char *sp, err[256];
		unsigned bad;

		if (c->problem || read_whole_file(c->tmp, &sp, &sp_len, err, sizeof(err)) < 0)
			continue;
		sites = xcalloc(m->inv.nsites + 1, sizeof(*sites));
		for (size_t i = 0; i < m->inv.nsites; i++)
			if (cand_of(m, m->inv.sites[i].file) == c) {
				before_range(&m->inv.sites[i], c->orig_data, c->orig_len,
					     &sites[n].first, &sites[n].last);
				n++;
			}
		if (output_guard_confined(c->orig_data, c->orig_len, sp, sp_len, sites, n, NULL, 0,
					  &bad) == 0) {
			char *why = output_guard_message("spatch's output", c->orig_data,
							 c->orig_len, sp_len, bad);

			leave_untouched(c, "spatch_output_rejected", why);
			free(why);
			atomic_replace_new(c->tmp, c->orig_data, c->orig_len, err, sizeof(err));
		}
		free(sites);
		free(sp);
	}
}

/*
 * The parse half of the check (issue 25, item 1): a changed file whose original parses
 * without an error must give a result that does too, both parsed alike
 * (output_guard_parse: the same options, private copies outside the tree).  Where the
 * original has errors in that context, its headers are missing and the check is left to
 * the confinement alone.  A result verify parsed without an
 * error cannot be worse; for one it parsed with errors only the original is parsed (in
 * the same way: verify's copy is outside the tree too), and one it did not parse (no
 * completion call left) is parsed with its original.
 */
static void guard_parse(struct mig *m)
{
	struct og_text *t = xcalloc(m->nc + 1, sizeof(*t));
	size_t *ci = xcalloc(m->nc + 1, sizeof(*ci)), n = 0;

	for (size_t i = 0; i < m->nc; i++) {
		const struct cand *c = &m->c[i];
		const struct bm_file *vf = NULL;
		const char *base = strrchr(c->tmp, '/') ? strrchr(c->tmp, '/') + 1 : c->tmp;

		if (!changed(c))
			continue;
		for (size_t k = 0; k < m->ver.nfiles; k++)
			if (!strcmp(m->ver.files[k].path, c->tmp))
				vf = &m->ver.files[k];
		if (vf && vf->status == BM_PARSE_OK)
			continue;
		t[n] = (struct og_text){.name = base,
					.old = c->orig_data,
					.new = c->final,
					.old_len = c->orig_len,
					.new_len = c->final_len};
		/* verify parsed the result in this context already: its errors are known */
		if (vf && vf->status == BM_PARSE_PARTIAL) {
			t[n].new_known = true;
			t[n].new_errors = vf->errors;
		}
		ci[n++] = i;
	}
	if (n) {
		struct bm_run o, nw;
		char *dir = xasprintf("%s/parse-check", m->tmpdir);

		bm_run_init(&o, "verify");
		bm_run_init(&nw, "verify");
		copy_options(&o.opt, &m->post.opt);
		copy_options(&nw.opt, &m->post.opt);
		o.opt.quiet = nw.opt.quiet = true;
		if (output_guard_parse(&o, &nw, dir, t, n) == 0) {
			for (size_t k = 0; k < n; k++) {
				struct cand *c = &m->c[ci[k]];
				bool sp =
				    c->spatched && (c->spatched_len != c->orig_len ||
						    memcmp(c->spatched, c->orig_data, c->orig_len));
				char *why;

				/* an original that parses with errors here lacks headers
				 * (stubs stood in): a count says nothing then (a version guard
				 * a rewrite adds is an error where KERNEL_VERSION is unknown) */
				if (!t[k].parsed || t[k].old_errors || !t[k].new_errors)
					continue;
				why = xasprintf("%s parses with %u error(s) where the original has "
						"%u (both parsed alike); not trusted: nothing of "
						"this file is written",
						sp ? "spatch's result" : "the analyzer's rewrite",
						t[k].new_errors, t[k].old_errors);
				leave_untouched(
				    c, sp ? "spatch_output_rejected" : "rewrite_not_confined", why);
				free(why);
			}
		}
		bm_run_free(&o);
		bm_run_free(&nw);
		free(dir);
	}
	free(t);
	free(ci);
}

/*
 * The analysis judges spatch's rewrite site by site (proof, not unanimity): a site the
 * analysis holds unsafe, or where spatch chose another lock contract than the one the
 * analysis proves, gets spatch's change undone in the private copy, so the rest of the
 * file keeps spatch's conversions and the analysis of the copy sees the site again (and
 * converts it, or reports it). Only when spatch's changes cannot be separated by site is
 * the whole file left, as before (tools_disagree).
 */
static void judge_spatch(struct mig *m)
{
	m->notes = xcalloc(m->inv.nsites + 1, sizeof(char *));
	for (size_t ci = 0; ci < m->nc; ci++) {
		struct cand *c = &m->c[ci];
		struct combine_site *cs;
		size_t *idx, n = 0, out_len;
		char *sp, *out, err[256];
		size_t sp_len;
		bool strict = false;
		int r;

		if (c->problem || read_whole_file(c->tmp, &sp, &sp_len, err, sizeof(err)) < 0)
			continue;
		cs = xcalloc(m->inv.nsites + 1, sizeof(*cs));
		idx = xcalloc(m->inv.nsites + 1, sizeof(*idx));
		for (size_t i = 0; i < m->inv.nsites; i++) {
			if (cand_of(m, m->inv.sites[i].file) != c)
				continue;
			before_range(&m->inv.sites[i], c->orig_data, c->orig_len, &cs[n].first,
				     &cs[n].last);
			idx[n++] = i;
		}
		combine_mark_touched(c->orig_data, c->orig_len, sp, sp_len, cs, n);
		for (size_t k = 0; k < n; k++) {
			struct bm_site *s = &m->inv.sites[idx[k]];
			char *text;
			const char *vs, *va;

			if (!cs[k].touched)
				continue;
			if (s->verdict == BM_MANUAL && is_unsafe_reason(s->reason_code)) {
				/* a wrapper's callers elsewhere may carry spatch's change too */
				strict |= s->pattern == BM_PAT_WRAPPER_PARAM ||
					  s->uptodate_class == BM_UT_WRAPPER ||
					  !strcmp(s->reason_code, "wrapper_external_callers") ||
					  !strcmp(s->reason_code, "uptodate_unknown");
				cs[k].reject =
				    !strcmp(s->reason_code, "compat_branch") ||
					    !strcmp(s->reason_code, "multi_version")
					? xasprintf("spatch rewrote it too; that rewrite was "
						    "undone (%s)",
						    s->reason_code)
					: xasprintf("spatch rewrote it, but the analysis cannot "
						    "prove that rewrite exact (%s), so it was not "
						    "taken",
						    s->reason_code);
				continue;
			}
			if (s->verdict != BM_AUTO)
				continue;
			text = udiff_new_lines(c->orig_data, c->orig_len, sp, sp_len, cs[k].first,
					       cs[k].last);
			vs = combine_variant(text);
			va = combine_variant(s->replacement);
			if (vs && va && strcmp(vs, va)) {
				cs[k].reject = xasprintf(
				    "spatch chose %s here; the analysis proves %s (%s), so the "
				    "analyzer's rewrite was taken",
				    vs, va,
				    s->lock_evidence.n ? s->lock_evidence.v[0]
						       : "its lock context");
			} else if (vs && va) {
				/* the byte count is proven by the analysis alone (rq_fields.c):
				 * a helper where the driver may have changed what it reads is
				 * not spatch's to decide */
				char *bs = combine_bytes(text), *ba = combine_bytes(s->replacement);

				if (bs && ba && strcmp(bs, ba))
					cs[k].reject = xasprintf(
					    "spatch passes %s bytes here; the analysis proves %s "
					    "exact (%s), so the analyzer's rewrite was taken",
					    bs, ba, s->bytes_origin ? s->bytes_origin : "");
				free(bs);
				free(ba);
			}
			free(text);
		}
		/* a first/last pair is one rewrite: undoing one half undoes the other (the
		 * sites of one function go together, as the analysis pairs them) */
		for (size_t k = 0; k < n; k++) {
			const struct bm_site *s = &m->inv.sites[idx[k]];

			if (!cs[k].reject || !s->function || !*s->function)
				continue;
			for (size_t j = 0; j < n; j++) {
				const struct bm_site *o = &m->inv.sites[idx[j]];

				if (j != k && cs[j].touched && !cs[j].reject && o->function &&
				    !strcmp(o->function, s->function))
					cs[j].reject = xasprintf("spatch's rewrite here goes with "
								 "its rewrite of line %u "
								 "in %s(), which was not taken",
								 s->line, s->function);
			}
		}
		r = combine_revert(c->orig_data, c->orig_len, sp, sp_len, cs, n, strict, &out,
				   &out_len);
		if (r > 0 && atomic_replace_new(c->tmp, out, out_len, err, sizeof(err)) < 0)
			r = -1;
		for (size_t k = 0; k < n; k++) {
			if (r > 0 && cs[k].reverted)
				m->notes[idx[k]] =
				    cs[k].reject ? cs[k].reject
						 : xstrdup("spatch's change here was undone with a "
							   "neighbouring site's it could not be "
							   "separated from");
			else
				free(cs[k].reject);
		}
		if (r < 0) {
			char *why = xasprintf(
			    "spatch converted a site here that the analyzer holds unsafe or "
			    "converts with another lock contract, and spatch's changes in this "
			    "file cannot be undone site by site");

			leave_untouched(c, "tools_disagree", why);
			free(why);
		}
		free(out);
		free(sp);
		free(cs);
		free(idx);
	}
}

/*
 * A verify finding that the original already had: __blk_end_request without the queue
 * lock in a function whose 2.6.24 code called a legacy function that needed the lock
 * (end_request, end_queued/dequeued_request, end_that_request_last) where the analysis
 * found it not held. The conversion kept that call's contract; the bug predates it.
 */
static bool preexisting_lock_bug(struct mig *m, const struct bm_finding *f, struct cand *c)
{
	size_t bugs = 0, findings = 0;

	if (f->kind != BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK)
		return false;
	for (size_t i = 0; i < m->inv.nsites; i++) {
		const struct bm_site *s = &m->inv.sites[i];

		bugs += cand_of(m, s->file) == c && s->lock == BM_LOCK_NOT_HELD &&
			combine_call_needs_lock(s->call) && s->function && f->function &&
			!strcmp(s->function, f->function);
	}
	for (size_t i = 0; i < m->ver.nfindings; i++) {
		const struct bm_finding *g = &m->ver.findings[i];

		findings += g->kind == BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK &&
			    cand_of(m, g->file) == c && g->function && f->function &&
			    !strcmp(g->function, f->function);
	}
	return bugs && findings <= bugs;
}

/*
 * spatch converted a site the analysis reported for a reason that does not make its
 * rewrite unsafe (judge_spatch undid those): the site is converted, so the report says
 * so, with the analysis' reservation as evidence. A call that needed the queue lock and
 * ran without it kept its contract (judge_spatch undid any other variant): a pre-existing
 * lock bug, reported as such.
 */
static void accept_spatch_site(struct bm_site *s)
{
	char *note;

	/* the call that needed the lock: a data completion's final step, not itself */
	bool data = s->call && (!strcmp(s->call, "end_that_request_first") ||
				!strcmp(s->call, "end_that_request_chunk"));

	if (s->reason_code && !strcmp(s->reason_code, "lock_not_held"))
		note = xasprintf("preexisting_lock_bug: 2.6.24 already called %s%s here without "
				 "the queue lock (%s); converted by spatch to __blk_end_request, "
				 "the same contract",
				 data ? "end_that_request_last, the final step of this " : "",
				 s->call, s->reason_text ? s->reason_text : "");
	else
		note = xasprintf("converted by spatch; the analysis had reported it (%s: %s) "
				 "but holds nothing against the rewrite, and verify accepts it",
				 s->reason_code ? s->reason_code : "manual",
				 s->reason_text ? s->reason_text : "");
	strlist_push_owned(&s->lock_evidence, note);
	s->verdict = BM_AUTO;
	s->reason_code = NULL;
	free(s->reason_text);
	s->reason_text = NULL;
}

/*
 * Decide every inventory site's outcome from the post-spatch analysis: still there as
 * auto (the analyzer converts it), still there as manual (reported), or gone (spatch
 * converted it). Files where spatch converted a site the analyzer holds unsafe are
 * left untouched.
 */
static void reconcile(struct mig *m, bool *used_post)
{
	struct cand **post_cand = xcalloc(m->post.nsites + 1, sizeof(*post_cand));

	for (size_t j = 0; j < m->post.nsites; j++)
		post_cand[j] = cand_of(m, m->post.sites[j].file);
	for (size_t i = 0; i < m->nc; i++) {
		char err[256];

		if (read_whole_file(m->c[i].tmp, &m->c[i].spatched, &m->c[i].spatched_len, err,
				    sizeof(err)) < 0)
			m->c[i].spatched = NULL;
	}
	origin_trust_begin(); /* the copies and originals stay as they are in this loop */
	for (size_t i = 0; i < m->inv.nsites; i++) {
		struct bm_site *s = &m->inv.sites[i];
		struct cand *c = cand_of(m, s->file);
		char *key;
		size_t j;

		if (!c)
			continue;
		key = site_key(s, c->orig_data, c->orig_len);
		for (j = 0; j < m->post.nsites; j++) {
			struct bm_site *p = &m->post.sites[j];
			char *pkey;
			int same;

			if (used_post[j] || post_cand[j] != c || !c->spatched)
				continue;
			pkey = site_key(p, c->spatched, c->spatched_len);
			/* the same text and the same place: two calls of one function can read
			 * alike (mmc's chunks), so the copy's line must stand where this one is */
			same = !strcmp(key, pkey) &&
			       origin_line(c->spatched, c->spatched_len, c->orig_data, c->orig_len,
					   p->line) == s->line;
			free(pkey);
			if (same)
				break;
		}
		free(key);
		if (j < m->post.nsites) {
			struct bm_site *p = &m->post.sites[j];

			used_post[j] = true;
			m->origin[i] = p->verdict == BM_AUTO ? 'a' : 0;
			if (p->verdict == BM_MANUAL) {
				char *t = user_text_of(m, c, p->reason_text);

				set_manual(s, p->reason_code, t);
				free(t);
			} else {
				c->by_analyzer++;
			}
			continue;
		}
		/* spatch converted it */
		if (s->verdict == BM_MANUAL && is_unsafe_reason(s->reason_code)) {
			char *why = xasprintf("spatch converted %s at line %u, but the analyzer "
					      "holds it unsafe (%s)",
					      s->call, s->line, s->reason_code);

			leave_untouched(c, "tools_disagree", why);
			free(why);
		} else {
			c->by_spatch++;
			m->origin[i] = 's';
			if (s->verdict == BM_MANUAL)
				accept_spatch_site(s);
		}
	}
	origin_trust_end();
	free(post_cand);
}

/* Does @text still call @name (an identifier followed by "(")? */
/*
 * A call of name in text, outside the #else of a guard the analysis wrote
 * (guard_rewrite.c: the old lines kept for kernels before 2.6.25).
 */
static int still_calls(const char *text, const char *name)
{
	static const char guard[] = "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)\n";
	size_t n = strlen(name);
	const char *g = strstr(text, guard), *els, *end;

	if (g && (els = strstr(g, "\n#else\n")) && (end = strstr(els, "\n#endif"))) {
		char *rest = xasprintf("%.*s%s", (int)(els - text), text, end + 7);
		int r = still_calls(rest, name);

		free(rest);
		return r;
	}
	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		const char *q = p + n;
		char before = p > text ? p[-1] : ' ';

		if (before == '_' || (before >= 'a' && before <= 'z') ||
		    (before >= 'A' && before <= 'Z') || (before >= '0' && before <= '9'))
			continue;
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if (*q == '(')
			return 1;
	}
	return 0;
}

/* @text on one line: runs of white space become one space, trimmed. */
static char *collapse_space(const char *text)
{
	char *r = xmalloc(strlen(text) + 1), *o = r;
	bool space = false;

	for (const char *p = text; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			space = o != r;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		*o++ = *p;
	}
	*o = '\0';
	return r;
}

/* Final outcome of each inventory site for the report and the summary. */
/*
 * A site left because the queue lock is held on some paths to it and not on others
 * (an old lock bug) whose call 2.6.25 still has, with the same contract (end_request,
 * end_queued_request, end_dequeued_request): left as it is, it behaves as before, and
 * an old bug never blocks the rest of a file.  The same for such a call left as
 * multi_version, and for any site left as compat_branch (version_guard.c).
 */
static bool old_call_kept(const struct bm_site *s)
{
	/* version_guard.c: code for kernels before 2.6.25 only (or the file's own version
	 * of the API), never compiled with the converted code: it stays as it is */
	if (s->verdict == BM_MANUAL && s->reason_code && !strcmp(s->reason_code, "compat_branch"))
		return true;
	/* multi_version: a call 2.6.25 still has, kept for the older kernels */
	return s->verdict == BM_MANUAL && s->reason_code &&
	       (!strcmp(s->reason_code, "lock_mixed") ||
		!strcmp(s->reason_code, "multi_version")) &&
	       (!strcmp(s->call, "end_request") || !strcmp(s->call, "end_queued_request") ||
		!strcmp(s->call, "end_dequeued_request"));
}

/*
 * A file is converted whole or not at all.  A file whose conversion leaves any of its
 * legacy calls to a human (a manual site, or a call still in its lines after both tools)
 * would mix the 2.6.24 and 2.6.25 APIs, and a converted call can then finish a request
 * that a legacy call left beside it finishes again (mmc's error loop before its
 * end_that_request_last).  Such a file is left as it was, before anything is written,
 * and the report names the sites that need the human.  The exceptions (old_call_kept()):
 * a call 2.6.25 still has, left for its lock context alone or for the older kernels a
 * multi-version file supports, and code compiled only for kernels before 2.6.25.
 */
/*
 * The analysis put the site's rewrite under a version guard (guard_rewrite.c): its old
 * lines may stand unchanged in the guard's #else, the directives inserted around them
 * (for the second half of a pair, some lines away).  The final text of the site's lines
 * widened until it holds the guard, when the call is gone from it but for the #else;
 * else NULL.
 */
static char *guarded_after(const struct cand *c, const struct bm_site *s)
{
	unsigned first, last;
	bool guarded = false;

	for (size_t e = 0; e < s->lock_evidence.n; e++)
		guarded |= !strncmp(s->lock_evidence.v[e], "version_guarded:", 16);
	if (!guarded || !c->final)
		return NULL;
	before_range(s, c->orig_data, c->orig_len, &first, &last);
	for (unsigned w = 1; w <= 256; w *= 2) {
		char *after = udiff_new_lines(c->orig_data, c->orig_len, c->final, c->final_len,
					      first > w ? first - w : 1, last + w);

		if (after && strstr(after, "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)\n") &&
		    strstr(after, "\n#endif")) {
			if (!still_calls(after, s->call))
				return after;
			free(after);
			return NULL;
		}
		free(after);
	}
	return NULL;
}

static bool guarded_away(const struct cand *c, const struct bm_site *s)
{
	char *after = guarded_after(c, s);

	free(after);
	return after != NULL;
}

static void leave_partial_files(struct mig *m)
{
	/* (the file is converted around a site left as old_call_kept() says) */
	for (size_t ci = 0; ci < m->nc; ci++) {
		struct cand *c = &m->c[ci];
		struct bm_strlist left = {0};

		if (!changed(c))
			continue;
		udiff_trust_begin(); /* c's texts stay as they are in this loop */
		for (size_t i = 0; i < m->inv.nsites; i++) {
			const struct bm_site *s = &m->inv.sites[i];
			bool manual =
			    s->verdict == BM_MANUAL && !(m->origin && m->origin[i] == 's');
			unsigned first, last;
			char *after;

			if (cand_of(m, s->file) != c || old_call_kept(s))
				continue;
			if (!manual) {
				before_range(s, c->orig_data, c->orig_len, &first, &last);
				after = udiff_new_lines(c->orig_data, c->orig_len, c->final,
							c->final_len, first, last);
				manual =
				    after && still_calls(after, s->call) && !guarded_away(c, s);
				free(after);
			}
			if (manual)
				strlist_push_owned(
				    &left,
				    xasprintf("%s at line %u (%s)", s->call, s->line,
					      s->reason_code ? s->reason_code : "still called"));
		}
		udiff_trust_end();
		if (left.n) {
			char *list = xstrdup(left.v[0]), *why;

			for (size_t k = 1; k < left.n; k++) {
				char *t = xasprintf("%s, %s", list, left.v[k]);

				free(list);
				list = t;
			}
			why = xasprintf("%zu legacy call(s) of this file need a human: %s; "
					"converting the others alone would mix the 2.6.24 "
					"and 2.6.25 APIs in one file",
					left.n, list);

			leave_untouched(c, "partial_file", why);
			free(why);
			free(list);
		}
		strlist_free(&left);
	}
}

static void finish_sites(struct mig *m, size_t *converted, size_t *by_spatch)
{
	*converted = *by_spatch = 0;
	udiff_trust_begin(); /* no candidate's text changes in this loop */
	for (size_t i = 0; i < m->inv.nsites; i++) {
		struct bm_site *s = &m->inv.sites[i];
		struct cand *c = cand_of(m, s->file);
		unsigned first, last;
		char *wide;

		if (!c) {
			if (s->verdict == BM_AUTO)
				set_manual(s, "unparsed", "the file was not converted");
			continue;
		}
		if (m->notes && m->notes[i] && !c->problem) {
			if (s->verdict == BM_MANUAL) {
				char *t = xasprintf("%s; %s", s->reason_text ? s->reason_text : "",
						    m->notes[i]);

				free(s->reason_text);
				s->reason_text = t;
			} else {
				strlist_push(&s->lock_evidence, m->notes[i]);
			}
		}
		if (c->problem) {
			if (s->verdict == BM_AUTO || !s->reason_code ||
			    !strcmp(c->problem_code, "file_not_writable") ||
			    !strcmp(c->problem_code, "timeout"))
				set_manual(s, c->problem_code, c->problem);
			continue;
		}
		if (s->verdict == BM_MANUAL && m->origin && m->origin[i] == 's') {
			/* spatch converted a site the analyzer left for review (not one it
			 * holds unsafe): the file changes there, so the report says so */
			s->verdict = BM_AUTO;
			s->reason_code = NULL;
			free(s->reason_text);
			s->reason_text = NULL;
		}
		if (s->verdict == BM_MANUAL)
			continue;
		before_range(s, c->orig_data, c->orig_len, &first, &last);
		free(s->after);
		s->after =
		    udiff_new_lines(c->orig_data, c->orig_len, c->final, c->final_len, first, last);
		if (!s->after)
			s->after = xstrdup("");
		/* The oracle: a site counts as converted only if its call is gone from its
		 * lines. One that spatch skipped and the second analysis did not see stays,
		 * and is reported rather than lost. */
		if (still_calls(s->after, s->call) && (wide = guarded_after(c, s))) {
			/* the site's lines with the guard the analysis wrote around them */
			free(s->after);
			s->after = wide;
		}
		if (still_calls(s->after, s->call)) {
			char *why =
			    xasprintf("%s is still called here after spatch and the analyzer "
				      "(spatch skipped it and the analysis of its output did "
				      "not find it)",
				      s->call);

			set_manual(s, "unparsed", why);
			free(why);
			continue;
		}
		(*converted)++;
		if (m->origin && m->origin[i] == 's') {
			/* spatch's rewrite, not the analyzer's proposal, is what happened */
			(*by_spatch)++;
			free(s->replacement);
			s->replacement =
			    *s->after ? collapse_space(s->after)
				      : xstrdup("(folded into the conversion spatch made above)");
			/* a replacement is the call, as scan gives it: no statement ';' (nor
			 * a comment after it) */
			trim_statement_end(s->replacement);
			origin_line_edit(&m->inv, s, c->orig_data, c->orig_len);
			fold_into_covering_site(&m->inv, s);
		}
	}
	udiff_trust_end();
}

/* The verify findings of the result belong to the report, told on the original files. */
static void merge_findings(struct mig *m)
{
	/* the verify findings of the result belong to the report */
	for (size_t i = 0; i < m->ver.nfindings; i++) {
		struct bm_finding *src = &m->ver.findings[i], *d;
		char *file;

		if (!bm_finding_fails(src))
			continue; /* the inventory already reports the old bug */
		file = user_names(m, src->file);
		d = vec_push(m->inv.findings, m->inv.nfindings, m->inv.findings_cap);
		*d = *src;
		d->file = file;
		{
			char *at = xasprintf("%s:%u", src->file, src->line), *u = user_names(m, at);
			const char *colon = strrchr(u, ':');

			d->line = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : d->line;
			free(at);
			free(u);
		}
		d->function = xstrdup(src->function ? src->function : "");
		d->message = user_text_of(m, cand_of(m, src->file), src->message);
	}
}

/* --series DIR: every file with sites, as the run leaves it (cli/series.c). */
static int write_series(struct mig *m)
{
	struct series_file *f = xcalloc(m->nc + 1, sizeof(*f));
	int r;

	for (size_t i = 0; i < m->nc; i++) {
		bool ch = changed(&m->c[i]);

		f[i] = (struct series_file){m->c[i].orig,
					    m->c[i].orig_data,
					    m->c[i].orig_len,
					    ch ? m->c[i].final : m->c[i].orig_data,
					    ch ? m->c[i].final_len : m->c[i].orig_len,
					    ch};
	}
	r = series_write(m->a.series, m->a.root, f, m->nc, &m->inv);
	free(f);
	if (r >= 0 && !m->inv.opt.quiet)
		fprintf(stderr, "blkmig migrate: %d patch%s in %s\n", r, r == 1 ? "" : "es",
			m->a.series);
	return r < 0 ? -1 : 0;
}

/* The user's file as it was before this run (the page shows its lines). */
static const char *original_of(const char *path, size_t *len, void *ctx)
{
	struct cand *c = cand_of(ctx, path);

	*len = c ? c->orig_len : 0;
	return c ? c->orig_data : NULL;
}

/* The converted contents of @path for the review page (NULL: left as it was). */
static const char *converted_of(const char *path, size_t *len, void *ctx)
{
	struct cand *c = cand_of(ctx, path);
	bool conv = c && !c->problem && c->final && changed(c);

	*len = conv ? c->final_len : 0;
	return conv ? c->final : NULL;
}

static int write_reports(struct mig *m, const char *dir)
{
	char *p;
	FILE *f;
	int rc = 0;
	json_t *j;
	json_error_t jerr;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "blkmig migrate: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	static const struct {
		const char *name;
		int (*fn)(const struct bm_run *, FILE *);
	} writers[] = {{"report.txt", bm_report_text},
		       {"report.json", bm_report_json},
		       {"report.sarif", bm_report_sarif}};
	for (size_t w = 0; w < 3; w++) {
		p = xasprintf("%s/%s", dir, writers[w].name);
		f = fopen(p, "w");
		if (!f || writers[w].fn(&m->inv, f) || fclose(f)) {
			fprintf(stderr, "blkmig migrate: cannot write %s\n", p);
			rc = -1;
		}
		free(p);
	}
	p = xasprintf("%s/report.json", dir);
	j = json_load_file(p, 0, &jerr);
	free(p);
	p = xasprintf("%s/report.html", dir);
	f = fopen(p, "w");
	if (!j || !f ||
	    html_report_write_from(f, j,
				   &(struct html_sources){m->a.root, original_of, converted_of, m,
							  m->inv.opt.source_url}) ||
	    fclose(f)) {
		fprintf(stderr, "blkmig migrate: cannot write %s\n", p);
		rc = -1;
	}
	free(p);
	json_decref(j);
	return rc;
}

static void mig_free(struct mig *m)
{
	if (m->tmpdir) {
		nftw(m->tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		cleanup_del_dir(m->tmpdir);
		free(m->tmpdir);
	}
	for (size_t i = 0; i < m->nc; i++) {
		free(m->c[i].orig);
		free(m->c[i].tmp);
		free(m->c[i].orig_data);
		free(m->c[i].spatched);
		free(m->c[i].final);
		free(m->c[i].problem);
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

/* Replace every changed file; one that cannot be written is left as it was and its
 * sites reported (file_not_writable). Returns how many failed. */
static int replace_changed_files(struct mig *m)
{
	char err[2048];
	int failed = 0;

	for (size_t i = 0; i < m->nc; i++) {
		struct cand *c = &m->c[i];

		if (!changed(c))
			continue;
		if (atomic_replace(c->orig, c->final, c->final_len, c->orig_data, c->orig_len, err,
				   sizeof(err)) < 0) {
			leave_untouched(c, "file_not_writable", err);
			failed++;
		}
	}
	return failed;
}

/* Remove the marked leftovers of a killed in-place write (cleanup_leftovers_in) from
 * every directory of the run's files.  In-place runs only, under the tree lock. */
static void remove_leftovers(const struct bm_run *run)
{
	struct bm_strlist seen = {0};

	for (size_t i = 0; i < run->nfiles; i++) {
		char *d = xstrdup(run->files[i].path), *slash = strrchr(d, '/');

		if (slash)
			*slash = '\0';
		else
			strcpy(d, ".");
		if (!strlist_has(&seen, d)) {
			cleanup_leftovers_in(d);
			strlist_push(&seen, d);
		}
		free(d);
	}
	strlist_free(&seen);
}

/*
 * The cache of a --check or --patch run (cache.c): keyed by the command line and
 * everything that shapes the result besides the files (libclang, spatch, the
 * semantic patches); the trees walked, so that a directory's entries count.
 */
static struct bm_cache *open_cache(struct mig *m, const char *spatch,
				   const struct bm_strlist *cocci, const struct bm_strlist *copts,
				   const char *macros)
{
	struct bm_cache *c;
	CXString v;

	if (m->a.no_cache || m->a.mode == MODE_IN_PLACE)
		return NULL;
	/* the command line as parsed, in one canonical form (-Ix and -I x are one entry);
	 * where the outputs go and how reports are written, -q and -j do not change the
	 * result: not in the key; patch and series give the same result: the same entry */
	const struct bm_options *o = &m->inv.opt;
	struct bm_strlist key = {0};
	char num[32];

	strlist_push(&key, m->a.mode == MODE_CHECK ? "--check" : "--patch");
	if (m->a.no_spatch)
		strlist_push(&key, "--no-spatch");
	if (o->headers)
		strlist_push(&key, "--headers");
	if (o->follow)
		strlist_push(&key, "--follow");
	{
		const char *named[][2] = {{"--root", m->a.root},
					  {"--spatch", m->a.spatch},
					  {"--cocci-dir", m->a.cocci_dir},
					  {"--format", m->a.format},
					  {"-p", o->build_dir},
					  {"--kernel-tree", o->kernel_tree}};

		for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			if (named[i][1]) {
				strlist_push(&key, named[i][0]);
				strlist_push(&key, named[i][1]);
			}
	}
	for (size_t i = 0; i < o->include_dirs.n; i++) {
		strlist_push(&key, "-I");
		strlist_push(&key, o->include_dirs.v[i]);
	}
	for (size_t i = 0; i < o->defines.n; i++) {
		strlist_push(&key, "-D");
		strlist_push(&key, o->defines.v[i]);
	}
	snprintf(num, sizeof(num), "%u", o->timeout);
	strlist_push(&key, "--timeout");
	strlist_push(&key, num);
	strlist_push(&key, "--");
	for (size_t i = 0; i < m->a.npaths; i++)
		strlist_push(&key, m->a.paths[i]);
	c = bm_cache_open("migrate", (int)key.n, key.v);
	strlist_free(&key);
	if (!c)
		return NULL;
	v = clang_getClangVersion();
	bm_cache_key_text(c, "libclang", clang_getCString(v), strlen(clang_getCString(v)));
	clang_disposeString(v);
	bm_cache_key_text(c, "spatch", spatch ? spatch : "", spatch ? strlen(spatch) : 0);
	if (spatch)
		bm_cache_key_stat(c, spatch);
	for (size_t i = 0; i < cocci->n; i++) {
		bm_cache_key_file(c, cocci->v[i]);
		bm_cache_key_text(c, "options", copts->v[i], strlen(copts->v[i]));
	}
	if (macros)
		bm_cache_key_file(c, macros);
	if (m->inv.opt.build_dir) {
		char *db = xasprintf("%s/compile_commands.json", m->inv.opt.build_dir);

		bm_cache_key_file(c, db);
		free(db);
	}
	for (size_t i = 0; i < m->a.npaths; i++) {
		char *root = ktree_find_root(m->a.paths[i]);

		bm_cache_add_root(c, m->a.paths[i]);
		if (root)
			bm_cache_add_root(c, root);
		free(root);
	}
	if (m->inv.opt.kernel_tree)
		bm_cache_add_root(c, m->inv.opt.kernel_tree);
	for (size_t i = 0; i < m->inv.opt.include_dirs.n; i++)
		bm_cache_add_root(c, m->inv.opt.include_dirs.v[i]);
	return c;
}

/* What the output step needs, for the cache: the inventory with its verdicts, and each
 * candidate's result. */
static json_t *mig_state(const struct mig *m, size_t converted, size_t by_spatch)
{
	json_t *cands = json_array(), *inv = run_state_save(&m->inv);

	for (size_t i = 0; i < m->nc; i++) {
		const struct cand *c = &m->c[i];

		json_array_append_new(
		    cands,
		    json_pack(
			"{s:o, s:o, s:o, s:o, s:I, s:I}", "orig",
			run_state_bytes(c->orig, strlen(c->orig)), "final",
			changed(c) ? run_state_bytes(c->final, c->final_len) : json_null(),
			"problem",
			c->problem ? run_state_bytes(c->problem, strlen(c->problem)) : json_null(),
			"problem_code",
			c->problem_code ? json_string(c->problem_code) : json_null(), "by_spatch",
			(json_int_t)c->by_spatch, "by_analyzer", (json_int_t)c->by_analyzer));
	}
	if (!inv) {
		json_decref(cands);
		return NULL;
	}
	return json_pack("{s:o, s:o, s:I, s:I, s:b}", "inv", inv, "cands", cands, "converted",
			 (json_int_t)converted, "by_spatch", (json_int_t)by_spatch, "spatch_failed",
			 m->spatch_failed);
}

/* The state of a cached run back into M; -1 (M as it was) when it does not load. */
static int mig_restore(struct mig *m, json_t *st, size_t *converted, size_t *by_spatch)
{
	json_t *cands = json_object_get(st, "cands"), *v;
	struct bm_run run;
	struct cand *c = NULL;
	size_t nc = 0, cap = 0, i;
	bool bad = !json_is_array(cands);
	char err[1024];

	bm_run_init(&run, "migrate");
	if (bad || run_state_load(json_object_get(st, "inv"), &run) < 0) {
		bm_run_free(&run);
		return -1;
	}
	json_array_foreach(cands, i, v)
	{
		struct cand *d = vec_push(c, nc, cap);
		size_t n;
		json_t *code = json_object_get(v, "problem_code");

		memset(d, 0, sizeof(*d));
		d->orig = run_state_get_bytes(json_object_get(v, "orig"), &n);
		/* the file's content is one of the inputs the cache checked */
		if (!d->orig ||
		    read_whole_file(d->orig, &d->orig_data, &d->orig_len, err, sizeof(err)) < 0) {
			bad = true;
			break;
		}
		d->tmp = xstrdup(d->orig);
		if (json_is_null(json_object_get(v, "final"))) {
			d->final = xmalloc(d->orig_len + 1);
			memcpy(d->final, d->orig_data, d->orig_len + 1);
			d->final_len = d->orig_len;
		} else if (!(d->final =
				 run_state_get_bytes(json_object_get(v, "final"), &d->final_len))) {
			bad = true;
			break;
		}
		if (!json_is_null(json_object_get(v, "problem")))
			d->problem = run_state_get_bytes(json_object_get(v, "problem"), &n);
		d->problem_code = run_state_intern(json_string_value(code));
		d->by_spatch = (size_t)json_integer_value(json_object_get(v, "by_spatch"));
		d->by_analyzer = (size_t)json_integer_value(json_object_get(v, "by_analyzer"));
	}
	if (bad) {
		for (size_t k = 0; k < nc; k++) {
			free(c[k].orig);
			free(c[k].tmp);
			free(c[k].orig_data);
			free(c[k].final);
			free(c[k].problem);
		}
		free(c);
		bm_run_free(&run);
		return -1;
	}
	m->inv.files = run.files;
	m->inv.nfiles = run.nfiles;
	m->inv.files_cap = run.files_cap;
	m->inv.sites = run.sites;
	m->inv.nsites = run.nsites;
	m->inv.sites_cap = run.sites_cap;
	m->inv.findings = run.findings;
	m->inv.nfindings = run.nfindings;
	m->inv.findings_cap = run.findings_cap;
	m->inv.io_errors = run.io_errors;
	m->c = c;
	m->nc = nc;
	m->spatch_failed = json_is_true(json_object_get(st, "spatch_failed"));
	*converted = (size_t)json_integer_value(json_object_get(st, "converted"));
	*by_spatch = (size_t)json_integer_value(json_object_get(st, "by_spatch"));
	return 0;
}

/* A result worth keeping: no I/O error, no spatch failure, no parse that crashed or
 * timed out (those depend on the machine's load, not on the files). */
static bool cacheable(const struct mig *m)
{
	if (m->inv.io_errors || m->spatch_failed)
		return false;
	for (size_t i = 0; i < m->inv.nsites; i++) /* spatch's or the analysis' limit */
		if (m->inv.sites[i].reason_code && !strcmp(m->inv.sites[i].reason_code, "timeout"))
			return false;
	for (size_t i = 0; i < m->inv.nfiles; i++)
		if (m->inv.files[i].status == BM_PARSE_FAILED && m->inv.files[i].reason &&
		    strcmp(m->inv.files[i].reason, "binary data, not C source"))
			return false;
	return true;
}

/* BLKMIG_STAGE_TIMES set: each stage's wall and CPU time (this process and its
 * children: parses, spatch) on stderr, for profiling a run. */
static void stage_time(const char *stage)
{
	static double last_wall, last_cpu;
	struct timespec t;
	struct rusage self, kids;
	double wall, cpu;

	if (!getenv("BLKMIG_STAGE_TIMES"))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	wall = (double)t.tv_sec + (double)t.tv_nsec / 1e9;
	cpu = (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
		       kids.ru_stime.tv_sec) +
	      (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
		       kids.ru_stime.tv_usec) /
		  1e6;
	if (last_wall > 0)
		fprintf(stderr, "blkmig migrate: stage %-10s %7.2fs wall %7.2fs cpu, rss %ld MiB\n",
			stage, wall - last_wall, cpu - last_cpu, self.ru_maxrss / 1024);
	last_wall = wall;
	last_cpu = cpu;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* files the analysis could not read as C: what they hold is unknown, so never "clean" */
static size_t files_unparsed(const struct bm_run *run)
{
	size_t n = 0;

	for (size_t i = 0; i < run->nfiles; i++)
		n += run->files[i].status == BM_PARSE_FAILED;
	return n;
}

/*
 * --check: the files the run would change, one per line, named as in the patch (relative
 * to --root, default the current directory; as given when outside it), before the
 * summary; on standard output, or on stderr when the report goes there (--format
 * without -o).
 */
static void list_changed(const struct mig *m)
{
	FILE *out = (m->a.format || m->a.output) && (!m->a.output || !strcmp(m->a.output, "-"))
			? stderr
			: stdout;
	char err[2048];

	for (size_t i = 0; i < m->nc; i++) {
		char *name;

		if (!changed(&m->c[i]))
			continue;
		name = patch_name(m->c[i].orig, m->a.root, err, sizeof(err));
		fprintf(out, "%s\n", name ? name : m->c[i].orig);
		free(name);
	}
	fflush(out);
}

int cmd_migrate(int argc, char **argv)
{
	struct mig m;
	struct bm_strlist cocci = {0}, copts = {0}, tmp_paths = {0};
	char err[2048], *spatch = NULL, *cdir = NULL, *macros = NULL;
	struct rw_plan plan = {0};
	struct bm_cache *cache = NULL;
	json_t *cached = NULL;
	bool *used_post = NULL;
	/* verify takes the parses of spatch's output that the plan left as they were */
	struct bm_reuse *reuse = NULL;
	size_t converted = 0, by_spatch = 0, nchanged = 0;
	int rc = BM_EXIT_CLEAN, failed_writes = 0;
	double t0 = now_s();
	int i_rc;

	memset(&m, 0, sizeof(m));
	bm_run_init(&m.inv, "migrate");
	bm_run_init(&m.post, "migrate");
	bm_run_init(&m.ver, "verify");
	i_rc = parse_args(&m.inv, argc, argv, &m.a);
	if (i_rc > 0) /* --help */
		goto out;
	if (i_rc || check_paths_exist("migrate", m.a.paths, m.a.npaths) < 0) {
		rc = BM_EXIT_USAGE;
		goto out;
	}
	cleanup_stale_private_dirs();
	if (m.a.mode == MODE_IN_PLACE && cleanup_lock_tree(m.a.paths, m.a.npaths) < 0) {
		rc = BM_EXIT_USAGE;
		goto out;
	}
	progress_enable(m.inv.opt.quiet);
	if ((!m.a.no_spatch && !(spatch = find_spatch(m.a.spatch, err, sizeof(err)))) ||
	    !(cdir = find_cocci_dir(m.a.cocci_dir, err, sizeof(err))) ||
	    cocci_files(cdir, &cocci, &copts, err, sizeof(err)) < 0) {
		fprintf(stderr, "blkmig migrate: %s\n", err);
		rc = BM_EXIT_USAGE;
		goto out;
	}
	macros = cocci_macro_file(cdir);
	stage_time("start");
	cache = open_cache(&m, spatch, &cocci, &copts, macros);
	cached = bm_cache_lookup(cache);
	if (cached && mig_restore(&m, cached, &converted, &by_spatch) == 0) {
		index_cands(&m); /* the review page reads the converted files, as cold */
		if (!m.inv.opt.quiet)
			fprintf(stderr, "blkmig migrate: the result of an identical run, from %s\n",
				bm_cache_entry_path(cache));
		bm_cache_close(cache);
		cache = NULL;
		stage_time("cache-hit");
		goto output;
	}
	stage_time("cache-miss");
	bm_cache_record(cache);

	/* 1. the inventory */
	progress_begin("inventory (analyzer)", 0);
	i_rc = bm_analyze(&m.inv, m.a.paths, m.a.npaths);
	progress_end();
	if (i_rc < 0) {
		rc = BM_EXIT_USAGE;
		goto out;
	}
	stage_time("inventory");
	if (m.a.mode == MODE_IN_PLACE) /* only a run that writes the tree, under its lock */
		remove_leftovers(&m.inv);
	if (make_copies(&m) < 0) {
		rc = BM_EXIT_USAGE;
		goto out;
	}
	index_cands(&m);

	if (m.nc) {
		/* 2. spatch on the private copies, all passes within one budget */
		m.spatch_left = spatch_budget(&m);
		for (size_t i = 0; i < cocci.n && !m.a.no_spatch && !m.spatch_timed_out; i++) {
			const char *name = strrchr(cocci.v[i], '/') + 1;

			progress_begin(name, m.nc);
			if (run_spatch(&m, spatch, cocci.v[i], copts.v[i], macros) < 0) {
				progress_end();
				fprintf(stderr,
					"blkmig migrate: spatch failed on %s; no file was changed "
					"(--no-spatch runs the analyzer alone). spatch said:\n",
					name);
				show_log_tail(&m);
				m.spatch_failed = true;
				rc = BM_EXIT_USAGE;
				goto out;
			}
			progress_end();
		}
		spatch_restore_aside(&m);
		if (m.spatch_failed) {
			/* undo whatever spatch did: the analyzer converts from the originals */
			for (size_t i = 0; i < m.nc; i++)
				atomic_replace_new(m.c[i].tmp, m.c[i].orig_data, m.c[i].orig_len,
						   err, sizeof(err));
		}

		stage_time("spatch");
		if (!m.spatch_failed) {
			spatch_timeouts(&m);
			guard_spatch_output(&m);
			judge_spatch(&m);
		}

		/* 3. the analyzer on spatch's result: the sites spatch left */
		copy_options(&m.post.opt, &m.inv.opt);
		for (size_t i = 0; i < m.nc; i++) {
			char *d = xstrdup(m.c[i].orig), *slash = strrchr(d, '/');

			if (slash)
				*slash = '\0';
			else
				strcpy(d, ".");
			if (!strlist_has(&m.post.opt.include_dirs, d))
				strlist_push(&m.post.opt.include_dirs, d);
			free(d);
			strlist_push(&tmp_paths, m.c[i].tmp);
		}
		m.post.opt.quiet = true;
		progress_begin("sites spatch left (analyzer)", 0);
		reuse = bm_reuse_new();
		i_rc = bm_analyze_reusing(&m.post, tmp_paths.v, tmp_paths.n, reuse);
		progress_end();
		if (i_rc < 0) {
			rc = BM_EXIT_USAGE;
			goto out;
		}
		stage_time("post");
		used_post = xcalloc(m.post.nsites + 1, sizeof(bool));
		m.origin = xcalloc(m.inv.nsites + 1, 1);
		reconcile(&m, used_post);
		for (size_t i = 0; i < m.nc; i++) {
			char *why = origin_mixed_api(&m.inv, m.c[i].orig, m.origin);

			if (why)
				leave_untouched(&m.c[i], "unparsed", why);
			free(why);
		}
		rw_plan_build(&m.post, m.a.mode == MODE_IN_PLACE ? precheck_target : NULL, &m,
			      &plan);
		for (size_t i = 0; i < m.nc; i++) {
			struct cand *c = &m.c[i];
			struct rw_file *pf = NULL;
			char *data;
			size_t len;

			for (size_t k = 0; k < plan.n; k++)
				if (!strcmp(plan.files[k].path, c->tmp))
					pf = &plan.files[k];
			if (c->problem)
				continue;
			if (pf && pf->problem) {
				char *t = user_names(&m, pf->problem);
				bool unwritable =
				    m.a.mode == MODE_IN_PLACE &&
				    atomic_precheck(c->orig, NULL, 0, NULL, err, sizeof(err)) < 0;

				/* the analyzer wrote outside its sites (output_guard.c) */
				if (!unwritable && pf->problem_code &&
				    !strcmp(pf->problem_code, "rewrite_not_confined"))
					leave_untouched(c, pf->problem_code, t);
				leave_untouched(
				    c, unwritable ? "file_not_writable" : "conflicting_edits", t);
				free(t);
				continue;
			}
			if (pf && pf->new) {
				data = xmalloc(pf->new_len + 1);
				memcpy(data, pf->new, pf->new_len + 1);
				len = pf->new_len;
			} else if (read_whole_file(c->tmp, &data, &len, err, sizeof(err)) < 0) {
				leave_untouched(c, "unparsed", err);
				continue;
			}
			free(c->final);
			c->final = crlf_restore(c->orig_data, c->orig_len, data, &len);
			c->final_len = len;
		}
		/* the analyzer's sites that the plan could not apply */
		for (size_t j = 0; j < m.post.nsites; j++) {
			struct bm_site *p = &m.post.sites[j];
			struct cand *c = cand_of(&m, p->file);

			if (c && !c->problem && p->verdict == BM_MANUAL && p->reason_code &&
			    (!strcmp(p->reason_code, "conflicting_edits") ||
			     !strcmp(p->reason_code, "file_not_writable"))) {
				char *t = user_names(&m, p->reason_text);

				leave_untouched(c, p->reason_code, t);
				free(t);
			}
		}
		if (m.a.mode == MODE_IN_PLACE) {
			for (size_t i = 0; i < m.nc; i++)
				if (changed(&m.c[i]) && atomic_precheck(m.c[i].orig, NULL, 0, NULL,
									err, sizeof(err)) < 0)
					leave_untouched(&m.c[i], "file_not_writable", err);
		}

		/* 4. verify the result */
		{
			struct bm_strlist vpaths = {0};

			for (size_t i = 0; i < m.nc; i++) {
				if (!changed(&m.c[i]))
					continue;
				if (atomic_replace_new(m.c[i].tmp, m.c[i].final, m.c[i].final_len,
						       err, sizeof(err)) < 0)
					leave_untouched(&m.c[i], "unparsed", err);
				else
					strlist_push(&vpaths, m.c[i].tmp);
			}
			copy_options(&m.ver.opt, &m.post.opt);
			if (vpaths.n) {
				progress_begin("verify", 0);
				i_rc = bm_verify_reusing(&m.ver, vpaths.v, vpaths.n, reuse);
				progress_end();
			} else {
				i_rc = 0;
			}
			if (i_rc < 0) {
				strlist_free(&vpaths);
				rc = BM_EXIT_USAGE;
				goto out;
			}
			strlist_free(&vpaths);
			bm_reuse_free(reuse);
			reuse = NULL;
			stage_time("verify");
			/* an old lock bug the conversion kept is a warning, not a failure */
			for (size_t i = 0; i < m.nc; i++)
				if (changed(&m.c[i]))
					bm_verify_mark_preexisting(&m.ver, m.c[i].tmp, &m.inv,
								   m.c[i].orig);
			for (size_t i = 0; i < m.ver.nfindings; i++) {
				struct bm_finding *f = &m.ver.findings[i];
				struct cand *c = cand_of(&m, f->file);
				char *t;

				if (!c || f->kind == BM_FIND_LEGACY_CALL || !bm_finding_fails(f))
					continue;
				if (preexisting_lock_bug(&m, f, c)) {
					t = xasprintf("preexisting_lock_bug: %s (2.6.24 already "
						      "called a function that needs the queue "
						      "lock here without it; the conversion "
						      "keeps that contract)",
						      f->message);
					free(f->message);
					f->message = t;
					f->kind = BM_FIND_PREEXISTING_LOCK_BUG;
					continue;
				}
				t = xasprintf("verify: %s:%u: %s", c->tmp, f->line, f->message);
				{
					char *u = user_names(&m, t);

					leave_untouched(c, "verify_failed", u);
					free(u);
				}
				free(t);
			}
		}
	}

	guard_parse(&m); /* before anything is written: the result parses as well */
	stage_time("output-check");
	/* in place: written before the totals, so a file that could not be written is
	 * counted as such (file_not_writable), never as converted */
	leave_partial_files(&m);
	if (m.a.mode == MODE_IN_PLACE) {
		failed_writes = replace_changed_files(&m);
		for (size_t i = 0; i < m.nc; i++) /* refused before writing: also a failed write */
			failed_writes += m.c[i].problem && m.c[i].problem_code &&
					 !strcmp(m.c[i].problem_code, "file_not_writable");
	}
	finish_sites(&m, &converted, &by_spatch);
	for (size_t i = 0; i < m.nc; i++) {
		origin_file_outcome(&m.inv, m.c[i].orig,
				    m.c[i].problem     ? "left_untouched"
				    : changed(&m.c[i]) ? "converted"
						       : "unchanged",
				    m.c[i].problem_code, m.c[i].problem);
	}
	m.inv.command = "migrate";
	merge_findings(&m);
	if (cache && rc == BM_EXIT_CLEAN && cacheable(&m)) {
		json_t *st = mig_state(&m, converted, by_spatch);

		if (st)
			bm_cache_store(cache, st);
		stage_time("store");
	}

output:
	for (size_t i = 0; i < m.nc; i++)
		nchanged += changed(&m.c[i]);
	m.inv.root = m.a.root;

	/* 5. output */
	if (m.a.mode == MODE_PATCH) {
		/* a temporary file renamed over the patch when whole (atomic_write.c) */
		struct out_file of;
		FILE *out = out_open(&of, m.a.patch, err, sizeof(err));

		if (!out) {
			fprintf(stderr, "blkmig migrate: cannot write %s\n", err);
			rc = BM_EXIT_USAGE;
			goto out;
		}
		for (size_t i = 0; i < m.nc && rc != BM_EXIT_USAGE; i++) {
			char *name;

			if (!changed(&m.c[i]))
				continue;
			name = patch_name(m.c[i].orig, m.a.root, err, sizeof(err));
			if (!name) {
				fprintf(stderr, "blkmig migrate: %s\n", err);
				rc = BM_EXIT_USAGE;
				break;
			}
			if (udiff_write(out, name, m.c[i].orig_data, m.c[i].orig_len, m.c[i].final,
					m.c[i].final_len, 3) < 0) {
				snprintf(err, sizeof(err), "%s", strerror(errno ? errno : EIO));
				rc = BM_EXIT_USAGE;
			}
			free(name);
		}
		if (rc == BM_EXIT_USAGE) {
			out_close(&of, false, NULL, 0);
			fprintf(stderr, "blkmig migrate: writing %s failed: %s\n", m.a.patch, err);
			goto out;
		}
		if (out_close(&of, true, err, sizeof(err)) < 0) {
			fprintf(stderr, "blkmig migrate: writing %s failed: %s\n", m.a.patch, err);
			rc = BM_EXIT_USAGE;
			goto out;
		}
	}
	if (m.a.mode == MODE_SERIES && write_series(&m) < 0) {
		rc = BM_EXIT_USAGE;
		goto out;
	}
	for (size_t i = 0; i < m.nc; i++)
		if (m.c[i].problem)
			bm_text_file_left(stderr, &m.inv, m.c[i].orig, m.c[i].problem,
					  m.c[i].problem_code);
	if (m.a.report && write_reports(&m, m.a.report) < 0)
		rc = BM_EXIT_USAGE;
	if ((m.a.format || m.a.output) &&
	    bm_write_report(&m.inv, m.a.format ? m.a.format : "text", m.a.output) < 0)
		rc = BM_EXIT_USAGE;

	stage_time("output");
	if (m.a.mode == MODE_CHECK)
		list_changed(&m);
	if (m.inv.nsites)
		fprintf(stderr, "blkmig migrate: %zu file%s scanned, %zu with legacy calls\n",
			m.inv.nfiles, m.inv.nfiles == 1 ? "" : "s", m.nc);
	fix_summary(&m.inv, "migrate", converted, nchanged, m.a.mode == MODE_IN_PLACE,
		    m.a.mode == MODE_CHECK);
	if (m.inv.nsites && converted)
		fprintf(stderr, "blkmig migrate: %zu by spatch, %zu by the analyzer%s; %.1fs\n",
			by_spatch, converted - by_spatch,
			m.spatch_failed ? " (spatch failed: analyzer alone)" : "", now_s() - t0);
	if (rc == BM_EXIT_USAGE)
		goto out;
	if (m.inv.io_errors)
		rc = BM_EXIT_USAGE;
	else if (m.a.mode == MODE_CHECK)
		/* a file not read as C (a NUL byte, a parse failure) may hide legacy calls */
		rc = nchanged || files_unparsed(&m.inv) ? BM_EXIT_FINDINGS : BM_EXIT_CLEAN;
	else if (failed_writes)
		rc = BM_EXIT_USAGE;
	else if (bm_run_exit_code(&m.inv) != BM_EXIT_CLEAN)
		rc = BM_EXIT_FINDINGS;
out:
	bm_reuse_free(reuse);
	json_decref(cached);
	bm_cache_close(cache);
	rw_plan_free(&plan);
	free(used_post);
	free(spatch);
	free(cdir);
	free(macros);
	strlist_free(&cocci);
	strlist_free(&copts);
	strlist_free(&tmp_paths);
	mig_free(&m);
	return rc;
}
