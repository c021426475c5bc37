/*
 * edits_tool.c - test helper: analyse the files given on the command line
 * (with blkmig's common options) and print each file with the edits of its
 * auto sites applied, so golden tests can check the analyzer's rewrites
 * without the fix command.  Usage: edits_tool [OPTS] FILE [OUTFILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "indent_fix.h"
#include "site.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct bm_run run;
	char *paths[1];
	const char *outpath = NULL;
	int i = 1, np = 0, rc = 0;

	bm_run_init(&run, "scan");
	run.opt.quiet = true;
	while (i < argc) {
		int r = bm_options_take(&run.opt, argc, argv, &i);

		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		if (np == 0)
			paths[np++] = argv[i];
		else
			outpath = argv[i];
		i++;
	}
	if (!np) {
		fprintf(stderr, "usage: edits_tool [OPTS] FILE [OUT]\n");
		return 2;
	}
	if (bm_analyze(&run, paths, 1) < 0)
		return 2;
	{
		struct bm_edit *e;
		size_t n, len, outlen;
		char *src = read_file(paths[0], &len), *res;
		FILE *out = outpath ? fopen(outpath, "w") : stdout;

		if (!src || !out || bm_file_edits(&run, paths[0], &e, &n)) {
			fprintf(stderr, "edits_tool: cannot read or overlapping edits\n");
			return 2;
		}
		res = bm_apply_edits(src, len, e, n, &outlen);
		if (!res) {
			fprintf(stderr, "edits_tool: edits out of range\n");
			return 2;
		}
		/* laid out as `blkmig fix` writes it (rewrite_plan.c) */
		indent_fix_text(src, len, &res, &outlen);
		fwrite(res, 1, outlen, out);
		if (out != stdout)
			fclose(out);
		free(res);
		free(src);
		free(e);
	}
	bm_run_free(&run);
	return rc;
}
