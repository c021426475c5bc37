/*
 * wrappers.c - driver functions whose parameter flows into `uptodate`
 * (floppy_end_request(req, uptodate), viodasd_end_request(...), ...).
 * The parameter becomes `error`: the legacy calls inside take it as is,
 * tests on it are flipped (!uptodate -> error, if (uptodate) -> if (!error)),
 * and every caller's argument is converted (1 -> 0, 0 -> -EIO,
 * !x -> x ? -EIO : 0, c -> c ? 0 : -EIO, the exact form for errno-capable
 * values).  A parameter passed on to another wrapper joins its group.  A
 * group converts all at once or not at all: a non-static wrapper (it may
 * have callers outside the run), a function pointer to it, a use of the
 * parameter we cannot convert, or a caller argument with side effects makes
 * every site of the group manual.
 */
#include <string.h>

#include "rewrite.h"

struct wp {
	size_t func;
	int param;
	int group;
};

struct wset {
	struct wp *v;
	size_t n, cap;
};

static int wfind(struct wset *w, size_t func, int param)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].func == func && w->v[i].param == param)
			return (int)i;
	return -1;
}

static int wadd(struct wset *w, size_t func, int param)
{
	int k = wfind(w, func, param);

	if (k >= 0)
		return k;
	struct wp *slot = vec_push(w->v, w->n, w->cap);

	*slot = (struct wp){func, param, (int)(w->n - 1)};
	return (int)(w->n - 1);
}

static int root(struct wset *w, int k)
{
	while (w->v[k].group != k)
		k = w->v[k].group = w->v[w->v[k].group].group;
	return k;
}

static void unite(struct wset *w, int a, int b)
{
	a = root(w, a);
	b = root(w, b);
	if (a != b)
		w->v[a].group = b;
}

static struct func *callee_of(struct ctx *cx, struct call *c)
{
	return c->callee >= 0 ? &cx->funcs[c->callee] : NULL;
}

/* param of f (index) named by node n, or -1 */
static int param_ref(const struct func *f, int n)
{
	int s = node_strip(f, n);
	int r = -1;

	if (s < 0 || f->nodes[s].kind != CXCursor_DeclRefExpr)
		return -1;
	char *u = ref_usr(f, s);

	for (int i = 0; i < f->nparams; i++)
		if (f->param_usr[i][0] && !strcmp(f->param_usr[i], u))
			r = i;
	free(u);
	return r;
}

struct gstate {
	bool bad;
	const char *code;
	char *why;
	struct bm_site scratch; /* collects the group's edits */
};

static void gbad(struct gstate *g, const char *code, char *why)
{
	if (g->bad) {
		free(why);
		return;
	}
	g->bad = true;
	g->code = code;
	g->why = why;
}

static void check_wrapper(struct ctx *cx, struct wset *w, int k, struct gstate *g)
{
	struct func *f = &cx->funcs[w->v[k].func];
	struct tunit *t = &cx->tus[f->tu];
	int pi = w->v[k].param;
	const char *pname = f->param_name[pi];

	if (!f->is_static) {
		gbad(g, "wrapper_external_callers",
		     xasprintf(
			 "%s() passes its parameter '%s' on as uptodate, but it is not static: "
			 "callers outside the analysed files would keep passing uptodate",
			 f->name, pname));
		return;
	}
	if (f->addr_taken) {
		gbad(g, "wrapper_external_callers",
		     xasprintf(
			 "%s() passes '%s' on as uptodate and is called through a pointer (%s)",
			 f->name, pname, f->addr_evidence));
		return;
	}
	if (!pname[0]) {
		gbad(g, "uptodate_unknown", xasprintf("%s(): unnamed parameter", f->name));
		return;
	}
	/* `error` must be free in the function */
	for (int n = 0; n < f->nnodes; n++) {
		enum CXCursorKind kk = f->nodes[n].kind;

		if (kk == CXCursor_VarDecl || kk == CXCursor_DeclRefExpr ||
		    (kk == CXCursor_ParmDecl && n != 0)) {
			CXString s = clang_getCursorSpelling(f->nodes[n].c);
			bool clash =
			    !strcmp(clang_getCString(s), "error") && strcmp(pname, "error");

			clang_disposeString(s);
			if (clash) {
				gbad(g, "uptodate_unknown",
				     xasprintf("%s() already uses the name 'error'", f->name));
				return;
			}
		}
	}
	/* rename the parameter */
	{
		CXCursor pc = clang_Cursor_getArgument(f->cursor, (unsigned)pi);
		CXFile file;
		size_t off = loc_offset(clang_getCursorLocation(pc), &file);

		if (!file || !clang_File_isEqual(file, t->cxfile) ||
		    strncmp(t->src + off, pname, strlen(pname))) {
			gbad(g, "uptodate_unknown",
			     xasprintf("%s(): cannot locate the parameter '%s'", f->name, pname));
			return;
		}
		if (strcmp(pname, "error"))
			edit_add(&g->scratch, t->path, off, off + strlen(pname), "error");
	}
	/* every use of it */
	for (int n = 0; n < f->nnodes; n++) {
		int p, q;

		if (f->nodes[n].kind != CXCursor_DeclRefExpr || param_ref(f, n) != pi)
			continue;
		unsigned line = offset_line(t, f->nodes[n].start, NULL);

		if (f->nodes[n].macro) {
			gbad(g, "macro",
			     xasprintf("%s(): '%s' is used inside a macro at line %u", f->name,
				       pname, line));
			return;
		}
		p = node_up(f, n);
		if (p >= 0 && f->nodes[p].kind == CXCursor_CallExpr) {
			char *callee = node_callee(f, p);
			int argk = -1;

			for (int a = 0; a < call_nargs(f, p); a++)
				if (node_strip(f, call_arg(f, p, a)) == n)
					argk = a;
			if (bm_is_legacy_name(callee, strlen(callee)) && argk == 1) {
				free(callee);
				continue; /* rewritten with the site */
			}
			/* passed on to another wrapper of the group? */
			bool ok = false;

			for (size_t c = 0; c < cx->ncalls && !ok; c++) {
				struct call *cl = &cx->calls[c];
				struct func *g2;

				if (&cx->funcs[cl->func] != f || cl->node != p)
					continue;
				g2 = callee_of(cx, cl);
				ok = g2 && argk >= 0 &&
				     wfind(w, (size_t)(g2 - cx->funcs), argk) >= 0;
			}
			free(callee);
			if (ok) {
				if (strcmp(pname, "error"))
					edit_add(&g->scratch, t->path, f->nodes[n].start,
						 f->nodes[n].end, "error");
				continue;
			}
		}
		if (p >= 0 && f->nodes[p].kind == CXCursor_UnaryOperator) {
			char *op = unary_op(t, f, p);
			bool bang = !strcmp(op, "!");

			free(op);
			if (bang) {
				edit_add(&g->scratch, t->path, f->nodes[p].start, f->nodes[p].end,
					 "error");
				continue;
			}
		}
		q = p;
		if (q >= 0 &&
		    (f->nodes[q].kind == CXCursor_IfStmt ||
		     f->nodes[q].kind == CXCursor_WhileStmt ||
		     f->nodes[q].kind == CXCursor_ConditionalOperator) &&
		    node_strip(f, node_child(f, q, 0)) == n) {
			edit_add(&g->scratch, t->path, f->nodes[n].start, f->nodes[n].end,
				 "!error");
			continue;
		}
		gbad(g, "uptodate_unknown",
		     xasprintf(
			 "%s(): the parameter '%s' is used at line %u in a way blkmig does not "
			 "convert to an error value",
			 f->name, pname, line));
		return;
	}
	/* every caller's argument */
	for (size_t c = 0; c < cx->ncalls; c++) {
		struct call *cl = &cx->calls[c];
		struct func *caller = &cx->funcs[cl->func];
		struct tunit *ct = &cx->tus[caller->tu];
		int a;
		struct uptodate u;

		if (callee_of(cx, cl) != f)
			continue;
		a = call_arg(caller, cl->node, pi);
		if (a < 0) {
			gbad(g, "uptodate_unknown",
			     xasprintf("a call of %s() at %s:%u lacks the argument", f->name,
				       ct->path,
				       offset_line(ct, caller->nodes[cl->node].start, NULL)));
			return;
		}
		int cp = param_ref(caller, a);

		if (cp >= 0 && wfind(w, cl->func, cp) >= 0)
			continue; /* the caller's own parameter, renamed with its group */
		if (caller->nodes[a].macro) {
			gbad(g, "macro",
			     xasprintf("a call of %s() at %s:%u is inside a macro", f->name,
				       ct->path,
				       offset_line(ct, caller->nodes[cl->node].start, NULL)));
			return;
		}
		uptodate_classify(cx, caller, a, &u);
		if (u.cls == BM_UT_UNKNOWN || u.cls == BM_UT_WRAPPER || !u.error_expr) {
			gbad(g, "uptodate_unknown",
			     xasprintf("the argument '%s' of %s() at %s:%u: %s", u.expr, f->name,
				       ct->path, offset_line(ct, caller->nodes[a].start, NULL),
				       u.why ? u.why : "cannot convert it to an error value"));
			uptodate_free(&u);
			return;
		}
		edit_add(&g->scratch, ct->path, caller->nodes[a].start, caller->nodes[a].end,
			 u.error_expr);
		uptodate_free(&u);
	}
}

void wrappers_resolve(struct ctx *cx)
{
	struct wset w = {0};
	bool grew = true;
	size_t nsites = cx->run->nsites;

	for (size_t si = 0; si < nsites; si++)
		if (cx->wfunc[si] >= 0)
			wadd(&w, (size_t)cx->wfunc[si], cx->wparam[si]);
	if (!w.n)
		return;
	while (grew) {
		grew = false;
		for (size_t c = 0; c < cx->ncalls; c++) {
			struct call *cl = &cx->calls[c];
			struct func *g = callee_of(cx, cl), *caller = &cx->funcs[cl->func];

			if (!g)
				continue;
			for (size_t k = 0; k < w.n; k++) {
				int a, cp;

				if (&cx->funcs[w.v[k].func] != g)
					continue;
				a = call_arg(caller, cl->node, w.v[k].param);
				cp = a >= 0 ? param_ref(caller, a) : -1;
				if (cp < 0)
					continue;
				/* only when it flows as is: the caller's param is the value */
				size_t before = w.n;
				int j = wadd(&w, cl->func, cp);

				unite(&w, (int)k, j);
				grew |= w.n != before;
			}
		}
	}
	/* per group */
	for (size_t k = 0; k < w.n; k++) {
		struct gstate g = {0};
		int r = root(&w, (int)k);
		long carrier = -1;

		if (r != (int)k)
			continue;
		for (size_t j = 0; j < w.n && !g.bad; j++)
			if (root(&w, (int)j) == r)
				check_wrapper(cx, &w, (int)j, &g);
		for (size_t si = 0; si < nsites; si++) {
			int wi;

			if (cx->wfunc[si] < 0)
				continue;
			wi = wfind(&w, (size_t)cx->wfunc[si], cx->wparam[si]);
			if (wi < 0 || root(&w, wi) != r)
				continue;
			if (cx->run->sites[si].verdict == BM_MANUAL && !g.bad)
				gbad(&g, cx->run->sites[si].reason_code,
				     xasprintf(
					 "another completion through the same wrapper parameter "
					 "(line %u) needs manual review",
					 cx->run->sites[si].line));
		}
		for (size_t si = 0; si < nsites; si++) {
			int wi;

			if (cx->wfunc[si] < 0)
				continue;
			wi = wfind(&w, (size_t)cx->wfunc[si], cx->wparam[si]);
			if (wi < 0 || root(&w, wi) != r)
				continue;
			struct bm_site *s = &cx->run->sites[si];

			s->pattern = BM_PAT_WRAPPER_PARAM;
			if (g.bad) {
				if (s->verdict != BM_MANUAL)
					site_manual(cx, si, g.code, "%s", g.why);
			} else if (carrier < 0) {
				carrier = (long)si;
				for (size_t e = 0; e < g.scratch.nedits; e++)
					edit_add(s, g.scratch.edits[e].file,
						 g.scratch.edits[e].start, g.scratch.edits[e].end,
						 g.scratch.edits[e].text);
			}
		}
		for (size_t e = 0; e < g.scratch.nedits; e++) {
			free(g.scratch.edits[e].file);
			free(g.scratch.edits[e].text);
		}
		free(g.scratch.edits);
		free(g.why);
	}
	free(w.v);
}
