/*
 * cmd_fix.c - `blkmig fix (--in-place | --patch FILE) PATH...`: the analyzer's own
 * rewrite of every auto site, written as a unified diff or in place.
 *
 * The analysis (bm_analyze) gives each auto site its edits; rewrite_plan applies them
 * all-or-nothing per file and per site; rewrite_output writes the result.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write.h"
#include "cleanup.h"
#include "cli_options.h"
#include "commands.h"
#include "migrate_common.h"
#include "progress.h"
#include "report_text.h"
#include "rewrite_output.h"
#include "rewrite_plan.h"
#include "util.h"

void cmd_fix_usage(FILE *out)
{
	fputs("NAME\n"
	      "    blkmig fix - rewrite legacy completion calls with the analyzer alone\n"
	      "\n"
	      "SYNOPSIS\n"
	      "    blkmig fix (--in-place | --patch FILE) [--root DIR] [OPTIONS] PATH...\n"
	      "\n"
	      "DESCRIPTION\n"
	      "    Analyses PATH... as `blkmig scan` does and rewrites every site whose\n"
	      "    verdict is auto, from the analyzer's own source ranges: the lock\n"
	      "    variant from the lock analysis, the error value from the uptodate\n"
	      "    data flow, the byte count from the sector/byte flow; wrappers whose\n"
	      "    parameter is the uptodate value are converted with all their callers.\n"
	      "    Sites left for manual review are listed on stderr with the reason.\n"
	      "    A file whose edits would overlap, that cannot be read, or (with\n"
	      "    --in-place) that is read-only is left byte-for-byte untouched, and its\n"
	      "    sites are reported as manual (conflicting_edits, file_not_writable).\n"
	      "\n"
	      "OPTIONS\n"
	      "    --in-place\n"
	      "        Replace the files: each new file is written to a temporary file\n"
	      "        in the same directory, fsync'ed and renamed over the original,\n"
	      "        keeping its mode.\n"
	      "    --patch FILE\n"
	      "        Write one unified diff to FILE (- for standard output) instead;\n"
	      "        apply it with `git apply -p1` or `patch -p1` in the --root directory.\n"
	      "    --root DIR\n"
	      "        Name files in the patch relative to DIR (default: the current\n"
	      "        directory).\n"
	      "\n",
	      out);
	bm_options_usage(out);
	fputs("\nEXIT STATUS\n"
	      "    0 every site converted (or nothing to do), 1 sites left for manual\n"
	      "    review or files left untouched, 2 usage or I/O error, or (--in-place) a\n"
	      "    file that could not be written (read-only, ...; reason file_not_writable).\n",
	      out);
}

struct fix_args {
	bool in_place;
	const char *patch;
	const char *root;
	char **paths;
	size_t npaths;
};

enum { FIX_IN_PLACE = BM_OPT_OWN, FIX_PATCH, FIX_ROOT };

static const struct option fix_long[] = {
    {"in-place", no_argument, NULL, FIX_IN_PLACE},
    {"patch", required_argument, NULL, FIX_PATCH},
    {"root", required_argument, NULL, FIX_ROOT},
    {NULL, 0, NULL, 0},
};

static int fix_take(void *ctx, int code, const char *v)
{
	struct fix_args *a = ctx;

	switch (code) {
	case FIX_IN_PLACE: a->in_place = true; return 0;
	case FIX_PATCH: a->patch = v; return 0;
	case FIX_ROOT: a->root = v; return 0;
	}
	return -1;
}

/* 0, 1 for --help, -1 (said on stderr). */
static int fix_parse(struct bm_run *run, int argc, char **argv, struct fix_args *a)
{
	int rc = bm_parse_options(run->command, argc, argv, "", fix_long, fix_take, a, &run->opt,
				  &a->paths, &a->npaths);

	if (rc)
		return rc;
	if (a->in_place == !!a->patch) {
		fprintf(stderr, "blkmig fix: give exactly one of --in-place or --patch FILE\n");
		return -1;
	}
	if (!a->npaths) {
		fprintf(stderr, "blkmig %s: no PATH given (try blkmig %s --help)\n", run->command,
			run->command);
		return -1;
	}
	return 0;
}

int check_paths_exist(const char *cmd, char *const *paths, size_t n)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (access(paths[i], F_OK) < 0) {
			fprintf(stderr, "blkmig %s: %s: %s\n", cmd, paths[i], strerror(errno));
			bad = 1;
		} else if (access(paths[i], R_OK) < 0) {
			fprintf(stderr, "blkmig %s: %s: cannot read: %s\n", cmd, paths[i],
				strerror(errno));
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* The auto sites with edits in F, which could not be written: manual, file_not_writable. */
static void not_writable(struct bm_run *run, const struct rw_file *f)
{
	for (size_t i = 0; i < run->nsites; i++) {
		struct bm_site *s = &run->sites[i];
		bool in_f = false;

		for (size_t j = 0; j < s->nedits && !in_f; j++)
			in_f = !strcmp(s->edits[j].file, f->path);
		if (s->verdict != BM_AUTO || !in_f)
			continue;
		s->verdict = BM_MANUAL;
		s->reason_code = "file_not_writable";
		free(s->reason_text);
		s->reason_text = xstrdup(f->problem);
	}
}

/* CTX counts the files refused here: a refused write fails the run (exit 2), as in migrate. */
static int precheck_writable(const char *path, void *ctx, char *err, size_t errlen)
{
	int r = atomic_precheck(path, NULL, 0, NULL, err, errlen);

	if (r < 0)
		++*(size_t *)ctx;
	return r;
}

/* Print the manual sites (a warning each, with its notes) and the summary; stderr. */
void fix_summary(const struct bm_run *run, const char *cmd, size_t converted, size_t files,
		 bool in_place, bool check)
{
	size_t manual = 0;

	for (size_t i = 0; i < run->nsites; i++) {
		const struct bm_site *s = &run->sites[i];

		if (s->verdict != BM_MANUAL)
			continue;
		manual++;
		bm_text_manual_site(stderr, s); /* as report.txt says it: one printer */
	}
	size_t unparsed = 0;

	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];

		if (f->status != BM_PARSE_FAILED)
			continue;
		unparsed++;
		if (run->opt.quiet && f->reason) /* without -q the analysis said it already */
			fprintf(stderr, "blkmig %s: %s: %s\n", cmd, f->path, f->reason);
	}
	if (!run->nsites && unparsed) {
		fprintf(stderr,
			"blkmig %s: no legacy completion call in the files read as C; %zu of %zu "
			"file%s could not be read as C (said above) and %s left untouched\n",
			cmd, unparsed, run->nfiles, run->nfiles == 1 ? "" : "s",
			unparsed == 1 ? "was" : "were");
		return;
	}
	if (!run->nsites) {
		fprintf(stderr,
			"blkmig %s: nothing to do: no legacy completion call in %zu "
			"file%s scanned\n",
			cmd, run->nfiles, run->nfiles == 1 ? "" : "s");
		return;
	}
	fprintf(stderr, "blkmig %s: %zu site%s: %zu %s in %zu file%s, %zu left for manual review\n",
		cmd, run->nsites, run->nsites == 1 ? "" : "s", converted,
		check	   ? "would be converted"
		: in_place ? "converted"
			   : "converted in the patch",
		files, files == 1 ? "" : "s", manual);
}

int cmd_fix(int argc, char **argv)
{
	struct bm_run run;
	struct fix_args a = {0};
	struct rw_plan plan;
	size_t files = 0, refused = 0;
	int rc = BM_EXIT_CLEAN, a_rc;

	bm_run_init(&run, "fix");
	a_rc = fix_parse(&run, argc, argv, &a);
	if (a_rc) {
		if (a_rc > 0)
			cmd_fix_usage(stdout);
		free(a.paths);
		bm_run_free(&run);
		return a_rc > 0 ? BM_EXIT_CLEAN : BM_EXIT_USAGE;
	}
	progress_enable(run.opt.quiet);
	if (check_paths_exist("fix", a.paths, a.npaths) < 0) {
		free(a.paths);
		bm_run_free(&run);
		return BM_EXIT_USAGE;
	}
	if (a.in_place && cleanup_lock_tree(a.paths, a.npaths) < 0) {
		free(a.paths);
		bm_run_free(&run);
		return BM_EXIT_USAGE;
	}
	cleanup_stale_private_dirs();
	progress_begin("analysing", 0);
	a_rc = bm_analyze(&run, a.paths, a.npaths);
	progress_end();
	if (a_rc < 0) {
		free(a.paths);
		bm_run_free(&run);
		return BM_EXIT_USAGE;
	}
	if (a.in_place) { /* under the tree lock: a killed run's marked temporary files */
		struct bm_strlist files = {0};

		for (size_t i = 0; i < run.nfiles; i++)
			strlist_push(&files, run.files[i].path);
		cleanup_leftovers_beside(files.v, files.n);
		strlist_free(&files);
	}
	rw_plan_build(&run, a.in_place ? precheck_writable : NULL, &refused, &plan);
	for (size_t k = 0; k < plan.n; k++)
		if (plan.files[k].problem)
			bm_text_file_left(stderr, &run, plan.files[k].path, plan.files[k].problem,
					  plan.files[k].problem_code);
	if (a.patch) {
		/* a temporary file renamed over the patch when whole (atomic_write.c) */
		struct out_file of;
		char err[PATH_MAX + 256];
		FILE *out = out_open(&of, a.patch, err, sizeof(err));
		int n;

		if (!out) {
			fprintf(stderr, "blkmig fix: cannot write %s\n", err);
			rc = BM_EXIT_USAGE;
			goto done;
		}
		n = write_patch(&plan, a.root, NULL, out);
		if (out_close(&of, n >= 0, err, sizeof(err)) < 0) {
			fprintf(stderr, "blkmig fix: writing %s failed: %s\n", a.patch, err);
			rc = BM_EXIT_USAGE;
			goto done;
		}
		files = (size_t)n;
	} else {
		int failed = write_in_place(&plan, NULL);

		for (size_t k = 0; k < plan.n; k++)
			files += plan.files[k].new && !plan.files[k].problem;
		if (failed) {
			/* a write that failed after the precheck: its sites were not converted;
			 * they are reported (file_not_writable) and the run fails */
			for (size_t k = 0; k < plan.n; k++)
				if (plan.files[k].problem && plan.files[k].new) {
					plan.sites_converted -= plan.files[k].nsites;
					not_writable(&run, &plan.files[k]);
				}
			rc = BM_EXIT_USAGE;
		}
		if (refused) /* refused before writing (read-only, ...): also a failed write */
			rc = BM_EXIT_USAGE;
	}
	fix_summary(&run, "fix", plan.sites_converted, files, a.in_place, false);
	if (rc == BM_EXIT_CLEAN)
		rc = bm_run_exit_code(&run);
done:
	rw_plan_free(&plan);
	free(a.paths);
	bm_run_free(&run);
	return rc;
}
