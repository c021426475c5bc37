/*
 * classify_unended.c - a data completion of a request that 2.6.24 code never
 * ends (mmc's request function for a dead queue, in 2.6.24):
 *
 *         while ((req = elv_next_request(q)) != NULL) {
 *                 do {
 *                         ret = end_that_request_chunk(req, 0, bytes);
 *                 } while (ret);
 *         }
 *
 * Nothing dequeues or ends req, so once its data is complete
 * elv_next_request() returns the same request again and the loop never ends:
 * with the queue lock held, a hard lockup.  No 2.6.25 call completes data
 * and leaves a request at the head of its queue for ever; the call that keeps
 * the data completion's contract is the one whose final step runs when the
 * last byte completes, and that ends the loop.  Like a call that ran without
 * the lock it needed, the old bug is reported as its own finding
 * (preexisting_unended_request) and does not block the conversion.
 *
 * Proven only when the request is a local taken from elv_next_request() in
 * the condition of a loop around the data completion, used nowhere but in
 * that assignment, field reads and legacy data completions, and the queue
 * lock is held (then no other context can take it off the queue meanwhile).
 */
#include <string.h>

#include "classify_shapes.h"

static bool is_data_completion(const char *name)
{
	return !strcmp(name, "end_that_request_chunk") || !strcmp(name, "end_that_request_first");
}

/* node n's cursor spells NAME (node_callee gives any cursor's spelling) */
static bool names(const struct func *f, int n, const char *name)
{
	char *sp = node_callee(f, n);
	bool r = !strcmp(sp, name);

	free(sp);
	return r;
}

/* n is `rq = elv_next_request(...)`, an assignment to rq */
static bool takes_next_request(struct tunit *t, const struct func *f, int n, const char *rq)
{
	int lhs, rhs;
	char *op, *callee;
	bool r;

	if (f->nodes[n].kind != CXCursor_BinaryOperator)
		return false;
	op = binary_op(t, f, n);
	r = !strcmp(op, "=");
	free(op);
	lhs = node_strip(f, node_child(f, n, 0));
	rhs = node_strip_casts(f, node_child(f, n, 1));
	if (!r || lhs < 0 || rhs < 0 || f->nodes[lhs].kind != CXCursor_DeclRefExpr ||
	    !names(f, lhs, rq) || f->nodes[rhs].kind != CXCursor_CallExpr)
		return false;
	callee = node_callee(f, rhs);
	r = !strcmp(callee, "elv_next_request");
	free(callee);
	return r;
}

/* the loop around F whose condition takes rq from elv_next_request(), or -1 */
static int fetch_loop(struct tunit *t, const struct func *f, int F, const char *rq, int *assign)
{
	for (int p = node_up(f, F); p >= 0; p = node_up(f, p)) {
		int cond;

		if (f->nodes[p].kind != CXCursor_WhileStmt)
			continue;
		cond = node_child(f, p, 0);
		for (int n = 0; cond >= 0 && n < f->nnodes; n++)
			if (node_within(f, n, cond) && takes_next_request(t, f, n, rq)) {
				*assign = n;
				return p;
			}
	}
	return -1;
}

/* why this use of rq can let the request be ended elsewhere, or NULL */
static char *foreign_use(struct tunit *t, const struct func *f, int n, int assign, int loop)
{
	int p = node_up(f, n);

	if (node_within(f, n, assign)) {
		if (node_child(f, assign, 0) >= 0 && node_strip(f, node_child(f, assign, 0)) == n)
			return NULL;
	}
	if (p >= 0 && f->nodes[p].kind == CXCursor_MemberRefExpr) {
		int pp = node_up(f, p);
		bool stored = false;

		if (pp >= 0 &&
		    (f->nodes[pp].kind == CXCursor_BinaryOperator ||
		     f->nodes[pp].kind == CXCursor_CompoundAssignOperator) &&
		    node_strip(f, node_child(f, pp, 0)) == p) {
			char *op = binary_op(t, f, pp);

			stored = f->nodes[pp].kind == CXCursor_CompoundAssignOperator ||
				 !strcmp(op, "=");
			free(op);
		}
		if (pp >= 0 && f->nodes[pp].kind == CXCursor_UnaryOperator) {
			char *op = unary_op(t, f, pp);

			stored = strcmp(op, "!") && strcmp(op, "-") && strcmp(op, "~") &&
				 strcmp(op, "*");
			free(op);
		}
		return stored ? xstrdup("a field of it is written") : NULL;
	}
	if (p >= 0 && f->nodes[p].kind == CXCursor_CallExpr) {
		char *callee = node_callee(f, p);
		int a0 = call_arg(f, p, 0);
		bool data = is_data_completion(callee) && a0 >= 0 && node_strip_casts(f, a0) == n &&
			    node_within(f, p, loop);
		char *why = data ? NULL : xasprintf("it is given to %s()", callee);

		free(callee);
		return why;
	}
	return xstrdup("it is used as a value blkmig cannot follow");
}

bool unended_request_prove(struct ctx *cx, struct func *f, int F, const char *rq, char **evidence,
			   char **why)
{
	struct tunit *t = &cx->tus[f->tu];
	int assign = -1, loop;
	char *bad = NULL;
	unsigned bad_line = 0;

	*evidence = *why = NULL;
	if (!is_simple_operand(rq) || strchr(rq, '-') || strchr(rq, '.') ||
	    (loop = fetch_loop(t, f, F, rq, &assign)) < 0)
		return false;
	for (int n = 0; n < f->nnodes && !bad; n++) {
		if (f->nodes[n].kind == CXCursor_VarDecl && names(f, n, rq)) {
			for (int c = f->nodes[n].first; c >= 0 && !bad; c = f->nodes[c].next)
				if (f->nodes[c].kind != CXCursor_TypeRef)
					bad = xstrdup("it is initialised where it is declared");
		} else if (f->nodes[n].kind == CXCursor_DeclRefExpr && names(f, n, rq))
			bad = foreign_use(t, f, n, assign, loop);
		if (bad)
			bad_line = offset_line(t, f->nodes[n].start, NULL);
	}
	if (bad) {
		*why = xasprintf("'%s' may be ended elsewhere: at line %u %s", rq, bad_line, bad);
		free(bad);
		return false;
	}
	if (lock_at(cx, f, F, NULL) != BM_LOCK_HELD) {
		*why = xasprintf("without the queue lock held there, another context may take "
				 "'%s' off the queue and end it",
				 rq);
		return false;
	}
	*evidence = xasprintf(
	    "'%s' comes from elv_next_request() at line %u, in the condition of the loop "
	    "around this call, and is used nowhere else: 2.6.24 never dequeues or ends it, so once "
	    "its data is complete "
	    "elv_next_request() returns it again and the loop never ends, with the queue lock "
	    "held; the 2.6.25 call ends it when its last byte completes",
	    rq, offset_line(t, f->nodes[assign].start, NULL));
	return true;
}
