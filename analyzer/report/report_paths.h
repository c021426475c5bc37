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

/* @path relative to the absolute @root as written (not encoded), or NULL. malloc'd. */
char *report_rel_plain(const char *root, const char *path);

/* How a report names @path: relative to @root when below it, else absolute. malloc'd. */
char *report_name(const char *root, const char *path);

/*
 * A reference to a line of a file in report text ("spin_lock at drivers/x.c:120"):
 * text[start, end) is the FILE:LINE, file names an existing regular file.
 */
struct report_ref {
	size_t start, end; /* of "FILE:LINE" in the text */
	char *file;	   /* FILE as written */
	unsigned line;
};
/* Every FILE:LINE reference of @text, in order; *n of them. Free with report_refs_free. */
struct report_ref *report_text_refs(const char *text, size_t *n);
void report_refs_free(struct report_ref *r, size_t n);

/* @text with every FILE:LINE reference below @root named relative to it. malloc'd. */
char *report_rel_text(const char *root, const char *text);

/* The root as the JSON report gives it: as the user named it (--root), "." for the
 * current directory, else absolute. malloc'd. */
char *report_root_label(const struct bm_run *run, const char *abs_root);

/* "file:///abs/path" for @path (made absolute), percent-encoded. */
json_t *report_file_uri(const char *path);

/* The https URI of the reason-code documentation (REPORT.md) for SARIF's helpUri:
 * $BLKMIG_DOC_URL when it is an https:// URI, else NULL (no local file is ever named).
 * malloc'd. */
char *report_help_base(void);

#endif
