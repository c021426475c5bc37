/*
 * classify_lock.c - which new call a site gets from the old call's lock contract:
 * __blk_end_request where the queue lock is held (or nothing shows it is not),
 * blk_end_request where the analysis proves it is not held (the old code raced: the
 * site says the conversion fixes it), manual where the paths disagree or a lock the
 * analysis cannot place lies between the data completion and the final step.
 */
#include <string.h>

#include "classify_shapes.h"

/*
 * The old call's lock contract (part 3 of issue 8, refined by issue 20):
 * end_request & co and end_that_request_last ran with the queue lock held.
 * __blk_end_request has the same contract, so it is the exact replacement
 * where the lock is held, or where nothing shows it is not (the contract).
 * Where the analysis proves the lock not held on every path to the call,
 * the old code raced; blk_end_request takes the lock itself for the final
 * step, so converting to it fixes the race, and the site says so.  Held on
 * some paths and not on others: no single variant is right, and the site is
 * left with the paths named.  SPAN_A..SPAN_B is the source between the data
 * completion and the final step: a lock the analysis cannot place taken
 * there decides between the variants, and is left to a human.
 */
static void report_old_lock_bug_fixed(struct ctx *cx, struct func *f, size_t si,
				      const struct bm_strlist *callers, const char *last,
				      size_t last_at)
{
	struct bm_site *s = &cx->run->sites[si];
	const char *ev = s->lock_evidence.n ? s->lock_evidence.v[s->lock_evidence.n - 1] : "";
	struct sbuf who = {0};
	char *what;

	for (size_t i = 0; callers && i < callers->n; i++)
		sbuf_printf(&who, "%s%s", i ? "; " : "", callers->v[i]);
	/* the call that needed the lock: a data completion never did, its final step did */
	if (strcmp(last, s->call) && last_at)
		what = xasprintf("%s (line %u, the final step of this %s)", last,
				 offset_line(&cx->tus[f->tu], last_at, NULL), s->call);
	else if (strcmp(last, s->call))
		what = xasprintf("the final step (%s) of this %s", last, s->call);
	else
		what = xstrdup(s->call);
	strlist_push_owned(
	    &s->lock_evidence,
	    xasprintf("old_lock_bug_fixed: %s in %s() ran without the queue lock %s%s%s, which "
		      "the 2.6.24 API required for it (a race); blk_end_request takes the lock "
		      "itself for the final step, so converting to it ends the race",
		      what, f->name, callers ? "when called from " : "(", callers ? who.s : ev,
		      callers ? "" : ")"));
	free(what);
	free(who.s);
}

const char *contract_variant(struct ctx *cx, struct func *f, size_t si, int n, size_t span_a,
			     size_t span_b)
{
	struct bm_site *s = &cx->run->sites[si];
	const char *last =
	    !strcmp(s->call, "end_that_request_first") || !strcmp(s->call, "end_that_request_chunk")
		? "end_that_request_last"
		: s->call;
	struct bm_strlist callers = {0}, held = {0};
	char *between;
	int nnot;

	if (s->lock == BM_LOCK_HELD)
		return "__blk_end_request";
	if (s->lock == BM_LOCK_NOT_HELD) {
		report_old_lock_bug_fixed(cx, f, si, NULL, last, span_b);
		s->lock = BM_LOCK_NOT_HELD;
		return "blk_end_request";
	}
	if (f->nodes[n].lock == LK_ENTRY && (f->may_entry & LK_MAY_HELD) &&
	    (f->may_entry & LK_MAY_NOT)) {
		/* held from one chain of callers, not from another, beyond the direct
		 * callers (their own entry was only "unknown": they disagree); chains
		 * through the driver's own static functions only (callgraph.c) */
		char *hp = lock_entry_path(cx, f, true), *np = lock_entry_path(cx, f, false);

		site_manual(cx, si, "lock_mixed",
			    "%s() runs with the queue lock held when called as %s, and without "
			    "it as %s: no one 2.6.25 call is right on both paths; decide whether "
			    "to take the lock on the second (then __blk_end_request) or to "
			    "release it on the first (then blk_end_request)",
			    f->name, hp, np);
		free(hp);
		free(np);
		return NULL;
	}
	if (f->nodes[n].lock == LK_ENTRY &&
	    ((nnot = lock_callers_not_held(cx, f, &callers, &held)) > 0 || (held.n && callers.n))) {
		if (held.n) {
			struct sbuf a = {0}, b = {0};

			for (size_t i = 0; i < held.n; i++)
				sbuf_printf(&a, "%s%s", i ? "; " : "", held.v[i]);
			for (size_t i = 0; i < callers.n; i++)
				sbuf_printf(&b, "%s%s", i ? "; " : "", callers.v[i]);
			site_manual(cx, si, "lock_mixed",
				    "%s() is called with the queue lock held from %s, and without "
				    "it from %s: no one 2.6.25 call is right on both paths; decide "
				    "whether to take the lock on the second (then "
				    "__blk_end_request) or to release it on the first (then "
				    "blk_end_request)",
				    f->name, a.s, b.s);
			free(a.s);
			free(b.s);
			strlist_free(&callers);
			strlist_free(&held);
			return NULL;
		}
		report_old_lock_bug_fixed(cx, f, si, &callers, last, span_b);
		strlist_free(&callers);
		s->lock = BM_LOCK_NOT_HELD;
		return "blk_end_request";
	}
	strlist_free(&callers);
	strlist_free(&held);
	/* a body cut off (a truncated file) is no evidence of a contract kept */
	if (f->has_errors || f->end == 0 || cx->tus[f->tu].src[f->end - 1] != '}') {
		site_manual(
		    cx, si, "lock_unknown",
		    "cannot tell whether the queue lock is held here (%s), and %s() did not "
		    "parse cleanly, so blkmig does not rely on the 2.6.24 contract of %s: "
		    "decide whether the queue lock is held at the call",
		    s->lock_evidence.n ? s->lock_evidence.v[s->lock_evidence.n - 1] : "", f->name,
		    last);
		return NULL;
	}
	between = span_b > span_a ? lock_call_between(cx, f, span_a, span_b) : NULL;
	if (between) {
		site_manual(cx, si, "lock_unknown",
			    "'%s' runs between the data completion and %s, and blkmig cannot tell "
			    "whether that is the queue lock (%s): decide whether the queue lock is "
			    "held at %s (then __blk_end_request) or only taken around it (then "
			    "blk_end_request)",
			    between, last,
			    s->lock_evidence.n ? s->lock_evidence.v[s->lock_evidence.n - 1] : "",
			    last);
		free(between);
		return NULL;
	}
	s->confidence = "medium";
	strlist_push_owned(&s->lock_evidence,
			   xasprintf("%s requires the queue lock (2.6.24 contract); "
				     "__blk_end_request keeps that contract",
				     last));
	return "__blk_end_request";
}

/* Lock variant for a completion whose data part starts at node F. */
bool choose_variant(struct plan *p, int F)
{
	struct bm_site *s = &p->cx->run->sites[p->si];
	enum bm_lock_state l = lock_at(p->cx, p->f, F, &s->lock_evidence);

	if (p->pair) {
		if (l == BM_LOCK_HELD) {
			site_manual(p->cx, p->si, "lock_unknown",
				    "the queue lock is taken around end_that_request_last, but the "
				    "analysis says it is already held at the data completion: "
				    "decide which lock the function really takes there");
			return false;
		}
		if (l == BM_LOCK_UNKNOWN)
			s->confidence = "medium";
		strlist_push_owned(&s->lock_evidence,
				   xasprintf("the function takes the queue lock itself around "
					     "end_that_request_last (line %u)",
					     offset_line(p->t, p->f->nodes[p->L].start, NULL)));
		s->lock = BM_LOCK_NOT_HELD;
		p->lock = BM_LOCK_NOT_HELD;
		p->variant = "blk_end_request";
		return true;
	}
	if (p->L >= 0 && l != BM_LOCK_UNKNOWN && lock_at(p->cx, p->f, p->L, NULL) != l) {
		site_manual(p->cx, p->si, "lock_unknown",
			    "the queue lock state changes between the data completion and "
			    "end_that_request_last (line %u) in a way blkmig does not convert: "
			    "decide where the single new call runs",
			    offset_line(p->t, p->f->nodes[p->L].start, NULL));
		return false;
	}
	s->lock = l;
	p->variant = contract_variant(p->cx, p->f, p->si, F, p->f->nodes[F].end,
				      p->L >= 0 ? p->f->nodes[p->L].start : 0);
	if (!p->variant)
		return false;
	/* the new call behaves as if the lock were held: the work stays put */
	p->lock = BM_LOCK_HELD;
	return true;
}
