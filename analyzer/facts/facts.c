/*
 * facts.c - what the cross-function analyses start from: every function
 * defined in the run (with its node tree and parameters), every call made
 * from those functions, and the registrations that fix a function's lock
 * context on entry: the request_fn given to blk_init_queue (and the queue
 * lock given with it), interrupt handlers, timers, tasklets and work items
 * (no lock), end_io callbacks (lock held).  Registrations are read from the
 * source text with comments and strings blanked, so they are found even
 * when the registering macro (INIT_WORK, DECLARE_TASKLET, ...) comes from a
 * header that is missing; a function used as a value anywhere else has
 * callers we cannot see.
 */
#include <ctype.h>
#include <string.h>

#include "analysis.h"
#include "func_index.h"

struct reg {
	const char *name;
	int arg;
	enum role role;
	const char *what;
};

static const struct reg regs[] = {
    {"blk_init_queue", 0, ROLE_REQUEST_FN, "request_fn registered with blk_init_queue"},
    {"blk_init_queue_node", 0, ROLE_REQUEST_FN, "request_fn registered with blk_init_queue_node"},
    {"blk_execute_rq_nowait", 4, ROLE_REQUEST_FN,
     "end_io callback (called under the queue lock) given to blk_execute_rq_nowait"},
    {"request_irq", 1, ROLE_ASYNC, "interrupt handler registered with request_irq"},
    {"setup_timer", 1, ROLE_ASYNC, "timer function registered with setup_timer"},
    {"tasklet_init", 1, ROLE_ASYNC, "tasklet registered with tasklet_init"},
    {"DECLARE_TASKLET", 1, ROLE_ASYNC, "tasklet declared with DECLARE_TASKLET"},
    {"INIT_WORK", 1, ROLE_ASYNC, "work function registered with INIT_WORK"},
    {"PREPARE_WORK", 1, ROLE_ASYNC, "work function registered with PREPARE_WORK"},
    {"INIT_DELAYED_WORK", 1, ROLE_ASYNC, "work function registered with INIT_DELAYED_WORK"},
    {"DECLARE_WORK", 1, ROLE_ASYNC, "work function declared with DECLARE_WORK"},
    {"DECLARE_DELAYED_WORK", 1, ROLE_ASYNC, "work function declared with DECLARE_DELAYED_WORK"},
    {"blk_queue_softirq_done", 1, ROLE_ASYNC,
     "softirq completion registered with blk_queue_softirq_done"},
};

static size_t hash_str(const char *s, size_t nb)
{
	return bm_str_hash(s) % nb;
}

/* Index funcs by name and USR (the lookups run for every identifier). */
static void index_funcs(struct ctx *cx)
{
	cx->nbuckets = cx->nfuncs * 2 + 1;
	cx->by_name = xmalloc(cx->nbuckets * sizeof(long));
	cx->by_usr = xmalloc(cx->nbuckets * sizeof(long));
	cx->next_name = xmalloc((cx->nfuncs + 1) * sizeof(long));
	cx->next_usr = xmalloc((cx->nfuncs + 1) * sizeof(long));
	for (size_t b = 0; b < cx->nbuckets; b++)
		cx->by_name[b] = cx->by_usr[b] = -1;
	for (size_t i = cx->nfuncs; i-- > 0;) {
		size_t hn = hash_str(cx->funcs[i].name, cx->nbuckets);
		size_t hu = hash_str(cx->funcs[i].usr, cx->nbuckets);

		cx->next_name[i] = cx->by_name[hn];
		cx->by_name[hn] = (long)i;
		cx->next_usr[i] = cx->by_usr[hu];
		cx->by_usr[hu] = (long)i;
	}
}

struct func *func_by_usr(struct ctx *cx, const char *usr)
{
	if (!usr || !*usr || !cx->nbuckets)
		return NULL;
	for (long i = cx->by_usr[hash_str(usr, cx->nbuckets)]; i >= 0; i = cx->next_usr[i])
		if (!strcmp(cx->funcs[i].usr, usr))
			return &cx->funcs[i];
	return NULL;
}

struct func *func_by_name(struct ctx *cx, const char *name, size_t tu)
{
	struct func *global = NULL;

	if (!cx->nbuckets)
		return NULL;
	for (long i = cx->by_name[hash_str(name, cx->nbuckets)]; i >= 0; i = cx->next_name[i]) {
		struct func *f = &cx->funcs[i];

		if (strcmp(f->name, name))
			continue;
		if (f->tu == tu)
			return f;
		if (!f->is_static && !global)
			global = f;
	}
	return global;
}

static size_t skip_ws(const char *s, size_t len, size_t p)
{
	while (p < len && isspace((unsigned char)s[p]))
		p++;
	return p;
}

bool text_call_arg(const char *s, size_t len, size_t open, int k, size_t *a, size_t *b)
{
	int depth = 0, idx = 0;
	size_t start = open + 1;

	for (size_t p = open; p < len; p++) {
		char c = s[p];

		if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (--depth == 0) {
				if (idx == k) {
					*a = start;
					*b = p;
					return true;
				}
				return false;
			}
		} else if (c == ',' && depth == 1) {
			if (idx == k) {
				*a = start;
				*b = p;
				return true;
			}
			idx++;
			start = p + 1;
		}
	}
	return false;
}

/* "  &foo_fn " or "(work_func_t)foo" -> foo; false if not a bare name */
static char *bare_name(const char *s, size_t a, size_t b)
{
	while (a < b && (isspace((unsigned char)s[a]) || s[a] == '&'))
		a++;
	if (a < b && s[a] == '(') { /* a cast */
		size_t e = a;

		while (e < b && s[e] != ')')
			e++;
		a = e + 1;
		while (a < b && isspace((unsigned char)s[a]))
			a++;
	}
	while (b > a && isspace((unsigned char)s[b - 1]))
		b--;
	if (a >= b)
		return NULL;
	for (size_t i = a; i < b; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return NULL;
	return xstrndup(s + a, b - a);
}

static void set_role(struct func *f, enum role r, const char *what, const char *path, unsigned line)
{
	if (f->role != ROLE_NONE && f->role != r) {
		f->addr_taken = true; /* contradictory registrations */
		free(f->addr_evidence);
		f->addr_evidence =
		    xasprintf("registered both with and without the lock (%s:%u)", path, line);
		return;
	}
	if (f->role == r)
		return;
	f->role = r;
	f->role_evidence = xasprintf("%s at %s:%u", what, path, line);
}

/* An identifier starts at p of s (not inside a longer one): its end in *e. */
static bool word_at(const char *s, size_t len, size_t p, size_t *e)
{
	if (!(isalpha((unsigned char)s[p]) || s[p] == '_') ||
	    (p && (isalnum((unsigned char)s[p - 1]) || s[p - 1] == '_')))
		return false;
	for (*e = p; *e < len && (isalnum((unsigned char)s[*e]) || s[*e] == '_'); (*e)++)
		;
	return true;
}

/* Text pass over one unit: registrations, queue locks, function values. */
static void text_facts(struct ctx *cx, size_t ti)
{
	struct tunit *t = &cx->tus[ti];
	const char *s = t->clean;
	size_t len = t->len;

	for (size_t p = 0; p < len;) {
		size_t e;

		if (!word_at(s, len, p, &e)) {
			p++;
			continue;
		}
		size_t q = skip_ws(s, len, e);
		char *word = xstrndup(s + p, e - p);

		if (q < len && s[q] == '(') {
			for (size_t r = 0; r < sizeof(regs) / sizeof(regs[0]); r++) {
				size_t a, b;
				char *fn;
				struct func *f;

				if (strcmp(word, regs[r].name) ||
				    !text_call_arg(s, len, q, regs[r].arg, &a, &b))
					continue;
				fn = bare_name(s, a, b);
				f = fn ? func_by_name(cx, fn, ti) : NULL;
				if (f)
					set_role(f, regs[r].role, regs[r].what, t->path,
						 offset_line(t, p, NULL));
				free(fn);
				if (regs[r].role == ROLE_REQUEST_FN &&
				    !strncmp(word, "blk_init_queue", 14) &&
				    text_call_arg(s, len, q, 1, &a, &b)) {
					char *txt = xstrndup(s + a, b - a);
					char *id = lock_identity_text(txt);

					if (strcmp(id, "var:NULL") &&
					    !strlist_has(&cx->queue_locks, id))
						strlist_push(&cx->queue_locks, id);
					free(id);
					free(txt);
				}
			}
		} else {
			struct func *f = func_by_name(cx, word, ti);

			if (f && !(p >= f->start && p < f->start + 0)) {
				/* a function used as a value: x.function = f, .end_io = f ... */
				size_t b = p;

				while (b > 0 && isspace((unsigned char)s[b - 1]))
					b--;
				bool assigned = b > 0 && s[b - 1] == '=' &&
						!(b > 1 && strchr("=!<>", s[b - 2]));
				size_t m = b > 0 ? b - 1 : 0;

				while (m > 0 && isspace((unsigned char)s[m - 1]))
					m--;
				size_t me = m;

				while (m > 0 &&
				       (isalnum((unsigned char)s[m - 1]) || s[m - 1] == '_'))
					m--;
				char *member = assigned ? xstrndup(s + m, me - m) : xstrdup("");
				unsigned line = offset_line(t, p, NULL);
				bool in_reg = false;

				/* inside the argument list of a registration call? */
				for (size_t r = 0; r < sizeof(regs) / sizeof(regs[0]) && !in_reg;
				     r++) {
					size_t rl = strlen(regs[r].name);
					const char *hit = NULL;

					for (size_t back = p; back > 0 && p - back < 400; back--) {
						if (s[back] == ';' || s[back] == '{' ||
						    s[back] == '}')
							break;
						if (back >= rl &&
						    !memcmp(s + back - rl, regs[r].name, rl)) {
							hit = s + back - rl;
							break;
						}
					}
					in_reg = hit != NULL;
				}
				if (assigned &&
				    (!strcmp(member, "function") || !strcmp(member, "func")))
					set_role(f, ROLE_ASYNC, "timer/work function assigned",
						 t->path, line);
				else if (assigned && !strcmp(member, "end_io"))
					set_role(f, ROLE_REQUEST_FN,
						 "end_io callback (called under the queue lock) "
						 "assigned",
						 t->path, line);
				else if (assigned && !strcmp(member, "request_fn"))
					set_role(f, ROLE_REQUEST_FN, "request_fn assigned", t->path,
						 line);
				else if (!in_reg) {
					/* `.op = f` / `x->op = f`: an ops table member */
					bool member_store = assigned && member[0] && m > 0 &&
							    (s[m - 1] == '.' || s[m - 1] == '>');

					if (member_store) {
						f->member_stores++;
						vec_append(cx->mstore_func, cx->nmstore_func,
							   cx->mstore_cap, (long)(f - cx->funcs));
						strlist_push(&cx->mstore_member, member);
					} else {
						f->other_uses++;
					}
					if (!f->addr_taken) {
						f->addr_taken = true;
						f->addr_evidence =
						    member_store
							? xasprintf("stored in ->%s at %s:%u",
								    member, t->path, line)
							: xasprintf("used as a value at %s:%u",
								    t->path, line);
					}
				}
				free(member);
			}
		}
		free(word);
		p = e;
	}
}

static void collect_calls(struct ctx *cx, size_t fi)
{
	struct func *f = &cx->funcs[fi];

	for (int n = 0; n < f->nnodes; n++) {
		if (f->nodes[n].kind != CXCursor_CallExpr)
			continue;
		struct call *c = vec_push(cx->calls, cx->ncalls, cx->calls_cap);

		c->func = fi;
		c->node = n;
		c->callee_name = node_callee(f, n);
		c->callee_usr = xstrdup(f->nodes[n].ref->usr);
	}
}

/* F, the unit's next function, is built: its errors, and its time charged to the file. */
static void func_built(struct ctx *cx, size_t ti, struct func *f)
{
	f->tu = ti;
	f->has_errors = range_has_error(&cx->tus[ti], f->start, f->end);
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	void **args = d;
	struct ctx *cx = args[0];
	size_t ti = *(size_t *)args[1];
	struct tunit *t = &cx->tus[ti];
	size_t start, end;

	(void)parent;
	if (t->over_time)
		return CXChildVisit_Break;
	if (!func_model_definition(t, c, &start, &end))
		return CXChildVisit_Continue;
	struct func *f = vec_push(cx->funcs, cx->nfuncs, cx->funcs_cap);
	struct timespec started;

	budget_start(&started);
	func_model_build(t, c, start, end, f);
	func_built(cx, ti, f);
	budget_charge(cx, ti, &started);
	return CXChildVisit_Continue;
}

/* The functions the parse child built (func_model.c), taken over as top_visit() would
 * have built them, each charged the time the child took. */
static void take_model(struct ctx *cx, size_t ti)
{
	struct tunit *t = &cx->tus[ti];
	size_t i;

	for (i = 0; i < t->nmodel && !t->over_time; i++) {
		struct func *f = vec_push(cx->funcs, cx->nfuncs, cx->funcs_cap);

		*f = t->model[i];
		memset(&t->model[i], 0, sizeof(t->model[i]));
		f->decl = clang_getNullCursor();
		f->curs = NULL;
		func_built(cx, ti, f);
		budget_charge_seconds(cx, ti, t->model_s[i]);
	}
	func_model_free(t);
}

/* The function a registration argument names, seen through macros and casts. */
static struct func *arg_function(struct ctx *cx, const struct func *f, int a)
{
	struct func *r = NULL;

	a = node_strip_casts(f, a);
	while (a >= 0 && f->nodes[a].kind == CXCursor_UnaryOperator)
		a = node_strip_casts(f, node_child(f, a, 0));
	if (a < 0 || f->nodes[a].kind != CXCursor_DeclRefExpr)
		return NULL;
	if (f->nodes[a].ref->ref_kind == CXCursor_FunctionDecl)
		r = func_by_usr(cx, f->nodes[a].ref->usr);
	return r;
}

/* Registrations the AST sees: through driver macros (FOO_INIT_QUEUE(fn)). */
static void ast_registrations(struct ctx *cx)
{
	for (size_t k = 0; k < cx->ncalls; k++) {
		struct call *c = &cx->calls[k];
		struct func *f = &cx->funcs[c->func];

		units_trim(); /* between calls: no cursor is held */
		for (size_t r = 0; r < sizeof(regs) / sizeof(regs[0]); r++) {
			struct func *g;
			int a;

			if (strcmp(c->callee_name, regs[r].name) ||
			    (a = call_arg(f, c->node, regs[r].arg)) < 0 ||
			    !(g = arg_function(cx, f, a)) || g->role == regs[r].role)
				continue;
			set_role(g, regs[r].role, regs[r].what, cx->tus[f->tu].path,
				 offset_line(&cx->tus[f->tu], f->nodes[c->node].start, NULL));
		}
	}
}

char *member_callee(const struct func *f, int call)
{
	const struct node_ref *r = f->nodes[call].ref;

	return r && r->member ? xstrdup(r->member) : NULL;
}

/*
 * A function whose only uses as a value are stores into struct members
 * (`.end_request = f`, `cmd->done = f`) is called through those members:
 * every call through a member of that name in the parsed files is one of
 * its callers, when no file left unparsed calls through it.
 */
static void member_callers(struct ctx *cx)
{
	for (size_t fi = 0; fi < cx->nfuncs; fi++) {
		struct func *f = &cx->funcs[fi];

		for (int n = 0; n < f->nnodes; n++) {
			char *m;

			if (f->nodes[n].kind != CXCursor_CallExpr || !(m = member_callee(f, n)))
				continue;
			for (size_t k = 0; k < cx->mstore_member.n; k++) {
				if (strcmp(cx->mstore_member.v[k], m))
					continue;
				struct call *c = vec_push(cx->mcalls, cx->nmcalls, cx->mcalls_cap);

				c->func = fi;
				c->node = n;
				c->callee_name = xasprintf("->%s", m);
				c->callee_usr = xstrdup("");
				c->callee = cx->mstore_func[k];
			}
			free(m);
		}
	}
	for (size_t fi = 0; fi < cx->nfuncs; fi++) {
		struct func *f = &cx->funcs[fi];
		bool seen = false, open = false;

		if (!f->addr_taken || f->other_uses || !f->member_stores)
			continue;
		for (size_t k = 0; k < cx->nmcalls; k++)
			seen |= cx->mcalls[k].callee == (long)fi;
		for (size_t k = 0; k < cx->mstore_member.n; k++)
			if (cx->mstore_func[k] == (long)fi &&
			    strlist_has(&cx->open_members, cx->mstore_member.v[k]))
				open = true;
		f->via_members = seen && !open;
	}
	/* named in more files than the tree pass follows: callers unseen */
	for (size_t fi = 0; fi < cx->nfuncs; fi++) {
		struct func *f = &cx->funcs[fi];

		if (f->is_static || f->role != ROLE_NONE || !strlist_has(&cx->open_names, f->name))
			continue;
		func_callers_unseen(f, xstrdup("it is named in files that were not parsed "
					       "(more than the tree pass follows)"));
	}
}

void func_callers_unseen(struct func *f, char *evidence)
{
	/* no longer only called through members it can follow */
	f->via_members = false;
	if (f->addr_taken) {
		free(evidence); /* the first reason stays */
	} else {
		f->addr_taken = true;
		free(f->addr_evidence);
		f->addr_evidence = evidence;
	}
	f->other_uses++;
}

static void add_queue_lock(struct ctx *cx, const char *refined)
{
	const char *at = strchr(refined, '@');
	char *plain = at ? xstrndup(refined, (size_t)(at - refined)) : xstrdup(refined);

	if (!strlist_has(&cx->queue_locks, refined))
		strlist_push(&cx->queue_locks, refined);
	if (!strlist_has(&cx->queue_locks, plain))
		strlist_push(&cx->queue_locks, plain);
	free(plain);
}

/*
 * A lock that reaches blk_init_queue as a parameter of the function calling
 * it (mmc_init_queue(mq, card, &md->lock) -> blk_init_queue(fn, lock)): the
 * argument each caller passes is a queue lock.
 */
static void queue_lock_parameters(struct ctx *cx)
{
	for (size_t k = 0; k < cx->ncalls; k++) {
		struct call *c = &cx->calls[k];
		struct func *f = &cx->funcs[c->func];
		int a, pi = -1;
		char *usr;

		units_trim(); /* between calls: no cursor is held */
		if (strncmp(c->callee_name, "blk_init_queue", 14) ||
		    (a = node_strip_casts(f, call_arg(f, c->node, 1))) < 0 ||
		    f->nodes[a].kind != CXCursor_DeclRefExpr)
			continue;
		usr = ref_usr(f, a);
		for (int p = 0; usr && p < f->nparams; p++)
			if (!strcmp(f->param_usr[p], usr))
				pi = p;
		free(usr);
		if (pi < 0)
			continue;
		for (size_t j = 0; j < cx->ncalls; j++) {
			struct call *u = &cx->calls[j];
			struct func *g = &cx->funcs[u->func];
			int arg;
			char *id;

			if (u->callee != (long)(f - cx->funcs) ||
			    (arg = call_arg(g, u->node, pi)) < 0)
				continue;
			id = lock_identity_ast(g, arg);
			if (!id) {
				char *txt = node_text(&cx->tus[g->tu], &g->nodes[arg]);
				char *plain = lock_identity_text(txt);

				id = lock_identity_refined(g, arg, plain);
				if (!id)
					id = plain;
				else
					free(plain);
				free(txt);
			}
			if (strcmp(id, "var:NULL"))
				add_queue_lock(cx, id);
			free(id);
		}
	}
}

static void func_free(struct func *f)
{
	free(f->role_evidence);
	free(f->addr_evidence);
	free(f->entry_evidence);
	free(f->pointer_evidence);
	func_model_free_func(f); /* what the build made (func_model.c) */
}

/*
 * What a function's facts say about it from the other files (its role, its uses as a
 * value, its callers, its entry lock) and the calls between functions: made again
 * each round, since a file parsed later may register it, take its address or call it,
 * or settle callers that were unseen.  The node trees stay: they are the file's alone.
 */
void facts_forget_marks(struct ctx *cx)
{
	size_t kept = 0;

	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];

		/* a file over its time limit adds no functions to a later round (budget.c):
		 * the calls it makes were not all collected */
		if (cx->tus[f->tu].over_time) {
			func_free(f);
			continue;
		}
		free(f->role_evidence);
		free(f->addr_evidence);
		free(f->entry_evidence);
		free(f->pointer_evidence);
		f->role_evidence = f->addr_evidence = f->entry_evidence = NULL;
		f->pointer_evidence = NULL;
		f->role = ROLE_NONE;
		f->addr_taken = f->via_members = f->via_pointers = false;
		f->entry = LK_BOTTOM;
		f->member_stores = f->other_uses = 0;
		for (int n = 0; n < f->nnodes; n++) {
			f->nodes[n].lock = LK_BOTTOM;
			f->nodes[n].lock_ev_offset = 0;
			f->nodes[n].lock_ev_call = NULL;
		}
		cx->funcs[kept++] = *f;
	}
	if (kept < cx->nfuncs) /* the functions after a dropped one moved */
		fnptr_forget(cx);
	cx->nfuncs = kept;
	for (size_t i = 0; i < cx->ncalls; i++) {
		free(cx->calls[i].callee_name);
		free(cx->calls[i].callee_usr);
	}
	free(cx->calls);
	cx->calls = NULL;
	cx->ncalls = cx->calls_cap = 0;
	for (size_t i = 0; i < cx->nmcalls; i++) {
		free(cx->mcalls[i].callee_name);
		free(cx->mcalls[i].callee_usr);
	}
	free(cx->mcalls);
	cx->mcalls = NULL;
	cx->nmcalls = cx->mcalls_cap = 0;
	strlist_free(&cx->mstore_member);
	free(cx->mstore_func);
	cx->mstore_func = NULL;
	cx->nmstore_func = cx->mstore_cap = 0;
	strlist_free(&cx->queue_locks);
	free(cx->by_name);
	free(cx->by_usr);
	free(cx->next_name);
	free(cx->next_usr);
	cx->by_name = cx->by_usr = cx->next_name = cx->next_usr = NULL;
	free(cx->callee_head);
	free(cx->callee_next);
	cx->callee_head = cx->callee_next = NULL;
	cx->nbuckets = 0;
}

void facts_free(struct ctx *cx)
{
	facts_forget_marks(cx);
	fnptr_forget(cx);
	for (size_t i = 0; i < cx->nfuncs; i++)
		func_free(&cx->funcs[i]);
	free(cx->funcs);
	cx->funcs = NULL;
	cx->nfuncs = cx->funcs_cap = 0;
	cx->nbuilt_tus = 0;
}

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Calls of the run's functions that the AST lost: `NAME(` in the body of a
 * function with parse errors where the AST has no call (clang drops a whole
 * statement it cannot read, e.g. a `for` whose condition names an undeclared
 * macro), or in a function body the AST does not have at all (a branch that is
 * not compiled).  Such a caller is one blkmig cannot see: its lock context is
 * unknown, and it would keep passing an uptodate value to a wrapper whose
 * parameter became an error.
 */
/*
 * The functions of one unit in the order of their start, to find the one that holds an
 * offset by bisection: a search of every function per word made a file of thousands of
 * functions quadratic (issue 25, item 9).  Bodies do not overlap; if two did (text the
 * parse read oddly), `overlap` sends every question back to the search in index order.
 */
struct funcs_sorted {
	size_t *v, n, cap;
	bool overlap;
};

static const struct ctx *sort_cx;

static int start_cmp(const void *a, const void *b)
{
	const struct func *x = &sort_cx->funcs[*(const size_t *)a];
	const struct func *y = &sort_cx->funcs[*(const size_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static void funcs_by_start(const struct ctx *cx, size_t ti, struct funcs_sorted *fs)
{
	fs->n = 0;
	fs->overlap = false;
	for (size_t fi = 0; fi < cx->nfuncs; fi++)
		if (cx->funcs[fi].tu == ti)
			vec_append(fs->v, fs->n, fs->cap, fi);
	sort_cx = cx;
	if (fs->n > 1)
		qsort(fs->v, fs->n, sizeof(*fs->v), start_cmp);
	for (size_t i = 0; i + 1 < fs->n; i++)
		fs->overlap |= cx->funcs[fs->v[i]].end > cx->funcs[fs->v[i + 1]].start;
}

static struct func *func_holding(struct ctx *cx, const struct funcs_sorted *fs, size_t ti,
				 size_t at)
{
	size_t lo = 0, hi = fs->n;

	if (fs->overlap) {
		for (size_t fi = 0; fi < cx->nfuncs; fi++) {
			struct func *f = &cx->funcs[fi];

			if (f->tu == ti && at >= f->start && at < f->end)
				return f;
		}
		return NULL;
	}
	/* the last function that starts at or before `at` */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cx->funcs[fs->v[mid]].start <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	struct func *f = &cx->funcs[fs->v[lo - 1]];

	return at < f->end ? f : NULL;
}

static void lost_calls(struct ctx *cx)
{
	struct funcs_sorted by_start = {0};

	for (size_t ti = 0; ti < cx->ntus; ti++) {
		struct tunit *t = &cx->tus[ti];
		const char *s = t->clean;
		size_t len = t->len, n = 0, *starts = NULL, cap = 0;

		/* (a unit past --timeout has no functions built: budget.c says so of
		 * the functions it names, not "code the parse does not have") */
		if (!unit_parsed(t) || !s || t->over_time)
			continue;
		for (size_t k = 0; k < cx->ncalls; k++) {
			struct func *f = &cx->funcs[cx->calls[k].func];

			if (f->tu == ti)
				vec_append(starts, n, cap, f->nodes[cx->calls[k].node].start);
		}
		if (n > 1)
			qsort(starts, n, sizeof(*starts), size_cmp);
		funcs_by_start(cx, ti, &by_start);
		for (size_t p = 0; p < len;) {
			size_t e;

			if (!word_at(s, len, p, &e)) {
				p++;
				continue;
			}
			size_t q = skip_ws(s, len, e), at = p;

			p = e;
			if (q >= len || s[q] != '(')
				continue;
			char *word = xstrndup(s + at, e - at);
			struct func *g = func_by_name(cx, word, ti), *in = NULL;

			free(word);
			if (!g || (n && bsearch(&at, starts, n, sizeof(*starts), size_cmp)))
				continue;
			in = func_holding(cx, &by_start, ti, at);
			bool lost;

			if (in) {
				/* its own header, or a body the AST has whole */
				lost = in->has_errors && in->body >= 0 &&
				       at > in->nodes[in->body].start;
			} else {
				/* a declaration `int NAME(`, `*NAME(` is no call */
				size_t b = at;

				while (b > 0 && isspace((unsigned char)s[b - 1]))
					b--;
				lost = b > 0 && !(isalnum((unsigned char)s[b - 1]) ||
						  s[b - 1] == '_' || s[b - 1] == '*');
				if (lost) {
					char *fn = text_function_at(s, len, at);

					lost = fn != NULL;
					free(fn);
				}
			}
			if (lost)
				func_callers_unseen(
				    g, xasprintf("a call at %s:%u is in code the parse does not "
						 "have (a parse error there, or a branch that is "
						 "not compiled)",
						 t->path, offset_line(t, at, NULL)));
		}
		free(starts);
	}
	free(by_start.v);
}

void facts_collect(struct ctx *cx)
{
	/* the units parsed since the last round: their functions (the earlier units'
	 * are in funcs already, in unit order, as new units are appended) */
	for (size_t ti = cx->nbuilt_tus; ti < cx->ntus; ti++) {
		void *args[2] = {cx, &ti};
		size_t first = cx->nfuncs;
		CXCursor *listed;

		units_trim();
		/* a unit taken over: its functions as its parse wrote them, if that was
		 * kept (parse.c), rather than read from its AST (a walk of every cursor) */
		if (!cx->tus[ti].model_listed && !cx->tus[ti].unit)
			func_model_read_again(&cx->tus[ti]);
		if (cx->tus[ti].model_listed && unit_parsed(&cx->tus[ti])) {
			take_model(cx, ti);
			goto built;
		}
		if (!unit_tu(&cx->tus[ti]))
			continue;
		/* the child's list spares reading every header declaration in */
		listed = func_index_cursors(&cx->tus[ti]);
		if (listed) {
			for (size_t i = 0; i < cx->tus[ti].nfn; i++) {
				size_t before = cx->nfuncs;
				enum CXChildVisitResult r =
				    top_visit(listed[i], clang_getNullCursor(), args);

				/* where a load of the unit finds it again (units.c) */
				if (cx->nfuncs > before)
					cx->funcs[cx->nfuncs - 1].locator = cx->tus[ti].fn_at[i];
				if (r == CXChildVisit_Break)
					break;
			}
			free(listed);
		} else {
			clang_visitChildren(clang_getTranslationUnitCursor(unit_tu(&cx->tus[ti])),
					    top_visit, args);
		}
	built:
		for (size_t fi = first; fi < cx->nfuncs; fi++)
			lock_ids_prepare(&cx->funcs[fi]);
		/* built: a load of it from now on gives its nodes their cursors again */
		cx->nbuilt_tus = ti + 1;
	}
	cx->nbuilt_tus = cx->ntus;
	index_funcs(cx);
	for (size_t fi = 0; fi < cx->nfuncs; fi++)
		collect_calls(cx, fi);
	for (size_t ti = 0; ti < cx->ntus; ti++)
		if (unit_parsed(&cx->tus[ti]))
			text_facts(cx, ti);
	/* the struct of a lock field given to blk_init_queue (see is_queue_lock) */
	for (size_t k = 0; k < cx->ncalls; k++) {
		struct call *c = &cx->calls[k];
		struct func *f = &cx->funcs[c->func];
		struct tunit *t = &cx->tus[f->tu];
		int a;

		units_trim(); /* between calls: no cursor is held */
		if (strncmp(c->callee_name, "blk_init_queue", 14) ||
		    (a = call_arg(f, c->node, 1)) < 0)
			continue;
		char *txt = node_text(t, &f->nodes[a]);
		char *id = lock_identity_text(txt);
		char *refined = lock_identity_ast(f, a);

		if (!refined)
			refined = lock_identity_refined(f, a, id);
		if (refined && strcmp(refined, "var:NULL")) {
			char *at = strchr(refined, '@');
			char *plain =
			    at ? xstrndup(refined, (size_t)(at - refined)) : xstrdup(refined);

			if (!strlist_has(&cx->queue_locks, refined))
				strlist_push(&cx->queue_locks, refined);
			if (!strlist_has(&cx->queue_locks, plain))
				strlist_push(&cx->queue_locks, plain);
			free(plain);
		}
		free(refined);
		free(id);
		free(txt);
	}
	/* resolve every callee once: by USR, else by name (static first) */
	for (size_t k = 0; k < cx->ncalls; k++) {
		struct call *c = &cx->calls[k];
		struct func *f = func_by_usr(cx, c->callee_usr);
		char *m = f ? NULL : member_callee(&cx->funcs[c->func], c->node);

		/* a call through a member is no call of a function of that name */
		if (!f && !m)
			f = func_by_name(cx, c->callee_name, cx->funcs[c->func].tu);
		free(m);
		c->callee = f ? (long)(f - cx->funcs) : -1;
	}
	ast_registrations(cx);
	fnptr_callers(cx);
	member_callers(cx);
	lost_calls(cx);
	budget_unseen_callers(cx);
	queue_lock_parameters(cx);
}
