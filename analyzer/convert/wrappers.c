/*
 * wrappers.c - driver functions whose parameter flows into `uptodate`
 * (floppy_end_request(req, uptodate), viodasd_end_request(...), ...).
 * The parameter becomes `error`: the legacy calls inside take it as is,
 * tests on it are flipped (!uptodate -> error, if (uptodate) -> if (!error)),
 * and every caller's argument is converted (1 -> 0, 0 -> -EIO,
 * !x -> x ? -EIO : 0, c -> c ? 0 : -EIO, the exact form for errno-capable
 * values), in whichever analysed file the caller is.  A parameter passed on
 * to another wrapper joins its group.  A group converts all at once or not
 * at all: a non-static wrapper whose callers are not provably all known
 * (exported, or a file that may name it was not analysed: wrapper_scope.c,
 * which also renames the parameter in its prototypes), a function pointer
 * to it, a use of the parameter we cannot convert, or a caller argument
 * with side effects makes every site of the group keep the uptodate
 * parameter (the exact E(u) at the call inside) or manual.
 */
#include <string.h>

#include "rewrite.h"
#include "wrapper_scope.h"

/* The calls of the run grouped by one of their functions (a counting sort): those of
 * function f are calls[at[start[f]]] .. calls[at[start[f + 1] - 1]], in call order. */
struct call_index {
	size_t *at, *start;
};

struct wp {
	size_t func;
	int param;
	int group;
	int next_of_func; /* the next entry of the same function, or -1 */
};

/*
 * The wrapper parameters found so far, with two indexes made once per run so that
 * each lookup costs what the function's own entries and calls cost: a tree (or one
 * generated file) with thousands of wrappers made the fixpoint below quadratic
 * (issue 25, item 9).
 */
struct wset {
	struct wp *v;
	size_t n, cap;
	int *first_of_func; /* heads and tails of the per-function chains, in */
	int *last_of_func;  /* the order of the entries (index order) */
	struct call_index by_callee, by_caller;
	struct wscope *scope; /* the files that could name a non-static candidate */
};

static int wfind(struct wset *w, size_t func, int param)
{
	for (int k = w->first_of_func[func]; k >= 0; k = w->v[k].next_of_func)
		if (w->v[k].param == param)
			return k;
	return -1;
}

static int wadd(struct wset *w, size_t func, int param)
{
	int k = wfind(w, func, param);

	if (k >= 0)
		return k;
	struct wp *slot = vec_push(w->v, w->n, w->cap);

	k = (int)(w->n - 1);
	*slot = (struct wp){func, param, k, -1};
	if (w->last_of_func[func] >= 0)
		w->v[w->last_of_func[func]].next_of_func = k;
	else
		w->first_of_func[func] = k;
	w->last_of_func[func] = k;
	return k;
}

static void call_index_make(struct ctx *cx, struct call_index *ix, bool by_callee)
{
	size_t *fill;

	ix->start = xcalloc(cx->nfuncs + 2, sizeof(*ix->start));
	ix->at = xmalloc((cx->ncalls + 1) * sizeof(*ix->at));
	for (size_t c = 0; c < cx->ncalls; c++) {
		long f = by_callee ? cx->calls[c].callee : (long)cx->calls[c].func;

		if (f >= 0)
			ix->start[f + 1]++;
	}
	for (size_t f = 0; f < cx->nfuncs; f++)
		ix->start[f + 1] += ix->start[f];
	fill = xmalloc((cx->nfuncs + 1) * sizeof(*fill));
	memcpy(fill, ix->start, (cx->nfuncs + 1) * sizeof(*fill));
	for (size_t c = 0; c < cx->ncalls; c++) {
		long f = by_callee ? cx->calls[c].callee : (long)cx->calls[c].func;

		if (f >= 0)
			ix->at[fill[f]++] = c;
	}
	free(fill);
}

static void wset_init(struct ctx *cx, struct wset *w)
{
	w->first_of_func = xmalloc((cx->nfuncs + 1) * sizeof(*w->first_of_func));
	w->last_of_func = xmalloc((cx->nfuncs + 1) * sizeof(*w->last_of_func));
	for (size_t f = 0; f <= cx->nfuncs; f++)
		w->first_of_func[f] = w->last_of_func[f] = -1;
	call_index_make(cx, &w->by_callee, true);
	call_index_make(cx, &w->by_caller, false);
}

static void wset_free(struct wset *w)
{
	free(w->v);
	free(w->first_of_func);
	free(w->last_of_func);
	free(w->by_callee.at);
	free(w->by_callee.start);
	free(w->by_caller.at);
	free(w->by_caller.start);
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
	char *held;		/* why its non-static wrappers' callers are all known, or NULL */
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

/* Is node n read only as a truth value? */
static bool truth_context(struct tunit *t, const struct func *f, int n)
{
	int p = node_up(f, n);

	if (p < 0)
		return false;
	switch (f->nodes[p].kind) {
	case CXCursor_IfStmt:
	case CXCursor_WhileStmt:
	case CXCursor_ConditionalOperator: return node_strip(f, node_child(f, p, 0)) == n;
	case CXCursor_BinaryOperator: {
		char *op = binary_op(t, f, p);
		bool logical = !strcmp(op, "&&") || !strcmp(op, "||");

		free(op);
		return logical;
	}
	default: return false;
	}
}

/*
 * blkmig migrate analyses the files with sites and then each one's private copy alone
 * (cli/migrate_spatch.c), and writes only those files: a wrapper renamed with its callers
 * in other files (and its prototype in a header) is not its to convert.  It keeps the
 * exact E(u) at the call inside, as spatch does, and says the same before and after.
 */
static bool migrate_run(const struct ctx *cx)
{
	return cx->run->command && !strcmp(cx->run->command, "migrate");
}

static void check_wrapper(struct ctx *cx, struct wset *w, int k, struct gstate *g)
{
	struct func *f = &cx->funcs[w->v[k].func];
	struct tunit *t = &cx->tus[f->tu];
	int pi = w->v[k].param;
	const char *pname = f->param_name[pi];

	if (!f->is_static && bm_is_legacy_name(f->name, strlen(f->name))) {
		/* the legacy API's own definition (block/ in a whole tree): its calls are
		 * sites of their own, converted each on its own */
		gbad(g, "wrapper_external_callers",
		     xasprintf("%s() passes its parameter '%s' on as uptodate, but it is the "
			       "legacy API itself: its callers are converted each on its own",
			       f->name, pname));
		return;
	}
	if (!f->is_static) {
		char *exported = wscope_exported(cx, f);

		if (exported) {
			gbad(g, "wrapper_external_callers",
			     xasprintf("%s() passes its parameter '%s' on as uptodate, but it is "
				       "not static and is exported (%s): callers outside the "
				       "analysed files would keep passing uptodate",
				       f->name, pname, exported));
			free(exported);
			return;
		}
	}
	if (f->addr_taken) {
		gbad(g, "wrapper_external_callers",
		     xasprintf(
			 "%s() passes '%s' on as uptodate and is called through a pointer (%s)",
			 f->name, pname, f->addr_evidence));
		return;
	}
	if (!f->is_static) {
		char *held = NULL;
		char *why = w->scope ? wscope_check(cx, w->scope, f, pi, &g->scratch, &held)
			    : migrate_run(cx) ? xstrdup("migrate converts each file with sites "
							"in a private copy of its own; blkmig "
							"fix renames it with its callers")
					      : xstrdup("the files that may name it were not read");

		if (why) {
			gbad(g, "wrapper_external_callers",
			     xasprintf("%s() passes its parameter '%s' on as uptodate, but it is "
				       "not static and its callers are not all known (%s): "
				       "callers elsewhere would keep passing uptodate",
				       f->name, pname, why));
			free(why);
			return;
		}
		if (g->held) {
			char *both = xasprintf("%s; %s", g->held, held);

			free(g->held);
			free(held);
			held = both;
		}
		g->held = held;
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
			CXString s = clang_getCursorSpelling(node_cursor(f, n));
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
		CXCursor pc = clang_Cursor_getArgument(func_cursor(f), (unsigned)pi);
		CXFile file;
		size_t off = loc_offset(clang_getCursorLocation(pc), &file);

		if (!file || !clang_File_isEqual(file, unit_file(t)) ||
		    strncmp(t->src + off, pname, strlen(pname))) {
			gbad(g, "uptodate_unknown",
			     xasprintf("%s(): cannot locate the parameter '%s'", f->name, pname));
			return;
		}
		if (strcmp(pname, "error"))
			edit_add(&g->scratch, t->path, off, off + strlen(pname), "error");
	}
	/* every use of it; a flipped test is exact only for values >= 0 */
	bool flips = false;

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

			size_t fi = (size_t)(f - cx->funcs);

			for (size_t i = w->by_caller.start[fi];
			     i < w->by_caller.start[fi + 1] && !ok; i++) {
				struct call *cl = &cx->calls[w->by_caller.at[i]];
				struct func *g2;

				if (cl->node != p)
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
			/* only where it is read as a truth value (the condition of an if, a
			 * while or a ?:, an operand of && or ||): elsewhere `!u` is a value
			 * (0 or 1) and `error` is not (0 or -EIO) */
			if (bang && truth_context(t, f, p)) {
				flips = true;
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
			flips = true;
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
	for (size_t i = w->by_callee.start[w->v[k].func]; i < w->by_callee.start[w->v[k].func + 1];
	     i++) {
		struct call *cl = &cx->calls[w->by_callee.at[i]];
		struct func *caller = &cx->funcs[cl->func];
		struct tunit *ct = &cx->tus[caller->tu];
		int a;
		struct uptodate u;

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
		/* !u is u == 0 but error != 0 is u <= 0: the same only without errnos */
		if (flips && !(u.cls == BM_UT_BOOLEAN ||
			       (u.cls == BM_UT_CONSTANT && u.expr && u.expr[0] != '-'))) {
			gbad(
			    g, "uptodate_unknown",
			    xasprintf("%s() tests '%s' and a caller (%s:%u) passes '%s', which may "
				      "be negative: the flipped test would read it differently",
				      f->name, pname, ct->path,
				      offset_line(ct, caller->nodes[a].start, NULL), u.expr));
			uptodate_free(&u);
			return;
		}
		edit_add(&g->scratch, ct->path, caller->nodes[a].start, caller->nodes[a].end,
			 u.error_expr);
		uptodate_free(&u);
	}
}

/*
 * The group cannot become `error` all at once (a non-static wrapper, a
 * pointer to it, a use of the parameter we cannot flip): the parameter
 * stays an uptodate value for every caller, and the new call inside takes
 * the exact E(u) of it instead.  Only the site's own call changes.
 */
static bool keep_uptodate_param(struct ctx *cx, size_t si)
{
	struct bm_site *s = &cx->run->sites[si];
	struct func *f = &cx->funcs[cx->wfunc[si]];
	const char *pn = f->param_name[cx->wparam[si]];
	char *at = strstr(s->replacement, ", error, ");
	char *exact, *repl;

	if (!pn[0] || !at)
		return false;
	exact = xasprintf("%s > 0 ? 0 : (%s ? %s : -EIO)", pn, pn, pn);
	repl = xasprintf("%.*s, %s, %s", (int)(at - s->replacement), s->replacement, exact,
			 at + strlen(", error, "));
	for (size_t e = 0; e < s->nedits; e++) {
		char *hit = strstr(s->edits[e].text, s->replacement);

		if (hit) {
			char *t = xasprintf("%.*s%s%s", (int)(hit - s->edits[e].text),
					    s->edits[e].text, repl, hit + strlen(s->replacement));

			free(s->edits[e].text);
			s->edits[e].text = t;
		}
	}
	free(s->replacement);
	s->replacement = repl;
	free(s->error_expr);
	s->error_expr = exact;
	s->uptodate_class = BM_UT_ERRNO;
	if (cx->partner[si] >= 0)
		cx->run->sites[cx->partner[si]].uptodate_class = BM_UT_ERRNO;
	return true;
}

void wrappers_resolve(struct ctx *cx)
{
	struct wset w = {0};
	bool grew = true;
	size_t nsites = cx->run->nsites;
	size_t *member_start, *members, *site_start, *sites, *fill;
	int *site_wp;

	bool any = false;

	for (size_t si = 0; si < nsites && !any; si++)
		any = cx->wfunc[si] >= 0;
	if (!any)
		return;
	wset_init(cx, &w);
	for (size_t si = 0; si < nsites; si++)
		if (cx->wfunc[si] >= 0)
			wadd(&w, (size_t)cx->wfunc[si], cx->wparam[si]);
	while (grew) {
		grew = false;
		for (size_t c = 0; c < cx->ncalls; c++) {
			struct call *cl = &cx->calls[c];
			struct func *g = callee_of(cx, cl), *caller = &cx->funcs[cl->func];

			units_trim(); /* between calls: no cursor is held */

			/* a call of the legacy API itself (block/ll_rw_blk.c's end_request
			 * in a whole tree) is a site, rewritten with it, not a wrapper */
			if (!g || bm_is_legacy_name(g->name, strlen(g->name)))
				continue;
			/* the callee's entries in index order; one the loop adds to the same
			 * chain (a recursive call) is visited too */
			for (int k = w.first_of_func[cl->callee]; k >= 0; k = w.v[k].next_of_func) {
				int a, cp;

				a = call_arg(caller, cl->node, w.v[k].param);
				cp = a >= 0 ? param_ref(caller, a) : -1;
				if (cp < 0)
					continue;
				/* only when it flows as is: the caller's param is the value */
				size_t before = w.n;
				int j = wadd(&w, cl->func, cp);

				unite(&w, k, j);
				grew |= w.n != before;
			}
		}
	}
	/* the non-static candidates' files, read once (wrapper_scope.c) */
	{
		struct bm_strlist names = {0};

		for (size_t j = 0; j < w.n; j++) {
			struct func *f = &cx->funcs[w.v[j].func];
			char *exported =
			    f->is_static || f->addr_taken ? NULL : wscope_exported(cx, f);

			if (!f->is_static && !f->addr_taken && !exported &&
			    !bm_is_legacy_name(f->name, strlen(f->name)) &&
			    !strlist_has(&names, f->name))
				strlist_push(&names, f->name);
			free(exported);
		}
		if (names.n && !migrate_run(cx))
			w.scope = wscope_make(cx, &names);
		strlist_free(&names);
	}
	/* The groups' members and sites, each list in index order (a counting sort by
	 * root), so that every group below reads only its own. */
	member_start = xcalloc(w.n + 2, sizeof(*member_start));
	site_start = xcalloc(w.n + 2, sizeof(*site_start));
	members = xmalloc((w.n + 1) * sizeof(*members));
	sites = xmalloc((nsites + 1) * sizeof(*sites));
	site_wp = xmalloc((nsites + 1) * sizeof(*site_wp));
	fill = xmalloc((w.n + 1) * sizeof(*fill));
	for (size_t j = 0; j < w.n; j++)
		member_start[root(&w, (int)j) + 1]++;
	for (size_t si = 0; si < nsites; si++) {
		site_wp[si] =
		    cx->wfunc[si] < 0 ? -1 : wfind(&w, (size_t)cx->wfunc[si], cx->wparam[si]);
		if (site_wp[si] >= 0)
			site_start[root(&w, site_wp[si]) + 1]++;
	}
	for (size_t j = 0; j < w.n; j++) {
		member_start[j + 1] += member_start[j];
		site_start[j + 1] += site_start[j];
	}
	memcpy(fill, member_start, w.n * sizeof(*fill));
	for (size_t j = 0; j < w.n; j++)
		members[fill[root(&w, (int)j)]++] = j;
	memcpy(fill, site_start, w.n * sizeof(*fill));
	for (size_t si = 0; si < nsites; si++)
		if (site_wp[si] >= 0)
			sites[fill[root(&w, site_wp[si])]++] = si;
	/* per group */
	for (size_t k = 0; k < w.n; k++) {
		struct gstate g = {0};
		int r = root(&w, (int)k);
		long carrier = -1;

		if (r != (int)k)
			continue;
		units_trim(); /* between groups: no cursor is held */
		for (size_t m = member_start[r]; m < member_start[r + 1] && !g.bad; m++)
			check_wrapper(cx, &w, (int)members[m], &g);
		for (size_t m = site_start[r]; m < site_start[r + 1]; m++) {
			size_t si = sites[m];

			if (cx->run->sites[si].verdict == BM_MANUAL && !g.bad)
				gbad(&g, cx->run->sites[si].reason_code,
				     xasprintf(
					 "another completion through the same wrapper parameter "
					 "(line %u) needs manual review",
					 cx->run->sites[si].line));
		}
		for (size_t m = site_start[r]; m < site_start[r + 1]; m++) {
			size_t si = sites[m];
			struct bm_site *s = &cx->run->sites[si];

			s->pattern = BM_PAT_WRAPPER_PARAM;
			if (g.bad) {
				if (s->verdict == BM_MANUAL)
					continue;
				if (!keep_uptodate_param(cx, si))
					site_manual(cx, si, g.code, "%s", g.why);
				else if (!strcmp(g.code, "wrapper_external_callers") &&
					 !migrate_run(cx)) {
					/* which condition kept it (migrate's reports stay
					 * as they were: it does not weigh the rule) */
					free(s->uptodate_origin);
					s->uptodate_origin = xasprintf(
					    "the parameter stays an uptodate value, mapped "
					    "exactly here: %s",
					    g.why);
				}
				continue;
			}
			if (g.held) { /* the rule that let a non-static wrapper convert */
				free(s->uptodate_origin);
				s->uptodate_origin = xstrdup(g.held);
			}
			if (carrier < 0) {
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
		free(g.held);
	}
	free(member_start);
	free(site_start);
	free(members);
	free(sites);
	free(site_wp);
	free(fill);
	wscope_free(w.scope, cx->ntus);
	wset_free(&w);
}
