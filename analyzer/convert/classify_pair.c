/*
 * classify_pair.c - first/last pairs: a data completion F
 * (end_that_request_first/chunk) and its final step L on the same request, later
 * in the same function, in the catalogue's shapes (classify.c's comment), and the
 * handoffs to the shapes proven elsewhere (classify_state.c, classify_dataonly.c).
 * One new call replaces F; L, its housekeeping and its lock pair go.
 */
#include <string.h>

#include "classify_shapes.h"

size_t site_of_node(struct ctx *cx, struct func *f, int n)
{
	struct tunit *t = &cx->tus[f->tu];

	for (size_t i = 0; i < cx->run->nsites; i++)
		if (cx->run->sites[i].offset == f->nodes[n].start &&
		    !strcmp(cx->run->sites[i].file, t->path))
			return i;
	return (size_t)-1;
}

/* the call node of f at byte offset off, or -1 */
int call_node_at(const struct func *f, size_t off)
{
	for (int n = 0; n < f->nnodes; n++)
		if (f->nodes[n].kind == CXCursor_CallExpr && f->nodes[n].start == off)
			return n;
	return -1;
}

/* the if statement whose two branches hold a and b, one each (they exclude each
 * other on every path), or -1 */
static int if_alternatives(const struct func *f, int a, int b)
{
	for (int p = f->nodes[a].parent; p >= 0; p = f->nodes[p].parent) {
		int th, el;

		if (f->nodes[p].kind != CXCursor_IfStmt || !node_within(f, b, p))
			continue;
		th = node_child(f, p, 1);
		el = node_child(f, p, 2);
		if (th < 0 || el < 0)
			return -1;
		if ((node_within(f, a, th) && node_within(f, b, el)) ||
		    (node_within(f, a, el) && node_within(f, b, th)))
			return p;
		return -1; /* the innermost if holding both: same branch or its test */
	}
	return -1;
}

/* the first end_that_request_last after node F in f, on any request expression, or -1 */
static int last_after(struct func *f, int F)
{
	for (int n = 0; n < f->nnodes; n++) {
		char *callee;
		bool hit;

		if (f->nodes[n].kind != CXCursor_CallExpr || call_arg(f, n, 0) < 0 ||
		    f->nodes[n].macro || f->nodes[n].start <= f->nodes[F].start)
			continue;
		callee = node_callee(f, n);
		hit = !strcmp(callee, "end_that_request_last");
		free(callee);
		if (hit)
			return n;
	}
	return -1;
}

/*
 * The data completion in one state of a state machine, the final step in
 * the next (classify_state.c proves it): the new call replaces the data
 * completion, the final state's housekeeping and end_that_request_last go.
 */
static void classify_state_handoff(struct plan *p, struct uptodate *u, struct bytes *b)
{
	struct state_handoff h;
	struct bm_site *s = &p->cx->run->sites[p->si];
	char *why = NULL;

	if (!state_handoff_prove(p->cx, p->f, p->F, p->L, &h, &why)) {
		site_manual(p->cx, p->si, "shape",
			    "end_that_request_last (line %u) runs in another state of a state "
			    "machine than the data completion, and blkmig cannot prove that "
			    "nothing uses '%s' in between: %s; decide whether anything there may "
			    "use the request after the single 2.6.25 call has ended it",
			    offset_line(p->t, p->f->nodes[p->L].start, NULL), p->rq, why);
		free(why);
		return;
	}
	if (!choose_variant(p, p->F)) {
		state_handoff_free(&h);
		return;
	}
	s = &p->cx->run->sites[p->si];
	s->pattern = u->cls == BM_UT_WRAPPER ? BM_PAT_WRAPPER_PARAM : BM_PAT_EARLY_RETURN;
	strlist_push(&s->lock_evidence, h.evidence);
	set_new_call(s, p->variant, p->rq, u->error_expr, b->expr, NULL);
	edit_add(s, p->t->path, p->f->nodes[p->F].start, p->f->nodes[p->F].end, s->replacement);
	for (int i = 0; i < h.nremove; i++)
		edit_remove_stmt(s, p->t, p->f, h.remove[i]);
	state_handoff_free(&h);
}

/*
 * A data completion whose result nobody reads and whose final step runs
 * later (classify_dataonly.c): blk_end_request_callback() with a callback
 * that keeps the request from ending.  A final step of the same function it
 * was paired with is no longer folded into it: it converts as a last-only
 * call.  Returns false when the shape does not apply (nothing decided).
 */
static bool classify_data_only(struct plan *p, struct uptodate *u, struct bytes *b, long li)
{
	struct bm_site *s = &p->cx->run->sites[p->si];
	char *why = NULL, *cb;

	if (u->cls == BM_UT_UNKNOWN || !b->expr || has_side_effects(p->rq))
		return false;
	if (!dataonly_applies(p->cx, p->f, p->F, &why)) {
		if (!why)
			return false;
		site_manual(p->cx, p->si, "shape", "%s", why);
		free(why);
		return true;
	}
	if (li >= 0) {
		p->cx->partner[li] = -1;
		p->cx->partner[p->si] = -1;
	}
	s->lock = lock_at(p->cx, p->f, p->F, &s->lock_evidence);
	strlist_push(&s->lock_evidence,
		     "the result is unused and the final step runs later: "
		     "blk_end_request_callback with a callback returning 1 completes the data "
		     "and never runs the final step, the only part that takes the queue lock");
	s->pattern = BM_PAT_CALLBACK;
	cb = dataonly_callback(p->cx, p->f, s);
	set_new_call(s, "blk_end_request_callback", p->rq, u->error_expr, b->expr, cb);
	edit_add(s, p->t->path, p->f->nodes[p->F].start, p->f->nodes[p->F].end, s->replacement);
	free(cb);
	return true;
}

void classify_pair(struct ctx *cx, struct func *f, int F, int L, size_t si, long li)
{
	struct tunit *t = &cx->tus[f->tu];
	struct bm_site *s = &cx->run->sites[si];
	bool chunk = !strcmp(s->call, "end_that_request_chunk");
	struct uptodate u = {0};
	struct bytes b = {0};
	struct plan *p = xcalloc(1, sizeof(*p));
	const char *why = NULL;
	char *cbname = NULL;
	int pF, I = -1;
	char *newcall;

	if (s->replacement[0]) { /* converted as the leftover of an earlier call */
		free(p);
		return;
	}
	p->cx = cx;
	p->f = f;
	p->t = t;
	p->si = si;
	p->Fstmt = -1;
	p->li = li >= 0 ? (size_t)li : 0;
	p->F = F;
	p->L = L;
	s->pattern = chunk ? BM_PAT_CHUNK : BM_PAT_FIRST_LAST_HELD;
	if (call_nargs(f, F) != 3 || call_arg(f, F, 2) < 0) {
		site_manual(cx, si, "shape", "%s without three arguments", s->call);
		goto out;
	}
	p->rq = node_text(t, &f->nodes[call_arg(f, F, 0)]);
	uptodate_classify(cx, f, call_arg(f, F, 1), &u);
	if (chunk)
		bytes_from_bytes(cx, f, call_arg(f, F, 2), &b);
	else
		bytes_from_sectors(cx, f, call_arg(f, F, 2), p->rq, &b);
	fill_common(p, &u, &b);
	if (u.cls == BM_UT_WRAPPER)
		s->pattern = BM_PAT_WRAPPER_PARAM;
	if (L < 0) {
		int other = -1, outer;
		char *nrq = normalize_ws(p->rq), *unended = NULL, *unended_why = NULL;

		for (int n = 0; n < f->nnodes && other < 0; n++) {
			char *callee, *a0;

			if (f->nodes[n].kind != CXCursor_CallExpr || call_arg(f, n, 0) < 0)
				continue;
			callee = node_callee(f, n);
			a0 = text_norm(t, &f->nodes[call_arg(f, n, 0)]);
			if (!strcmp(callee, "end_that_request_last") && !strcmp(a0, nrq) &&
			    f->nodes[n].start > f->nodes[F].start)
				other = n;
			free(a0);
			free(callee);
		}
		free(nrq);
		if ((outer = leftover_of(cx, f, F, p->rq)) >= 0) {
			size_t so = site_of_node(cx, f, outer);
			const struct bm_site *os = so == (size_t)-1 ? NULL : &cx->run->sites[so];

			site_manual(cx, si, "shape",
				    "completes the leftover of the data completion at line %u, and "
				    "goes with it: %s",
				    offset_line(t, f->nodes[outer].start, NULL),
				    os && os->reason_text ? os->reason_text : "it is left");
			goto out;
		}
		if (one_arg_last(p, &u, &b))
			goto out;
		if (classify_data_only(p, &u, &b, -1))
			goto out;
		size_t os = other >= 0 ? site_of_node(cx, f, other) : (size_t)-1;
		long mate = os != (size_t)-1 ? cx->partner[os] : -1;
		int mnode = mate >= 0 ? call_node_at(f, cx->run->sites[mate].offset) : -1;
		int alt = mnode >= 0 ? if_alternatives(f, F, mnode) : -1;

		if (alt >= 0) {
			/* `if (x) rc = chunk(..); else rc = chunk(..); ... last(rq, u)`: not a
			 * further completion, the other branch's way to the same final step */
			char *uf = text_norm(t, &f->nodes[call_arg(f, F, 1)]);
			char *ul = call_arg(f, other, 1) >= 0
				       ? text_norm(t, &f->nodes[call_arg(f, other, 1)])
				       : xstrdup("?");

			if (strcmp(uf, ul))
				site_manual(
				    cx, si, "uptodate_unknown",
				    "in the other branch of the if at line %u than the data "
				    "completion at line %u, and like it followed by the final step "
				    "(end_that_request_last at line %u): it passes uptodate '%s' "
				    "but "
				    "the final step '%s', and when this call finishes the request "
				    "the single 2.6.25 call ends it with this call's error: decide "
				    "whether the request's end_io may see that error instead",
				    offset_line(t, f->nodes[alt].start, NULL),
				    cx->run->sites[mate].line,
				    offset_line(t, f->nodes[other].start, NULL), uf, ul);
			else
				site_manual(
				    cx, si, "shape",
				    "in the other branch of the if at line %u than the data "
				    "completion at line %u, and like it followed by the final step "
				    "(end_that_request_last at line %u), which blkmig pairs with "
				    "that "
				    "one only: decide how each branch's completion combines with "
				    "it",
				    offset_line(t, f->nodes[alt].start, NULL),
				    cx->run->sites[mate].line,
				    offset_line(t, f->nodes[other].start, NULL));
			free(uf);
			free(ul);
		} else if (other >= 0) {
			site_manual(
			    cx, si, "shape",
			    "a further data completion of '%s' in %s() before the final step "
			    "(end_that_request_last at line %u) that blkmig pairs with the "
			    "data completion at line %u: every 2.6.25 call ends the request "
			    "when its last byte completes, so decide how these completions "
			    "combine",
			    p->rq, f->name, offset_line(t, f->nodes[other].start, NULL),
			    mate >= 0 ? cx->run->sites[mate].line : s->line);
		} else if ((other = last_after(f, F)) >= 0) {
			char *ra = text_norm(t, &f->nodes[call_arg(f, other, 0)]);

			site_manual(
			    cx, si, "shape",
			    "the end_that_request_last that follows in %s() (line %u) ends "
			    "'%s', not '%s': blkmig pairs a data completion with its final step "
			    "only on the same request expression; decide whether both name the "
			    "same request (then they become one 2.6.25 call)",
			    f->name, offset_line(t, f->nodes[other].start, NULL), ra, p->rq);
			free(ra);
		} else if (u.cls != BM_UT_UNKNOWN && u.error_expr && b.expr &&
			   !has_side_effects(p->rq) &&
			   unended_request_prove(cx, f, F, p->rq, &unended, &unended_why)) {
			/* the old code never ended it: the 2.6.25 call does (see
			 * classify_unended.c), and the old bug is its own finding */
			s->lock = lock_at(cx, f, F, &s->lock_evidence);
			set_new_call(s, "__blk_end_request", p->rq, u.error_expr, b.expr, NULL);
			edit_add(s, t->path, f->nodes[F].start, f->nodes[F].end, s->replacement);
			finding_add(cx, f, s->offset, s->file, BM_FIND_PREEXISTING_UNENDED,
				    xstrdup(unended));
			strlist_push_owned(&s->lock_evidence,
					   xasprintf("preexisting_unended_request: %s", unended));
		} else
			site_manual(
			    cx, si, "shape",
			    "no end_that_request_last for '%s' follows in %s(): blkmig "
			    "cannot see where (or whether) the request is finished, while any "
			    "2.6.25 call finishes it when its last byte completes; decide "
			    "whether that is intended here%s%s%s",
			    p->rq, f->name, unended_why ? " (" : "", unended_why ? unended_why : "",
			    unended_why ? ")" : "");
		free(unended);
		free(unended_why);
		goto out;
	}
	if (has_side_effects(p->rq)) {
		site_manual(cx, si, "shape", "the request argument '%s' has side effects", p->rq);
		goto out;
	}
	{
		int la = call_arg(f, L, 1);
		char *lu = la >= 0 ? node_text(t, &f->nodes[la]) : xstrdup("");
		char *n1 = normalize_ws(u.expr), *n2 = normalize_ws(lu);
		bool same = !strcmp(n1, n2);

		free(n1);
		free(n2);
		free(lu);
		if (!same) {
			char *l_text = la >= 0 ? node_text(t, &f->nodes[la]) : xstrdup("?");

			site_manual(cx, si, "uptodate_unknown",
				    "the data completion passes uptodate '%s' but the final step "
				    "(line %u) '%s', and when the data completion finishes the "
				    "request the single 2.6.25 call ends it with the first one's "
				    "error: decide whether the request's end_io may see that error "
				    "instead",
				    u.expr, offset_line(t, f->nodes[L].start, NULL), l_text);
			free(l_text);
			goto out;
		}
	}
	if (u.cls == BM_UT_UNKNOWN) {
		site_manual(cx, si, "uptodate_unknown", "%s", u.why);
		goto out;
	}
	if (!b.expr) {
		site_manual(cx, si, "bytes_unknown", "%s", b.why);
		goto out;
	}

	pF = node_up(f, F);
	if (pF >= 0 && f->nodes[pF].kind == CXCursor_UnaryOperator) {
		char *op = unary_op(t, f, pF);
		int pp = node_up(f, pF);

		if (!strcmp(op, "!") && pp >= 0 && f->nodes[pp].kind == CXCursor_IfStmt &&
		    node_strip(f, node_child(f, pp, 0)) == pF)
			I = pp;
		free(op);
		if (I < 0) {
			site_manual(cx, si, "shape", "the result of %s is used in an expression",
				    s->call);
			goto out;
		}
		/* ---- IF_NOT: if (!F) { ... L; ... } ---- */
		int T = node_child(f, I, 1);
		int Ls = enclosing_stmt(f, L);

		if (node_child(f, I, 2) >= 0 || T < 0 || !node_within(f, L, T)) {
			site_manual(
			    cx, si, "shape",
			    "end_that_request_last is not in the body of 'if (!%s(...))', or the "
			    "if has an else",
			    s->call);
			goto out;
		}
		p->cnt = body_stmts(f, T, p->list, 512);
		p->Lidx = index_holding(f, p->list, p->cnt, L);
		if (p->Lidx < 0 || p->list[p->Lidx] != Ls) {
			site_manual(cx, si, "shape",
				    "end_that_request_last is nested in the if body");
			goto out;
		}
		if (!scan_region(p, 0, p->cnt, &why)) {
			site_manual(cx, si, "shape", "%s", why);
			goto out;
		}
		if (!choose_variant(p, F))
			goto out;
		if (p->pair || !strcmp(p->variant, "blk_end_request"))
			s->pattern = chunk ? BM_PAT_CHUNK : BM_PAT_FIRST_LAST_UNLOCKED;
		if (u.cls == BM_UT_WRAPPER)
			s->pattern = BM_PAT_WRAPPER_PARAM;
		p->Fstmt = I;
		int wp = work_plan(p, 0, p->cnt);

		if (wp < 0)
			goto out;
		if (wp == 1) {
			cbname = make_callback(p, 0, p->cnt);
			p->variant = "blk_end_request_callback";
			s->pattern = BM_PAT_CALLBACK;
		}
		set_new_call(s, p->variant, p->rq, u.error_expr, b.expr, cbname);
		bool keep_any = p->has_post || (wp == 0 && p->has_work);

		if (!keep_any) {
			char *txt = xasprintf("%s;", s->replacement);

			edit_add(s, t->path, f->nodes[I].start, stmt_end(t, f, I), txt);
			free(txt);
			for (int i = 0; i < p->cnt; i++)
				if (p->role[i] == SR_LOCK)
					remove_unused_flags(p, s, p->list[i], I);
		} else {
			edit_add(s, t->path, f->nodes[F].start, f->nodes[F].end, s->replacement);
			remove_roles(p, s, 0, p->cnt, wp == 1);
		}
		goto out;
	}

	/* ---- VAR: ret = F; ... if (!ret) { ... L; ... } ---- */
	if (pF >= 0 && (f->nodes[pF].kind == CXCursor_VarDecl ||
			(f->nodes[pF].kind == CXCursor_BinaryOperator &&
			 node_strip(f, node_child(f, pF, 1)) == F))) {
		int Fs = enclosing_stmt(f, pF), I2 = -1, Fidx;

		Fidx = Fs >= 0 ? siblings(f, Fs, p->list, &p->cnt) : -1;
		for (int i = Fidx + 1; Fidx >= 0 && i < p->cnt; i++)
			if (node_within(f, L, p->list[i]))
				I2 = i;
		if (I2 >= 0 && f->nodes[p->list[I2]].kind == CXCursor_IfStmt &&
		    node_child(f, p->list[I2], 2) < 0 &&
		    node_within(f, L, node_child(f, p->list[I2], 1))) {
			for (int i = Fidx + 1; i < I2; i++)
				if (rq_mentioned(p, p->list[i])) {
					site_manual(
					    cx, si, "rq_used_after_completion",
					    "line %u reads '%s' between the data completion and "
					    "end_that_request_last; it would run after the request "
					    "may be freed",
					    offset_line(t, f->nodes[p->list[i]].start, NULL),
					    p->rq);
					goto out;
				}
			int ifs = p->list[I2], T = node_child(f, ifs, 1);

			p->cnt = body_stmts(f, T, p->list, 512);
			p->Lidx = index_holding(f, p->list, p->cnt, L);
			if (p->Lidx < 0 || p->list[p->Lidx] != enclosing_stmt(f, L) ||
			    !scan_region(p, 0, p->cnt, &why)) {
				site_manual(cx, si, "shape", "%s",
					    why ? why
						: "end_that_request_last is nested in the test "
						  "of the kept result");
				goto out;
			}
			if (!choose_variant(p, F))
				goto out;
			int wp = work_plan(p, 0, p->cnt);

			if (wp < 0)
				goto out;
			if (wp == 1) {
				site_manual(
				    cx, si, "work_not_movable",
				    "work before end_that_request_last under the test of the "
				    "kept result");
				goto out;
			}
			s->pattern =
			    u.cls == BM_UT_WRAPPER ? BM_PAT_WRAPPER_PARAM : BM_PAT_RESULT_USED;
			set_new_call(s, p->variant, p->rq, u.error_expr, b.expr, NULL);
			edit_add(s, t->path, f->nodes[F].start, f->nodes[F].end, s->replacement);
			if (!p->has_post && !p->has_work)
				edit_remove_stmt(s, t, f, ifs);
			else
				remove_roles(p, s, 0, p->cnt, false);
			goto out;
		}
		/* otherwise: a kept result in a loop, handled below */
	}

	/* ---- sibling shapes: F's statement and L's are in the same block ---- */
	int shape = 0; /* 1 EARLY, 2 SEQ, 4 LOOP, 8 SEQ with the result kept, 16 LEFTOVER */
	int F2 = -1;
	int Ls = enclosing_stmt(f, L), C = Ls >= 0 ? f->nodes[Ls].parent : -1, Fs = F;

	if (C < 0 || f->nodes[C].kind != CXCursor_CompoundStmt) {
		site_manual(cx, si, "shape",
			    "end_that_request_last (line %u) is not a statement of a block",
			    offset_line(t, f->nodes[L].start, NULL));
		goto out;
	}
	while (Fs >= 0 && f->nodes[Fs].parent != C)
		Fs = f->nodes[Fs].parent;
	if (Fs < 0) {
		site_manual(cx, si, "shape",
			    "%s and end_that_request_last (line %u) are in different blocks",
			    s->call, offset_line(t, f->nodes[L].start, NULL));
		goto out;
	}
	/* `case X: if (F) ...`: the if is the case label's statement */
	int Fin = Fs;

	while (Fin >= 0 && (f->nodes[Fin].kind == CXCursor_CaseStmt ||
			    f->nodes[Fin].kind == CXCursor_DefaultStmt))
		Fin = node_child(f, Fin, f->nodes[Fin].kind == CXCursor_CaseStmt ? 1 : 0);
	if (Fin >= 0 && f->nodes[Fin].kind == CXCursor_IfStmt &&
	    node_strip(f, node_child(f, Fin, 0)) == F && node_child(f, Fin, 2) < 0) {
		int T = node_child(f, Fin, 1), lastst = T;

		if (T >= 0 && f->nodes[T].kind == CXCursor_CompoundStmt)
			for (int c = f->nodes[T].first; c >= 0; c = f->nodes[c].next)
				lastst = c;
		if (lastst >= 0 && (f->nodes[lastst].kind == CXCursor_ReturnStmt ||
				    f->nodes[lastst].kind == CXCursor_GotoStmt ||
				    f->nodes[lastst].kind == CXCursor_ContinueStmt ||
				    f->nodes[lastst].kind == CXCursor_BreakStmt ||
				    stmt_never_returns(t, f, lastst))) {
			shape = 1;
		} else if (T >= 0) {
			char *lwhy = NULL;

			F2 = leftover_call(cx, f, T, p->rq, u.expr, &lwhy);
			if (F2 < 0) {
				site_manual(cx, si, "shape",
					    "partial completion with a leftover in %s(): %s",
					    f->name, lwhy);
				free(lwhy);
				goto out;
			}
			shape = 16;
		}
	} else if (Fs == F) {
		shape = 2;
	} else if (f->nodes[Fs].kind == CXCursor_BinaryOperator && node_nchildren(f, Fs) == 2 &&
		   node_strip(f, node_child(f, Fs, 1)) == F) {
		char *op = binary_op(t, f, Fs);

		int lhs = node_strip(f, node_child(f, Fs, 0));

		if (!strcmp(op, "=")) {
			shape = 8; /* rc = F(whole); [assert(rc == 0);] L */
			if (lhs >= 0 && f->nodes[lhs].kind == CXCursor_DeclRefExpr)
				p->result_var = node_text(t, &f->nodes[lhs]);
		}
		free(op);
	} else if (f->nodes[Fs].kind == CXCursor_WhileStmt ||
		   f->nodes[Fs].kind == CXCursor_DoStmt || f->nodes[Fs].kind == CXCursor_ForStmt) {
		shape = 4;
	}
	if (!shape && classify_data_only(p, &u, &b, li))
		goto out;
	if (!shape) {
		site_manual(cx, si, "shape", "%s in a shape the catalogue does not cover", s->call);
		goto out;
	}
	int Fidx = siblings(f, Fs, p->list, &p->cnt), Lwhere = -1;

	for (int i = Fidx + 1; Fidx >= 0 && i < p->cnt; i++)
		if (p->list[i] == Ls)
			Lwhere = i;
	if (Fidx < 0 || Lwhere < 0) {
		site_manual(cx, si, "shape",
			    "end_that_request_last (line %u) does not follow %s in the same block",
			    offset_line(t, f->nodes[L].start, NULL), s->call);
		goto out;
	}
	p->Lidx = Lwhere;
	if (shape == 1 && Lwhere > Fidx + 2 &&
	    f->nodes[p->list[Fidx + 2]].kind == CXCursor_BreakStmt) {
		classify_state_handoff(p, &u, &b);
		goto out;
	}
	for (int i = Fidx + 1; i < Lwhere; i++) {
		enum CXCursorKind k = f->nodes[p->list[i]].kind;

		if (k == CXCursor_BreakStmt || k == CXCursor_CaseStmt ||
		    k == CXCursor_DefaultStmt || k == CXCursor_ReturnStmt ||
		    k == CXCursor_GotoStmt || k == CXCursor_LabelStmt ||
		    k == CXCursor_ContinueStmt) {
			site_manual(
			    cx, si, "shape",
			    "end_that_request_last (line %u) is not reached straight from the "
			    "data completion: the statement at line %u leaves the path (another "
			    "state of a state machine, another call), and '%s' stays referenced "
			    "in between; decide whether anything there may use the request "
			    "after the single 2.6.25 call has ended it",
			    offset_line(t, f->nodes[L].start, NULL),
			    offset_line(t, f->nodes[p->list[i]].start, NULL), p->rq);
			goto out;
		}
	}
	{
		/* the region runs to L, or to the release after L when the lock is
		 * taken between the data completion and L */
		int to = Lwhere + 1, a;
		bool acquired = false;

		for (int i = Fidx + 1; i < Lwhere; i++)
			if (stmt_lock_op(cx, t, f, p->list[i], &a) && a)
				acquired = true;
		for (int i = Lwhere + 1; acquired && i < p->cnt && i <= Lwhere + 3; i++)
			if (stmt_lock_op(cx, t, f, p->list[i], &a) && !a) {
				to = i + 1;
				break;
			}
		if (!scan_region(p, Fidx + 1, to, &why)) {
			site_manual(cx, si, "shape", "%s", why);
			goto out;
		}
		if (!choose_variant(p, F))
			goto out;
		if ((shape == 2 || shape == 8) && !b.whole && chunk &&
		    data_len_is_whole(cx, f, F, p->rq)) {
			b.whole = true;
			free(s->bytes_origin);
			s->bytes_origin = xasprintf(
			    "whole request: '%s' is a request the code has tested not to be "
			    "a filesystem request, whose whole size is its data_len",
			    p->rq);
		}
		/* `rc = F(...); BUG_ON(rc);`: the final step runs only when F ended
		 * every byte, as the new call ends the request only then */
		if ((shape == 2 || shape == 8) && !b.whole && !p->result_stops) {
			site_manual(
			    cx, si, "last_may_have_data",
			    "%s's result %s and end_that_request_last ends the request "
			    "anyway, even with bytes left; one 2.6.25 call does the same only if "
			    "the count covers every byte left, which blkmig cannot prove here "
			    "(%s): decide the byte count for every kind of request that reaches "
			    "this call (a packet request's data need not be whole sectors, and "
			    "2.6.25 cannot end a request that still has bytes)",
			    s->call,
			    shape == 2 ? "is ignored"
				       : "is kept but no check stops the path when it is not 0",
			    b.origin ? b.origin
			    : b.why  ? b.why
				     : "count unknown");
			goto out;
		}
		s->pattern = u.cls == BM_UT_WRAPPER ? BM_PAT_WRAPPER_PARAM
			     : shape == 16	    ? BM_PAT_CHUNK
			     : shape == 1	    ? BM_PAT_EARLY_RETURN
			     : shape == 2	    ? BM_PAT_WHOLE_REQUEST
						    : BM_PAT_RESULT_USED;
		p->Fstmt = Fs;
		int wp = work_plan(p, Fidx + 1, to);

		if (wp < 0)
			goto out;
		if (wp == 1) {
			cbname = make_callback(p, Fidx + 1, to);
			p->variant = "blk_end_request_callback";
			s->pattern = BM_PAT_CALLBACK;
		}
		set_new_call(s, p->variant, p->rq, u.error_expr, b.expr, cbname);
		/* shape 2 (the result ignored): its count covers every byte left (b.whole,
		 * above), so the new call always ends the request and its 0 needs no check
		 * (a BUG() on it would be checkpatch's AVOID_BUG) */
		newcall = xstrdup(s->replacement);
		edit_add(s, t->path, f->nodes[F].start, f->nodes[F].end, newcall);
		free(newcall);
		remove_roles(p, s, Fidx + 1, to, wp == 1);
		if (shape == 16) {
			size_t s2 = site_of_node(cx, f, F2);
			struct uptodate u2 = {0};

			uptodate_classify(cx, f, call_arg(f, F2, 1), &u2);
			s = &cx->run->sites[si];
			if (s2 == (size_t)-1 || wp == 1 || !u2.error_expr) {
				site_manual(
				    cx, si, "shape",
				    "partial completion with a leftover in %s(): the leftover "
				    "call cannot be rewritten with it",
				    f->name);
			} else {
				struct bm_site *l2 = &cx->run->sites[s2];
				char *txt = node_text(t, &f->nodes[call_arg(f, F2, 2)]);

				l2->pattern = BM_PAT_CHUNK;
				l2->lock = s->lock;
				l2->confidence = s->confidence;
				l2->uptodate_expr = xstrdup(u2.expr ? u2.expr : "");
				l2->uptodate_class = u2.cls;
				l2->error_expr = xstrdup(u2.error_expr);
				l2->uptodate_origin =
				    xstrdup(u2.cls == BM_UT_BOOLEAN && u2.why ? u2.why : "");
				l2->bytes_expr = xstrdup(txt);
				l2->bytes_origin = xasprintf(
				    "the whole remainder of the request ('%s' is assigned only "
				    "its remaining sectors << 9 or data_len)",
				    txt);
				for (size_t e = 0; e < s->lock_evidence.n; e++)
					strlist_push(&l2->lock_evidence, s->lock_evidence.v[e]);
				set_new_call(l2, p->variant, p->rq, u2.error_expr, txt, NULL);
				cx->partner[s2] = (long)si; /* one way: it follows F's verdict */
				edit_add(s, t->path, f->nodes[F2].start, f->nodes[F2].end,
					 l2->replacement);
				free(txt);
			}
			uptodate_free(&u2);
		}
	}
out:
	free(cbname);
	free(p->rq);
	free(p->result_var);
	free(p);
	uptodate_free(&u);
	bytes_free(&b);
}
