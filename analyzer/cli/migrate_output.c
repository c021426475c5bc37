/*
 * migrate_output.c - what migrate writes (stage 5 of cmd_migrate.c).
 *
 * Owns the in-place replacement of the changed files (and the leftovers of a killed
 * one), --series DIR, --report DIR (text, JSON, SARIF, the review page) and the list of
 * files --check would change.  The --patch file is written by cmd_migrate() itself.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_write.h"
#include "cleanup.h"
#include "html_report.h"
#include "migrate_stages.h"
#include "rewrite_output.h"
#include "series.h"
#include "util.h"

int precheck_target(const char *plan_path, void *ctx, char *err, size_t errlen)
{
	struct cand *c = cand_of(ctx, plan_path);

	return atomic_precheck(c ? c->orig : plan_path, NULL, 0, NULL, err, errlen);
}

/* --series DIR: every file with sites, as the run leaves it (cli/series.c). */
int write_series(struct mig *m)
{
	struct series_file *f = xcalloc(m->nc + 1, sizeof(*f));
	int r;

	for (size_t i = 0; i < m->nc; i++) {
		bool ch = changed(&m->c[i]);

		f[i] = (struct series_file){m->c[i].orig,
					    m->c[i].orig_data,
					    m->c[i].orig_len,
					    ch ? m->c[i].final : m->c[i].orig_data,
					    ch ? m->c[i].final_len : m->c[i].orig_len,
					    ch};
	}
	r = series_write(m->a.series, m->a.root, f, m->nc, &m->inv);
	free(f);
	if (r >= 0 && !m->inv.opt.quiet)
		fprintf(stderr, "blkmig migrate: %d patch%s in %s\n", r, r == 1 ? "" : "es",
			m->a.series);
	return r < 0 ? -1 : 0;
}

/* The user's file as it was before this run (the page shows its lines). */
static const char *original_of(const char *path, size_t *len, void *ctx)
{
	struct cand *c = cand_of(ctx, path);

	*len = c ? c->orig_len : 0;
	return c ? c->orig_data : NULL;
}

/* The converted contents of @path for the review page (NULL: left as it was). */
static const char *converted_of(const char *path, size_t *len, void *ctx)
{
	struct cand *c = cand_of(ctx, path);
	bool conv = c && !c->problem && c->final && changed(c);

	*len = conv ? c->final_len : 0;
	return conv ? c->final : NULL;
}

int write_reports(struct mig *m, const char *dir)
{
	char *p;
	FILE *f;
	int rc = 0;
	json_t *j;
	json_error_t jerr;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "blkmig migrate: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	static const struct {
		const char *name;
		int (*fn)(const struct bm_run *, FILE *);
	} writers[] = {{"report.txt", bm_report_text},
		       {"report.json", bm_report_json},
		       {"report.sarif", bm_report_sarif}};
	for (size_t w = 0; w < 3; w++) {
		p = xasprintf("%s/%s", dir, writers[w].name);
		f = fopen(p, "w");
		if (!f || writers[w].fn(&m->inv, f) || fclose(f)) {
			fprintf(stderr, "blkmig migrate: cannot write %s\n", p);
			rc = -1;
		}
		free(p);
	}
	p = xasprintf("%s/report.json", dir);
	j = json_load_file(p, 0, &jerr);
	free(p);
	p = xasprintf("%s/report.html", dir);
	f = fopen(p, "w");
	if (!j || !f ||
	    html_report_write_from(f, j,
				   &(struct html_sources){m->a.root, original_of, converted_of, m,
							  m->inv.opt.source_url}) ||
	    fclose(f)) {
		fprintf(stderr, "blkmig migrate: cannot write %s\n", p);
		rc = -1;
	}
	free(p);
	json_decref(j);
	return rc;
}

/* Replace every changed file; one that cannot be written is left as it was and its
 * sites reported (file_not_writable). Returns how many failed. */
int replace_changed_files(struct mig *m)
{
	char err[2048];
	int failed = 0;

	for (size_t i = 0; i < m->nc; i++) {
		struct cand *c = &m->c[i];

		if (!changed(c))
			continue;
		if (atomic_replace(c->orig, c->final, c->final_len, c->orig_data, c->orig_len, err,
				   sizeof(err)) < 0) {
			leave_untouched(c, "file_not_writable", err);
			failed++;
		}
	}
	return failed;
}

/* Remove the marked leftovers of a killed in-place write (cleanup_leftovers_in) from
 * every directory of the run's files.  In-place runs only, under the tree lock. */
void remove_leftovers(const struct bm_run *run)
{
	struct bm_strlist seen = {0};

	for (size_t i = 0; i < run->nfiles; i++) {
		char *d = xstrdup(run->files[i].path), *slash = strrchr(d, '/');

		if (slash)
			*slash = '\0';
		else
			strcpy(d, ".");
		if (!strlist_has(&seen, d)) {
			cleanup_leftovers_in(d);
			strlist_push(&seen, d);
		}
		free(d);
	}
	strlist_free(&seen);
}

/*
 * --check: the files the run would change, one per line, named as in the patch (relative
 * to --root, default the current directory; as given when outside it), before the
 * summary; on standard output, or on stderr when the report goes there (--format
 * without -o).
 */
void list_changed(const struct mig *m)
{
	FILE *out = (m->a.format || m->a.output) && (!m->a.output || !strcmp(m->a.output, "-"))
			? stderr
			: stdout;
	char err[2048];

	for (size_t i = 0; i < m->nc; i++) {
		char *name;

		if (!changed(&m->c[i]))
			continue;
		name = patch_name(m->c[i].orig, m->a.root, err, sizeof(err));
		fprintf(out, "%s\n", name ? name : m->c[i].orig);
		free(name);
	}
	fflush(out);
}
