/*
 * cmd_scan.c - `blkmig scan`: analyse, then write the text, JSON or SARIF
 * report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* Shared by scan and verify: parse args into run, return paths. */
int bm_cmd_args(struct bm_run *run, int argc, char **argv, const char **format, const char **output,
		char ***paths, size_t *npaths)
{
	*paths = xcalloc((size_t)argc, sizeof(char *));
	*npaths = 0;
	for (int i = 1; i < argc;) {
		const char *a = argv[i];
		int r;

		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				(*paths)[(*npaths)++] = argv[i];
			break;
		}
		if (format && (!strcmp(a, "--format") || !strncmp(a, "--format=", 9))) {
			const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v || (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "sarif") &&
				   strcmp(v, "brief"))) {
				fprintf(stderr,
					"blkmig: --format wants text, json, sarif or brief\n");
				return -1;
			}
			*format = v;
			i++;
			continue;
		}
		if (!strcmp(a, "--root")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "blkmig: --root needs a directory\n");
				return -1;
			}
			run->root = argv[i + 1];
			i += 2;
			continue;
		}
		if (output && (!strcmp(a, "-o") || !strcmp(a, "--output"))) {
			if (i + 1 >= argc) {
				fprintf(stderr, "blkmig: %s needs a file name\n", a);
				return -1;
			}
			*output = argv[i + 1];
			i += 2;
			continue;
		}
		r = bm_options_take(&run->opt, argc, argv, &i);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (a[0] == '-' && a[1]) {
			fprintf(stderr, "blkmig %s: unknown option '%s'\n", run->command, a);
			return -1;
		}
		(*paths)[(*npaths)++] = argv[i++];
	}
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
	int r;

	if (output && !strcmp(output, "-"))
		output = NULL;
	if (output && !(out = fopen(output, "w"))) {
		fprintf(stderr, "blkmig: cannot write %s: %s\n", output, strerror(errno));
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
	if (fflush(out) || (out != stdout && fclose(out)) || r) {
		fprintf(stderr, "blkmig: writing the report failed\n");
		return -1;
	}
	return 0;
}

int cmd_scan(int argc, char **argv)
{
	struct bm_run run;
	const char *format = "text", *output = NULL;
	char **paths;
	size_t npaths;
	int rc;

	bm_run_init(&run, "scan");
	if (bm_cmd_args(&run, argc, argv, &format, &output, &paths, &npaths)) {
		free(paths);
		bm_run_free(&run);
		return BM_EXIT_USAGE;
	}
	if (bm_analyze(&run, paths, npaths) < 0) {
		free(paths);
		bm_run_free(&run);
		return BM_EXIT_USAGE;
	}
	rc = bm_write_report(&run, format, output) ? BM_EXIT_USAGE : bm_run_exit_code(&run);
	free(paths);
	bm_run_free(&run);
	return rc;
}
