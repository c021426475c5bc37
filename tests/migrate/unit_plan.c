/*
 * unit_plan.c - unit tests for rewrite_plan.c and rewrite_output.c: the all-or-nothing
 * application of a run's edits across sites and files, patch names, patch and in-place
 * output. Runs are built by hand here (the analyzer's model, site.h), so these tests
 * pin the migrate side's rules independently of the analysis.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "rewrite_output.h"
#include "rewrite_plan.h"
#include "util.h"

#include "unit_check.h"

static void put(const char *path, const char *s, mode_t mode)
{
	FILE *f;

	chmod(path, 0644);
	f = fopen(path, "w");
	fputs(s, f);
	fclose(f);
	chmod(path, mode);
}

static struct bm_site *add_site(struct bm_run *run, const char *file, unsigned line)
{
	struct bm_site *s;

	s = vec_push(run->sites, run->nsites, run->sites_cap);
	s->file = xstrdup(file);
	s->function = xstrdup("f");
	s->call = xstrdup("end_request");
	s->line = line;
	s->verdict = BM_AUTO;
	s->replacement = xstrdup("x");
	s->after = xstrdup("x");
	return s;
}

static void add_edit(struct bm_site *s, const char *file, size_t a, size_t b, const char *t)
{
	s->edits = xrealloc(s->edits, (s->nedits + 1) * sizeof(*s->edits));
	s->edits[s->nedits].file = xstrdup(file);
	s->edits[s->nedits].start = a;
	s->edits[s->nedits].end = b;
	s->edits[s->nedits].text = xstrdup(t);
	s->nedits++;
}

static const struct rw_file *pf(const struct rw_plan *p, const char *path)
{
	for (size_t k = 0; k < p->n; k++)
		if (!strcmp(p->files[k].path, path))
			return &p->files[k];
	return NULL;
}

static int is(const char *data, size_t len, const char *want)
{
	return data && len == strlen(want) && !memcmp(data, want, len);
}

static int precheck(const char *path, void *ctx, char *err, size_t errlen)
{
	(void)ctx;
	return atomic_precheck(path, NULL, 0, NULL, err, errlen);
}

int main(int argc, char **argv)
{
	char a[4096], b[4096], c[4096], d[4096], patch[4096], cmd[16384];
	struct bm_run run;
	struct rw_plan plan;
	struct bm_site *s0, *s1, *s2, *s3, *s4;
	const struct rw_file *fa, *fb, *fd;
	char err[512], *name;
	FILE *out;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SCRATCH_DIR\n", argv[0]);
		return 2;
	}
	if (chdir(argv[1]) < 0) {
		perror(argv[1]);
		return 2;
	}
	mkdir("t", 0755);
	mkdir("t/sub", 0755);
	snprintf(a, sizeof(a), "t/a.c");
	snprintf(b, sizeof(b), "t/sub/b.c");
	snprintf(c, sizeof(c), "t/c.c");
	snprintf(d, sizeof(d), "t/d.c");
	put(a, "AAAA\nBBBB\nCCCC\n", 0644);
	put(b, "0123456789\n", 0644);
	put(c, "read only\n", 0444);
	put(d, "DDDD\n", 0644);

	bm_run_init(&run, "fix");
	s0 = add_site(&run, a, 1);		/* plain site in a.c */
	add_edit(s0, a, 0, 4, "aaaa");
	s1 = add_site(&run, a, 2);		/* wrapper: a.c and a caller in b.c */
	add_edit(s1, a, 5, 9, "bbbb");
	add_edit(s1, b, 0, 1, "X");
	s2 = add_site(&run, b, 1);		/* collides with s1 in b.c */
	add_edit(s2, b, 0, 2, "YY");
	s3 = add_site(&run, c, 1);		/* read-only c.c, and an edit in d.c */
	add_edit(s3, c, 0, 4, "READ");
	add_edit(s3, d, 0, 1, "d");
	s4 = add_site(&run, d, 1);		/* manual: never applied */
	s4->verdict = BM_MANUAL;
	s4->reason_code = "lock_unknown";
	add_edit(s4, d, 1, 2, "Q");

	rw_plan_build(&run, precheck, NULL, &plan);
	fa = pf(&plan, a);
	fb = pf(&plan, b);
	fd = pf(&plan, d);
	CHECK("plan/conflict-fails-both-sites", s1->verdict == BM_MANUAL && s2->verdict == BM_MANUAL &&
	      !strcmp(s1->reason_code, "conflicting_edits") &&
	      !strcmp(s2->reason_code, "conflicting_edits"));
	CHECK("plan/conflicted-file-untouched", fb && !fb->new && fb->problem);
	CHECK("plan/failed-site-dropped-from-other-file", fa && is(fa->new, fa->new_len,
	      "aaaa\nBBBB\nCCCC\n"));
	CHECK("plan/unaffected-site-kept", s0->verdict == BM_AUTO && fa->nsites == 1);
	CHECK("plan/read-only-fails-site", s3->verdict == BM_MANUAL &&
	      !strcmp(s3->reason_code, "file_not_writable") && strstr(s3->reason_text, "read-only"));
	CHECK("plan/read-only-site-dropped-everywhere", !fd || !fd->new);
	CHECK("plan/manual-site-not-applied", s4->verdict == BM_MANUAL &&
	      !strcmp(s4->reason_code, "lock_unknown"));
	CHECK("plan/counts", plan.sites_converted == 1 && plan.sites_failed == 3);

	name = patch_name(b, NULL, err, sizeof(err));
	CHECK("patch-name/relative-to-cwd", name && !strcmp(name, "t/sub/b.c"));
	free(name);
	name = patch_name(b, "t", err, sizeof(err));
	CHECK("patch-name/relative-to-root", name && !strcmp(name, "sub/b.c"));
	free(name);
	name = patch_name("/etc/hostname", "t", err, sizeof(err));
	CHECK("patch-name/outside-root-refused", !name && strstr(err, "not below"));
	free(name);

	snprintf(patch, sizeof(patch), "%s/p.diff", argv[1]);
	out = fopen("p.diff", "w");
	CHECK("patch/one-file", write_patch(&plan, "t", NULL, out) == 1);
	fclose(out);
	snprintf(cmd, sizeof(cmd), "rm -rf g && cp -r t g && chmod -R u+w g && cd g && "
		 "git apply -p1 ../p.diff && grep -qx aaaa a.c && grep -qx 0123456789 sub/b.c");
	CHECK("patch/git-apply-p1-from-root", system(cmd) == 0);

	CHECK("in-place/writes", write_in_place(&plan, NULL) == 0);
	{
		char *data;
		size_t len;

		read_whole_file(a, &data, &len, err, sizeof(err));
		CHECK("in-place/new-contents", is(data, len, "aaaa\nBBBB\nCCCC\n"));
		free(data);
		read_whole_file(c, &data, &len, err, sizeof(err));
		CHECK("in-place/read-only-untouched", is(data, len, "read only\n"));
		free(data);
	}
	rw_plan_free(&plan);
	bm_run_free(&run);
	chmod(c, 0644);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
