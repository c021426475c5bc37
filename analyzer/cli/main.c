/*
 * main.c - blkmig's command line: global --help/--version and the
 * subcommand dispatch table.
 */
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "commands.h"
#include "site.h"

struct bm_command {
	const char *name;
	int (**run)(int argc, char **argv);
	void (**usage)(FILE *out);
	const char *summary;
};

static int (*scan_fn)(int, char **) = cmd_scan;
static void (*scan_usage_fn)(FILE *) = cmd_scan_usage;
static int (*verify_fn)(int, char **) = cmd_verify;
static void (*verify_usage_fn)(FILE *) = cmd_verify_usage;
/* migrate part: weak symbols, NULL until cmd_fix.c / cmd_migrate.c exist */
static int (*fix_fn)(int, char **) = cmd_fix;
static void (*fix_usage_fn)(FILE *) = cmd_fix_usage;
static int (*migrate_fn)(int, char **) = cmd_migrate;
static void (*migrate_usage_fn)(FILE *) = cmd_migrate_usage;

static const struct bm_command commands[] = {
    {"scan", &scan_fn, &scan_usage_fn, "find legacy completion calls and report them"},
    {"verify", &verify_fn, &verify_usage_fn,
     "check converted code: legacy calls left, lock variant races"},
    /* ---- migrate part (cmd_fix.c, cmd_migrate.c) ---- */
    {"fix", &fix_fn, &fix_usage_fn, "rewrite the auto sites (--in-place or --patch FILE)"},
    {"migrate", &migrate_fn, &migrate_usage_fn, "convert a tree end to end with reports"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fputs("NAME\n"
	      "    blkmig - migrate Linux block drivers from the 2.6.24 to the 2.6.25\n"
	      "    request completion API\n"
	      "\n"
	      "SYNOPSIS\n"
	      "    blkmig COMMAND [OPTIONS] PATH...\n"
	      "    blkmig --help | --version\n"
	      "    blkmig COMMAND --help\n"
	      "\n"
	      "COMMANDS\n",
	      out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "    %-8s %s%s\n", commands[i].name, commands[i].summary,
			*commands[i].run ? "" : " (not built)");
	fputs("\n"
	      "DESCRIPTION\n"
	      "    blkmig parses C files with libclang, finds every call of\n"
	      "    end_that_request_first/chunk/last, end_request,\n"
	      "    end_queued_request and end_dequeued_request, works out whether\n"
	      "    the queue lock is held there (across functions), what the\n"
	      "    uptodate argument means and how many bytes are completed, and\n"
	      "    classifies each site as automatically convertible or needing\n"
	      "    manual review, with the reason.\n"
	      "\n"
	      "EXIT STATUS\n"
	      "    0  clean: no manual site (scan) / no finding (verify)\n"
	      "    1  manual sites or findings reported\n"
	      "    2  usage error or I/O error\n"
	      "\n"
	      "    Run `blkmig COMMAND --help` for the options of a command.\n",
	      out);
}

int main(int argc, char **argv)
{
	cleanup_init("blkmig");
	if (argc < 2) {
		usage(stderr);
		return BM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return BM_EXIT_CLEAN;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("blkmig %s\n", BLKMIG_VERSION);
		return BM_EXIT_CLEAN;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		const struct bm_command *c = &commands[i];

		if (strcmp(argv[1], c->name))
			continue;
		if (!*c->run) {
			fprintf(stderr, "blkmig: command '%s' is not built into this binary\n",
				c->name);
			return BM_EXIT_USAGE;
		}
		/* each command parses its own options, -h and --help too (getopt_long) */
		return (*c->run)(argc - 1, argv + 1);
	}
	fprintf(stderr, "blkmig: unknown command '%s' (try blkmig --help)\n", argv[1]);
	return BM_EXIT_USAGE;
}
