/*
 * html_report.h - the self-contained HTML review page of a blkmig report.
 *
 * Owns: turning a report (the JSON object of analyzer/REPORT.md) into one HTML file with
 * no external resources: totals by verdict, pattern, reason and directory, an inline SVG
 * chart, every site with its code before and after, lock evidence and reason, and a
 * filter that shows only the sites left for manual work (also on with URL fragment
 * #manual).
 */
#ifndef BLKMIG_HTML_REPORT_H
#define BLKMIG_HTML_REPORT_H

#include <stdio.h>
#include <jansson.h>

/* Returns 0, or -1 when writing failed. */
int html_report_write(FILE *out, json_t *report);

#endif
