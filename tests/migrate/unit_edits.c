/*
 * unit_edits.c - unit tests for edit_apply.c and atomic_write.c.
 *
 * A plain harness: each test prints PASS/FAIL NAME; the program ends with
 * "N passed, N failed" and exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include "edit_apply.h"
#include "atomic_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit_check.h"

static const char src[] = "if (!end_that_request_first(rq, 1, n)) {\n"
			  "\tend_that_request_last(rq, 1);\n}\n";

static void test_apply_basic(void)
{
	struct text_edit e[] = {
		{ 24, 27, "", 0 },	/* "end_that_request_first" -> shorter name below */
		{ 4, 27, "__blk_end_request", 0 },
	};
	struct edit_result r;
	struct text_edit one[] = { { 5, 27, "blk_end", 0 }, { 0, 0, "/*x*/", 1 } };
	int rc;

	rc = edits_apply(src, strlen(src), e, 2, &r);
	CHECK("apply/same-site-overlap-is-conflict", rc == 1 && r.nconflicts == 1);
	edit_result_free(&r);

	rc = edits_apply(src, strlen(src), one, 2, &r);
	CHECK("apply/two-edits", rc == 0 && r.data &&
	      strncmp(r.data, "/*x*/if (!blk_end(rq, 1, n)) {", 30) == 0);
	CHECK("apply/length", rc == 0 && r.len == strlen(src) + 5 - 22 + 7);
	edit_result_free(&r);
}

static void test_apply_duplicates(void)
{
	struct text_edit e[] = {
		{ 10, 12, "AB", 1 }, { 10, 12, "AB", 2 }, { 0, 0, "X", 3 }, { 0, 0, "X", 4 },
	};
	struct edit_result r;
	int rc = edits_apply(src, strlen(src), e, 4, &r);

	CHECK("apply/identical-edits-applied-once", rc == 0 && r.applied == 2 &&
	      r.data[0] == 'X' && r.data[1] == 'i' && strncmp(r.data + 11, "AB", 2) == 0);
	edit_result_free(&r);
}

static void test_apply_conflicts(void)
{
	struct edit_result r;
	struct text_edit overlap[] = { { 5, 10, "a", 1 }, { 8, 12, "b", 2 } };
	struct text_edit ins_same[] = { { 5, 5, "a", 1 }, { 5, 5, "b", 2 } };
	struct text_edit ins_inside[] = { { 5, 10, "a", 1 }, { 7, 7, "b", 2 } };
	struct text_edit ins_edge[] = { { 5, 10, "a", 1 }, { 5, 5, "<", 2 }, { 10, 10, ">", 3 } };
	struct text_edit adjacent[] = { { 5, 10, "a", 1 }, { 10, 12, "b", 2 } };
	struct text_edit outside[] = { { 5, 1000, "a", 1 } };
	struct text_edit inverted[] = { { 6, 5, "a", 1 } };
	int rc;

	rc = edits_apply(src, strlen(src), overlap, 2, &r);
	CHECK("conflict/overlap", rc == 1 && r.nconflicts == 1 && !r.data &&
	      ((r.conflicts[0].site_a == 1 && r.conflicts[0].site_b == 2) ||
	       (r.conflicts[0].site_a == 2 && r.conflicts[0].site_b == 1)));
	edit_result_free(&r);
	rc = edits_apply(src, strlen(src), ins_same, 2, &r);
	CHECK("conflict/two-insertions-same-point", rc == 1);
	edit_result_free(&r);
	rc = edits_apply(src, strlen(src), ins_inside, 2, &r);
	CHECK("conflict/insertion-inside-replacement", rc == 1);
	edit_result_free(&r);
	rc = edits_apply(src, strlen(src), ins_edge, 3, &r);
	CHECK("apply/insertions-at-edges", rc == 0 && strncmp(r.data + 5, "<a>", 3) == 0);
	edit_result_free(&r);
	rc = edits_apply(src, strlen(src), adjacent, 2, &r);
	CHECK("apply/adjacent-ranges", rc == 0 && strncmp(r.data + 5, "ab", 2) == 0);
	edit_result_free(&r);
	rc = edits_apply(src, strlen(src), outside, 1, &r);
	CHECK("error/edit-past-end", rc == -1 && r.error);
	edit_result_free(&r);
	rc = edits_apply(src, strlen(src), inverted, 1, &r);
	CHECK("error/inverted-range", rc == -1 && r.error);
	edit_result_free(&r);
	rc = edits_apply(src, strlen(src), NULL, 0, &r);
	CHECK("apply/no-edits-is-identity", rc == 0 && r.len == strlen(src) &&
	      memcmp(r.data, src, r.len) == 0);
	edit_result_free(&r);
}

static int file_is(const char *path, const char *want)
{
	char *d, err[256];
	size_t n;
	int ok;

	if (read_whole_file(path, &d, &n, err, sizeof(err)) < 0)
		return 0;
	ok = n == strlen(want) && memcmp(d, want, n) == 0;
	free(d);
	return ok;
}

static void test_atomic(const char *dir)
{
	char path[4096], lnk[4096], hard[4096], err[512];
	struct stat st;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/a.c", dir);
	f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);
	chmod(path, 0640);
	rc = atomic_replace(path, "new\n", 4, "old\n", 4, err, sizeof(err));
	stat(path, &st);
	CHECK("atomic/replaces", rc == 0 && file_is(path, "new\n"));
	CHECK("atomic/keeps-mode", (st.st_mode & 07777) == 0640);

	rc = atomic_replace(path, "newer\n", 6, "stale\n", 6, err, sizeof(err));
	CHECK("atomic/refuses-changed-file", rc == -1 && file_is(path, "new\n") &&
	      strstr(err, "changed"));

	chmod(path, 0444);
	rc = atomic_replace(path, "newer\n", 6, NULL, 0, err, sizeof(err));
	CHECK("atomic/refuses-read-only-even-as-root", rc == -1 && file_is(path, "new\n") &&
	      strstr(err, "read-only"));
	chmod(path, 0644);

	snprintf(lnk, sizeof(lnk), "%s/l.c", dir);
	unlink(lnk);
	if (symlink("a.c", lnk) == 0) {
		struct stat lst;

		rc = atomic_replace(lnk, "via link\n", 9, NULL, 0, err, sizeof(err));
		lstat(lnk, &lst);
		CHECK("atomic/writes-through-symlink", rc == 0 && S_ISLNK(lst.st_mode) &&
		      file_is(path, "via link\n"));
	}
	snprintf(hard, sizeof(hard), "%s/h.c", dir);
	unlink(hard);
	if (link(path, hard) == 0) {
		rc = atomic_replace(path, "x\n", 2, NULL, 0, err, sizeof(err));
		CHECK("atomic/refuses-hard-linked", rc == -1 && file_is(path, "via link\n"));
		unlink(hard);
	}
	rc = atomic_replace(dir, "x", 1, NULL, 0, err, sizeof(err));
	CHECK("atomic/refuses-directory", rc == -1);
	snprintf(path, sizeof(path), "%s/missing.c", dir);
	rc = atomic_replace(path, "x", 1, NULL, 0, err, sizeof(err));
	CHECK("atomic/refuses-missing", rc == -1);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s SCRATCH_DIR\n", argv[0]);
		return 2;
	}
	test_apply_basic();
	test_apply_duplicates();
	test_apply_conflicts();
	test_atomic(argv[1]);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
