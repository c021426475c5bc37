/*
 * classify_endreq.c - end_request(rq, uptodate) sites: the whole current chunk
 * (rq->hard_cur_sectors << 9) with E(uptodate), as __blk_end_request or
 * blk_end_request by the lock contract, or manual with the reason.
 */
#include <string.h>

#include "classify_shapes.h"

void classify_end_request(struct ctx *cx, struct func *f, int n, size_t si)
{
	struct tunit *t = &cx->tus[f->tu];
	struct bm_site *s = &cx->run->sites[si];
	int a0 = call_arg(f, n, 0), a1 = call_arg(f, n, 1);
	struct uptodate u = {0};
	struct bytes b = {0};
	struct plan p = {0};
	char *rq, *local;
	const char *use;
	size_t stmt_to = 0;

	s->pattern = BM_PAT_END_REQUEST;
	if (a0 < 0 || a1 < 0) {
		site_manual(cx, si, "shape", "%s without two arguments", s->call);
		return;
	}
	rq = node_text(t, &f->nodes[a0]);
	/* a macro request argument expanding to a call is read once (issue 22) */
	local = rq_once_local(t, rq, f->nodes[n].start, f->nodes[n].end, &stmt_to);
	use = local ? local : rq;
	uptodate_classify(cx, f, a1, &u);
	if (strcmp(s->call, "end_request")) {
		b.expr = xasprintf("blk_rq_bytes(%s)", use);
		b.origin = xstrdup("whole request");
	} else {
		/* end_request() completed hard_cur_sectors << 9 (2.6.25's own
		 * end_request() passes exactly that); blk_rq_cur_bytes() reads
		 * current_nr_sectors, which PIO drivers count down */
		const char *why = NULL;

		if (rq_fields_intact(cx, f->tu, &why)) {
			b.expr = xasprintf("blk_rq_cur_bytes(%s)", use);
			b.origin = xstrdup("current segment; the driver changes no request "
					   "field and sees no packet request");
		} else {
			b.expr = xasprintf(is_simple_operand(use) ? "%s->hard_cur_sectors << 9"
								  : "(%s)->hard_cur_sectors << 9",
					   use);
			b.origin = xasprintf("the current segment as end_request() counted it "
					     "(hard_cur_sectors << 9), not blk_rq_cur_bytes(), "
					     "because %s",
					     why);
		}
	}
	plan_one_call(&p, cx, f, si, n, &u, &b);
	if (has_side_effects(rq)) {
		site_manual(cx, si, "shape", "the request argument '%s' has side effects", rq);
	} else if (u.cls == BM_UT_UNKNOWN) {
		site_manual(cx, si, "uptodate_unknown", "%s", u.why);
	} else {
		s->lock = lock_at(cx, f, n, &s->lock_evidence);
		p.variant = contract_variant(cx, f, si, n, 0, 0);
		if (p.variant) {
			set_new_call(s, p.variant, use, u.error_expr, b.expr, NULL);
			if (local) {
				char *blk =
				    rq_once_block(t, f->nodes[n].start, local, rq, s->replacement);

				edit_add(s, t->path, f->nodes[n].start, stmt_to, blk);
				free(blk);
			} else {
				edit_add(s, t->path, f->nodes[n].start, f->nodes[n].end,
					 s->replacement);
			}
		}
	}
	free(local);
	free(rq);
	uptodate_free(&u);
	bytes_free(&b);
}
