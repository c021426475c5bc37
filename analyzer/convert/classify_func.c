/*
 * classify_func.c - the per-function driver: every legacy call of a function found
 * and paired (a data completion with its final step), each sent to its shape
 * (classify_endreq.c, classify_pair.c, classify_lastonly.c); then, for the whole
 * run (classify_all), the sites no parse saw (classify_fallback.c), the wrappers,
 * the locks of sites left early, and the folded final steps.
 */
#include <string.h>

#include "classify_shapes.h"

/*
 * A driver's own static function that happens to carry a legacy name is not
 * the legacy API; a non-static definition (block/ll_rw_blk.c in a whole
 * tree) is the API itself, and calls of it stay sites.
 */
bool defined_in_run(struct ctx *cx, const char *name, size_t tu)
{
	struct func *f = func_by_name(cx, name, tu);

	return f && f->tu == tu && f->is_static;
}

static void classify_func(struct ctx *cx, size_t fi)
{
	struct func *f = &cx->funcs[fi];
	struct tunit *t = &cx->tus[f->tu];
	int *calls = NULL, ncalls = 0;
	long *sites = NULL;
	int *paired = NULL;
	unsigned macro_first = 0; /* line of a data completion a macro expands to */

	for (int n = 0; n < f->nnodes; n++) {
		char *name;

		if (f->nodes[n].kind != CXCursor_CallExpr)
			continue;
		name = node_callee(f, n);
		if (bm_is_legacy_name(name, strlen(name)) && !defined_in_run(cx, name, f->tu)) {
			calls = xrealloc(calls, (size_t)(ncalls + 1) * sizeof(int));
			calls[ncalls++] = n;
		}
		free(name);
	}
	if (!ncalls)
		return;
	sites = xcalloc((size_t)ncalls, sizeof(long));
	paired = xcalloc((size_t)ncalls, sizeof(int));
	for (int i = 0; i < ncalls; i++) {
		char *name = node_callee(f, calls[i]);
		struct node *nd = &f->nodes[calls[i]];

		sites[i] = -1;
		if (nd->start == 0 && nd->end == 0) {
			free(name);
			continue;
		}
		/* from a macro expansion: the lexer reports it where it is spelled */
		if (nd->macro) {
			if (is_first(name) && !macro_first)
				macro_first = offset_line(t, nd->start, NULL);
			free(name);
			continue;
		}
		sites[i] = (long)site_new(cx, f, calls[i], name);
		free(name);
	}
	/* pair each first/chunk with the next last on the same request */
	for (int i = 0; i < ncalls; i++) {
		char *name, *rq;
		int L = -1;
		struct timespec started;

		if (sites[i] < 0 || t->over_time)
			continue;
		budget_start(&started);
		name = node_callee(f, calls[i]);
		if (!is_first(name)) {
			free(name);
			continue;
		}
		if (call_arg(f, calls[i], 0) >= 0) {
			char *raw = node_text(t, &f->nodes[call_arg(f, calls[i], 0)]);

			rq = normalize_ws(raw);
			free(raw);
		} else {
			rq = xstrdup("");
		}
		for (int j = i + 1; j < ncalls && L < 0; j++) {
			char *nj = node_callee(f, calls[j]);

			if (sites[j] >= 0 && !paired[j] && !strcmp(nj, "end_that_request_last") &&
			    call_arg(f, calls[j], 0) >= 0) {
				char *raw = node_text(t, &f->nodes[call_arg(f, calls[j], 0)]);
				char *r2 = normalize_ws(raw);

				if (!strcmp(r2, rq)) {
					L = j;
					paired[j] = 1;
				}
				free(r2);
				free(raw);
			}
			free(nj);
		}
		if (L >= 0) {
			cx->partner[sites[i]] = sites[L];
			cx->partner[sites[L]] = sites[i];
		}
		classify_pair(cx, f, calls[i], L >= 0 ? calls[L] : -1, (size_t)sites[i],
			      L >= 0 ? sites[L] : -1);
		free(rq);
		free(name);
		budget_charge(cx, f->tu, &started);
	}
	for (int i = 0; i < ncalls; i++) {
		char *name;
		struct bm_site *s;
		struct timespec started;

		if (sites[i] < 0 || t->over_time)
			continue;
		budget_start(&started);
		name = node_callee(f, calls[i]);
		s = &cx->run->sites[sites[i]];
		if (is_end_request(name)) {
			classify_end_request(cx, f, calls[i], (size_t)sites[i]);
		} else if (!strcmp(name, "end_that_request_last") && !paired[i] && macro_first) {
			/* `#define MY_FIRST end_that_request_first`: a data completion no
			 * site stands for; this final step may be its, not a last-only call */
			site_manual(cx, (size_t)sites[i], "macro",
				    "a data completion in %s() comes from a macro expansion (line "
				    "%u), which blkmig neither pairs nor converts: this "
				    "end_that_request_last may be its final step; convert both by "
				    "hand",
				    f->name, macro_first);
		} else if (!strcmp(name, "end_that_request_last") &&
			   (!paired[i] || cx->partner[sites[i]] < 0)) {
			/* (paired, then released: its data completions end no request) */
			classify_last_only(cx, f, calls[i], (size_t)sites[i], paired[i] != 0);
		} else if (!strcmp(name, "end_that_request_last")) {
			struct bm_site *fs = &cx->run->sites[cx->partner[sites[i]]];

			s->pattern = fs->pattern;
			s->lock = fs->lock;
			s->uptodate_class = fs->uptodate_class;
			if (fs->verdict == BM_AUTO) {
				free(s->replacement);
				s->replacement = xasprintf("(folded into %s at line %u)",
							   fs->replacement, fs->line);
				s->verdict = BM_AUTO;
				s->confidence = fs->confidence;
			} else if (!s->reason_code) {
				s->verdict = BM_MANUAL;
				s->reason_code = fs->reason_code;
				s->reason_text = xasprintf("paired with %s at line %u: %s",
							   fs->call, fs->line, fs->reason_text);
			}
		}
		free(name);
		budget_charge(cx, f->tu, &started);
	}
	/* compat code and multi-version files (version_guard.c): before wrapper groups */
	version_guard_func(cx, f, sites, (size_t)ncalls);
	free(calls);
	free(sites);
	free(paired);
}

/*
 * A site left before its lock was looked at (an uptodate or a shape decided
 * first) still says what the lock is there, from the lock analysis of its
 * function, instead of "unknown" under a spin_lock_irq of the queue lock.
 */
static void manual_sites_lock(struct ctx *cx)
{
	for (size_t i = 0; i < cx->run->nsites; i++) {
		struct bm_site *s = &cx->run->sites[i];

		if (s->verdict != BM_MANUAL || s->lock != BM_LOCK_UNKNOWN || s->lock_evidence.n)
			continue;
		units_trim(); /* between sites: no cursor is held */
		for (size_t fi = 0; fi < cx->nfuncs; fi++) {
			struct func *f = &cx->funcs[fi];
			int n;

			if (s->offset < f->start || s->offset >= f->end ||
			    strcmp(cx->tus[f->tu].path, s->file))
				continue;
			n = call_node_at(f, s->offset);
			if (n >= 0 && !f->nodes[n].macro)
				s->lock = lock_at(cx, f, n, &s->lock_evidence);
			break;
		}
	}
}

static int site_cmp_ctx(const void *a, const void *b)
{
	const struct bm_site *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void classify_all(struct ctx *cx)
{
	for (size_t fi = 0; fi < cx->nfuncs; fi++) {
		units_trim(); /* between functions: no cursor is held */
		classify_func(cx, fi);
	}
	wrappers_resolve(cx);
	locals_rename(cx);
	manual_sites_lock(cx);
	/* a folded end_that_request_last names its partner's final new call */
	for (size_t i = 0; i < cx->run->nsites; i++) {
		struct bm_site *s = &cx->run->sites[i], *fs;

		if (cx->partner[i] < 0)
			continue;
		fs = &cx->run->sites[cx->partner[i]];
		if (cx->partner[cx->partner[i]] != (long)i) {
			/* a leftover rewritten with its data completion */
			if (fs->verdict == BM_MANUAL && s->verdict != BM_MANUAL) {
				s->verdict = BM_MANUAL;
				s->reason_code = fs->reason_code;
				free(s->reason_text);
				s->reason_text =
				    xasprintf("completes the leftover of %s at line %u: %s",
					      fs->call, fs->line, fs->reason_text);
				free(s->replacement);
				s->replacement = xstrdup("");
			}
			continue;
		}
		if (strncmp(s->replacement, "(folded into ", 13))
			continue;
		free(s->replacement);
		s->replacement = fs->verdict == BM_AUTO ? xasprintf("(folded into %s at line %u)",
								    fs->replacement, fs->line)
							: xstrdup("");
	}
	token_fallback(cx);
	budget_apply(cx);
	version_guard_sites(cx); /* also the sites no AST saw */
	for (size_t i = 0; i < cx->run->nsites; i++) {
		struct bm_site *s = &cx->run->sites[i];

		for (size_t ti = 0; ti < cx->ntus; ti++)
			if (!strcmp(cx->tus[ti].path, s->file))
				site_before_after(s, &cx->tus[ti]);
		if (!s->uptodate_expr)
			s->uptodate_expr = xstrdup("");
		if (!s->error_expr)
			s->error_expr = xstrdup("");
		if (!s->uptodate_origin)
			s->uptodate_origin = xstrdup("");
		if (!s->bytes_expr)
			s->bytes_expr = xstrdup("");
		if (!s->bytes_origin)
			s->bytes_origin = xstrdup("");
		if (!s->after)
			s->after = xstrdup("");
		if (s->verdict == BM_MANUAL && s->reason_code &&
		    !strcmp(s->reason_code, "unparsed"))
			s->typed = false;
	}
	/* report order: by file, then position (side tables are no longer needed) */
	if (cx->run->nsites) /* qsort's array must not be NULL, even for 0 elements */
		qsort(cx->run->sites, cx->run->nsites, sizeof(*cx->run->sites), site_cmp_ctx);
}
