/*
 * classify_onearg.c - the one-argument end_that_request_last(rq) of kernels before
 * 2.6.16 after an `if (!end_that_request_first(...))`: the parse has no node for
 * it, so the if's body is read as text and the whole if becomes one new call.
 */
#include <string.h>

#include "classify_shapes.h"

/*
 * `if (!end_that_request_first(rq, u, n)) { [housekeeping;] end_that_request_last(rq); }`
 * with the one-argument final step of kernels before 2.6.16 (xsysace-mvista
 * adapter.c:210): the parse has no node for that call (too few arguments for
 * the 2.6.24 prototype), so the body is read as text: its statements are
 * housekeeping the new call does itself, and the rest is exactly that call on
 * the same request.  The whole if becomes one new call: when the data part is
 * done the request ends, otherwise it stays, as before.  Its error: E(u) of the
 * data completion, since the one-argument final step gave end_io no error at
 * all (the 2.6.16 form added it): the report says so (the final step's site).
 * Returns true when it decided the site (converted, or left with the reason).
 */
bool one_arg_last(struct plan *p, struct uptodate *u, struct bytes *b)
{
	struct func *f = p->f;
	struct tunit *t = p->t;
	struct bm_site *s = &p->cx->run->sites[p->si];
	int neg = node_up(f, p->F), ifs = neg >= 0 ? node_up(f, neg) : -1, body;
	char *op, *want, *txt, *rest;
	size_t a, e, at = 0;
	struct sbuf keep = {0};
	bool ok;

	if (neg < 0 || ifs < 0 || f->nodes[neg].kind != CXCursor_UnaryOperator ||
	    f->nodes[ifs].kind != CXCursor_IfStmt || node_strip(f, node_child(f, ifs, 0)) != neg ||
	    node_child(f, ifs, 2) >= 0 || (body = node_child(f, ifs, 1)) < 0 ||
	    f->nodes[body].kind != CXCursor_CompoundStmt)
		return false;
	op = unary_op(t, f, neg);
	ok = !strcmp(op, "!");
	free(op);
	if (!ok)
		return false;
	/* the body's text less its housekeeping statements */
	a = f->nodes[body].start;
	e = f->nodes[body].end;
	for (int c = f->nodes[body].first; c >= 0; c = f->nodes[c].next) {
		if (!stmt_is_housekeeping(t, f, c)) {
			/* the call itself, as the parse recovered it (no CallExpr) */
			char *ct = text_norm(t, &f->nodes[c]), *nrq = normalize_ws(p->rq);
			char *w1 = xasprintf("end_that_request_last(%s)", nrq);

			ok = f->nodes[c].kind != CXCursor_CallExpr && !strcmp(ct, w1);
			free(ct);
			free(nrq);
			free(w1);
			if (!ok) {
				free(keep.s);
				return false;
			}
			continue;
		}
		sbuf_addn(&keep, t->clean + a, f->nodes[c].start - a);
		a = stmt_end(t, f, c);
	}
	sbuf_addn(&keep, t->clean + a, e > a ? e - a : 0);
	txt = sbuf_take(&keep);
	rest = normalize_ws(txt);
	free(txt);
	{
		char *nrq = normalize_ws(p->rq);

		want = xasprintf("{end_that_request_last(%s);}", nrq);
		free(nrq);
	}
	ok = !strcmp(rest, want);
	free(rest);
	free(want);
	if (!ok)
		return false;
	/* where the final step is (its site, made by the text pass, is folded) */
	for (size_t k = f->nodes[body].start; k + 21 < e; k++)
		if (!strncmp(t->clean + k, "end_that_request_last", 21)) {
			at = k;
			break;
		}
	if (!u->error_expr) {
		site_manual(p->cx, p->si, "uptodate_unknown",
			    "with the one-argument end_that_request_last of kernels before "
			    "2.6.16 (line %u), which gave end_io no error, this pair is "
			    "end_request(%s, %s); but %s: decide the error the request's end_io "
			    "gets",
			    offset_line(t, at, NULL), p->rq, u->expr ? u->expr : "?",
			    u->why ? u->why : "its uptodate has no error value");
		return true;
	}
	if (!b->expr) {
		site_manual(p->cx, p->si, "bytes_unknown",
			    "with the one-argument end_that_request_last of kernels before "
			    "2.6.16 (line %u) this pair is one 2.6.25 call, but the byte count "
			    "is not known: %s",
			    offset_line(t, at, NULL), b->why ? b->why : "count unknown");
		return true;
	}
	if (!choose_variant(p, p->F))
		return true;
	s = &p->cx->run->sites[p->si];
	s->pattern = u->cls == BM_UT_WRAPPER ? BM_PAT_WRAPPER_PARAM : BM_PAT_EARLY_RETURN;
	set_new_call(s, p->variant, p->rq, u->error_expr, b->expr, NULL);
	{
		char *stmt = xasprintf("%s;", s->replacement);

		edit_add(s, t->path, f->nodes[ifs].start, stmt_end(t, f, ifs), stmt);
		free(stmt);
	}
	return true;
}
