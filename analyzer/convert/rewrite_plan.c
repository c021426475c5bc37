/*
 * rewrite_plan.c - per-file application of the run's edits (see rewrite_plan.h).
 */
#include "rewrite_plan.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_write.h"
#include "edit_apply.h"
#include "indent_fix.h"
#include "line_endings.h"
#include "output_guard.h"
#include "util.h"

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rw_file *)a)->path, ((const struct rw_file *)b)->path);
}

static void fail_site(struct bm_site *s, const char *code, const char *why)
{
	s->verdict = BM_MANUAL;
	s->reason_code = code;
	free(s->reason_text);
	s->reason_text = xstrdup(why);
	free(s->after);
	s->after = xstrdup("");
	free(s->replacement);
	s->replacement = xstrdup("");
	s->confidence = "low";
}

/* Fail every auto site with an edit in @f. Returns how many were failed. */
static size_t fail_sites_in(struct bm_run *run, const struct rw_file *f, const char *code)
{
	size_t n = 0;

	for (size_t i = 0; i < run->nsites; i++) {
		struct bm_site *s = &run->sites[i];

		if (s->verdict != BM_AUTO)
			continue;
		for (size_t j = 0; j < s->nedits; j++) {
			if (!strcmp(s->edits[j].file, f->path)) {
				size_t pl = strlen(f->path);
				/* the path once: a precheck's message already starts with it */
				char *why =
				    !strncmp(f->problem, f->path, pl) && f->problem[pl] == ':'
					? xstrdup(f->problem)
					: xasprintf("%s: %s", f->path, f->problem);

				fail_site(s, code, why);
				free(why);
				n++;
				break;
			}
		}
	}
	return n;
}

/*
 * The analyzer's own rewrite is not trusted either (issue 25, item 1): @f's new text may
 * differ from its old only where a conversion of its sites reaches (output_guard.c; the
 * callers of a wrapper with its site in another file too).  NULL, or why not (malloc'd).
 */
static char *not_confined(const struct bm_run *run, const struct rw_file *f)
{
	struct og_site *sites = xcalloc(run->nsites + 1, sizeof(*sites));
	const char **names = xcalloc(run->nsites + 1, sizeof(*names));
	size_t n = 0, nn = 0;
	unsigned bad;
	char *why = NULL;

	for (size_t i = 0; i < run->nsites; i++) {
		const struct bm_site *s = &run->sites[i];

		if (!strcmp(s->file, f->path))
			sites[n++] = (struct og_site){s->line, s->end_line >= s->line ? s->end_line
										      : s->line};
		else if (s->function && *s->function)
			names[nn++] = s->function;
	}
	if (output_guard_confined(f->old, f->old_len, f->new, f->new_len, sites, n, names, nn,
				  &bad) == 0)
		why = output_guard_message("the analyzer's rewrite", f->old, f->old_len, f->new_len,
					   bad);
	free(sites);
	free(names);
	return why;
}

/* Apply the current auto sites' edits of @f; 1 on conflict, 2 when the
 * result is not confined to the sites (f->problem set). */
static int apply_file(struct bm_run *run, struct rw_file *f, struct bm_site **conflict_a,
		      struct bm_site **conflict_b)
{
	struct text_edit *e = NULL;
	size_t n = 0, cap = 0, sites = 0;
	struct edit_result r;
	int rc;

	for (size_t i = 0; i < run->nsites; i++) {
		struct bm_site *s = &run->sites[i];
		bool counted = false;

		if (s->verdict != BM_AUTO)
			continue;
		for (size_t j = 0; j < s->nedits; j++) {
			if (strcmp(s->edits[j].file, f->path))
				continue;
			struct text_edit *te = vec_push(e, n, cap);

			te->start = s->edits[j].start;
			te->end = s->edits[j].end;
			te->text = s->edits[j].text;
			te->site = (int)i;
			if (!counted)
				sites++;
			counted = true;
		}
	}
	free(f->new);
	f->new = NULL;
	f->nsites = 0;
	rc = edits_apply(f->old, f->old_len, e, n, &r);
	if (rc == 0) {
		if (n) {
			f->new_len = r.len;
			f->new = crlf_restore(f->old, f->old_len, r.data, &f->new_len);
			indent_fix_text(f->old, f->old_len, &f->new, &f->new_len);
			r.data = NULL;
			f->nsites = sites;
			if ((f->problem = not_confined(run, f))) {
				f->problem_code = "rewrite_not_confined";
				free(f->new);
				f->new = NULL;
				f->nsites = 0;
				rc = 2;
			}
		}
	} else if (rc == 1) {
		*conflict_a = &run->sites[r.conflicts[0].site_a];
		*conflict_b = &run->sites[r.conflicts[0].site_b];
		free(f->problem);
		f->problem_code = "conflicting_edits";
		f->problem = xasprintf("edits of the sites at lines %u and %u overlap",
				       (*conflict_a)->line, (*conflict_b)->line);
	} else {
		free(f->problem);
		f->problem_code = "conflicting_edits";
		f->problem = xasprintf("an edit lies outside the file (%s)", r.error);
		rc = 1;
	}
	edit_result_free(&r);
	free(e);
	return rc;
}

int rw_plan_build(struct bm_run *run, rw_precheck_fn precheck, void *ctx, struct rw_plan *plan)
{
	size_t cap = 0, before_auto = 0, after_auto = 0;
	bool changed;

	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; i < run->nsites; i++) {
		const struct bm_site *s = &run->sites[i];

		if (s->verdict != BM_AUTO)
			continue;
		before_auto++;
		for (size_t j = 0; j < s->nedits; j++) {
			bool seen = false;

			for (size_t k = 0; k < plan->n && !seen; k++)
				seen = !strcmp(plan->files[k].path, s->edits[j].file);
			if (seen)
				continue;
			struct rw_file *nf = vec_push(plan->files, plan->n, cap);

			nf->path = xstrdup(s->edits[j].file);
		}
	}
	if (plan->n)
		qsort(plan->files, plan->n, sizeof(*plan->files), file_cmp);

	/* Read every file once; check it up front so nothing is half written later. */
	for (size_t k = 0; k < plan->n; k++) {
		struct rw_file *f = &plan->files[k];
		char err[1024];

		if (read_whole_file(f->path, &f->old, &f->old_len, err, sizeof(err)) < 0) {
			f->old = NULL;
			f->problem = xstrdup(err);
		} else if (precheck && precheck(f->path, ctx, err, sizeof(err)) < 0) {
			f->problem = xstrdup(err);
		}
		if (f->problem) {
			f->problem_code = "file_not_writable";
			fail_sites_in(run, f, "file_not_writable");
		}
	}
	/* Failing a site removes its edits from other files: recompute until stable. */
	do {
		changed = false;
		for (size_t k = 0; k < plan->n; k++) {
			struct rw_file *f = &plan->files[k];
			struct bm_site *a = NULL, *b = NULL;

			if (f->problem) {
				free(f->new);
				f->new = NULL;
				f->nsites = 0;
				continue;
			}
			int r = apply_file(run, f, &a, &b);

			if (r) {
				fail_sites_in(
				    run, f, r == 2 ? "rewrite_not_confined" : "conflicting_edits");
				changed = true;
			}
		}
	} while (changed);

	for (size_t i = 0; i < run->nsites; i++)
		if (run->sites[i].verdict == BM_AUTO)
			after_auto++;
	plan->sites_converted = after_auto;
	plan->sites_failed = before_auto - after_auto;
	return 0;
}

void rw_plan_free(struct rw_plan *plan)
{
	for (size_t k = 0; k < plan->n; k++) {
		free(plan->files[k].path);
		free(plan->files[k].old);
		free(plan->files[k].new);
		free(plan->files[k].problem);
	}
	free(plan->files);
	memset(plan, 0, sizeof(*plan));
}
