/*
 * lockctx.c - the queue lock inside one function.  A forward walk over the
 * statement tree tracks whether the queue lock is held (HELD / NOT_HELD /
 * ENTRY: as on entry / UNKNOWN where paths disagree) and stores the state at
 * every call.  Lock operations are spin_lock*()/spin_unlock*() on the queue
 * lock: q->queue_lock (any ->queue_lock) or a lock given to blk_init_queue
 * in the run (&foo_lock, &host->lock).  They are recognised from the source
 * text at the call or macro expansion, so spin_lock_irqsave() is seen
 * whether the headers make it a function, a macro, or nothing at all.
 * Branches merge; loops merge with their entry; goto carries its state to
 * the label.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"

struct st {
	enum lk v;
	size_t ev;	    /* offset of the lock operation, 0 = entry */
	const char *evcall; /* its name */
	bool dead;	    /* after return/goto/break */
};

struct label_state {
	char *name;
	struct st s;
};

struct walker {
	struct ctx *cx;
	struct tunit *t;
	struct func *f;
	struct label_state *labels;
	size_t nlabels, labels_cap;
	size_t *done; /* expansion offsets of lock macros already applied */
	size_t ndone, done_cap;
	struct st sw_entry;
};

static const char *const acquire_names[] = {"spin_lock",	 "spin_lock_irq",
					    "spin_lock_irqsave", "spin_lock_bh",
					    "spin_lock_nested",	 "spin_lock_irqsave_nested"};
static const char *const release_names[] = {"spin_unlock", "spin_unlock_irq",
					    "spin_unlock_irqrestore", "spin_unlock_bh"};

static bool is_lock_call(const char *name, int *acquire)
{
	while (*name == '_')
		name++;
	if (!strncmp(name, "blkmig_", 7))
		name += 7;
	if (!strncmp(name, "raw_", 4))
		name += 4;
	for (size_t i = 0; i < sizeof(acquire_names) / sizeof(acquire_names[0]); i++)
		if (!strcmp(name, acquire_names[i])) {
			*acquire = 1;
			return true;
		}
	for (size_t i = 0; i < sizeof(release_names) / sizeof(release_names[0]); i++)
		if (!strcmp(name, release_names[i])) {
			*acquire = 0;
			return true;
		}
	return false;
}

void lock_ids_prepare(struct func *f)
{
	for (int k = 0; k < f->nnodes; k++) {
		char *callee, *id = NULL;
		int acq, arg = -1;

		if (f->nodes[k].kind != CXCursor_CallExpr)
			continue;
		callee = node_callee(f, k);
		if (is_lock_call(callee, &acq)) /* lock_call_arg() */
			arg = call_arg(f, k, 0);
		else if (!strncmp(callee, "blk_init_queue", 14)) /* facts_collect() */
			arg = call_arg(f, k, 1);
		free(callee);
		if (arg >= 0)
			id = lock_identity_ast(f, arg);
		free(id);
	}
}

/* The argument node of the lock call spelled at node n, or -1. */
static int lock_call_arg(const struct func *f, int n)
{
	for (int k = n; k < f->nnodes; k++) {
		char *callee;
		int acq;
		bool lock;

		if (!node_within(f, k, n) || f->nodes[k].kind != CXCursor_CallExpr)
			continue;
		callee = node_callee(f, k);
		lock = is_lock_call(callee, &acq);
		free(callee);
		if (lock)
			return call_arg(f, k, 0);
	}
	return -1;
}

/*
 * Node n is the expansion of a driver macro (WORD(...), not a C keyword)
 * that contains exactly one spin_lock or spin_unlock call.
 */
static bool driver_lock_macro(const struct func *f, int n, const char *word, int *acquire)
{
	static const char *const kw[] = {"if", "while", "for", "switch", "return", "sizeof"};
	int found = 0;

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strcmp(word, kw[i]))
			return false;
	if (f->nodes[n].kind != CXCursor_CallExpr && f->nodes[n].kind != CXCursor_ParenExpr &&
	    f->nodes[n].kind != CXCursor_DoStmt && f->nodes[n].kind != CXCursor_BinaryOperator &&
	    f->nodes[n].kind != CXCursor_UnexposedExpr)
		return false;
	for (int k = n; k <= f->nodes[n].last; k++) { /* n's subtree (preorder) */
		char *callee;
		int acq;

		if (f->nodes[k].kind != CXCursor_CallExpr)
			continue;
		callee = node_callee(f, k);
		if (is_lock_call(callee, &acq)) {
			found++;
			*acquire = acq;
		}
		free(callee);
	}
	return found == 1;
}

/* At source offset off: "spin_lock_xxx ( LOCK ..." on the queue lock? */
static bool text_lock_op(struct ctx *cx, struct tunit *t, const struct func *f, int n, int *acquire,
			 char **name)
{
	size_t off = f->nodes[n].start;
	const char *s = t->clean;
	size_t e = off, q, a, b;
	char *word, *txt, *id;
	bool queue;

	while (e < t->len && (isalnum((unsigned char)s[e]) || s[e] == '_'))
		e++;
	if (e == off)
		return false;
	word = xstrndup(s + off, e - off);
	q = e;
	while (q < t->len && isspace((unsigned char)s[q]))
		q++;
	if (q < t->len && s[q] == '(' && !is_lock_call(word, acquire) &&
	    driver_lock_macro(f, n, word, acquire)) {
		/* LOCK_HOST(h): a driver macro around spin_lock; the AST names the lock */
		int arg = lock_call_arg(f, n);
		char *ast = arg >= 0 ? lock_identity_ast(f, arg) : NULL;
		char *at = ast ? strchr(ast, '@') : NULL;
		char *plain = ast ? (at ? xstrndup(ast, (size_t)(at - ast)) : xstrdup(ast)) : NULL;

		queue = ast && is_queue_lock(cx, plain, at ? ast : NULL);
		free(plain);
		free(ast);
		if (!queue) {
			free(word);
			return false;
		}
		*name = xstrdup(*acquire ? "spin_lock" : "spin_unlock");
		free(word);
		return true;
	}
	if (q >= t->len || s[q] != '(' || !is_lock_call(word, acquire) ||
	    !text_call_arg(s, t->len, q, 0, &a, &b)) {
		free(word);
		return false;
	}
	txt = xstrndup(s + a, b - a);
	id = lock_identity_text(txt);
	{
		/* the AST's word on the argument beats the text (macros, casts) */
		int arg = lock_call_arg(f, n);
		char *ast = arg >= 0 ? lock_identity_ast(f, arg) : NULL;
		char *refined = ast ? NULL : lock_identity_refined(f, n, id);

		if (ast) {
			char *at = strchr(ast, '@');
			char *plain = at ? xstrndup(ast, (size_t)(at - ast)) : xstrdup(ast);

			queue = is_queue_lock(cx, plain, at ? ast : NULL);
			free(plain);
		} else {
			queue = is_queue_lock(cx, id, refined);
		}
		free(ast);
		free(refined);
	}
	free(id);
	free(txt);
	if (!queue) {
		free(word);
		return false;
	}
	*name = word;
	return true;
}

static struct st merge(struct st a, struct st b)
{
	if (a.dead)
		return b;
	if (b.dead)
		return a;
	if (a.v == b.v)
		return a;
	if (a.v == LK_BOTTOM)
		return b;
	if (b.v == LK_BOTTOM)
		return a;
	a.v = LK_UNKNOWN;
	return a;
}

static struct label_state *label(struct walker *w, const char *name)
{
	for (size_t i = 0; i < w->nlabels; i++)
		if (!strcmp(w->labels[i].name, name))
			return &w->labels[i];
	struct label_state *l = vec_push(w->labels, w->nlabels, w->labels_cap);

	l->name = xstrdup(name);
	l->s = (struct st){LK_BOTTOM, 0, NULL, true};
	return l;
}

static bool done_has(struct walker *w, size_t off)
{
	for (size_t i = 0; i < w->ndone; i++)
		if (w->done[i] == off)
			return true;
	return false;
}

static struct st walk(struct walker *w, int n, struct st s);

static struct st walk_children(struct walker *w, int n, struct st s)
{
	for (int c = w->f->nodes[n].first; c >= 0; c = w->f->nodes[c].next)
		s = walk(w, c, s);
	return s;
}

/* Apply a lock operation spelled at node n (call or macro expansion). */
static struct st lock_effect(struct walker *w, int n, struct st s)
{
	struct node *nd = &w->f->nodes[n];
	int acquire;
	char *name;

	if (nd->start == 0 && nd->end == 0)
		return s;
	/* only the outermost node spelled at this offset (the call, or the
	 * whole macro expansion), so that its arguments are inside it */
	if (nd->parent >= 0 && w->f->nodes[nd->parent].start == nd->start &&
	    w->f->nodes[nd->parent].kind != CXCursor_CompoundStmt)
		return s;
	if (done_has(w, nd->start))
		return s;
	if (!text_lock_op(w->cx, w->t, w->f, n, &acquire, &name))
		return s;
	vec_append(w->done, w->ndone, w->done_cap, nd->start);
	s.v = acquire ? LK_HELD : LK_NOT;
	s.ev = nd->start;
	s.evcall = strstr(name, "unlock") ? (strstr(name, "irqrestore") ? "spin_unlock_irqrestore"
					     : strstr(name, "irq")	? "spin_unlock_irq"
									: "spin_unlock")
		   : strstr(name, "irqsave") ? "spin_lock_irqsave"
		   : strstr(name, "irq")     ? "spin_lock_irq"
					     : "spin_lock";
	free(name);
	return s;
}

static struct st walk(struct walker *w, int n, struct st s)
{
	struct func *f = w->f;
	struct node *nd = &f->nodes[n];

	switch (nd->kind) {
	case CXCursor_IfStmt: {
		int c0 = node_child(f, n, 0), c1 = node_child(f, n, 1), c2 = node_child(f, n, 2);
		struct st a, b;

		if (c0 >= 0)
			s = walk(w, c0, s);
		a = c1 >= 0 ? walk(w, c1, s) : s;
		b = c2 >= 0 ? walk(w, c2, s) : s;
		return merge(a, b);
	}
	case CXCursor_WhileStmt:
	case CXCursor_ForStmt: {
		struct st t = walk_children(w, n, s);

		t.dead = false;
		return merge(s, t);
	}
	case CXCursor_DoStmt: {
		struct st t = walk_children(w, n, s);

		t.dead = false;
		return lock_effect(w, n, t);
	}
	case CXCursor_SwitchStmt: {
		struct st saved = w->sw_entry, t;
		int c0 = node_child(f, n, 0);

		if (c0 >= 0)
			s = walk(w, c0, s);
		w->sw_entry = s;
		t = s;
		for (int c = c0 >= 0 ? f->nodes[c0].next : -1; c >= 0; c = f->nodes[c].next)
			t = walk(w, c, t);
		t.dead = false;
		w->sw_entry = saved;
		return merge(s, t);
	}
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt: s = merge(s, w->sw_entry); return walk_children(w, n, s);
	case CXCursor_ReturnStmt:
		s = walk_children(w, n, s);
		s.dead = true;
		return s;
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt: s.dead = true; return s;
	case CXCursor_GotoStmt: {
		struct label_state *l = label(w, f->nodes[n].ref->name);

		l->s = merge(l->s, s);
		s.dead = true;
		return s;
	}
	case CXCursor_LabelStmt: {
		struct label_state *l = label(w, f->nodes[n].ref->name);

		s = merge(s, l->s);
		if (s.dead) /* reached only by a goto we have not seen (backwards) */
			s = (struct st){LK_UNKNOWN, nd->start, "label", false};
		return walk_children(w, n, s);
	}
	case CXCursor_CallExpr:
		s = walk_children(w, n, s);
		nd->lock = s.dead ? LK_UNKNOWN : s.v;
		nd->lock_ev_offset = s.ev;
		nd->lock_ev_call = s.evcall;
		return lock_effect(w, n, s);
	default: s = walk_children(w, n, s); return lock_effect(w, n, s);
	}
}

void lockctx_func(struct ctx *cx, struct func *f)
{
	struct walker w = {0};
	struct st s = {LK_ENTRY, 0, NULL, false};

	w.cx = cx;
	w.t = &cx->tus[f->tu];
	w.f = f;
	w.sw_entry = s;
	for (int n = 0; n < f->nnodes; n++)
		f->nodes[n].lock = LK_UNKNOWN;
	if (f->body >= 0) {
		walk(&w, f->body, s);
		/* second pass: labels reached by backward gotos now have a state */
		w.ndone = 0;
		walk(&w, f->body, s);
	}
	for (size_t i = 0; i < w.nlabels; i++)
		free(w.labels[i].name);
	free(w.labels);
	free(w.done);
}

bool stmt_lock_op(struct ctx *cx, struct tunit *t, const struct func *f, int n, int *acquire)
{
	char *name = NULL;
	bool r = text_lock_op(cx, t, f, n, acquire, &name);

	free(name);
	return r;
}

/*
 * Callers of f (a function entered with ENTRY state) that call it without
 * the queue lock: their count, each named in *where (and those that call it
 * with the lock held in *held, when given).  -1 when some caller's state is
 * not known, or f has no caller; the lists still name the callers whose state
 * is known (held on one path and not on another is known either way).
 */
int lock_callers_not_held(struct ctx *cx, struct func *f, struct bm_strlist *where,
			  struct bm_strlist *held)
{
	int not = 0, any = 0, unknown = 0;
	long fi = (long)(f - cx->funcs);

	if (f->role != ROLE_NONE || f->addr_taken)
		return -1;
	for (long kl = cx->callee_head ? cx->callee_head[fi] : -1; kl >= 0;
	     kl = cx->callee_next[kl]) {
		size_t k = (size_t)kl;
		struct call *c = &cx->calls[k];
		struct func *caller;
		enum lk v;

		if (k >= cx->ncalls) /* (the member calls follow the direct ones) */
			break;
		if (c->callee != fi)
			continue;
		caller = &cx->funcs[c->func];
		v = caller->nodes[c->node].lock;
		if (v == LK_ENTRY)
			v = caller->entry;
		any++;
		if (v != LK_HELD && v != LK_NOT) {
			unknown++;
			continue;
		}
		if (v == LK_HELD && held)
			strlist_push_owned(
			    held, xasprintf("%s at %s:%u", caller->name, cx->tus[caller->tu].path,
					    offset_line(&cx->tus[caller->tu],
							caller->nodes[c->node].start, NULL)));
		if (v == LK_NOT) {
			not ++;
			if (where)
				strlist_push_owned(
				    where,
				    xasprintf("%s at %s:%u (%s)", caller->name,
					      cx->tus[caller->tu].path,
					      offset_line(&cx->tus[caller->tu],
							  caller->nodes[c->node].start, NULL),
					      caller->entry_evidence && v == caller->entry
						  ? caller->entry_evidence
						  : "the queue lock is not held there"));
		}
	}
	return any && !unknown ? not : -1;
}

/*
 * The first spin_lock*()/spin_unlock*() call of any lock spelled between
 * source offsets a and b of f, or NULL: the name and its first argument.
 */
char *lock_call_between(struct ctx *cx, const struct func *f, size_t a, size_t b)
{
	struct tunit *t = &cx->tus[f->tu];

	/* the text first: spin_lock*( spelled anywhere in between, macros too */
	for (size_t q = a; q + 9 < b && q + 9 < t->len; q++) {
		const char *c = t->clean + q;

		if ((q == 0 || !(isalnum((unsigned char)c[-1]) || c[-1] == '_')) &&
		    (!strncmp(c, "spin_lock", 9) || !strncmp(c, "spin_unlock", 11))) {
			size_t e = q;

			while (e < b && t->clean[e] != ';' && t->clean[e] != '\n')
				e++;
			return range_text(t, q, e);
		}
	}
	for (int n = 0; n < f->nnodes; n++) {
		char *callee;
		int acq;

		if (f->nodes[n].kind != CXCursor_CallExpr || f->nodes[n].start < a ||
		    f->nodes[n].start >= b)
			continue;
		callee = node_callee(f, n);
		if (is_lock_call(callee, &acq)) {
			char *txt = range_text(t, f->nodes[n].start, f->nodes[n].end);
			char *nl = strchr(txt, '\n');

			if (nl)
				*nl = 0;
			free(callee);
			return txt;
		}
		free(callee);
	}
	return NULL;
}
