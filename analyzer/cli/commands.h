/*
 * commands.h - the subcommands of blkmig and their dispatch table entries.
 *
 * Every subcommand is `int cmd_NAME(int argc, char **argv)` (argv[0] is the
 * subcommand name) returning an exit code (site.h: enum bm_exit), plus
 * `void cmd_NAME_usage(FILE *)` printing its man-page style usage.
 *
 * fix and migrate belong to the migrate part (cmd_fix.c, cmd_migrate.c).
 * They are declared weak so that the binary links and says "not built"
 * until those files exist; adding the file is all it takes to hook them in.
 */
#ifndef BLKMIG_COMMANDS_H
#define BLKMIG_COMMANDS_H

#include <stdio.h>

struct bm_run;

int cmd_scan(int argc, char **argv);
/* Write @run's report as @format (text|json|sarif|brief) to @output (NULL or "-":
 * standard output); 0, or -1 with a message. (cmd_scan.c) */
int bm_write_report(const struct bm_run *run, const char *format, const char *output);
void cmd_scan_usage(FILE *out);
int cmd_verify(int argc, char **argv);
void cmd_verify_usage(FILE *out);

/* ---- migrate part: provided by cmd_fix.c / cmd_migrate.c ---- */
int cmd_fix(int argc, char **argv) __attribute__((weak));
void cmd_fix_usage(FILE *out) __attribute__((weak));
int cmd_migrate(int argc, char **argv) __attribute__((weak));
void cmd_migrate_usage(FILE *out) __attribute__((weak));

#endif
