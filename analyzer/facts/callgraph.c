/*
 * callgraph.c - the queue lock on function entry, across all functions of
 * the run.  A registered request_fn (or end_io callback) starts with it; an
 * interrupt handler, timer, tasklet or work function starts without it; any
 * other function takes the state of its callers at the call sites (a
 * fixpoint, since callers may themselves depend on their entry).  Calls
 * through a struct member count as calls of the functions stored in that
 * member when those are all its uses (facts.c, cx->mcalls).  A function
 * whose address escapes otherwise, or that has no caller in the run, is
 * unknown.
 */
#include <string.h>

#include "analysis.h"

static struct func *callee_of(struct ctx *cx, struct call *c)
{
	return c->callee >= 0 ? &cx->funcs[c->callee] : NULL;
}

static enum lk call_state(struct ctx *cx, struct call *c)
{
	struct func *caller = &cx->funcs[c->func];
	enum lk v = caller->nodes[c->node].lock;

	return v == LK_ENTRY ? caller->entry : v;
}

/*
 * The entry states each function may see, over every chain of callers (a may
 * analysis beside the must analysis of f->entry): held from one chain and not
 * held from another is a function no single 2.6.25 variant fits, even when
 * f->entry says only "unknown" (the callers disagree).
 */
static void may_entry_resolve(struct ctx *cx)
{
	bool changed = true;

	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];

		f->may_entry = f->role == ROLE_REQUEST_FN	  ? LK_MAY_HELD
			       : f->role == ROLE_ASYNC		  ? LK_MAY_NOT
			       : f->addr_taken && !f->via_members ? LK_MAY_UNKNOWN
								  : 0;
		f->held_via = f->not_via = -1;
	}
	for (int iter = 0; changed && iter < 1000; iter++) {
		changed = false;
		for (size_t k = 0; k < cx->ncalls + cx->nmcalls; k++) {
			struct call *c =
			    k < cx->ncalls ? &cx->calls[k] : &cx->mcalls[k - cx->ncalls];
			struct func *caller, *g;
			enum lk v;
			unsigned bits, add;

			if (c->callee < 0 || (k >= cx->ncalls && !cx->funcs[c->callee].via_members))
				continue;
			caller = &cx->funcs[c->func];
			g = &cx->funcs[c->callee];
			/* an exported function has a contract: a caller that breaks it is that
			 * caller's bug, not a path of the function's own */
			if (g->role != ROLE_NONE || !g->is_static)
				continue;
			v = caller->nodes[c->node].lock;
			bits = v == LK_HELD	 ? LK_MAY_HELD
			       : v == LK_NOT	 ? LK_MAY_NOT
			       : v == LK_ENTRY	 ? caller->may_entry
			       : v == LK_UNKNOWN ? LK_MAY_UNKNOWN
						 : 0;
			add = bits & ~g->may_entry;
			if (!add)
				continue;
			if ((add & LK_MAY_HELD) && g->held_via < 0)
				g->held_via = c->func;
			if ((add & LK_MAY_NOT) && g->not_via < 0)
				g->not_via = c->func;
			g->may_entry |= add;
			changed = true;
		}
	}
	for (size_t i = 0; i < cx->nfuncs; i++)
		if (!cx->funcs[i].may_entry)
			cx->funcs[i].may_entry = LK_MAY_UNKNOWN; /* no caller in the run */
}

static char *entry_chain(struct ctx *cx, struct func *f, bool held)
{
	struct sbuf b = {0};
	struct func *g = f;

	sbuf_add(&b, f->name);
	for (int depth = 0; depth < 12; depth++) {
		long via = held ? g->held_via : g->not_via;

		if (via < 0)
			break;
		g = &cx->funcs[via];
		{
			char *t = xasprintf("%s -> %s", g->name, b.s);

			free(b.s);
			b.s = t;
			b.len = strlen(t);
			b.cap = b.len + 1;
		}
	}
	if (g->role_evidence) {
		char *t = xasprintf("%s (%s)", b.s, g->role_evidence);

		free(b.s);
		return t;
	}
	return sbuf_take(&b);
}

/*
 * The chains of callers that bring f the state (held or not), the one that
 * first brought it first, then through the other callers, depth first:
 * "A -> f (why A) or B -> C -> f (why B)", at most four, no function twice
 * on one chain.  A caller through a function pointer (fnptr.c) is a caller
 * like the others.
 */
struct chains {
	struct ctx *cx;
	bool held;
	bool *on;
	struct bm_strlist out;
	unsigned budget;
	bool cut;
};

static void chains_from(struct chains *ch, struct func *g, const char *tail)
{
	struct ctx *cx = ch->cx;
	unsigned bit = ch->held ? LK_MAY_HELD : LK_MAY_NOT;
	long gi = (long)(g - cx->funcs), via = ch->held ? g->held_via : g->not_via;
	char *s = tail ? xasprintf("%s -> %s", g->name, tail) : xstrdup(g->name);

	if (ch->out.n >= 4 || !ch->budget) {
		ch->cut = true;
		free(s);
		return;
	}
	ch->budget--;
	if (g->role != ROLE_NONE) {
		char *p = g->role_evidence ? xasprintf("%s (%s)", s, g->role_evidence) : xstrdup(s);

		if (strlist_has(&ch->out, p)) /* a second call of the same chain */
			free(p);
		else
			strlist_push_owned(&ch->out, p);
		free(s);
		return;
	}
	ch->on[gi] = true;
	/* the caller that first brought the state, then the others in call order */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < cx->ncalls + cx->nmcalls; k++) {
			struct call *c =
			    k < cx->ncalls ? &cx->calls[k] : &cx->mcalls[k - cx->ncalls];
			struct func *caller;
			enum lk v;

			if (c->callee != gi || (k >= cx->ncalls && !g->via_members) ||
			    (pass == 0) != ((long)c->func == via) || ch->on[c->func])
				continue;
			caller = &cx->funcs[c->func];
			v = caller->nodes[c->node].lock;
			if (v == LK_ENTRY && (caller->may_entry & bit))
				chains_from(ch, caller, s);
			else if (v == (ch->held ? LK_HELD : LK_NOT)) {
				char *p = xasprintf("%s -> %s", caller->name, s);

				if (strlist_has(&ch->out, p))
					free(p);
				else if (ch->out.n < 4)
					strlist_push_owned(&ch->out, p);
				else {
					ch->cut = true;
					free(p);
				}
			}
		}
	}
	ch->on[gi] = false;
	free(s);
}

char *lock_entry_path(struct ctx *cx, struct func *f, bool held)
{
	struct chains ch = {cx, held, xcalloc(cx->nfuncs + 1, sizeof(bool)), {0}, 200, false};
	struct sbuf b = {0};

	chains_from(&ch, f, NULL);
	for (size_t i = 0; i < ch.out.n; i++)
		sbuf_printf(&b, "%s%s", i ? " or " : "", ch.out.v[i]);
	if (!ch.out.n) {
		free(b.s);
		b.s = NULL;
		b.len = b.cap = 0;
		sbuf_add(&b, f->name);
	}
	if (ch.cut)
		sbuf_add(&b, " (and more)");
	strlist_free(&ch.out);
	free(ch.on);
	return sbuf_take(&b);
}

void callgraph_resolve(struct ctx *cx)
{
	bool changed = true;

	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];

		units_trim(); /* between functions: no cursor is held */
		lockctx_func(cx, f);
		f->entry = f->role == ROLE_REQUEST_FN	      ? LK_HELD
			   : f->role == ROLE_ASYNC	      ? LK_NOT
			   : f->addr_taken && !f->via_members ? LK_UNKNOWN
							      : LK_BOTTOM;
	}
	enum lk *next = xcalloc(cx->nfuncs ? cx->nfuncs : 1, sizeof(*next));

	for (int iter = 0; changed && iter < 1000; iter++) {
		changed = false;
		for (size_t i = 0; i < cx->nfuncs; i++)
			next[i] = LK_BOTTOM;
		for (size_t k = 0; k < cx->ncalls + cx->nmcalls; k++) {
			struct call *c =
			    k < cx->ncalls ? &cx->calls[k] : &cx->mcalls[k - cx->ncalls];
			enum lk cv;

			if (c->callee < 0 || (k >= cx->ncalls && !cx->funcs[c->callee].via_members))
				continue;
			cv = call_state(cx, c);
			if (cv == LK_BOTTOM)
				continue;
			enum lk *v = &next[c->callee];

			if (*v == LK_BOTTOM)
				*v = cv;
			else if (*v != cv)
				*v = LK_UNKNOWN;
		}
		for (size_t i = 0; i < cx->nfuncs; i++) {
			struct func *f = &cx->funcs[i];

			if (f->role != ROLE_NONE || (f->addr_taken && !f->via_members))
				continue;
			if (next[i] != f->entry) {
				f->entry = next[i];
				changed = true;
			}
		}
	}
	free(next);
	may_entry_resolve(cx);
	/* each function's calls in order, chained by callee (cx->callee_head): the
	 * evidence and lock_callers_not_held walk a function's callers, not every call */
	size_t nall = cx->ncalls + cx->nmcalls;
	long *head = xmalloc((cx->nfuncs + 1) * sizeof(long));
	long *tail = xmalloc((cx->nfuncs + 1) * sizeof(long));
	long *chain = xmalloc((nall + 1) * sizeof(long));

	free(cx->callee_head);
	free(cx->callee_next);
	cx->callee_head = head;
	cx->callee_next = chain;

	for (size_t i = 0; i < cx->nfuncs; i++)
		head[i] = tail[i] = -1;
	for (size_t k = 0; k < nall; k++) {
		struct call *c = k < cx->ncalls ? &cx->calls[k] : &cx->mcalls[k - cx->ncalls];

		chain[k] = -1;
		if (c->callee < 0)
			continue;
		if (tail[c->callee] < 0)
			head[c->callee] = (long)k;
		else
			chain[tail[c->callee]] = (long)k;
		tail[c->callee] = (long)k;
	}
	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];
		unsigned held = 0, not = 0, unk = 0;
		char *first_held = NULL, *first_not = NULL, *first_unk = NULL, *more = NULL;

		if (f->entry == LK_BOTTOM)
			f->entry = LK_UNKNOWN;
		if (f->role != ROLE_NONE) {
			f->entry_evidence = xstrdup(f->role_evidence);
			continue;
		}
		if (f->addr_taken && !f->via_members) {
			f->entry_evidence = xasprintf("%s has callers blkmig cannot see: %s",
						      f->name, f->addr_evidence);
			continue;
		}
		for (long kl = head[i]; kl >= 0; kl = chain[kl]) {
			size_t k = (size_t)kl;
			struct call *c =
			    k < cx->ncalls ? &cx->calls[k] : &cx->mcalls[k - cx->ncalls];
			struct func *caller = &cx->funcs[c->func];
			enum lk cv;

			if (callee_of(cx, c) != f || (k >= cx->ncalls && !f->via_members))
				continue;
			cv = call_state(cx, c);
			char *where = xasprintf(
			    "%s%s%s at %s:%u", caller->name, k >= cx->ncalls ? " through " : "",
			    k >= cx->ncalls ? c->callee_name : "", cx->tus[caller->tu].path,
			    offset_line(&cx->tus[caller->tu], caller->nodes[c->node].start, NULL));

			if (cv == LK_HELD && !first_held)
				first_held = where;
			else if (cv == LK_NOT && !first_not)
				first_not = where;
			else if (cv != LK_HELD && cv != LK_NOT && !first_unk)
				first_unk = where;
			else
				free(where);
			held += cv == LK_HELD;
			not += cv == LK_NOT;
			unk += cv != LK_HELD && cv != LK_NOT;
		}
		/* callers whose own lock context is not known (a function nobody in the
		 * run calls) do not vote; the evidence counts them apart */
		more = unk ? xasprintf("; %u more caller(s) of unknown lock context (e.g. %s)", unk,
				       first_unk ? first_unk : "?")
			   : xstrdup("");
		if (!held && !not &&!unk)
			f->entry_evidence =
			    xasprintf("%s has no caller in the analysed files", f->name);
		else if (f->entry == LK_HELD)
			f->entry_evidence =
			    xasprintf("all %u caller(s) of %s %shold it (e.g. %s)%s", held, f->name,
				      unk ? "whose lock context is known " : "", first_held, more);
		else if (f->entry == LK_NOT)
			f->entry_evidence = xasprintf(
			    "none of the %u caller(s) of %s %sholds it (e.g. %s)%s", not, f->name,
			    unk ? "whose lock context is known " : "", first_not, more);
		else if (held && not )
			f->entry_evidence =
			    xasprintf("callers of %s disagree: held in %s, not in %s", f->name,
				      first_held, first_not);
		else
			f->entry_evidence = xasprintf(
			    "the lock context of %u caller(s) of %s is unknown", unk, f->name);
		free(first_held);
		free(first_not);
		free(first_unk);
		free(more);
		/* called through function pointers (fnptr.c): what makes those its
		 * callers, and the chain that brings the state */
		if (f->via_members && f->via_pointers && f->pointer_evidence &&
		    (f->entry == LK_HELD || f->entry == LK_NOT)) {
			char *path = entry_chain(cx, f, f->entry == LK_HELD);
			char *t =
			    xasprintf("%s; %s: %s", f->entry_evidence, f->pointer_evidence, path);

			free(f->entry_evidence);
			f->entry_evidence = t;
			free(path);
		}
	}
	free(tail);
}

enum bm_lock_state lock_at(struct ctx *cx, struct func *f, int n, struct bm_strlist *ev)
{
	struct node *nd = &f->nodes[n];
	struct tunit *t = &cx->tus[f->tu];
	enum lk v = nd->lock;

	if (v == LK_ENTRY) {
		if (ev && f->entry_evidence)
			strlist_push(ev, f->entry_evidence);
		v = f->entry;
	} else if (v == LK_HELD || v == LK_NOT) {
		if (ev)
			strlist_push_owned(
			    ev, xasprintf("%s at %s:%u",
					  nd->lock_ev_call ? nd->lock_ev_call : "lock operation",
					  t->path, offset_line(t, nd->lock_ev_offset, NULL)));
	} else if (ev) {
		strlist_push_owned(
		    ev, xasprintf("the lock state differs between the paths reaching %s:%u",
				  t->path, offset_line(t, nd->start, NULL)));
	}
	return v == LK_HELD ? BM_LOCK_HELD : v == LK_NOT ? BM_LOCK_NOT_HELD : BM_LOCK_UNKNOWN;
}
