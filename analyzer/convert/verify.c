/*
 * verify.c - checks on converted code.  Every legacy call still present is
 * a finding; so is __blk_end_request where the cross-function lock analysis
 * says the queue lock is not held (a race on the queue), and
 * blk_end_request / blk_end_request_callback where it is held (the call
 * takes the lock itself: a deadlock).  Unknown lock context is not a
 * finding.  A __blk_end_request without the lock in a function whose
 * original already completed without it (a preexisting_lock_bug of the
 * original's analysis) is that old bug, not one the conversion made: it is
 * reported as a warning (bm_verify_mark_preexisting()).
 */
#include <string.h>

#include "analysis.h"

void finding_add(struct ctx *cx, struct func *f, size_t off, const char *file,
		 enum bm_finding_kind kind, char *msg)
{
	struct bm_run *run = cx->run;
	struct bm_finding *x;
	unsigned col = 1, line = 1;
	char *fn = f ? xstrdup(f->name) : NULL;

	for (size_t ti = 0; ti < cx->ntus; ti++)
		if (!strcmp(cx->tus[ti].path, file)) {
			line = offset_line(&cx->tus[ti], off, &col);
			/* code the AST lost: the function from the text */
			if (!fn && cx->tus[ti].clean)
				fn = text_function_at(cx->tus[ti].clean, cx->tus[ti].len, off);
		}
	x = vec_push(run->findings, run->nfindings, run->findings_cap);
	x->file = xstrdup(file);
	x->line = line;
	x->column = col;
	x->function = fn ? fn : xstrdup("");
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

		/* code compiled only for kernels before 2.6.25 keeps the old API on
		 * purpose (version_guard.c): no call left behind */
		if (s->reason_code && !strcmp(s->reason_code, "compat_branch"))
			continue;
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
					finding_add(
					    cx, f, f->nodes[n].start, t->path,
					    BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK,
					    xasprintf("__blk_end_request called without the queue "
						      "lock (%s): a race",
						      why));
				if (unlocked_variant && l == BM_LOCK_HELD)
					finding_add(
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

size_t bm_verify_mark_preexisting(struct bm_run *ver, const char *converted_file,
				  const struct bm_run *orig, const char *original_file)
{
	size_t marked = 0;

	for (size_t i = 0; i < ver->nfindings; i++) {
		struct bm_finding *x = &ver->findings[i];
		size_t old = 0, used = 0;

		if (x->kind != BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK ||
		    strcmp(x->file, converted_file))
			continue;
		/* as many warnings in a function as it had old bugs */
		for (size_t k = 0; k < orig->nfindings; k++) {
			const struct bm_finding *o = &orig->findings[k];

			old += o->kind == BM_FIND_PREEXISTING_LOCK_BUG &&
			       !strcmp(o->file, original_file) && !strcmp(o->function, x->function);
		}
		/* the original's calls without the lock that blkmig converts to
		 * blk_end_request (old_lock_bug_fixed): a conversion that kept
		 * __blk_end_request there kept the old bug, it did not make one */
		for (size_t k = 0; k < orig->nsites; k++) {
			const struct bm_site *o = &orig->sites[k];
			bool fixed = false;

			for (size_t e = 0; e < o->lock_evidence.n && !fixed; e++)
				fixed = !strncmp(o->lock_evidence.v[e], "old_lock_bug_fixed:", 19);
			old += fixed && !strcmp(o->file, original_file) && o->function &&
			       !strcmp(o->function, x->function);
		}
		for (size_t k = 0; k < ver->nfindings; k++)
			used += ver->findings[k].kind == BM_FIND_PREEXISTING_LOCK_BUG &&
				!strcmp(ver->findings[k].file, converted_file) &&
				!strcmp(ver->findings[k].function, x->function);
		if (used >= old)
			continue;
		char *msg = xasprintf("%s; already so in the original (%s, function %s): a "
				      "preexisting lock bug the conversion kept, not one it made",
				      x->message, original_file, x->function);

		free(x->message);
		x->message = msg;
		x->kind = BM_FIND_PREEXISTING_LOCK_BUG;
		marked++;
	}
	return marked;
}
