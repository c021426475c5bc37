/*
 * uptodate_flow.c - what an old `uptodate` argument means, and its new
 * `error` value E(u) (API-SEMANTICS: error = u > 0 ? 0 : (u ? u : -EIO)):
 *   constant       1 -> 0, 0 -> -EIO, -EXXX -> itself (evaluated by libclang);
 *   boolean        c -> c ? 0 : -EIO, !x -> x ? -EIO : 0 (comparisons, !, &&,
 *                  ||, a local only ever assigned constants or booleans, a call
 *                  of a function of the run that only returns 0, 1 or booleans);
 *                  value ranges (issue 22 point 1): a local only ever given
 *                  such values or calls of functions of its file whose every
 *                  return is one (xd.c's res = xd_readwrite(...)), a local at a
 *                  call reached only through case labels 0 and 1 of a switch
 *                  on it (pd.c's switch (res = phase()) { case Ok: case Fail:),
 *                  a local only given constants under if (v != C) whose other
 *                  constants are 0 or 1 (ps2esdi.c's ending != -1);
 *                  u->why then says why, for the report;
 *   errno_capable  anything else side-effect free -> the exact form;
 *   wrapper_param  a parameter of the enclosing function (wrappers.c);
 *   unknown        side effects that the exact form would repeat.
 */
#include <ctype.h>
#include <string.h>

#include "flow.h"

void uptodate_free(struct uptodate *u)
{
	free(u->expr);
	free(u->error_expr);
	free(u->why);
	memset(u, 0, sizeof(*u));
}

static bool eval_int(const struct func *f, int n, long long *v)
{
	CXEvalResult r = clang_Cursor_Evaluate(node_cursor(f, n));
	bool ok = false;

	if (!r)
		return false;
	if (clang_EvalResult_getKind(r) == CXEval_Int) {
		*v = clang_EvalResult_getAsLongLong(r);
		ok = true;
	}
	clang_EvalResult_dispose(r);
	return ok;
}

static bool is_boolean(struct tunit *t, const struct func *f, int n)
{
	n = node_strip(f, n);
	if (n < 0)
		return false;
	if (f->nodes[n].kind == CXCursor_UnaryOperator) {
		char *op = unary_op(t, f, n);
		bool r = !strcmp(op, "!");

		free(op);
		return r;
	}
	if (f->nodes[n].kind == CXCursor_BinaryOperator) {
		static const char *const ops[] = {"==", "!=", "<", ">", "<=", ">=", "&&", "||"};
		char *op = binary_op(t, f, n);
		bool r = false;

		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			r |= !strcmp(op, ops[i]);
		free(op);
		return r;
	}
	return false;
}

static bool returns_01(struct ctx *cx, struct func *g, int depth, const char **via);

/*
 * Is n always 0 or 1: a 0/1 constant, a boolean, c ? a : b of such values, or
 * a call of a function defined in the same file whose every return is such a
 * value (returns_01; *via, when given, names the first such function the
 * expression calls)?
 */
static bool is_01(struct ctx *cx, struct func *f, int n, int depth, const char **via)
{
	struct tunit *t = &cx->tus[f->tu];
	long long v;
	int a, b;

	n = node_strip(f, n);
	if (n < 0)
		return false;
	if (eval_int(f, n, &v))
		return v == 0 || v == 1;
	if (is_boolean(t, f, n))
		return true;
	if (depth >= 3)
		return false;
	if (f->nodes[n].kind == CXCursor_CallExpr && !f->nodes[n].macro) {
		char *callee = node_callee(f, n);
		struct func *g = callee ? func_by_name(cx, callee, f->tu) : NULL;

		free(callee);
		/* the body of the file's own definition says what the call gives */
		if (!g || g->tu != f->tu || !returns_01(cx, g, depth + 1, NULL))
			return false;
		if (via && !*via)
			*via = g->name;
		return true;
	}
	if (f->nodes[n].kind != CXCursor_ConditionalOperator)
		return false;
	a = node_child(f, n, 1);
	b = node_child(f, n, 2);
	return a >= 0 && b >= 0 && is_01(cx, f, a, depth + 1, via) &&
	       is_01(cx, f, b, depth + 1, via);
}

/*
 * Does every return of g (at least one, each with a value) give 0 or 1 by
 * is_01?  Then a call of g is 0 or 1: what the call gives is what its body
 * returns, whatever else calls it.
 */
static bool returns_01(struct ctx *cx, struct func *g, int depth, const char **via)
{
	int returns = 0;

	if (g->has_errors || g->body < 0)
		return false;
	for (int n = 0; n < g->nnodes; n++) {
		if (g->nodes[n].kind != CXCursor_ReturnStmt)
			continue;
		if (g->nodes[n].first < 0 || !is_01(cx, g, g->nodes[n].first, depth, via))
			return false;
		returns++;
	}
	return returns > 0;
}

/* RHS values a local variable is ever given: all 0/1 constants or booleans? */
static int local_kind(struct ctx *cx, struct func *f, const char *usr, const char **via)
{
	struct tunit *t = &cx->tus[f->tu];
	int kind = 1; /* 1 boolean, 2 errno-capable */

	for (int n = 0; n < f->nnodes; n++) {
		struct node *nd = &f->nodes[n];
		int rhs;

		if (node_store(t, f, n, usr, &rhs) == STORE_COMPOUND) {
			kind = 2; /* u += ...: any value */
			rhs = -1;
		} else if (nd->kind == CXCursor_UnaryOperator) {
			int c = node_strip(f, nd->first);

			if (c >= 0 && f->nodes[c].kind == CXCursor_DeclRefExpr) {
				char *u = ref_usr(f, c);
				char *op = unary_op(t, f, n);

				if (!strcmp(u, usr) && strcmp(op, "!") && strcmp(op, "-"))
					kind = 2; /* &u, u++ ... */
				free(op);
				free(u);
			}
		}
		if (rhs >= 0 && !is_01(cx, f, rhs, 0, via))
			kind = 2;
	}
	return kind;
}

/* Does every return of g give 0, 1 or a boolean? (then a call of g is a boolean) */
static bool returns_boolean(struct ctx *cx, struct func *g)
{
	struct tunit *t = &cx->tus[g->tu];
	int returns = 0;

	for (int n = 0; n < g->nnodes; n++) {
		long long v;
		int e;

		if (g->nodes[n].kind != CXCursor_ReturnStmt)
			continue;
		e = g->nodes[n].first;
		if (e < 0)
			return false;
		if (eval_int(g, node_strip(g, e), &v)) {
			if (v != 0 && v != 1)
				return false;
		} else if (!is_boolean(t, g, e)) {
			return false;
		}
		returns++;
	}
	return returns > 0;
}

/* Is node i inside the subtree of node r? (preorder indices) */
static bool inside(const struct func *f, int r, int i)
{
	return i >= r && i <= f->nodes[r].last;
}

/* The switch statement that the case or default label l belongs to. */
static int label_switch(const struct func *f, int l)
{
	for (int p = f->nodes[l].parent; p >= 0; p = f->nodes[p].parent)
		if (f->nodes[p].kind == CXCursor_SwitchStmt)
			return p;
	return -1;
}

/* Does node n write the variable (u = ..., u += ..., u++, &u), not its declaration? */
static bool writes_at(struct tunit *t, const struct func *f, int n, const char *usr)
{
	int rhs, c;
	bool w = false;

	if (f->nodes[n].kind == CXCursor_VarDecl)
		return false;
	if (node_store(t, f, n, usr, &rhs) != STORE_NONE)
		return true;
	if (f->nodes[n].kind != CXCursor_UnaryOperator)
		return false;
	c = node_strip(f, f->nodes[n].first);
	if (c >= 0 && f->nodes[c].kind == CXCursor_DeclRefExpr) {
		char *u = ref_usr(f, c), *op = unary_op(t, f, n);

		w = !strcmp(u, usr) && strcmp(op, "!") && strcmp(op, "-") && strcmp(op, "~") &&
		    strcmp(op, "+");
		free(op);
		free(u);
	}
	return w;
}

/*
 * Is the variable (usr, spelt name) 0 or 1 at node n by the case labels of a
 * switch on it (`switch (v)` or `switch (v = expr)`, pd.c's run_fsm): n is in
 * the switch's body, every label of that switch before n is `case K:` with K
 * 0 or 1 (enum constants evaluated; no default, no case range), no goto label
 * lies between the body's start and n (a jump there would pass no case), and
 * nothing in the function writes v or takes its address but the switch's own
 * condition and v's declaration?  Every way into the switch's body up to n
 * then enters through one of those labels with v equal to its value.
 */
static bool switch_01(struct ctx *cx, struct func *f, int n, const char *usr, const char *name,
		      char **why)
{
	struct tunit *t = &cx->tus[f->tu];

	for (int sw = f->nodes[n].parent; sw >= 0; sw = f->nodes[sw].parent) {
		int cond, body, rhs, nlab = 0, nc;
		bool ok = true;
		struct sbuf labs = {0};

		if (f->nodes[sw].kind != CXCursor_SwitchStmt)
			continue;
		nc = node_nchildren(f, sw);
		if (nc != 2)
			continue; /* a condition variable: switch (int x = ...) */
		cond = node_strip(f, node_child(f, sw, 0));
		body = node_child(f, sw, 1);
		if (cond < 0 || body < 0 || !inside(f, body, n))
			continue;
		if (f->nodes[cond].kind == CXCursor_DeclRefExpr) {
			char *u = ref_usr(f, cond);

			ok = !strcmp(u, usr);
			free(u);
		} else {
			ok = node_store(t, f, cond, usr, &rhs) == STORE_SET;
		}
		if (!ok)
			continue;
		for (int i = body + 1; i < n && ok; i++) {
			enum CXCursorKind k = f->nodes[i].kind;
			long long v;
			int e;

			if (k == CXCursor_LabelStmt) {
				ok = false;
			} else if ((k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) &&
				   label_switch(f, i) == sw) {
				e = node_child(f, i, 0);
				ok = k == CXCursor_CaseStmt && node_nchildren(f, i) == 2 &&
				     e >= 0 && eval_int(f, node_strip(f, e), &v) &&
				     (v == 0 || v == 1);
				if (ok) {
					char *x = node_text(t, &f->nodes[e]);

					sbuf_printf(&labs, "%scase %s", nlab ? ", " : "", x);
					free(x);
					nlab++;
				}
			}
		}
		/* no write but the condition's own store, anywhere in the function */
		for (int i = 0; ok && i < f->nnodes; i++)
			if (i != cond && writes_at(t, f, i, usr))
				ok = false;
		if (ok && nlab) {
			*why = xasprintf("%s is 0 or 1: the call is reached only through %s of the "
					 "switch on it",
					 name, labs.s);
			free(labs.s);
			return true;
		}
		free(labs.s);
	}
	return false;
}

/*
 * Is the local (usr, spelt name, declared by decl) 0 or 1 at node n because
 * every value it is ever given is an integer constant, n lies in the then
 * branch of `if (v != C)` (or `C != v`) that writes no v, and the constants
 * other than C are 0 or 1 (ps2esdi.c's ending: -1, FAIL and SUCCES, the call
 * under `if (ending != -1)`)?  v must be an integer at least as wide as int,
 * so that a constant stored into it and the C it is compared with convert
 * alike (an unsigned char given -1 would never equal -1).
 */
static bool guard_01(struct ctx *cx, struct func *f, int n, const char *usr, CXCursor decl,
		     const char *name, char **why)
{
	struct tunit *t = &cx->tus[f->tu];
	CXType ty = clang_getCanonicalType(clang_getCursorType(decl));
	long long vals[8], v, c;
	int nv = 0, left = 0;

	if (!((ty.kind >= CXType_Char_U && ty.kind <= CXType_Int128) || ty.kind == CXType_Enum) ||
	    clang_Type_getSizeOf(ty) < 4)
		return false;
	for (int i = 0; i < f->nnodes; i++) {
		int rhs;
		enum store_kind k = node_store(t, f, i, usr, &rhs);

		if (k == STORE_SET) {
			bool seen = false;

			if (rhs < 0 || !eval_int(f, node_strip(f, rhs), &v))
				return false;
			for (int j = 0; j < nv; j++)
				seen |= vals[j] == v;
			if (!seen && nv == 8)
				return false;
			if (!seen)
				vals[nv++] = v;
		} else if (k == STORE_COMPOUND || writes_at(t, f, i, usr)) {
			return false;
		}
	}
	for (int ch = n, p = f->nodes[n].parent; p >= 0; ch = p, p = f->nodes[p].parent) {
		int cond, a, b, then;
		char *op;
		bool ne, writes = false;

		if (f->nodes[p].kind != CXCursor_IfStmt || node_child(f, p, 1) != ch)
			continue;
		then = ch;
		cond = node_strip(f, node_child(f, p, 0));
		if (cond < 0 || f->nodes[cond].kind != CXCursor_BinaryOperator)
			continue;
		op = binary_op(t, f, cond);
		ne = !strcmp(op, "!=");
		free(op);
		a = node_strip(f, node_child(f, cond, 0));
		b = node_strip(f, node_child(f, cond, 1));
		if (!ne || a < 0 || b < 0)
			continue;
		if (f->nodes[b].kind == CXCursor_DeclRefExpr) {
			int x = a;

			a = b;
			b = x;
		}
		if (f->nodes[a].kind != CXCursor_DeclRefExpr || !eval_int(f, b, &c))
			continue;
		op = ref_usr(f, a);
		ne = !strcmp(op, usr);
		free(op);
		if (!ne)
			continue;
		for (int i = then; i <= f->nodes[then].last; i++)
			writes |= writes_at(t, f, i, usr);
		if (writes)
			continue;
		left = 0;
		for (int j = 0; j < nv; j++) {
			if (vals[j] == c)
				continue;
			if (vals[j] != 0 && vals[j] != 1)
				return false;
			left++;
		}
		if (!left)
			return false;
		{
			char *ct = node_text(t, &f->nodes[b]);
			struct sbuf vs = {0};

			/* the values in ascending order, as the semantic patches list them */
			for (int k = 0; k < nv; k++)
				for (int j = k + 1; j < nv; j++)
					if (vals[j] < vals[k]) {
						long long x = vals[j];

						vals[j] = vals[k];
						vals[k] = x;
					}
			for (int k = 0; k < nv; k++)
				sbuf_printf(&vs, "%s%lld", k ? ", " : "", vals[k]);
			*why = xasprintf("%s is 0 or 1: it is only given the constants %s and the "
					 "call is guarded by %s != %s",
					 name, vs.s, name, ct);
			free(vs.s);
			free(ct);
		}
		return true;
	}
	return false;
}

/*
 * Is n, written as text (an identifier or member chain), that variable or
 * member itself, not a macro that stands for an expression (whose text
 * would need its parentheses in the exact mapping)?
 */
static bool plain_operand(const struct func *f, int n, const char *text)
{
	CXString sp;
	const char *nm;
	size_t ln, lt;
	bool r;

	while (n >= 0 && f->nodes[n].kind == CXCursor_UnexposedExpr && node_nchildren(f, n) == 1)
		n = f->nodes[n].first;
	if (n < 0 || (f->nodes[n].kind != CXCursor_DeclRefExpr &&
		      f->nodes[n].kind != CXCursor_MemberRefExpr))
		return false;
	sp = clang_getCursorSpelling(node_cursor(f, n));
	nm = clang_getCString(sp);
	ln = strlen(nm);
	lt = strlen(text);
	r = ln && lt >= ln && !strcmp(text + lt - ln, nm) &&
	    (lt == ln || !(isalnum((unsigned char)text[lt - ln - 1]) || text[lt - ln - 1] == '_'));
	clang_disposeString(sp);
	return r;
}

static void classify(struct ctx *cx, struct func *f, int n, struct uptodate *u, int depth)
{
	struct tunit *t = &cx->tus[f->tu];
	int s = node_strip(f, n);
	long long v;

	u->param = -1;
	u->expr = node_text(t, &f->nodes[n]);
	if (s < 0) {
		u->cls = BM_UT_UNKNOWN;
		u->why = xstrdup("no expression");
		return;
	}
	if (eval_int(f, s, &v)) {
		u->cls = BM_UT_CONSTANT;
		if (v > 0)
			u->error_expr = xstrdup("0");
		else if (v == 0)
			u->error_expr = xstrdup("-EIO");
		else
			u->error_expr = xstrdup(u->expr);
		return;
	}
	if (is_boolean(t, f, s)) {
		u->cls = BM_UT_BOOLEAN;
		if (f->nodes[s].kind == CXCursor_UnaryOperator) {
			/* !x -> x ? -EIO : 0; !(a || b) -> (a || b) ? -EIO : 0 */
			int c = f->nodes[s].first;
			char *x = node_text(t, &f->nodes[node_strip(f, c)]);
			const char *inner = x;

			while (c >= 0 && f->nodes[c].kind == CXCursor_UnexposedExpr &&
			       node_nchildren(f, c) == 1)
				c = f->nodes[c].first;
			u->error_expr = xasprintf(is_simple_operand(inner) || c < 0 ||
							  f->nodes[c].kind != CXCursor_ParenExpr
						      ? "%s ? -EIO : 0"
						      : "(%s) ? -EIO : 0",
						  inner);
			free(x);
		} else {
			char *x = node_text(t, &f->nodes[s]);

			u->error_expr = xasprintf("%s ? 0 : -EIO", x);
			free(x);
		}
		return;
	}
	if (f->nodes[s].kind == CXCursor_ConditionalOperator && depth < 3) {
		int c = node_child(f, s, 0), a = node_child(f, s, 1), b = node_child(f, s, 2);
		struct uptodate ua = {0}, ub = {0};

		if (c >= 0 && a >= 0 && b >= 0) {
			classify(cx, f, a, &ua, depth + 1);
			classify(cx, f, b, &ub, depth + 1);
			if (ua.cls == BM_UT_CONSTANT && ub.cls == BM_UT_CONSTANT) {
				char *ct = node_text(t, &f->nodes[c]);

				u->cls = BM_UT_BOOLEAN;
				u->error_expr =
				    xasprintf("%s ? %s : %s", ct, ua.error_expr, ub.error_expr);
				free(ct);
				uptodate_free(&ua);
				uptodate_free(&ub);
				return;
			}
		}
		uptodate_free(&ua);
		uptodate_free(&ub);
	}
	if (f->nodes[s].kind == CXCursor_DeclRefExpr) {
		CXCursor r = clang_getCursorReferenced(node_cursor(f, s));
		enum CXCursorKind rk = clang_getCursorKind(r);
		char *usr = ref_usr(f, s);

		if (rk == CXCursor_ParmDecl) {
			for (int i = 0; i < f->nparams; i++)
				if (!strcmp(f->param_usr[i], usr))
					u->param = i;
			if (u->param >= 0) {
				u->cls = BM_UT_WRAPPER;
				u->error_expr = xstrdup("error");
				free(usr);
				return;
			}
		}
		if (rk == CXCursor_VarDecl && clang_Cursor_getStorageClass(r) != CX_SC_Static &&
		    !clang_Cursor_isNull(clang_getCursorSemanticParent(r)) &&
		    clang_getCursorKind(clang_getCursorSemanticParent(r)) ==
			CXCursor_FunctionDecl) {
			const char *via = NULL;
			char *why = NULL;

			if (local_kind(cx, f, usr, &via) == 1) {
				u->cls = BM_UT_BOOLEAN;
				u->error_expr = xasprintf("%s ? 0 : -EIO", u->expr);
				if (via)
					u->why = xasprintf("%s is 0 or 1: %s() returns only 0 or 1",
							   u->expr, via);
				free(usr);
				return;
			}
			/* 0 or 1 where the call is, by the labels of a switch on it or a guard */
			if (is_simple_operand(u->expr) &&
			    (switch_01(cx, f, s, usr, u->expr, &why) ||
			     guard_01(cx, f, s, usr, r, u->expr, &why))) {
				u->cls = BM_UT_BOOLEAN;
				u->error_expr = xasprintf("%s ? 0 : -EIO", u->expr);
				u->why = why;
				free(usr);
				return;
			}
		}
		free(usr);
	}
	if (f->nodes[s].kind == CXCursor_CallExpr && !f->nodes[s].macro) {
		char *callee = node_callee(f, s);
		struct func *g = func_by_name(cx, callee, f->tu);

		free(callee);
		if (g && returns_boolean(cx, g)) {
			u->cls = BM_UT_BOOLEAN;
			u->error_expr = xasprintf("%s ? 0 : -EIO", u->expr);
			return;
		}
	}
	/* a test macro (`blk_fs_request(rq)`: `((rq)->cmd_type == REQ_TYPE_FS)`) */
	if (macro_call_is_boolean(t, u->expr)) {
		u->cls = BM_UT_BOOLEAN;
		u->error_expr = xasprintf("%s ? 0 : -EIO", u->expr);
		return;
	}
	if (has_side_effects_in(t, u->expr)) {
		u->cls = BM_UT_UNKNOWN;
		u->why = xasprintf("'%s' has side effects; its errno meaning cannot be kept "
				   "without evaluating it more than once",
				   u->expr);
		return;
	}
	u->cls = BM_UT_ERRNO;
	/* a macro may stand for any expression: it keeps the parentheses */
	if (is_simple_operand(u->expr) && plain_operand(f, n, u->expr))
		u->error_expr =
		    xasprintf("%s > 0 ? 0 : (%s ? %s : -EIO)", u->expr, u->expr, u->expr);
	else
		u->error_expr =
		    xasprintf("(%s) > 0 ? 0 : ((%s) ? (%s) : -EIO)", u->expr, u->expr, u->expr);
}

void uptodate_classify(struct ctx *cx, struct func *f, int n, struct uptodate *u)
{
	memset(u, 0, sizeof(*u));
	classify(cx, f, n, u, 0);
}
