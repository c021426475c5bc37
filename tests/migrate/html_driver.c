/*
 * html_driver.c - test driver: `html_driver REPORT.json OUT.html` renders a JSON report
 * (analyzer/REPORT.md) with the HTML writer blkmig uses for `migrate --report`.
 */
#include "html_report.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	json_error_t jerr;
	json_t *r;
	FILE *o;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s REPORT.json OUT.html\n", argv[0]);
		return 2;
	}
	r = json_load_file(argv[1], 0, &jerr);
	if (!r) {
		fprintf(stderr, "%s:%d: %s\n", argv[1], jerr.line, jerr.text);
		return 2;
	}
	o = fopen(argv[2], "w");
	if (!o) {
		perror(argv[2]);
		return 2;
	}
	rc = html_report_write(o, r);
	if (fclose(o))
		rc = -1;
	json_decref(r);
	return rc ? 2 : 0;
}
