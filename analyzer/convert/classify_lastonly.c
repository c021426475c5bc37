/*
 * classify_lastonly.c - last-only sites: end_that_request_last with no data
 * completion of its request before it in the function.  The byte count comes from
 * the request's origin (0 for a request tested to carry no data, blk_rq_bytes(rq)
 * otherwise; manual, or classify_ownbios.c, where the driver ends the bios itself).
 */
#include <string.h>

#include "classify_shapes.h"

/*
 * The first data completion (first/chunk) before node L in f that was paired
 * with no final step (its request is spelt otherwise than L's) and is left
 * unconverted, or -1.  A converted one (a data-only completion, which lets
 * go of its final step) does not count.
 */
static int unpaired_data_completion_before(struct ctx *cx, struct func *f, int L)
{
	for (int n = 0; n < f->nnodes; n++) {
		char *callee;
		size_t sn = (size_t)-1;

		if (f->nodes[n].kind != CXCursor_CallExpr || call_arg(f, n, 0) < 0 ||
		    f->nodes[n].macro || f->nodes[n].start >= f->nodes[L].start)
			continue;
		callee = node_callee(f, n);
		if (is_first(callee))
			sn = site_of_node(cx, f, n);
		free(callee);
		if (sn != (size_t)-1 && cx->partner[sn] < 0 &&
		    !(cx->run->sites[sn].verdict == BM_AUTO && cx->run->sites[sn].replacement[0]))
			return n;
	}
	return -1;
}

/*
 * A last-only call: end_that_request_last with no data completion of the
 * request before it in the function.  2.6.25 has no final step without a
 * data part; what the new call needs is the request's origin:
 *  - a request whose type the code has just tested to be neither a
 *    filesystem nor a BLOCK_PC request never runs a data part: 0 bytes;
 *  - a request whose bios the driver ends itself (it reads rq->bio or calls
 *    bio_endio before) would see them ended a second time by a byte count,
 *    and never end with 0 bytes while rq->bio is still set: manual;
 *  - any other request may carry bios: blk_rq_bytes(rq).  When it holds no
 *    bios (the only case in which 2.6.24's last-only call was right), that
 *    ends it exactly as 0 bytes would; when it still holds some, 0 bytes
 *    would leave it pending for ever.
 * The queue lock contract is the old call's.
 */
static bool type_excludes_data(struct tunit *t, const struct func *f, int n, const char *rq)
{
	static const char *const nodata[] = {"blk_pm_request", "blk_pm_suspend_request",
					     "blk_pm_resume_request", "blk_special_request",
					     "blk_sense_request"};

	for (int c = n, p = node_up(f, n); p >= 0; c = p, p = node_up(f, p)) {
		int cond;
		char *txt, *nrm;
		bool ok = false;

		if (f->nodes[p].kind != CXCursor_IfStmt || node_child(f, p, 1) < 0 ||
		    !node_within(f, c, node_child(f, p, 1)))
			continue;
		cond = node_child(f, p, 0);
		txt = node_text(t, &f->nodes[cond]);
		nrm = normalize_ws(txt);
		for (size_t i = 0; i < sizeof(nodata) / sizeof(nodata[0]) && !ok; i++) {
			char *want = xasprintf("%s(%s)", nodata[i], rq);

			ok = !strcmp(nrm, want);
			free(want);
		}
		{
			/* rq->cmd_type == REQ_TYPE_X, X neither FS nor BLOCK_PC (no blanks) */
			static const char eq[] = "->cmd_type==REQ_TYPE_";
			size_t rl = strlen(rq), el = sizeof(eq) - 1;

			if (!ok && !strncmp(nrm, rq, rl) && !strncmp(nrm + rl, eq, el) &&
			    strcmp(nrm + rl + el, "FS") && strcmp(nrm + rl + el, "BLOCK_PC") &&
			    !strpbrk(nrm + rl + el, "|&!=<>?()"))
				ok = true;
		}
		free(nrm);
		free(txt);
		if (ok)
			return true;
	}
	return false;
}

/* the first statement before node L that ends the request's bios itself */
static int driver_ends_bios(struct tunit *t, const struct func *f, int L, const char *rq)
{
	char *bio = xasprintf("%s->bio", rq);

	for (int n = 0; n < f->nnodes; n++) {
		char *txt, *nrm;
		bool hit = false;

		if (f->nodes[n].start >= f->nodes[L].start || !is_stmt_kind(f->nodes[n].kind) ||
		    f->nodes[n].kind == CXCursor_CompoundStmt)
			continue;
		if (f->nodes[n].kind == CXCursor_IfStmt || f->nodes[n].kind == CXCursor_WhileStmt ||
		    f->nodes[n].kind == CXCursor_ForStmt || f->nodes[n].kind == CXCursor_DoStmt ||
		    f->nodes[n].kind == CXCursor_SwitchStmt)
			continue;
		txt = range_text(t, f->nodes[n].start, f->nodes[n].end);
		nrm = normalize_ws(txt);
		hit = strstr(nrm, bio) || strstr(nrm, "bio_endio");
		free(nrm);
		free(txt);
		if (hit) {
			free(bio);
			return n;
		}
	}
	free(bio);
	return -1;
}

void classify_last_only(struct ctx *cx, struct func *f, int L, size_t si, bool after_data_only)
{
	struct tunit *t = &cx->tus[f->tu];
	struct bm_site *s = &cx->run->sites[si];
	struct uptodate u = {0};
	struct bytes b = {0};
	struct plan p = {0};
	int a0 = call_arg(f, L, 0), a1 = call_arg(f, L, 1), own, before;
	struct own_bios ob = {.call_stmt = -1, .account_stmt = -1};
	char *rq, *own_why = NULL;
	const char *variant;

	s->pattern = BM_PAT_LAST_ONLY;
	s->lock = lock_at(cx, f, L, &s->lock_evidence);
	if (a0 < 0 || a1 < 0) {
		site_manual(cx, si, "shape", "%s without two arguments", s->call);
		return;
	}
	rq = text_norm(t, &f->nodes[a0]);
	uptodate_classify(cx, f, a1, &u);
	/* (the precise check needs the whole AST; with parse errors, the text's) */
	own = after_data_only && !f->has_errors ? bios_ended_by_driver(t, f, L, rq)
						: driver_ends_bios(t, f, L, rq);
	if (own >= 0 && u.cls != BM_UT_UNKNOWN && u.error_expr &&
	    own_bios_prove(cx, f, own, L, rq, u.error_expr, &ob, &own_why)) {
		own = -1;
		b.expr = xasprintf("blk_rq_bytes(%s)", rq);
		b.origin = xstrdup(ob.evidence);
		b.whole = true;
	} else if (own >= 0) {
		b.why = xasprintf("the driver ends the bios itself (line %u)",
				  offset_line(t, f->nodes[own].start, NULL));
	} else if (type_excludes_data(t, f, L, rq)) {
		b.expr = xstrdup("0");
		b.origin = xasprintf("'%s' is tested to be neither a filesystem nor a BLOCK_PC "
				     "request: no data part runs",
				     rq);
	} else {
		b.expr = xasprintf("blk_rq_bytes(%s)", rq);
		b.origin = xstrdup("whole request: it may carry bios; with none left it ends as "
				   "with 0 bytes, with some 0 bytes would leave it pending");
		b.whole = true;
	}
	plan_one_call(&p, cx, f, si, L, &u, &b);
	if (has_side_effects(rq)) {
		site_manual(cx, si, "shape", "the request argument '%s' has side effects", rq);
	} else if ((before = unpaired_data_completion_before(cx, f, L)) >= 0) {
		char *cb = node_callee(f, before);
		char *rb = text_norm(t, &f->nodes[call_arg(f, before, 0)]);

		/* not last_only: a data completion comes before it */
		if (s->pattern == BM_PAT_LAST_ONLY)
			s->pattern = BM_PAT_UNCLASSIFIED;
		site_manual(cx, si, "shape",
			    "%s at line %u in %s() ends '%s', this final step '%s': blkmig pairs "
			    "a data completion with its final step only on the same request "
			    "expression; decide whether both name the same request (then they "
			    "become one 2.6.25 call)",
			    cb, offset_line(t, f->nodes[before].start, NULL), f->name, rb, rq);
		free(rb);
		free(cb);
	} else if (u.cls == BM_UT_UNKNOWN) {
		site_manual(cx, si, "uptodate_unknown", "%s", u.why);
	} else if (own >= 0) {
		site_manual(cx, si, "last_may_have_data",
			    "%s() ends the bios of '%s' itself (line %u) and leaves %s->bio set, "
			    "then calls end_that_request_last alone: 2.6.25 would end those bios "
			    "again for a byte count and never end the request for 0 bytes; decide "
			    "whether to drop the driver's own bio completion (and any sector "
			    "accounting beside it) and pass blk_rq_bytes(%s)%s%s",
			    f->name, rq, offset_line(t, f->nodes[own].start, NULL), rq, rq,
			    own_why ? "; blkmig could not prove that exact: " : "",
			    own_why ? own_why : "");
	} else if ((variant = contract_variant(cx, f, si, L, 0, 0))) {
		int st = enclosing_stmt(f, L), list[512], cnt = 0, at;
		char *written = node_text(t, &f->nodes[a0]);

		set_new_call(s, variant, written, u.error_expr, b.expr, NULL);
		free(written);
		edit_add(s, t->path, f->nodes[L].start, f->nodes[L].end, s->replacement);
		/* the driver's own bio loop and sector accounting: the new call's data part */
		own_bios_edits(s, t, f, &ob);
		/* the final step dequeues, adds randomness and ends the tag itself:
		 * the housekeeping right before the call goes */
		at = st >= 0 ? siblings(f, st, list, &cnt) : -1;
		for (int i = at - 1; at > 0 && i >= 0; i--) {
			char *txt = range_text(t, f->nodes[list[i]].start, f->nodes[list[i]].end);
			char *nrm = normalize_ws(txt);
			bool mine = strstr(nrm, rq) != NULL;

			free(nrm);
			free(txt);
			if (!stmt_is_housekeeping(t, f, list[i]) || !mine)
				break;
			edit_remove_stmt(s, t, f, list[i]);
		}
	}
	own_bios_free(&ob);
	free(own_why);
	free(rq);
	uptodate_free(&u);
	bytes_free(&b);
}
