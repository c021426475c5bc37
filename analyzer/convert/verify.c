/*
 * verify.c - checks on converted code.  Every legacy call still present is
 * a finding; so is __blk_end_request where the cross-function lock analysis
 * says the queue lock is not held (a race on the queue), and
 * blk_end_request / blk_end_request_callback where it is held (the call
 * takes the lock itself: a deadlock).  Unknown lock context is not a
 * finding.
 */
#include <string.h>

#include "analysis.h"

static void finding(struct ctx *cx, struct func *f, size_t off, const char *file,
		    enum bm_finding_kind kind, char *msg)
{
	struct bm_run *run = cx->run;
	struct bm_finding *x;
	unsigned col = 1, line = 1;

	for (size_t ti = 0; ti < cx->ntus; ti++)
		if (!strcmp(cx->tus[ti].path, file))
			line = offset_line(&cx->tus[ti], off, &col);
	x = vec_push(run->findings, run->nfindings, run->findings_cap);
	x->file = xstrdup(file);
	x->line = line;
	x->column = col;
	x->function = xstrdup(f ? f->name : "");
	x->kind = kind;
	x->message = msg;
}

static int finding_cmp(const void *a, const void *b)
{
	const struct bm_finding *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->column < y->column ? -1 : x->column > y->column;
}

void verify_all(struct ctx *cx)
{
	struct bm_run *run = cx->run;

	for (size_t i = 0; i < run->nsites; i++) {
		struct bm_site *s = &run->sites[i];
		struct bm_finding *x;

		x = vec_push(run->findings, run->nfindings, run->findings_cap);
		x->file = xstrdup(s->file);
		x->line = s->line;
		x->column = s->column;
		x->function = xstrdup(s->function);
		x->kind = BM_FIND_LEGACY_CALL;
		x->message = xasprintf("legacy call %s left", s->call);
	}
	for (size_t fi = 0; fi < cx->nfuncs; fi++) {
		struct func *f = &cx->funcs[fi];
		struct tunit *t = &cx->tus[f->tu];

		for (int n = 0; n < f->nnodes; n++) {
			char *name;
			bool locked_variant, unlocked_variant;

			if (f->nodes[n].kind != CXCursor_CallExpr)
				continue;
			name = node_callee(f, n);
			locked_variant = !strcmp(name, "__blk_end_request");
			unlocked_variant = !strcmp(name, "blk_end_request") ||
					   !strcmp(name, "blk_end_request_callback");
			if (locked_variant || unlocked_variant) {
				struct bm_strlist ev = {0};
				enum bm_lock_state l = lock_at(cx, f, n, &ev);
				const char *why = ev.n ? ev.v[ev.n - 1] : "";

				if (locked_variant && l == BM_LOCK_NOT_HELD)
					finding(
					    cx, f, f->nodes[n].start, t->path,
					    BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK,
					    xasprintf("__blk_end_request called without the queue "
						      "lock (%s): a race",
						      why));
				if (unlocked_variant && l == BM_LOCK_HELD)
					finding(
					    cx, f, f->nodes[n].start, t->path,
					    BM_FIND_UNLOCKED_VARIANT_WITH_LOCK,
					    xasprintf("%s called with the queue lock held (%s): it "
						      "takes the lock itself, a deadlock",
						      name, why));
				strlist_free(&ev);
			}
			free(name);
		}
	}
	if (run->nfindings) /* qsort's array must not be NULL, even for 0 elements */
		qsort(run->findings, run->nfindings, sizeof(*run->findings), finding_cmp);
	/* verify reports findings; the sites became legacy_call findings */
	for (size_t i = 0; i < run->nsites; i++) {
		struct bm_site *s = &run->sites[i];

		s->verdict = BM_AUTO; /* not counted as manual by the exit code */
	}
}
