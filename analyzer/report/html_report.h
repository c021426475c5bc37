/*
 * html_report.h - the self-contained HTML review page of a blkmig report.
 *
 * Owns: turning a report (the JSON object of analyzer/REPORT.md) into one HTML file with
 * no external resources, made for a whole tree: totals; counts by verdict, pattern,
 * reason, directory (every level) and call, each row a filter when clicked; a filter bar
 * (verdict, reason, directory, call, a search box, "manual only"; kept in the URL
 * fragment, #manual still works); files not fully parsed with their first errors; files
 * fix/migrate left untouched and why; every site with a stable anchor
 * (site-FILE-FUNCTION-CALL-N), a link to its source relative to the root, a few numbered
 * lines of context, lock evidence and reason, and the diff of every converted site.
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
