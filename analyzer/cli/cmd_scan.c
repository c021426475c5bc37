/*
 * cmd_scan.c - `blkmig scan`: analyse, then write the text, JSON or SARIF
 * report.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_write.h"
#include "cli_options.h"
#include "commands.h"
#include "util.h"

void cmd_scan_usage(FILE *out)
{
	fputs("NAME\n"
	      "    blkmig scan - report every legacy block completion call\n"
	      "\n"
	      "SYNOPSIS\n"
	      "    blkmig scan [--format text|json|sarif|brief] [-o FILE] [OPTIONS] PATH...\n"
	      "\n"
	      "DESCRIPTION\n"
	      "    Each PATH is a C file or a directory, walked recursively (C files;\n"
	      "    headers with --headers).  For every call of end_that_request_first,\n"
	      "    end_that_request_chunk, end_that_request_last, end_request,\n"
	      "    end_queued_request or end_dequeued_request outside comments and\n"
	      "    strings, the report gives the catalogue pattern, the queue lock\n"
	      "    context with its evidence, the meaning of uptodate, the byte count,\n"
	      "    the proposed replacement and the verdict: auto, or manual with a\n"
	      "    reason code.  Per file it says how well the file parsed.\n"
	      "\n"
	      "OPTIONS\n"
	      "    --format text|json|sarif|brief\n"
	      "        Report format (default text).  JSON follows analyzer/REPORT.md;\n"
	      "        SARIF is version 2.1.0 with fixes for auto sites; brief is one\n"
	      "        line per site (file:line:col function call verdict pattern ...).\n"
	      "        Text is in compiler form, one line per site:\n"
	      "        FILE:LINE:COL: note|warning|error: MESSAGE [pattern or reason],\n"
	      "        followed by indented details.\n"
	      "    -o FILE, --output FILE\n"
	      "        Write the report to FILE instead of standard output (- for\n"
	      "        standard output).\n"
	      "    --root DIR\n"
	      "        SARIF names files relative to DIR (uriBaseId SRCROOT; default: the\n"
	      "        current directory).\n"
	      "\n",
	      out);
	bm_options_usage(out);
	fputs("\nEXIT STATUS\n"
	      "    0 every site is auto (or no site), 1 manual sites or files that\n"
	      "    could not be parsed, 2 usage or I/O error.\n",
	      out);
}

int bm_report_take(void *ctx, int code, const char *v)
{
	struct bm_report_args *r = ctx;

	switch (code) {
	case BM_OPT_FORMAT:
		if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "sarif") &&
		    strcmp(v, "brief")) {
			fprintf(stderr, "blkmig: --format wants text, json, sarif or brief\n");
			return -1;
		}
		r->format = v;
		return 0;
	case 'o': r->output = v; return 0;
	case BM_OPT_ROOT: r->run->root = v; return 0;
	case BM_OPT_ORIGINAL: r->original = v; return 0;
	}
	return -1;
}

static const struct option report_long[] = {
    {"format", required_argument, NULL, BM_OPT_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"root", required_argument, NULL, BM_OPT_ROOT},
    {NULL, 0, NULL, 0},
};

static const struct option verify_long[] = {
    {"format", required_argument, NULL, BM_OPT_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"root", required_argument, NULL, BM_OPT_ROOT},
    {"original", required_argument, NULL, BM_OPT_ORIGINAL},
    {NULL, 0, NULL, 0},
};

/*
 * Shared by scan and verify: parse the command line into run and r, return the paths.
 * 0, 1 (--help: the caller prints its usage) or -1 (said on stderr).
 */
int bm_cmd_args(struct bm_run *run, int argc, char **argv, struct bm_report_args *r, char ***paths,
		size_t *npaths)
{
	int rc;

	r->run = run;
	rc = bm_parse_options(run->command, argc, argv,
			      "o:", strcmp(run->command, "verify") ? report_long : verify_long,
			      bm_report_take, r, &run->opt, paths, npaths);
	if (rc)
		return rc;
	if (!*npaths) {
		fprintf(stderr, "blkmig %s: no PATH given (try blkmig %s --help)\n", run->command,
			run->command);
		return -1;
	}
	return 0;
}

int bm_write_report(const struct bm_run *run, const char *format, const char *output)
{
	FILE *out = stdout;
	struct out_file of = {0};
	char err[PATH_MAX + 256];
	int r;

	if (output && !strcmp(output, "-"))
		output = NULL;
	/* a temporary file renamed over OUTPUT when whole (atomic_write.c) */
	if (output && !(out = out_open(&of, output, err, sizeof(err)))) {
		fprintf(stderr, "blkmig: cannot write %s\n", err);
		return -1;
	}
	if (!strcmp(format, "json"))
		r = bm_report_json(run, out);
	else if (!strcmp(format, "sarif"))
		r = bm_report_sarif(run, out);
	else if (!strcmp(format, "brief"))
		r = bm_report_brief(run, out);
	else
		r = bm_report_text(run, out);
	if (!output) {
		if (fflush(out) || r) {
			fprintf(stderr, "blkmig: writing the report failed: %s\n",
				strerror(errno ? errno : EIO));
			return -1;
		}
		return 0;
	}
	if (out_close(&of, r == 0, err, sizeof(err)) < 0) {
		fprintf(stderr, "blkmig: writing the report failed: %s\n", err);
		return -1;
	}
	return 0;
}

int cmd_scan(int argc, char **argv)
{
	struct bm_run run;
	struct bm_report_args r = {.format = "text"};
	char **paths = NULL;
	size_t npaths;
	int rc;

	bm_run_init(&run, "scan");
	rc = bm_cmd_args(&run, argc, argv, &r, &paths, &npaths);
	if (rc) {
		if (rc > 0)
			cmd_scan_usage(stdout);
		free(paths);
		bm_run_free(&run);
		return rc > 0 ? BM_EXIT_CLEAN : BM_EXIT_USAGE;
	}
	if (bm_analyze(&run, paths, npaths) < 0) {
		free(paths);
		bm_run_free(&run);
		return BM_EXIT_USAGE;
	}
	rc = bm_write_report(&run, r.format, r.output) ? BM_EXIT_USAGE : bm_run_exit_code(&run);
	free(paths);
	bm_run_free(&run);
	return rc;
}
