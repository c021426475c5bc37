/*
 * cmd_verify.c - `blkmig verify`: check converted code.
 */
#include <stdlib.h>

#include "commands.h"
#include "util.h"

int bm_cmd_args(struct bm_run *run, int argc, char **argv, const char **format, const char **output,
		char ***paths, size_t *npaths);
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
	      "\n"
	      "OPTIONS\n"
	      "    --format, -o, --root as for scan.\n"
	      "\n",
	      out);
	bm_options_usage(out);
	fputs("\nEXIT STATUS\n"
	      "    0 no finding, 1 findings, 2 usage or I/O error.\n",
	      out);
}

int cmd_verify(int argc, char **argv)
{
	struct bm_run run;
	const char *format = "text", *output = NULL;
	char **paths;
	size_t npaths;
	int rc;

	bm_run_init(&run, "verify");
	if (bm_cmd_args(&run, argc, argv, &format, &output, &paths, &npaths) ||
	    bm_verify(&run, paths, npaths) < 0) {
		free(paths);
		bm_run_free(&run);
		return BM_EXIT_USAGE;
	}
	rc = bm_write_report(&run, format, output) ? BM_EXIT_USAGE : bm_run_exit_code(&run);
	free(paths);
	bm_run_free(&run);
	return rc;
}
