/*
 * html_report.h - the self-contained HTML review page of a blkmig report.
 *
 * Owns: turning a report (the JSON object of analyzer/REPORT.md) into one HTML file with
 * no external resources, made for a whole tree: totals; counts by verdict, pattern,
 * reason, directory (every level) and call, each row a filter when clicked; a filter bar
 * (verdict, reason, directory, call, a search box, "manual only"; kept in the URL
 * fragment, #manual still works); files not fully parsed with their first errors; files
 * fix/migrate left untouched and why; the reason codes of the run with their meaning (rows
 * filter, the search box finds them); every site with a stable anchor
 * (site-FILE-FUNCTION-CALL-N), a link to its source relative to the root (or through a
 * --source-url template, each numbered context line too), lock evidence and reason, and
 * for every converted site the patch's own hunk (line diff, three lines of context,
 * numbered as the patch numbers them).  Converted sites are folded; a "reviewed" box per
 * site is kept in the browser (localStorage) and exported as text; j/k go to the
 * next/previous site, o folds, r marks; <noscript> says what needs JavaScript.
 *
 * A schema 2 report names files relative to its "root" (analyzer/REPORT.md): they are read
 * as root/path, from the directory the run was started in.
 */
#ifndef BLKMIG_HTML_REPORT_H
#define BLKMIG_HTML_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* Where the page finds the user's original files. */
struct html_sources {
	const char *root; /* links and directories relative to it (NULL: current directory) */
	/* the original contents of @path (NULL: read the file from disk) */
	const char *(*original)(const char *path, size_t *len, void *ctx);
	/* its contents after the conversion (NULL: unknown or unchanged); with them the new
	 * side of each hunk is numbered from the whole file's diff, which counts what spatch
	 * inserted outside any site's change (a hoisted declaration) */
	const char *(*converted)(const char *path, size_t *len, void *ctx);
	void *ctx;
	/* links to the sources: a template with {path} (relative to the root) and {line}
	 * (NULL: the file itself, file://) */
	const char *source_url;
};

/* Returns 0, or -1 when writing failed. @src may be NULL. */
int html_report_write_from(FILE *out, json_t *report, const struct html_sources *src);

/* html_report_write_from() with the files as they are on disk, root the current dir. */
int html_report_write(FILE *out, json_t *report);

#endif
