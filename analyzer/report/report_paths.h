/*
 * report_paths.h - how reports name files: relative to the run's root for SARIF and the
 * review page, file: URIs for what lies outside it, and where the installed reason-code
 * documentation is (helpUri).
 */
#ifndef BLKMIG_REPORT_PATHS_H
#define BLKMIG_REPORT_PATHS_H

#include <jansson.h>

/* @root (NULL: the current directory) as an absolute path without a trailing '/'. */
char *report_root(const char *root);

struct bm_run;
/* The root of @run's report: --root, else the current directory if every file is below
 * it, else the files' longest common directory. malloc'd, absolute. */
char *report_run_root(const struct bm_run *run);

/*
 * @path relative to the absolute @root, percent-encoded for a URI ("drivers/ide/x.c"),
 * or NULL when @path is not below @root. malloc'd.
 */
char *report_rel_path(const char *root, const char *path);

/* "file:///abs/path" for @path (made absolute), percent-encoded. */
json_t *report_file_uri(const char *path);

/* The URI of the reason-code documentation (REPORT.md) beside the installed binary,
 * or in the source tree for build/blkmig. malloc'd. */
char *report_help_base(void);

#endif
