/*
 * classify_leftover.c - partial completions with a leftover (scsi_lib style): the
 * second data completion that completes what is left, the variable that holds the
 * remainder, whether rq->data_len is the whole request, and which data completion
 * a leftover call belongs to.
 */
#include <string.h>

#include "classify_shapes.h"

/*
 * Partial completion with a leftover (scsi_lib-style):
 *   if (F(rq, u, n)) {
 *           [leftover = rq->hard_nr_sectors << 9; if (blk_pc_request(rq)) leftover = rq->data_len;]
 *           if (C) F2(rq, u2, leftover);
 *           else { ... return ...; }
 *   }
 *   ... L(rq, u);
 * F2 completes everything left, so in 2.6.24 it was always followed by the
 * final step with u; the new F2 call runs that final step itself, with
 * E(u2).  That is exact when C implies E(u) == E(u2) (u2 is u, or u2 is 0
 * and C tests !u) and every path of the body that does not run F2 leaves
 * the function.  Returns the F2 call node, or -1 with *why set.
 */
static bool remainder_var(struct ctx *cx, struct func *f, int n, const char *rq)
{
	struct tunit *t = &cx->tus[f->tu];
	int v = node_strip_casts(f, n);
	char *usr, *nrq = normalize_ws(rq);
	int cnt = 0;
	bool ok = true;

	if (v < 0 || f->nodes[v].kind != CXCursor_DeclRefExpr) {
		free(nrq);
		return false;
	}
	usr = ref_usr(f, v);
	for (int k = 0; k < f->nnodes && ok; k++) {
		int rhs = -1;
		enum store_kind sk = node_store(t, f, k, usr, &rhs);

		if (sk == STORE_COMPOUND) {
			ok = false;
		} else if (rhs >= 0) {
			char *txt = node_text(t, &f->nodes[rhs]), *nt = normalize_ws(txt);
			/* (normalize_ws drops the blanks) */
			char *a = xasprintf("%s->hard_nr_sectors<<", nrq);
			char *a2 = xasprintf("(%s->hard_nr_sectors<<", nrq);
			char *d = xasprintf("%s->data_len", nrq);
			const char *sh = !strncmp(nt, a, strlen(a))	? nt + strlen(a)
					 : !strncmp(nt, a2, strlen(a2)) ? nt + strlen(a2)
									: NULL;

			/* 9, or a driver's name for it (KERNEL_SECTOR_SHIFT) */
			ok = (sh && (!strncmp(sh, "9", 1) || strstr(sh, "SECTOR_SHIFT"))) ||
			     !strcmp(nt, d);
			/* the field still holds the remainder only if the driver never
			 * rewrites it (scsi_lib.c puts a residue in data_len) */
			if (ok) {
				char *w = rq_field_written(cx, f->tu,
							   sh ? "hard_nr_sectors" : "data_len");

				ok = !w;
				free(w);
			}
			cnt++;
			free(a);
			free(a2);
			free(d);
			free(nt);
			free(txt);
		}
	}
	free(usr);
	free(nrq);
	return ok && cnt > 0;
}

int leftover_call(struct ctx *cx, struct func *f, int T, const char *rq, const char *u_expr,
		  char **why)
{
	struct tunit *t = &cx->tus[f->tu];
	int last = T, iff, C, then, els, F2 = -1;
	char *u2 = NULL, *ctext = NULL, *nu = normalize_ws(u_expr), *nrq = normalize_ws(rq);
	bool same_error = false;

	if (f->nodes[T].kind == CXCursor_CompoundStmt)
		for (int c = f->nodes[T].first; c >= 0; c = f->nodes[c].next)
			last = c;
	iff = last;
	if (iff < 0 || f->nodes[iff].kind != CXCursor_IfStmt) {
		*why = xstrdup("the body of the test on the data completion does not end in the "
			       "completion of the leftover");
		goto out;
	}
	C = node_child(f, iff, 0);
	then = node_child(f, iff, 1);
	els = node_child(f, iff, 2);
	for (int n = then; then >= 0 && n <= f->nodes[then].last; n++) {
		char *callee, *a0;

		if (f->nodes[n].kind != CXCursor_CallExpr)
			continue;
		callee = node_callee(f, n);
		if (is_first(callee) && call_nargs(f, n) == 3) {
			a0 = text_norm(t, &f->nodes[call_arg(f, n, 0)]);
			if (!strcmp(a0, nrq) && F2 < 0 && enclosing_stmt(f, n) == n)
				F2 = n;
			free(a0);
		}
		free(callee);
	}
	if (F2 < 0 ||
	    (then != F2 && !(f->nodes[then].kind == CXCursor_CompoundStmt &&
			     node_nchildren(f, then) == 1 && node_child(f, then, 0) == F2))) {
		*why = xstrdup("the leftover is not completed by a single call on the request");
		F2 = -1;
		goto out;
	}
	{
		int lastel = els;

		if (els >= 0 && f->nodes[els].kind == CXCursor_CompoundStmt)
			for (int c = f->nodes[els].first; c >= 0; c = f->nodes[c].next)
				lastel = c;
		if (els < 0 || lastel < 0 || f->nodes[lastel].kind != CXCursor_ReturnStmt) {
			*why = xasprintf(
			    "when the test '%s' fails, 2.6.24 ended the request with bytes still "
			    "left (its remaining bios never complete), which 2.6.25 cannot "
			    "express: decide whether to complete the leftover or requeue it there",
			    (ctext = text_norm(t, &f->nodes[C])));
			F2 = -1;
			goto out;
		}
	}
	/* nothing but the leftover computation before it in the body */
	for (int c = f->nodes[T].kind == CXCursor_CompoundStmt ? f->nodes[T].first : -1;
	     c >= 0 && c != iff; c = f->nodes[c].next) {
		char *txt = range_text(t, f->nodes[c].start, f->nodes[c].end);
		bool calls = false;

		for (int n = c; c >= 0 && n <= f->nodes[c].last; n++)
			if (f->nodes[n].kind == CXCursor_CallExpr) {
				char *callee = node_callee(f, n);

				calls |= strcmp(callee, "blk_pc_request") &&
					 strcmp(callee, "blk_fs_request");
				free(callee);
			}
		free(txt);
		if (calls) {
			*why = xstrdup("the body of the test on the data completion does more than "
				       "compute the leftover");
			F2 = -1;
			goto out;
		}
	}
	if (!remainder_var(cx, f, call_arg(f, F2, 2), rq)) {
		*why =
		    xstrdup("the leftover's byte count is not provably the whole remainder of "
			    "the request (hard_nr_sectors << 9 or data_len, a field the driver "
			    "never rewrites): the old code ended the request whatever remained, "
			    "2.6.25 cannot; decide the byte count for the requests that reach it");
		F2 = -1;
		goto out;
	}
	u2 = text_norm(t, &f->nodes[call_arg(f, F2, 1)]);
	ctext = text_norm(t, &f->nodes[C]);
	if (!strcmp(u2, nu)) {
		same_error = true;
	} else if (!strcmp(u2, "0")) {
		/* C is `!u` or `!u && ...`: then u == 0 and E(u) == -EIO == E(0) */
		char *bang = xasprintf("!%s", nu), *bang2 = xasprintf("!%s&&", nu);

		same_error = !strcmp(ctext, bang) || !strncmp(ctext, bang2, strlen(bang2));
		free(bang);
		free(bang2);
	}
	if (!same_error) {
		*why = xasprintf("the leftover is completed with uptodate '%s' but the final step "
				 "runs with '%s', and the test '%s' does not make them the same "
				 "error: decide which error the request ends with",
				 u2, nu, ctext);
		F2 = -1;
	}
out:
	free(u2);
	free(ctext);
	free(nu);
	free(nrq);
	return F2;
}

/*
 * rq->data_len is the whole request (2.6.25's blk_rq_bytes()) for a request
 * that is not a filesystem request: the call at node n sits in the else of
 * `if (blk_fs_request(rq))` or under `if (blk_pc_request(rq))` /
 * `if (!blk_fs_request(rq))`.
 */
bool data_len_is_whole(struct ctx *cx, struct func *f, int n, const char *rq)
{
	struct tunit *t = &cx->tus[f->tu];
	char *nrq = normalize_ws(rq), *dl = xasprintf("%s->data_len", nrq);
	char *fs = xasprintf("blk_fs_request(%s)", nrq), *nfs = xasprintf("!%s", fs);
	char *pc = xasprintf("blk_pc_request(%s)", nrq);
	char *arg = text_norm(t, &f->nodes[call_arg(f, n, 2)]);
	bool ok = false;

	for (int c = n, p = node_up(f, n); p >= 0 && !ok && !strcmp(arg, dl);
	     c = p, p = node_up(f, p)) {
		char *cond;

		if (f->nodes[p].kind != CXCursor_IfStmt)
			continue;
		cond = text_norm(t, &f->nodes[node_child(f, p, 0)]);
		if (node_child(f, p, 2) >= 0 && node_within(f, c, node_child(f, p, 2)))
			ok = !strcmp(cond, fs);
		else if (node_within(f, c, node_child(f, p, 1)))
			ok = !strcmp(cond, nfs) || !strcmp(cond, pc);
		free(cond);
	}
	free(nrq);
	free(dl);
	free(fs);
	free(nfs);
	free(pc);
	free(arg);
	return ok;
}

/*
 * The data completion of rq whose `if (F(rq, ...))` body holds node n (n
 * completes its leftover), or -1.
 */
int leftover_of(struct ctx *cx, struct func *f, int n, const char *rq)
{
	struct tunit *t = &cx->tus[f->tu];
	char *nrq = normalize_ws(rq);
	int found = -1;

	for (int c = n, p = node_up(f, n); p >= 0 && found < 0; c = p, p = node_up(f, p)) {
		int cond;
		char *callee;

		if (f->nodes[p].kind != CXCursor_IfStmt || c == node_child(f, p, 0))
			continue;
		cond = node_strip(f, node_child(f, p, 0));
		if (cond < 0 || f->nodes[cond].kind != CXCursor_CallExpr ||
		    call_arg(f, cond, 0) < 0)
			continue;
		callee = node_callee(f, cond);
		if (is_first(callee)) {
			char *a0 = text_norm(t, &f->nodes[call_arg(f, cond, 0)]);

			if (!strcmp(a0, nrq))
				found = cond;
			free(a0);
		}
		free(callee);
	}
	free(nrq);
	return found;
}
