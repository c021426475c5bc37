/*
 * cli_options.h - every subcommand's command line, parsed with getopt_long (run.c).
 *
 * A command gives its own options (short string and long table, codes of its choosing,
 * none of them one of the common ones below) and a callback that takes them; the
 * common options (-I -D -p -j -q -h, --kernel-tree --jobs --timeout --headers --follow
 * --quiet --help, the report options --list-skipped --sarif-base-uri --source-url) fill the run's
 * bm_options.  GNU forms all work: -o FILE, -oFILE, -o-,
 * --output FILE, --output=FILE, clustered flags (-qj2); options and PATHs may be mixed;
 * `--` ends the options.  Errors are printed as `blkmig CMD: unknown option '--x'`.
 */
#ifndef BLKMIG_CLI_OPTIONS_H
#define BLKMIG_CLI_OPTIONS_H

#include <getopt.h>

#include "site.h"

/* Codes of long-only options: a command's own start at BM_OPT_OWN. */
enum {
	BM_OPT_HEADERS = 0x100,
	BM_OPT_FOLLOW,
	BM_OPT_KERNEL_TREE,
	BM_OPT_TIMEOUT,
	BM_OPT_LIST_SKIPPED,
	BM_OPT_SARIF_BASE_URI,
	BM_OPT_SOURCE_URL,
	BM_OPT_PARSE_MEMORY, /* --parse-memory MB (parse.c) */
	BM_OPT_OWN = 0x200,
};

/* TAKE(ctx, code, optarg): 0, or -1 after printing why. */
typedef int (*bm_take_fn)(void *ctx, int code, const char *arg);

/*
 * Parse ARGV (ARGV[0] is the command's name, CMD).  The PATHs (every argument that is
 * not an option or an option's value, in order, and all after `--`) are returned in
 * *paths (malloc'ed, NULL-terminated; they point into ARGV, which getopt may reorder).
 * Returns 0; 1 for -h/--help (the caller prints its usage, exit 0); -1 on a usage
 * error, said on stderr.
 */
int bm_parse_options(const char *cmd, int argc, char **argv, const char *own_short,
		     const struct option *own_long, bm_take_fn take, void *ctx,
		     struct bm_options *opt, char ***paths, size_t *npaths);

/* Shared by scan and verify (cmd_scan.c): --format, -o/--output, --root. */
struct bm_report_args {
	struct bm_run *run;
	const char *format, *output;
	const char *original; /* verify's --original */
};
enum { BM_OPT_FORMAT = BM_OPT_OWN, BM_OPT_ROOT, BM_OPT_ORIGINAL };
int bm_report_take(void *ctx, int code, const char *arg);

#endif
