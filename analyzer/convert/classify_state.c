/*
 * classify_state.c - a data completion in one state of a driver's state
 * machine and its end_that_request_last in the next state (xsysace-style):
 *
 *         switch (dev->state) {
 *         case XFER:
 *                 if (end_that_request_first(dev->req, 1, n)) { ...; break; }
 *                 dev->state = DONE;
 *                 break;
 *         case DONE:
 *                 blkdev_dequeue_request(dev->req);
 *                 end_that_request_last(dev->req, 1);
 *                 dev->req = NULL;
 *
 * The 2.6.25 call at F ends the request as soon as its last byte completes,
 * i.e. before the machine reaches DONE.  That is exact when nothing can use
 * the request in between: the request is kept only in a field (or static
 * variable) of this file, the state only this switch sets, DONE entered only
 * from F's path, and nowhere but the cases before DONE does anything with
 * the kept request except test it against NULL or overwrite it; DONE itself
 * does only the housekeeping the new call does, L, and clearing the field.
 * Everything is proven over the whole translation unit; the field's struct
 * (or the variable) is defined in the file, so no other file can reach it.
 */
#include <ctype.h>
#include <string.h>

#include "classify_shapes.h"

struct sm {
	struct ctx *cx;
	struct func *f;
	struct tunit *t;
	int sw, body;  /* the switch and its compound body */
	int list[512]; /* statements of the body */
	int cnt;
	int kidx, kend;			/* case K's statements: list[kidx .. kend) */
	int Ls;				/* L's statement (list index) */
	long long kval;			/* K's value */
	char *holder_usr;		/* the field or static variable keeping the request */
	char *state_usr;		/* the field or static variable holding the state */
	char *holder_name, *state_name; /* their names */
	int handoff;			/* the `S = K` statement */
};

static char *norm_text(struct tunit *t, const struct node *n)
{
	char *raw = node_text(t, n), *r = normalize_ws(raw);

	free(raw);
	return r;
}

/* the value of a constant expression, or false */
static bool const_value(const struct func *f, int n, long long *v)
{
	CXEvalResult r;
	bool ok = false;

	n = node_strip_casts(f, n);
	if (n < 0)
		return false;
	r = clang_Cursor_Evaluate(node_cursor(f, n));
	if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
		*v = clang_EvalResult_getAsLongLong(r);
		ok = true;
	}
	if (r)
		clang_EvalResult_dispose(r);
	return ok;
}

/*
 * The USR of the storage an lvalue names when it is a field of a struct
 * defined in this file or a static variable: everything that reaches it is
 * in this translation unit.  NULL otherwise.
 */
static char *file_private_storage(struct tunit *t, const struct func *f, int n)
{
	CXCursor r;
	CXFile file;
	enum CXCursorKind k;

	n = node_strip(f, n);
	if (n < 0 || (f->nodes[n].kind != CXCursor_MemberRefExpr &&
		      f->nodes[n].kind != CXCursor_DeclRefExpr))
		return NULL;
	r = clang_getCursorReferenced(node_cursor(f, n));
	k = clang_getCursorKind(r);
	if (k == CXCursor_FieldDecl) {
		clang_getSpellingLocation(clang_getCursorLocation(r), &file, NULL, NULL, NULL);
		if (!file || !unit_file(t) || !clang_File_isEqual(file, unit_file(t)))
			return NULL;
	} else if (k != CXCursor_VarDecl || clang_Cursor_getStorageClass(r) != CX_SC_Static) {
		return NULL;
	}
	return cursor_usr(r);
}

static bool refers_to(const struct func *g, int n, const char *usr)
{
	char *u;
	bool same;

	if (g->nodes[n].kind != CXCursor_MemberRefExpr && g->nodes[n].kind != CXCursor_DeclRefExpr)
		return false;
	u = ref_usr(g, n);
	same = !strcmp(u, usr);
	free(u);
	return same;
}

enum holder_use { HU_OTHER = 0, HU_DEREF, HU_TEST, HU_WRITE, HU_LEGACY_ARG };

static bool is_housekeeping_call(const char *name)
{
	return !strcmp(name, "add_disk_randomness") || !strcmp(name, "blkdev_dequeue_request") ||
	       !strcmp(name, "blk_queue_end_tag");
}

/* What the occurrence n of the kept request does with it. */
static enum holder_use holder_use(struct tunit *t, const struct func *g, int n)
{
	int p = node_up(g, n);
	enum CXCursorKind k;
	enum holder_use r = HU_OTHER;

	if (p < 0)
		return HU_OTHER;
	k = g->nodes[p].kind;
	if (k == CXCursor_MemberRefExpr)
		return HU_DEREF;
	if (k == CXCursor_BinaryOperator) {
		char *op = binary_op(t, g, p);

		if (!strcmp(op, "=") && node_strip(g, node_child(g, p, 0)) == n)
			r = HU_WRITE;
		else if (!strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "&&") ||
			 !strcmp(op, "||"))
			r = HU_TEST;
		free(op);
		return r;
	}
	if (k == CXCursor_UnaryOperator) {
		char *op = unary_op(t, g, p);

		r = !strcmp(op, "!") ? HU_TEST : !strcmp(op, "*") ? HU_DEREF : HU_OTHER;
		free(op);
		return r;
	}
	if ((k == CXCursor_IfStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
	     k == CXCursor_ConditionalOperator) &&
	    node_strip(g, node_child(g, p, k == CXCursor_DoStmt ? 1 : 0)) == n)
		return HU_TEST;
	if (k == CXCursor_CallExpr && node_strip(g, call_arg(g, p, 0)) == n) {
		char *callee = node_callee(g, p);

		if (bm_is_legacy_name(callee, strlen(callee)) || is_housekeeping_call(callee))
			r = HU_LEGACY_ARG;
		free(callee);
	}
	return r;
}

/* the list index of the statement of the switch body holding n, or -1 */
static int top_index(const struct sm *m, int n)
{
	for (int i = 0; i < m->cnt; i++)
		if (node_within(m->f, n, m->list[i]))
			return i;
	return -1;
}

static const char *use_name(enum holder_use u)
{
	switch (u) {
	case HU_DEREF: return "reads the request through it";
	case HU_WRITE: return "sets it";
	case HU_TEST: return "tests it";
	case HU_LEGACY_ARG: return "completes the request";
	default: return "copies or passes on the request pointer";
	}
}

/* Every use of the kept request in the file, against the states. */
static bool check_holder(struct sm *m, char **why)
{
	struct ctx *cx = m->cx;

	for (size_t gi = 0; gi < cx->nfuncs; gi++) {
		struct func *g = &cx->funcs[gi];

		if (g->tu != m->f->tu)
			continue;
		for (int n = 0; n < g->nnodes; n++) {
			enum holder_use u;
			int at;
			bool ok;

			if (!refers_to(g, n, m->holder_usr))
				continue;
			u = holder_use(m->t, g, n);
			at = g == m->f && node_within(g, n, m->body) ? top_index(m, n) : -1;
			if (at >= m->kidx && at < m->kend)
				/* the final state: its housekeeping and L go with the
				 * rewrite; after L it may only be tested or cleared */
				ok = at <= m->Ls || u == HU_TEST || u == HU_WRITE;
			else if (at >= 0)
				/* another state: the request is not ended there */
				ok = u != HU_OTHER;
			else
				/* outside the machine: any time, also between the states */
				ok = u == HU_TEST;
			if (!ok) {
				*why = xasprintf(
				    "%s() %s at line %u, which may run after the new "
				    "call has ended the request and before the state "
				    "machine reaches end_that_request_last",
				    g->name, use_name(u),
				    offset_line(&cx->tus[g->tu], g->nodes[n].start, NULL));
				return false;
			}
		}
	}
	return true;
}

/* Every store into the state: only in the switch, constants, K only once. */
static bool check_state(struct sm *m, char **why)
{
	struct ctx *cx = m->cx;
	int ks = 0;

	for (size_t gi = 0; gi < cx->nfuncs; gi++) {
		struct func *g = &cx->funcs[gi];
		struct tunit *t = &cx->tus[g->tu];

		if (g->tu != m->f->tu)
			continue;
		for (int n = 0; n < g->nnodes; n++) {
			int p;
			long long v;
			bool store = false, konst = false;

			if (!refers_to(g, n, m->state_usr))
				continue;
			p = node_up(g, n);
			if (p >= 0 && g->nodes[p].kind == CXCursor_BinaryOperator &&
			    node_strip(g, node_child(g, p, 0)) == n) {
				char *op = binary_op(t, g, p);

				store = !strcmp(op, "=");
				konst = store && const_value(g, node_child(g, p, 1), &v);
				free(op);
			} else if (p >= 0 && (g->nodes[p].kind == CXCursor_CompoundAssignOperator ||
					      g->nodes[p].kind == CXCursor_UnaryOperator)) {
				char *op = g->nodes[p].kind == CXCursor_UnaryOperator
					       ? unary_op(t, g, p)
					       : xstrdup("op=");

				store = strcmp(op, "!") && strcmp(op, "-") && strcmp(op, "~");
				free(op);
			}
			if (!store)
				continue;
			if (g != m->f || !node_within(g, n, m->body) || !konst) {
				*why = xasprintf("%s() sets the state at line %u %s, so the state "
						 "machine may reach the final state another way",
						 g->name, offset_line(t, g->nodes[n].start, NULL),
						 konst ? "outside the switch"
						       : "to a value that is "
							 "not a constant");
				return false;
			}
			if (v == m->kval && p != m->handoff) {
				*why = xasprintf("the final state is also entered at line %u, "
						 "with no data completion before it",
						 offset_line(t, g->nodes[n].start, NULL));
				return false;
			}
			ks += v == m->kval;
		}
	}
	return ks == 1 || (*why = xstrdup("the final state is not entered from the data "
					  "completion")) == NULL;
}

static bool leaves(const struct func *f, int st)
{
	enum CXCursorKind k = f->nodes[st].kind;

	return k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt ||
	       k == CXCursor_ContinueStmt;
}

/* the statement of a case label chain (case A: case B: stmt) */
static int case_body(const struct func *f, int st)
{
	while (st >= 0 && (f->nodes[st].kind == CXCursor_CaseStmt ||
			   f->nodes[st].kind == CXCursor_DefaultStmt))
		st = node_child(f, st, f->nodes[st].kind == CXCursor_CaseStmt ? 1 : 0);
	return st;
}

static bool is_house_stmt(const struct func *f, int st)
{
	char *callee;
	bool r;

	st = node_strip(f, st);
	if (st < 0 || f->nodes[st].kind != CXCursor_CallExpr)
		return false;
	callee = node_callee(f, st);
	r = is_housekeeping_call(callee);
	free(callee);
	return r;
}

/* NAME as a whole word of hay[0, len) (members too: x->NAME) */
static bool has_word(const char *hay, size_t len, const char *name)
{
	size_t wl = strlen(name);

	for (size_t i = 0; wl && i + wl <= len; i++)
		if (!memcmp(hay + i, name, wl) &&
		    (i == 0 || !(isalnum((unsigned char)hay[i - 1]) || hay[i - 1] == '_')) &&
		    (i + wl == len || !(isalnum((unsigned char)hay[i + wl]) || hay[i + wl] == '_')))
			return true;
	return false;
}

static char *spelling_of_ref(const struct func *f, int n)
{
	CXString sp =
	    clang_getCursorSpelling(clang_getCursorReferenced(node_cursor(f, node_strip(f, n))));
	char *r = xstrdup(clang_getCString(sp));

	clang_disposeString(sp);
	return r;
}

/*
 * A function with parse errors may have lost statements from its AST.  They
 * can hide a use of the request or the state only if its text names their
 * storage, or a macro of this file whose definition does.
 */
static bool errors_may_hide(struct sm *m, const struct func *g)
{
	struct tunit *t = m->t;
	const char *names[2] = {m->holder_name, m->state_name};
	struct bm_strlist macros = {0};
	bool hit = false;

	for (size_t q = 0; q < t->len; q++) {
		size_t a, e, b;

		if ((q && t->clean[q - 1] != '\n') || strncmp(t->clean + q, "#define", 7))
			continue;
		a = q + 7;
		while (a < t->len && (t->clean[a] == ' ' || t->clean[a] == '\t'))
			a++;
		e = a;
		while (e < t->len && (isalnum((unsigned char)t->clean[e]) || t->clean[e] == '_'))
			e++;
		for (b = e; b < t->len && !(t->clean[b] == '\n' && t->clean[b - 1] != '\\'); b++)
			;
		for (int k = 0; k < 2; k++)
			if (e > a && has_word(t->clean + e, b - e, names[k])) {
				strlist_push_owned(&macros, xstrndup(t->clean + a, e - a));
				break;
			}
	}
	for (int k = 0; k < 2 && !hit; k++)
		hit = has_word(t->clean + g->start, g->end - g->start, names[k]);
	for (size_t i = 0; i < macros.n && !hit; i++)
		hit = has_word(t->clean + g->start, g->end - g->start, macros.v[i]);
	strlist_free(&macros);
	return hit;
}

static bool prove(struct sm *m, int F, int L, struct state_handoff *h, char **why)
{
	struct func *f = m->f;
	struct tunit *t = m->t;
	int Fi, Fs, T, last = -1, set, brk, kcase;
	char *rq1, *rq2, *lhs, *cond;
	bool same;

	/* F's statement is a direct statement of the switch body */
	for (Fs = F; Fs >= 0; Fs = f->nodes[Fs].parent) {
		int p = f->nodes[Fs].parent;

		if (p >= 0 && f->nodes[p].kind == CXCursor_CompoundStmt &&
		    f->nodes[p].parent >= 0 &&
		    f->nodes[f->nodes[p].parent].kind == CXCursor_SwitchStmt)
			break;
	}
	if (Fs < 0) {
		*why = xstrdup("the data completion is not in a case of a switch");
		return false;
	}
	m->body = f->nodes[Fs].parent;
	Fs = case_body(f, Fs); /* `case X: if (F) ...` */
	m->sw = f->nodes[m->body].parent;
	m->cnt = 0;
	for (int c = f->nodes[m->body].first; c >= 0 && m->cnt < 512; c = f->nodes[c].next)
		m->list[m->cnt++] = c;
	Fi = top_index(m, F);
	if (f->nodes[Fs].kind != CXCursor_IfStmt || node_strip(f, node_child(f, Fs, 0)) != F ||
	    node_child(f, Fs, 2) >= 0 || (T = node_child(f, Fs, 1)) < 0) {
		*why = xstrdup("the data completion is not the test of an if without else");
		return false;
	}
	for (int c = f->nodes[T].kind == CXCursor_CompoundStmt ? f->nodes[T].first : T; c >= 0;
	     c = f->nodes[T].kind == CXCursor_CompoundStmt ? f->nodes[c].next : -1)
		last = c;
	if (last < 0 || !leaves(f, last)) {
		*why = xstrdup("the branch for bytes left does not leave the state");
		return false;
	}
	/* S = K; break; case K: */
	if (Fi + 3 >= m->cnt) {
		*why = xstrdup("the data completion is not followed by a change of state");
		return false;
	}
	set = m->list[Fi + 1];
	brk = m->list[Fi + 2];
	kcase = m->list[Fi + 3];
	if (f->nodes[set].kind != CXCursor_BinaryOperator ||
	    f->nodes[brk].kind != CXCursor_BreakStmt || f->nodes[kcase].kind != CXCursor_CaseStmt) {
		*why = xstrdup("the data completion is not followed by `state = NEXT; break;` and "
			       "`case NEXT:`");
		return false;
	}
	{
		char *op = binary_op(t, f, set);

		same = !strcmp(op, "=");
		free(op);
	}
	lhs = norm_text(t, &f->nodes[node_child(f, set, 0)]);
	cond = norm_text(t, &f->nodes[node_child(f, m->sw, 0)]);
	if (cond[0] == '(' && cond[strlen(cond) - 1] == ')') {
		memmove(cond, cond + 1, strlen(cond));
		cond[strlen(cond) - 1] = 0;
	}
	same = same && !strcmp(lhs, cond);
	free(lhs);
	free(cond);
	{
		long long kv;

		if (!same || !const_value(f, node_child(f, set, 1), &m->kval) ||
		    !const_value(f, node_child(f, kcase, 0), &kv) || kv != m->kval) {
			*why =
			    xstrdup("the state set after the data completion is not the switch's "
				    "next case");
			return false;
		}
	}
	if (m->kval == 0) {
		*why = xstrdup("the final state has the value 0, the state a zeroed device "
			       "starts in");
		return false;
	}
	m->handoff = set;
	m->state_usr = file_private_storage(t, f, node_child(f, set, 0));
	m->holder_usr = file_private_storage(t, f, call_arg(f, F, 0));
	if (m->state_usr && m->holder_usr) {
		m->state_name = spelling_of_ref(f, node_child(f, set, 0));
		m->holder_name = spelling_of_ref(f, call_arg(f, F, 0));
	}
	if (!m->state_usr || !m->holder_usr) {
		*why = xasprintf("the %s is not kept in a field of a struct this file defines or "
				 "in a static variable, so other files may use it",
				 m->holder_usr ? "state" : "request");
		return false;
	}
	/* case K: [housekeeping...] L; [rest of the state] */
	m->kidx = Fi + 3;
	m->Ls = top_index(m, L);
	if (m->Ls < m->kidx || m->list[m->Ls] != enclosing_stmt(f, L) ||
	    node_strip(f, m->list[m->Ls]) != L) {
		*why = xstrdup("end_that_request_last is not a statement of the next case");
		return false;
	}
	rq1 = norm_text(t, &f->nodes[call_arg(f, F, 0)]);
	rq2 = norm_text(t, &f->nodes[call_arg(f, L, 0)]);
	same = !strcmp(rq1, rq2);
	free(rq1);
	free(rq2);
	if (!same)
		return (*why = xstrdup("the final step names the request differently")) == NULL;
	h->nremove = 0;
	for (int i = m->kidx; i < m->Ls; i++) {
		int st = i == m->kidx ? case_body(f, m->list[i]) : m->list[i];

		if (i > m->kidx && (f->nodes[st].kind == CXCursor_CaseStmt ||
				    f->nodes[st].kind == CXCursor_DefaultStmt)) {
			*why = xstrdup("another case label lies before end_that_request_last");
			return false;
		}
		if (!is_house_stmt(f, st) || h->nremove >= HANDOFF_MAX_REMOVE - 1) {
			*why =
			    xasprintf("line %u runs in the final state before "
				      "end_that_request_last; only the housekeeping the new call "
				      "does itself may",
				      offset_line(t, f->nodes[st].start, NULL));
			return false;
		}
		h->remove[h->nremove++] = st;
	}
	h->remove[h->nremove++] = m->list[m->Ls];
	for (m->kend = m->Ls + 1; m->kend < m->cnt; m->kend++) {
		enum CXCursorKind k = f->nodes[m->list[m->kend]].kind;

		if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt)
			break;
		if (f->nodes[m->list[m->kend]].kind == CXCursor_LabelStmt) {
			*why = xstrdup("a goto label lies in the final state");
			return false;
		}
	}
	for (size_t gi = 0; gi < m->cx->nfuncs; gi++)
		if (m->cx->funcs[gi].tu == f->tu && m->cx->funcs[gi].has_errors &&
		    errors_may_hide(m, &m->cx->funcs[gi])) {
			*why = xasprintf("%s() in the same file did not parse cleanly and names "
					 "the request's or the state's storage, so blkmig cannot "
					 "see every use of them",
					 m->cx->funcs[gi].name);
			return false;
		}
	if (!check_state(m, why) || !check_holder(m, why))
		return false;
	h->evidence = xasprintf(
	    "state machine: the data completion's path sets the state to the next case (line %u), "
	    "whose only work before end_that_request_last is housekeeping; the state is set "
	    "only in this switch and the final state only from here; the request is kept only "
	    "in storage of this file, which nothing uses between the states but to test or "
	    "clear it: the new call ends the request where 2.6.24 ended its data",
	    offset_line(t, f->nodes[set].start, NULL));
	return true;
}

bool state_handoff_prove(struct ctx *cx, struct func *f, int F, int L, struct state_handoff *h,
			 char **why)
{
	struct sm *m = xcalloc(1, sizeof(*m));
	bool ok;

	m->cx = cx;
	m->f = f;
	m->t = &cx->tus[f->tu];
	memset(h, 0, sizeof(*h));
	*why = NULL;
	ok = prove(m, F, L, h, why);
	if (!ok && !*why)
		*why = xstrdup("the state machine could not be followed");
	free(m->holder_usr);
	free(m->state_usr);
	free(m->holder_name);
	free(m->state_name);
	free(m);
	return ok;
}

void state_handoff_free(struct state_handoff *h)
{
	free(h->evidence);
	h->evidence = NULL;
}
