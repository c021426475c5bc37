/*
 * cmd_verify.c - `blkmig verify`: check converted code; with --original,
 * tell the problems the conversion introduced (failures) from those the
 * original already had (preexisting_lock_bug warnings).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_options.h"
#include "commands.h"
#include "util.h"

int bm_cmd_args(struct bm_run *run, int argc, char **argv, struct bm_report_args *r, char ***paths,
		size_t *npaths);
int bm_write_report(const struct bm_run *run, const char *format, const char *output);

void cmd_verify_usage(FILE *out)
{
	fputs("NAME\n"
	      "    blkmig verify - check code converted to the 2.6.25 completion API\n"
	      "\n"
	      "SYNOPSIS\n"
	      "    blkmig verify [--format text|json|sarif|brief] [-o FILE|-] [--root DIR] "
	      "[OPTIONS] PATH...\n"
	      "\n"
	      "DESCRIPTION\n"
	      "    Reports, with the same cross-function lock analysis as scan:\n"
	      "      legacy_call                      a legacy completion call left;\n"
	      "      locked_variant_without_lock      __blk_end_request reachable\n"
	      "                                       without the queue lock (a race);\n"
	      "      unlocked_variant_with_lock_held  blk_end_request or\n"
	      "                                       blk_end_request_callback reachable\n"
	      "                                       with the queue lock held (a deadlock).\n"
	      "    Calls whose lock context cannot be decided are counted, not reported.\n"
	      "    With --original, a locked_variant_without_lock in a function whose\n"
	      "    original already completed without the queue lock is that old bug:\n"
	      "      preexisting_lock_bug             a warning; it does not fail verify.\n"
	      "\n"
	      "OPTIONS\n"
	      "    --format, -o, --root as for scan.\n"
	      "    --original ORIG  the code before conversion: a file (one PATH) or a\n"
	      "                     directory whose files match PATH's by relative path.\n"
	      "\n",
	      out);
	bm_options_usage(out);
	fputs("\nEXIT STATUS\n"
	      "    0 no finding (warnings aside), 1 findings, 2 usage or I/O error.\n",
	      out);
}

/*
 * The original of converted file FILE (as the run names it), or NULL.  ORIG
 * is a file (then the one PATH is a file too) or a directory, without a
 * trailing slash: a directory PATH maps its files by relative path, a file
 * PATH to the file of the same name in ORIG.
 */
static char *original_of(const char *file, char **paths, size_t npaths, const char *orig,
			 bool orig_is_dir)
{
	if (!orig_is_dir)
		return npaths == 1 ? xstrdup(orig) : NULL;
	for (size_t i = 0; i < npaths; i++) {
		size_t n = strlen(paths[i]);

		while (n > 1 && paths[i][n - 1] == '/')
			n--;
		if (strncmp(file, paths[i], n))
			continue;
		if (file[n] == '/')
			return xasprintf("%s%s", orig, file + n);
		if (!file[n]) {
			const char *base = strrchr(file, '/');

			return xasprintf("%s/%s", orig, base ? base + 1 : file);
		}
	}
	return NULL;
}

/* Does FILE carry a finding the original may explain? */
static bool has_lock_finding(const struct bm_run *run, const char *file)
{
	for (size_t i = 0; i < run->nfindings; i++)
		if (run->findings[i].kind == BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK &&
		    !strcmp(run->findings[i].file, file))
			return true;
	return false;
}

/*
 * Reclassify the findings of run that the original already had.  A
 * converted file with a lock finding and no original to compare it with is
 * an error, not a silent failure.
 */
static int mark_preexisting(struct bm_run *run, char **paths, size_t npaths, const char *orig_arg)
{
	struct bm_run o;
	struct stat st;
	char *orig = xstrdup(orig_arg);
	char *op[1] = {orig};
	size_t n = strlen(orig);
	bool dir;
	int rc = 0;

	while (n > 1 && orig[n - 1] == '/')
		orig[--n] = '\0';
	if (stat(orig, &st) < 0) {
		fprintf(stderr, "blkmig verify: cannot read --original %s\n", orig_arg);
		free(orig);
		return -1;
	}
	dir = S_ISDIR(st.st_mode);
	if (!dir && (npaths != 1 || stat(paths[0], &st) < 0 || S_ISDIR(st.st_mode))) {
		fprintf(stderr, "blkmig verify: --original FILE needs exactly one PATH, a file "
				"(for a directory PATH give the original directory)\n");
		free(orig);
		return -1;
	}
	bm_run_init(&o, "scan");
	o.opt = run->opt; /* same parse options; owned by run */
	o.opt.quiet = true;
	if (bm_analyze(&o, op, 1) < 0) {
		memset(&o.opt, 0, sizeof(o.opt));
		bm_run_free(&o);
		free(orig);
		return -1;
	}
	for (size_t i = 0; i < run->nfiles && !rc; i++) {
		char *of = original_of(run->files[i].path, paths, npaths, orig, dir);

		if (has_lock_finding(run, run->files[i].path) && (!of || stat(of, &st) < 0)) {
			fprintf(stderr,
				"blkmig verify: no original of %s in --original %s%s%s%s: its lock "
				"findings cannot be compared\n",
				run->files[i].path, orig_arg, of ? " (no " : "", of ? of : "",
				of ? ")" : "");
			rc = -1;
		} else if (of) {
			bm_verify_mark_preexisting(run, run->files[i].path, &o, of);
		}
		free(of);
	}
	memset(&o.opt, 0, sizeof(o.opt));
	bm_run_free(&o);
	free(orig);
	return rc;
}

int cmd_verify(int argc, char **argv)
{
	struct bm_run run;
	struct bm_report_args r = {.format = "text"};
	char **paths = NULL;
	size_t npaths;
	int rc;

	bm_run_init(&run, "verify");
	rc = bm_cmd_args(&run, argc, argv, &r, &paths, &npaths);
	if (rc > 0) {
		cmd_verify_usage(stdout);
		free(paths);
		bm_run_free(&run);
		return BM_EXIT_CLEAN;
	}
	if (rc || bm_verify(&run, paths, npaths) < 0 ||
	    (r.original && mark_preexisting(&run, paths, npaths, r.original) < 0)) {
		free(paths);
		bm_run_free(&run);
		return BM_EXIT_USAGE;
	}
	rc = bm_write_report(&run, r.format, r.output) ? BM_EXIT_USAGE : bm_run_exit_code(&run);
	free(paths);
	bm_run_free(&run);
	return rc;
}
