/*
 * output_guard_parse.c - the parse half of the check on a rewritten file (issue 25,
 * item 1): the new text must parse with no more errors than the old.
 *
 * The first attempt compared the original's parse (in the user's tree: its compile
 * database entry, its kernel tree, the headers beside it) with the parse of migrate's
 * private copy (outside all of that), and refused correct results ("124 errors where
 * the file had 0").  Here both texts are parsed the same way: with the same options,
 * each in a private copy at the same depth (DIR/old/K/NAME, DIR/new/K/NAME), so nothing
 * but the text differs (migrate's verify copy of the result, TMP/N/NAME, stands outside
 * the tree in the same way, so its error count may stand for the new side).  Kept apart from
 * output_guard.c, which needs no parser.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output_guard.h"
#include "util.h"

static int write_copy(const char *path, const char *text, size_t len)
{
	static const char mark[] = "\n/* blk_end_request: parsed by blkmig's output check */\n";
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (!f)
		return -1;
	if (fwrite(text, 1, len, f) != len || fputs(mark, f) == EOF)
		rc = -1;
	if (fclose(f) == EOF)
		rc = -1;
	return rc;
}

static const struct bm_file *file_of(const struct bm_run *run, const char *path)
{
	for (size_t i = 0; i < run->nfiles; i++)
		if (!strcmp(run->files[i].path, path))
			return &run->files[i];
	return NULL;
}

int output_guard_parse(struct bm_run *old_run, struct bm_run *new_run, const char *dir,
		       struct og_text *t, size_t n)
{
	struct bm_strlist op = {0}, np = {0};
	int rc = 0;

	for (int side = 0; side < 2; side++) {
		char *d = xasprintf("%s/%s", dir, side ? "new" : "old");

		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			rc = -1;
		if (mkdir(d, 0700) < 0 && errno != EEXIST)
			rc = -1;
		for (size_t k = 0; k < n && !rc; k++) {
			char *kd, *p;

			if (side && t[k].new_known)
				continue;
			kd = xasprintf("%s/%zu", d, k);
			p = xasprintf("%s/%s", kd, t[k].name);
			if ((mkdir(kd, 0700) < 0 && errno != EEXIST) ||
			    write_copy(p, side ? t[k].new : t[k].old,
				       side ? t[k].new_len : t[k].old_len) < 0)
				rc = -1;
			strlist_push_owned(side ? &np : &op, p);
			free(kd);
		}
		free(d);
	}
	if (!rc &&
	    (bm_verify(old_run, op.v, op.n) < 0 || (np.n && bm_verify(new_run, np.v, np.n) < 0)))
		rc = -1;
	for (size_t k = 0, j = 0; k < n && !rc; k++) {
		const struct bm_file *a = file_of(old_run, op.v[k]), *b = NULL;

		if (!t[k].new_known)
			b = file_of(new_run, np.v[j++]);
		t[k].parsed = a && a->status != BM_PARSE_SKIPPED &&
			      (t[k].new_known || (b && b->status != BM_PARSE_SKIPPED));
		t[k].old_errors = a ? a->errors : 0;
		if (!t[k].new_known)
			t[k].new_errors = b ? b->errors : 0;
		t[k].failed =
		    (a && a->status == BM_PARSE_FAILED) || (b && b->status == BM_PARSE_FAILED);
		/* a parse that failed outright (no AST) counts as worse than any */
		if (b && b->status == BM_PARSE_FAILED && !(a && a->status == BM_PARSE_FAILED))
			t[k].new_errors = t[k].old_errors + 1;
	}
	strlist_free(&op);
	strlist_free(&np);
	return rc;
}
