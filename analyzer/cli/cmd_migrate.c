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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "atomic_write.h"
#include "cleanup.h"
#include "cli_options.h"
#include "commands.h"
#include "indent_fix.h"
#include "line_endings.h"
#include "migrate_common.h"
#include "migrate_stages.h"
#include "origin_map.h"
#include "parse_cache.h"
#include "tree_memo_cache.h"
#include "progress.h"
#include "report_text.h"
#include "rewrite_output.h"
#include "rewrite_plan.h"
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
	      "        The analyzer alone, without spatch or the semantic patches\n"
	      "        (without it, a spatch that fails or dies fails the run with exit 2).\n"
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

void copy_options(struct bm_options *dst, const struct bm_options *src)
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

double now_s(void)
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

/* What a cold run says as it reads the files, which a cached result does not say again:
 * each symbolic link the walk skips, then (unless -q) each file read as binary data and
 * the files the whole-tree facts added, round by round. */
static void replay_walk_notices(const struct bm_run *run)
{
	for (size_t i = 0; i < run->nfiles; i++)
		if (run->files[i].link)
			bm_say_file_notice(&run->files[i]);
	if (run->opt.quiet)
		return;
	for (size_t i = 0; i < run->nfiles; i++)
		if (bm_file_is_binary(&run->files[i]))
			bm_say_file_notice(&run->files[i]);
	for (size_t r = 0; r < run->nfacts_added; r++)
		bm_say_facts_added(r, run->facts_added[r]);
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
	/* --no-spatch runs no semantic patch: an install without them still migrates, but
	 * a --cocci-dir given on the command line is checked all the same */
	bool need_cocci = !m.a.no_spatch || m.a.cocci_dir;

	if ((!m.a.no_spatch && !(spatch = find_spatch(m.a.spatch, err, sizeof(err)))) ||
	    (need_cocci && (!(cdir = find_cocci_dir(m.a.cocci_dir, err, sizeof(err))) ||
			    cocci_files(cdir, &cocci, &copts, err, sizeof(err)) < 0))) {
		fprintf(stderr, "blkmig migrate: %s\n", err);
		rc = BM_EXIT_USAGE;
		goto out;
	}
	macros = cdir ? cocci_macro_file(cdir) : NULL;
	stage_time("start");
	cache = open_cache(&m, spatch, &cocci, &copts, macros);
	cached = bm_cache_lookup(cache);
	if (cached && mig_restore(&m, cached, &converted, &by_spatch) == 0) {
		replay_walk_notices(&m.inv);
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
	/* each file only the facts need is parsed once for all runs, in every mode
	 * (parse_cache.c) */
	parse_cache_enable(!m.a.no_cache);
	tree_memo_cache_enable(!m.a.no_cache);

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
		spatch_cache_take(&m, spatch, &cocci, &copts, macros);
		for (size_t i = 0;
		     i < cocci.n && !m.a.no_spatch && !m.spatch_timed_out && spatch_cache_left(&m);
		     i++) {
			const char *name = strrchr(cocci.v[i], '/') + 1;

			/* a facts pass without a facts file to write does nothing (migrate
			 * gives spatch none; $BLKMIG_FACTS would be one) */
			if (cocci_facts_only(cocci.v[i]) && !getenv("BLKMIG_FACTS"))
				continue;
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
			spatch_cache_keep(&m);
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
			indent_fix_text(c->orig_data, c->orig_len, &c->final, &len);
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
	parse_cache_enable(false);
	tree_memo_cache_enable(false);
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
