/*
 * classify.c - every legacy call of a function is matched against the
 * conversion catalogue (issue 2, items 1-12), given a lock variant from the
 * lock analysis, E(uptodate) and the byte count, and either an exact
 * rewrite (text edits) or a manual verdict with a reason code.
 *
 * Shapes of a data completion F = end_that_request_first/chunk and its
 * end_that_request_last L (same request, later in the same function):
 *   IF_NOT  if (!F) { [work] [lock] [housekeeping] L; [unlock] [post] }
 *   EARLY   if (F) return ...; [stmts] L;
 *   SEQ     F; [stmts] L;                        (whole request only)
 *   VAR     ret = F; ... if (!ret) { ... L; ... }
 *   LOOP    while (F); [stmts] L;
 * Housekeeping (add_disk_randomness, blkdev_dequeue_request,
 * blk_queue_end_tag) goes; a queue lock taken only around L goes with it
 * and selects blk_end_request; other work before L becomes a
 * blk_end_request_callback callback when it only uses the request and
 * globals.
 */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "classify_shapes.h"

/* the text of node n with every blank dropped (normalize_ws) */
static char *text_norm(struct tunit *t, const struct node *n)
{
	char *raw = node_text(t, n), *r = normalize_ws(raw);

	free(raw);
	return r;
}

static bool is_first(const char *n)
{
	return !strcmp(n, "end_that_request_first") || !strcmp(n, "end_that_request_chunk");
}

static bool is_end_request(const char *n)
{
	return !strcmp(n, "end_request") || !strcmp(n, "end_queued_request") ||
	       !strcmp(n, "end_dequeued_request");
}

static void ensure_side(struct ctx *cx, size_t n)
{
	if (n < cx->site_cap)
		return;
	size_t old = cx->site_cap;

	cx->site_cap = (n + 1) * 2;
	cx->partner = xrealloc(cx->partner, cx->site_cap * sizeof(long));
	cx->wfunc = xrealloc(cx->wfunc, cx->site_cap * sizeof(long));
	cx->wparam = xrealloc(cx->wparam, cx->site_cap * sizeof(int));
	cx->lvar = xrealloc(cx->lvar, cx->site_cap * sizeof(char *));
	cx->lfunc = xrealloc(cx->lfunc, cx->site_cap * sizeof(long));
	for (size_t i = old; i < cx->site_cap; i++) {
		cx->partner[i] = -1;
		cx->wfunc[i] = -1;
		cx->wparam[i] = -1;
		cx->lvar[i] = NULL;
		cx->lfunc[i] = -1;
	}
}

static size_t site_alloc(struct ctx *cx)
{
	struct bm_run *run = cx->run;

	vec_push(run->sites, run->nsites, run->sites_cap);
	ensure_side(cx, run->nsites - 1);
	return run->nsites - 1;
}

size_t site_new(struct ctx *cx, struct func *f, int n, const char *callee)
{
	struct tunit *t = &cx->tus[f->tu];
	size_t si = site_alloc(cx);
	struct bm_site *s = &cx->run->sites[si];
	CXCursor ref = clang_getCursorReferenced(f->nodes[n].c);

	s->file = xstrdup(t->path);
	s->offset = f->nodes[n].start;
	s->end_offset = f->nodes[n].end;
	s->line = offset_line(t, s->offset, &s->column);
	s->end_line = offset_line(t, s->end_offset, &s->end_column);
	s->function = xstrdup(f->name);
	s->call = xstrdup(callee);
	s->pattern = BM_PAT_UNCLASSIFIED;
	s->confidence = "high";
	s->typed = !f->has_errors && !clang_Cursor_isNull(ref);
	s->replacement = xstrdup("");
	return si;
}

void site_manual(struct ctx *cx, size_t si, const char *code, const char *fmt, ...)
{
	struct bm_site *s = &cx->run->sites[si];
	va_list ap;
	char *txt;

	va_start(ap, fmt);
	txt = xvasprintf(fmt, ap);
	va_end(ap);
	s->verdict = BM_MANUAL;
	s->reason_code = code;
	free(s->reason_text);
	s->reason_text = txt;
	for (size_t i = 0; i < s->nedits; i++) {
		free(s->edits[i].file);
		free(s->edits[i].text);
	}
	free(s->edits);
	s->edits = NULL;
	s->nedits = 0;
	free(s->replacement);
	s->replacement = xstrdup("");
	if (cx->partner[si] >= 0) {
		struct bm_site *p = &cx->run->sites[cx->partner[si]];

		if (p->verdict != BM_MANUAL || !p->reason_code) {
			free(p->replacement);
			p->replacement = xstrdup("");
			p->verdict = BM_MANUAL;
			p->reason_code = code;
			free(p->reason_text);
			p->reason_text =
			    xasprintf("paired with %s at line %u: %s", s->call, s->line, txt);
		}
	}
}

static const char *const housekeeping[] = {"add_disk_randomness", "blkdev_dequeue_request",
					   "blk_queue_end_tag"};

/*
 * A condition we may drop along with its housekeeping body: no assignment,
 * no increment, and calls only of side-effect free tests.
 */
static bool pure_test(struct tunit *t, const struct func *f, int cond)
{
	static const char *const pure[] = {"list_empty", "blk_rq_tagged", "blk_queue_tagged",
					   "blk_fs_request", "blk_pc_request"};

	for (int n = 0; n < f->nnodes; n++) {
		char *callee;
		bool ok = false;

		if (!node_within(f, n, cond))
			continue;
		if (f->nodes[n].kind == CXCursor_CompoundAssignOperator)
			return false;
		if (f->nodes[n].kind == CXCursor_BinaryOperator) {
			char *op = binary_op(t, f, n);
			bool assign = !strcmp(op, "=");

			free(op);
			if (assign)
				return false;
		}
		if (f->nodes[n].kind == CXCursor_UnaryOperator) {
			char *op = unary_op(t, f, n);
			bool inc = strstr(op, "++") || strstr(op, "--");

			free(op);
			if (inc)
				return false;
		}
		if (f->nodes[n].kind != CXCursor_CallExpr)
			continue;
		callee = node_callee(f, n);
		for (size_t i = 0; i < sizeof(pure) / sizeof(pure[0]); i++)
			ok |= !strcmp(callee, pure[i]);
		free(callee);
		if (!ok)
			return false;
	}
	return true;
}

static bool stmt_is_housekeeping(struct tunit *t, const struct func *f, int st)
{
	size_t s = f->nodes[st].start, e = s;

	/* if (tagged) blk_queue_end_tag(q, rq); if (queued) dequeue; ... */
	if (f->nodes[st].kind == CXCursor_IfStmt && node_child(f, st, 2) < 0 &&
	    node_child(f, st, 1) >= 0 && pure_test(t, f, node_child(f, st, 0))) {
		int body = node_child(f, st, 1), n = 0;

		if (f->nodes[body].kind != CXCursor_CompoundStmt)
			return stmt_is_housekeeping(t, f, body);
		for (int c = f->nodes[body].first; c >= 0; c = f->nodes[c].next, n++)
			if (!stmt_is_housekeeping(t, f, c))
				return false;
		return n > 0;
	}
	while (e < t->len && (isalnum((unsigned char)t->src[e]) || t->src[e] == '_'))
		e++;
	for (size_t i = 0; i < sizeof(housekeeping) / sizeof(housekeeping[0]); i++)
		if (strlen(housekeeping[i]) == e - s && !memcmp(t->src + s, housekeeping[i], e - s))
			return true;
	return false;
}

/* BUG(); or panic(...); — the branch does not come back */
static bool stmt_never_returns(struct tunit *t, const struct func *f, int st)
{
	const char *p = t->src + f->nodes[st].start;

	return !strncmp(p, "BUG()", 5) || !strncmp(p, "BUG ()", 6) || !strncmp(p, "panic(", 6);
}

/* statements of a body: the children of a compound, or the body itself */
static int body_stmts(const struct func *f, int body, int *out, int max)
{
	int n = 0;

	if (f->nodes[body].kind != CXCursor_CompoundStmt) {
		out[0] = body;
		return 1;
	}
	for (int c = f->nodes[body].first; c >= 0 && n < max; c = f->nodes[c].next)
		out[n++] = c;
	return n;
}

/* which statement of list[] holds node n, or -1 */
static int index_holding(const struct func *f, const int *list, int cnt, int n)
{
	for (int i = 0; i < cnt; i++)
		if (node_within(f, n, list[i]))
			return i;
	return -1;
}

/* SR_CHECK: an assertion on the kept result of the data completion (`BUG_ON(rc);`):
 * it checks the new call's result, which means the same, and stays where it is */
enum stmt_role { SR_KEEP = 0, SR_HOUSE, SR_LOCK, SR_UNLOCK, SR_LAST, SR_WORK, SR_CHECK };

struct plan {
	struct ctx *cx;
	struct func *f;
	struct tunit *t;
	size_t si, li; /* site of F and of L */
	int F, L;
	char *rq;	     /* request expression text */
	const char *variant; /* chosen new call */
	enum bm_lock_state lock;
	bool pair; /* lock taken around L only */
	int list[512];
	enum stmt_role role[512];
	bool mixed[512]; /* work: an if whose housekeeping inside goes, the rest stays */
	int Fstmt;	 /* the statement holding F: hoisted reads go before it */
	int cnt;
	int Lidx;
	bool has_work, has_post, work_in_lock;
	char *result_var;  /* `rc = F(...)`: the local that keeps F's result */
	bool result_stops; /* an assertion stops every path on which rc != 0 */
};

/*
 * Classify list[from..] around L (at index Lidx): housekeeping, a lock
 * pair around L, work before, statements after.  Returns false with a
 * reason on a shape we do not convert.
 */
static bool mixed_if(struct plan *p, int st);

/*
 * Declaration statement st declares only variables without side effects in
 * their initializers, used nowhere but in the statements lk and ul.
 */
static bool decl_only_for(struct plan *p, int st, int lk, int ul)
{
	struct func *f = p->f;

	if (f->nodes[st].kind != CXCursor_DeclStmt)
		return false;
	for (int v = f->nodes[st].first; v >= 0; v = f->nodes[v].next) {
		char *usr;

		if (f->nodes[v].kind != CXCursor_VarDecl)
			return false;
		for (int n = v; v >= 0 && n <= f->nodes[v].last; n++) {
			enum CXCursorKind k = f->nodes[n].kind;

			if (node_within(f, n, v) &&
			    (k == CXCursor_CallExpr || k == CXCursor_BinaryOperator ||
			     k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator))
				return false;
		}
		usr = cursor_usr(f->nodes[v].c);
		for (int n = 0; n < f->nnodes; n++) {
			char *u;
			bool same;

			if (f->nodes[n].kind != CXCursor_DeclRefExpr)
				continue;
			u = ref_usr(f, n);
			same = !strcmp(u, usr);
			free(u);
			if (same && !node_within(f, n, lk) && !node_within(f, n, ul)) {
				free(usr);
				return false;
			}
		}
		free(usr);
	}
	return true;
}

/* c (blanks removed) tests that the result is not 0: `rc`, `rc!=0`, `unlikely(rc)` */
static bool cond_is_nonzero(const char *c, size_t n, const char *r)
{
	size_t rl = strlen(r);

	while (n >= 2 && c[0] == '(' && c[n - 1] == ')') {
		c++;
		n -= 2;
	}
	if (n > 10 && !strncmp(c, "unlikely(", 9) && c[n - 1] == ')')
		return cond_is_nonzero(c + 9, n - 10, r);
	if (n > 2 && !strncmp(c, "!!", 2))
		return cond_is_nonzero(c + 2, n - 2, r);
	if (n == rl && !memcmp(c, r, rl))
		return true;
	if (n == rl + 3 && !memcmp(c, r, rl) && !memcmp(c + rl, "!=0", 3))
		return true;
	return n == rl + 3 && !memcmp(c, "0!=", 3) && !memcmp(c + 3, r, rl);
}

/* c tests that the result is 0: `rc==0`, `!rc` */
static bool cond_is_zero(const char *c, size_t n, const char *r)
{
	size_t rl = strlen(r);

	while (n >= 2 && c[0] == '(' && c[n - 1] == ')') {
		c++;
		n -= 2;
	}
	if (n == rl + 1 && c[0] == '!' && !memcmp(c + 1, r, rl))
		return true;
	if (n == rl + 3 && !memcmp(c, r, rl) && !memcmp(c + rl, "==0", 3))
		return true;
	return n == rl + 3 && !memcmp(c, "0==", 3) && !memcmp(c + 3, r, rl);
}

/*
 * Statement st only checks the kept result p->result_var of the data completion:
 * `BUG_ON(rc);`, `if (rc) BUG();` (*stops: the path goes on only when rc == 0),
 * or an assertion macro `xx_assert(rc == 0);`, `WARN_ON(rc);` (reports only).
 * The new call returns what the old one did (0: the request is done), so the
 * check stays after it: it is not work that has to move.
 */
static bool result_check(struct plan *p, int st, bool *stops)
{
	char *raw = range_text(p->t, p->f->nodes[st].start, p->f->nodes[st].end);
	char *s = normalize_ws(raw);
	const char *r = p->result_var;
	size_t n = strlen(s), a;
	bool ok = false;

	free(raw);
	*stops = false;
	while (n && s[n - 1] == ';')
		s[--n] = 0;
	a = strcspn(s, "(");
	if (a < n && s[n - 1] == ')') {
		const char *arg = s + a + 1;
		size_t an = n - a - 2;

		if (a == 6 && !strncmp(s, "BUG_ON", 6) && cond_is_nonzero(arg, an, r)) {
			ok = *stops = true;
		} else if (a == 7 && !strncmp(s, "WARN_ON", 7) && cond_is_nonzero(arg, an, r)) {
			ok = true;
		} else if (a >= 6 &&
			   (!strncmp(s + a - 6, "assert", 6) || !strncmp(s + a - 6, "ASSERT", 6)) &&
			   cond_is_zero(arg, an, r)) {
			ok = true;
		}
	}
	if (!ok && !strncmp(s, "if(", 3)) {
		/* if (rc) BUG();  if (rc) { BUG(); } */
		int depth = 0;
		size_t e = 2;

		for (; e < n; e++) {
			depth += s[e] == '(' ? 1 : s[e] == ')' ? -1 : 0;
			if (!depth)
				break;
		}
		if (e < n && cond_is_nonzero(s + 3, e - 3, r) &&
		    (!strcmp(s + e + 1, "BUG()") || !strcmp(s + e + 1, "{BUG();}")) &&
		    node_child(p->f, st, 2) < 0)
			ok = *stops = true;
	}
	free(s);
	return ok;
}

static bool scan_region(struct plan *p, int from, int to, const char **why)
{
	int acq = -1, rel = -1;

	for (int i = from; i < to; i++) {
		int st = p->list[i], a;
		bool stops;

		if (i == p->Lidx) {
			p->role[i] = SR_LAST;
			continue;
		}
		if (stmt_is_housekeeping(p->t, p->f, st)) {
			p->role[i] = SR_HOUSE;
		} else if (stmt_lock_op(p->cx, p->t, p->f, st, &a)) {
			if (a && i < p->Lidx && acq < 0) {
				acq = i;
				p->role[i] = SR_LOCK;
			} else if (!a && i > p->Lidx && acq >= 0 && rel < 0) {
				rel = i;
				p->role[i] = SR_UNLOCK;
			} else {
				*why =
				    "the queue lock is taken or released in a way blkmig does not "
				    "convert";
				return false;
			}
		} else if (i < p->Lidx && p->result_var && result_check(p, st, &stops)) {
			p->role[i] = SR_CHECK;
			p->result_stops |= stops;
		} else if (i < p->Lidx) {
			p->role[i] = SR_WORK;
			p->mixed[i] = mixed_if(p, st);
		} else {
			p->role[i] = SR_KEEP;
		}
	}
	if ((acq >= 0) != (rel >= 0)) {
		*why = "the queue lock is taken without a matching release around "
		       "end_that_request_last";
		return false;
	}
	p->pair = acq >= 0;
	/* locals declared only for the lock pair that goes (ubd-style
	 * `struct dev *dev = rq->rq_disk->private_data; unsigned long flags;`) */
	for (int i = from; p->pair && i < to; i++)
		if (p->role[i] == SR_WORK &&
		    decl_only_for(p, p->list[i], p->list[acq], p->list[rel]))
			p->role[i] = SR_HOUSE;
	for (int i = from; i < to; i++) {
		if (p->role[i] == SR_WORK) {
			p->has_work = true;
			if (acq >= 0 && i > acq)
				p->work_in_lock = true;
		}
		if (p->role[i] == SR_KEEP) {
			p->has_post = true;
			if (rel >= 0 && i < rel)
				p->work_in_lock = true;
		}
	}
	return true;
}

/* Can the statement run in a callback taking only the request? */
static bool movable(struct plan *p, int st, char **why)
{
	struct func *f = p->f;
	char *rq_usr = NULL;
	int rqn = node_strip(f, call_arg(f, p->F, 0));

	if (rqn < 0 || f->nodes[rqn].kind != CXCursor_DeclRefExpr) {
		*why = xasprintf("the request is '%s', not a plain variable", p->rq);
		return false;
	}
	rq_usr = ref_usr(f, rqn);
	for (int n = st; st >= 0 && n <= f->nodes[st].last; n++) {
		enum CXCursorKind k = f->nodes[n].kind;

		if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_BreakStmt ||
		    k == CXCursor_ContinueStmt) {
			*why = xstrdup("the work changes control flow");
			free(rq_usr);
			return false;
		}
		if (k != CXCursor_DeclRefExpr)
			continue;
		CXCursor r = clang_getCursorReferenced(f->nodes[n].c);
		enum CXCursorKind rk = clang_getCursorKind(r);
		char *u = cursor_usr(r);
		bool local = rk == CXCursor_ParmDecl ||
			     (rk == CXCursor_VarDecl &&
			      clang_getCursorKind(clang_getCursorSemanticParent(r)) ==
				  CXCursor_FunctionDecl &&
			      clang_Cursor_getStorageClass(r) != CX_SC_Static);

		if (local && strcmp(u, rq_usr)) {
			CXString nm = clang_getCursorSpelling(r);

			*why = xasprintf("the work uses the local '%s'", clang_getCString(nm));
			clang_disposeString(nm);
			free(u);
			free(rq_usr);
			return false;
		}
		free(u);
	}
	free(rq_usr);
	return true;
}

static char *reindent(struct tunit *t, size_t a, size_t b, const char *from_indent)
{
	struct sbuf o = {0};
	char *txt = range_text(t, a, b), *save = NULL;
	size_t il = strlen(from_indent);

	for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *l = line;

		if (!strncmp(l, from_indent, il))
			l += il;
		sbuf_printf(&o, "\t%s\n", l);
	}
	free(txt);
	return sbuf_take(&o);
}

static void set_new_call(struct bm_site *s, const char *variant, const char *rq, const char *err,
			 const char *bytes, const char *cb)
{
	free(s->replacement);
	if (cb)
		s->replacement = xasprintf("%s(%s, %s, %s, %s)", variant, rq, err, bytes, cb);
	else
		s->replacement = xasprintf("%s(%s, %s, %s)", variant, rq, err, bytes);
}

static void fill_common(struct plan *p, struct uptodate *u, struct bytes *b)
{
	struct bm_site *s = &p->cx->run->sites[p->si];

	s->uptodate_expr = xstrdup(u->expr ? u->expr : "");
	s->uptodate_class = u->cls;
	s->error_expr = xstrdup(u->error_expr ? u->error_expr : "");
	s->bytes_expr = xstrdup(b->expr ? b->expr : "");
	s->bytes_origin = xstrdup(b->origin ? b->origin : (b->why ? b->why : ""));
	if (u->cls == BM_UT_WRAPPER) {
		p->cx->wfunc[p->si] = (long)(p->f - p->cx->funcs);
		p->cx->wparam[p->si] = u->param;
	}
	/*
	 * A local of the function as uptodate: localvar.c renames it to error
	 * when every value it is given is a constant or a boolean (virtio_blk's
	 * 1, -ENOTTY, 0 too, as spatch does).
	 */
	if (u->cls == BM_UT_BOOLEAN || u->cls == BM_UT_ERRNO) {
		int a = node_strip(p->f, call_arg(p->f, p->F, 1));
		CXCursor r;

		if (a >= 0 && p->f->nodes[a].kind == CXCursor_DeclRefExpr) {
			r = clang_getCursorReferenced(p->f->nodes[a].c);
			if (clang_getCursorKind(r) == CXCursor_VarDecl &&
			    clang_getCursorKind(clang_getCursorSemanticParent(r)) ==
				CXCursor_FunctionDecl) {
				p->cx->lvar[p->si] = cursor_usr(r);
				p->cx->lfunc[p->si] = (long)(p->f - p->cx->funcs);
			}
		}
	}
}

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

static const char *contract_variant(struct ctx *cx, struct func *f, size_t si, int n, size_t span_a,
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
static bool choose_variant(struct plan *p, int F)
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

static void classify_end_request(struct ctx *cx, struct func *f, int n, size_t si)
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
	p.cx = cx;
	p.f = f;
	p.t = t;
	p.si = si;
	p.F = n;
	p.L = -1;
	fill_common(&p, &u, &b);
	if (u.cls == BM_UT_WRAPPER)
		s->pattern = BM_PAT_WRAPPER_PARAM;
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

/* the compound statement directly holding statement st, and st's index */
static int siblings(const struct func *f, int st, int *list, int *cnt)
{
	int p = f->nodes[st].parent;

	if (p < 0 || f->nodes[p].kind != CXCursor_CompoundStmt)
		return -1;
	*cnt = body_stmts(f, p, list, 512);
	for (int i = 0; i < *cnt; i++)
		if (list[i] == st)
			return i;
	return -1;
}

static bool rq_mentioned(struct plan *p, int st)
{
	char *nrq = normalize_ws(p->rq);
	char *txt = range_text(p->t, p->f->nodes[st].start, p->f->nodes[st].end);
	char *clean = normalize_ws(txt);
	bool r = is_simple_operand(nrq) && !strstr(nrq, "->") && !strchr(nrq, '.')
		     ? word_in(txt, strlen(txt), nrq)
		     : strstr(clean, nrq) != NULL;

	free(nrq);
	free(txt);
	free(clean);
	return r;
}

/*
 * With the lock pair gone, a `flags` variable declared on its own and used
 * nowhere else would only draw an unused-variable warning: remove it too.
 */
static void remove_unused_flags(struct plan *p, struct bm_site *s, int lock_stmt, int gone)
{
	struct func *f = p->f;
	struct tunit *t = p->t;
	size_t q = f->nodes[lock_stmt].start, a, b;
	char *name;
	int decl = -1, uses = 0;

	while (q < t->len && t->clean[q] != '(')
		q++;
	if (q >= t->len || !text_call_arg(t->clean, t->len, q, 1, &a, &b))
		return;
	{
		char *raw = range_text(t, a, b);

		name = normalize_ws(raw);
		free(raw);
	}
	for (int n = 0; n < f->nnodes; n++) {
		CXString sp;
		bool same;

		if (f->nodes[n].kind != CXCursor_VarDecl &&
		    f->nodes[n].kind != CXCursor_DeclRefExpr)
			continue;
		sp = clang_getCursorSpelling(f->nodes[n].c);
		same = !strcmp(clang_getCString(sp), name);
		clang_disposeString(sp);
		if (!same)
			continue;
		if (f->nodes[n].kind == CXCursor_VarDecl)
			decl = n;
		else
			uses++;
	}
	/* the lock and unlock statements are its only two uses */
	if (decl >= 0 && uses <= 2) {
		int ds = f->nodes[decl].parent;

		/* (a declaration inside a statement replaced as a whole goes with it) */
		if (ds >= 0 && f->nodes[ds].kind == CXCursor_DeclStmt &&
		    node_nchildren(f, ds) == 1 && !(gone >= 0 && node_within(f, ds, gone))) {
			char *txt = range_text(t, f->nodes[ds].start, stmt_end(t, f, ds));
			int cnt = 0;

			/* count the lock statements that use it in the whole function */
			for (int n = 0; n < f->nnodes; n++) {
				int acq;

				if (f->nodes[n].kind == CXCursor_CallExpr &&
				    stmt_lock_op(p->cx, t, f, n, &acq))
					cnt++;
			}
			if (!strchr(txt, '=') && cnt <= 2)
				edit_remove_stmt(s, t, f, ds);
			free(txt);
		}
	}
	free(name);
}

/*
 * if (cond) { housekeeping...; other...; } where nothing reads the request
 * but the housekeeping: the housekeeping goes, the rest stays (ide-style
 * `if (dequeue) { ...dequeue...; hwgroup->rq = NULL; }`).
 */
static bool mixed_if(struct plan *p, int st)
{
	struct func *f = p->f;
	int body, house = 0;

	if (f->nodes[st].kind != CXCursor_IfStmt || node_child(f, st, 2) >= 0 ||
	    (body = node_child(f, st, 1)) < 0 || f->nodes[body].kind != CXCursor_CompoundStmt ||
	    !pure_test(p->t, f, node_child(f, st, 0)) || rq_mentioned(p, node_child(f, st, 0)))
		return false;
	for (int c = f->nodes[body].first; c >= 0; c = f->nodes[c].next) {
		if (stmt_is_housekeeping(p->t, f, c))
			house++;
		else if (rq_mentioned(p, c))
			return false;
	}
	return house > 0;
}

static void remove_mixed_housekeeping(struct plan *p, struct bm_site *s, int st)
{
	int body = node_child(p->f, st, 1);

	for (int c = p->f->nodes[body].first; c >= 0; c = p->f->nodes[c].next)
		if (stmt_is_housekeeping(p->t, p->f, c))
			edit_remove_stmt(s, p->t, p->f, c);
}

static void remove_roles(struct plan *p, struct bm_site *s, int from, int to, bool with_work)
{
	for (int i = from; i < to; i++) {
		if (p->role[i] == SR_HOUSE || p->role[i] == SR_LOCK || p->role[i] == SR_UNLOCK ||
		    p->role[i] == SR_LAST || (with_work && p->role[i] == SR_WORK))
			edit_remove_stmt(s, p->t, p->f, p->list[i]);
		if (p->role[i] == SR_LOCK)
			remove_unused_flags(p, s, p->list[i], -1);
		if (p->role[i] == SR_WORK && p->mixed[i] && !with_work)
			remove_mixed_housekeeping(p, s, p->list[i]);
	}
}

/* Fields the data completion leaves alone: reading them early is exact. */
static const char *const stable_fields[] = {
    "rq_disk",	 "q",	"special",     "errors",	  "cmd_type",
    "cmd_flags", "tag", "end_io_data", "completion_data", "ioprio",
    "rq_status", "cmd", "sense",       "timeout"};

static bool stable_field(const char *name)
{
	for (size_t i = 0; i < sizeof(stable_fields) / sizeof(stable_fields[0]); i++)
		if (!strcmp(name, stable_fields[i]))
			return true;
	return false;
}

/*
 * Item 3: a statement that would now run after the request may be freed
 * reads the request only through member chains of completion-invariant
 * fields (rq->rq_disk->private_data): read them into locals before the
 * call instead.  Returns false (nothing added) when it cannot.
 */
static bool hoist_reads(struct plan *p, int st)
{
	struct func *f = p->f;
	struct tunit *t = p->t;
	struct bm_site *s = &p->cx->run->sites[p->si];
	int rqn = node_strip(f, call_arg(f, p->F, 0));
	char *rq_usr;
	int tops[16], ntop = 0;
	bool ok = true;

	if (p->Fstmt < 0 || rqn < 0 || f->nodes[rqn].kind != CXCursor_DeclRefExpr || f->body < 0)
		return false;
	rq_usr = ref_usr(f, rqn);
	for (int n = 0; n < f->nnodes && ok; n++) {
		int top = n, c, par;
		char *u;

		if (!node_within(f, n, st) || f->nodes[n].kind != CXCursor_DeclRefExpr)
			continue;
		u = ref_usr(f, n);
		if (strcmp(u, rq_usr)) {
			free(u);
			continue;
		}
		free(u);
		if (f->nodes[n].macro) {
			ok = false;
			break;
		}
		/* climb the member chain: rq -> first -> ... */
		for (c = f->nodes[n].parent; c >= 0; c = f->nodes[c].parent) {
			if (f->nodes[c].kind == CXCursor_UnexposedExpr ||
			    f->nodes[c].kind == CXCursor_ParenExpr)
				continue;
			if (f->nodes[c].kind != CXCursor_MemberRefExpr)
				break;
			top = c;
		}
		if (top == n) {
			ok = false; /* the request itself is used */
			break;
		}
		/* the member right on rq must be stable */
		for (c = f->nodes[n].parent; c >= 0 && f->nodes[c].kind != CXCursor_MemberRefExpr;
		     c = f->nodes[c].parent)
			;
		CXString fn = clang_getCursorSpelling(f->nodes[c].c);

		ok = stable_field(clang_getCString(fn));
		clang_disposeString(fn);
		/* read only: not assigned, not addressed, not incremented */
		par = f->nodes[top].parent;
		while (par >= 0 && (f->nodes[par].kind == CXCursor_UnexposedExpr ||
				    f->nodes[par].kind == CXCursor_ParenExpr))
			par = f->nodes[par].parent;
		if (ok && par >= 0 && f->nodes[par].kind == CXCursor_UnaryOperator) {
			char *op = unary_op(t, f, par);

			ok = strcmp(op, "&") && !strstr(op, "++") && !strstr(op, "--");
			free(op);
		}
		if (ok && par >= 0 &&
		    (f->nodes[par].kind == CXCursor_CompoundAssignOperator ||
		     (f->nodes[par].kind == CXCursor_BinaryOperator &&
		      node_strip(f, node_child(f, par, 0)) == top))) {
			char *op = binary_op(t, f, par);

			ok = f->nodes[par].kind != CXCursor_CompoundAssignOperator &&
			     strcmp(op, "=");
			free(op);
		}
		if (ok && ntop < 16)
			tops[ntop++] = top;
		else
			ok = false;
	}
	free(rq_usr);
	if (!ok || !ntop)
		return false;
	/* one local per chain: declared first in the function, set before F */
	int first = f->nodes[f->body].first;
	size_t decl_at, set_at = f->nodes[p->Fstmt].start;
	char *ind = line_indent(t, set_at), *body_ind;
	struct sbuf decls = {0}, sets = {0};

	if (first < 0) {
		free(ind);
		return false;
	}
	decl_at = f->nodes[first].start;
	body_ind = line_indent(t, decl_at);
	while (decl_at > 0 && t->src[decl_at - 1] != '\n')
		decl_at--;
	while (set_at > 0 && t->src[set_at - 1] != '\n')
		set_at--;
	for (int k = 0; k < ntop && ok; k++) {
		CXType ty = clang_getCursorType(f->nodes[tops[k]].c);
		CXString ts = clang_getTypeSpelling(ty);
		CXString mn = clang_getCursorSpelling(f->nodes[tops[k]].c);
		const char *type = clang_getCString(ts);
		char *local = xasprintf("saved_%s", clang_getCString(mn));
		char *chain = node_text(t, &f->nodes[tops[k]]);

		if (!type[0] || strchr(type, '(') || strchr(type, '[') ||
		    strstr(type, "anonymous") || ty.kind == CXType_Invalid) {
			ok = false;
		} else {
			bool taken = false;

			for (int n = 0; n < f->nnodes; n++) {
				CXString sp = clang_getCursorSpelling(f->nodes[n].c);

				taken |= !strcmp(clang_getCString(sp), local);
				clang_disposeString(sp);
			}
			if (taken) {
				ok = false;
			} else {
				sbuf_printf(&decls, "%s%s%s%s;\n", body_ind, type,
					    type[strlen(type) - 1] == '*' ? "" : " ", local);
				sbuf_printf(&sets, "%s%s = %s;\n", ind, local, chain);
				edit_add(s, t->path, f->nodes[tops[k]].start, f->nodes[tops[k]].end,
					 local);
			}
		}
		free(chain);
		free(local);
		clang_disposeString(ts);
		clang_disposeString(mn);
	}
	if (ok) {
		char *d = sbuf_take(&decls), *a = sbuf_take(&sets);

		edit_add(s, t->path, decl_at, decl_at, d);
		edit_add(s, t->path, set_at, set_at, a);
		free(d);
		free(a);
	} else {
		free(decls.s);
		free(sets.s);
	}
	free(ind);
	free(body_ind);
	return ok;
}

/*
 * What happens to the work between the data completion and L: 0 it stays
 * where it is (lock held: it now runs after the call, and must not read the
 * request), 1 it moves into a blk_end_request_callback callback (lock not
 * held: it must only use the request and globals), -1 manual (site marked).
 */
static int work_plan(struct plan *p, int from, int to)
{
	bool any = false;
	char *why = NULL;

	for (int i = from; i < to; i++)
		any |= p->role[i] == SR_WORK;
	if (!any)
		return 0;
	if (p->work_in_lock) {
		site_manual(p->cx, p->si, "work_not_movable",
			    "statements run under the queue lock next to end_that_request_last; "
			    "blk_end_request would run them without it");
		return -1;
	}
	if (p->lock == BM_LOCK_HELD) {
		for (int i = from; i < to; i++)
			if (p->role[i] == SR_WORK && !p->mixed[i] && rq_mentioned(p, p->list[i]) &&
			    !hoist_reads(p, p->list[i])) {
				site_manual(
				    p->cx, p->si, "rq_used_after_completion",
				    "line %u reads '%s' between the data completion and "
				    "end_that_request_last; after the conversion it would run "
				    "when the request may already be freed",
				    offset_line(p->t, p->f->nodes[p->list[i]].start, NULL), p->rq);
				return -1;
			}
		return 0;
	}
	for (int i = from; i < to; i++)
		if (p->role[i] == SR_WORK && !movable(p, p->list[i], &why)) {
			site_manual(p->cx, p->si,
				    rq_mentioned(p, p->list[i]) ? "rq_used_after_completion"
								: "work_not_movable",
				    "work between the data completion and the final step cannot "
				    "move into a blk_end_request_callback callback: %s",
				    why);
			free(why);
			return -1;
		}
	return 1;
}

/* Insert the callback before the function; returns its name. */
static char *make_callback(struct plan *p, int from, int to)
{
	struct tunit *t = p->t;
	struct func *f = p->f;
	struct bm_site *s = &p->cx->run->sites[p->si];
	char *cbname = xasprintf("%s_end_callback", f->name);
	struct sbuf cb = {0};
	char *ind = NULL, *cbtext;
	size_t fstart = f->start;

	for (unsigned sfx = 2; sfx < 100; sfx++) {
		bool used = false;

		for (size_t q = 0; q < p->cx->nfuncs; q++)
			used |= !strcmp(p->cx->funcs[q].name, cbname);
		for (size_t q = 0; q < p->cx->run->nsites; q++)
			used |= p->cx->run->sites[q].replacement &&
				strstr(p->cx->run->sites[q].replacement, cbname) != NULL;
		if (!used)
			break;
		free(cbname);
		cbname = xasprintf("%s_end_callback%u", f->name, sfx);
	}
	while (fstart > 0 && t->src[fstart - 1] != '\n')
		fstart--;
	sbuf_printf(&cb, "static int %s(struct request *%s)\n{\n", cbname, p->rq);
	for (int i = from; i < to; i++)
		if (p->role[i] == SR_WORK) {
			size_t a, e;
			char *body;

			if (!ind)
				ind = line_indent(t, f->nodes[p->list[i]].start);
			stmt_line_range(t, f->nodes[p->list[i]].start, stmt_end(t, f, p->list[i]),
					&a, &e);
			body = reindent(t, a, e, ind);
			sbuf_add(&cb, body);
			free(body);
		}
	sbuf_add(&cb, "\treturn 0;\n}\n\n");
	cbtext = sbuf_take(&cb);
	edit_add(s, t->path, fstart, fstart, cbtext);
	free(cbtext);
	free(ind);
	return cbname;
}

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

static int leftover_call(struct ctx *cx, struct func *f, int T, const char *rq, const char *u_expr,
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
static bool data_len_is_whole(struct ctx *cx, struct func *f, int n, const char *rq)
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

static size_t site_of_node(struct ctx *cx, struct func *f, int n)
{
	struct tunit *t = &cx->tus[f->tu];

	for (size_t i = 0; i < cx->run->nsites; i++)
		if (cx->run->sites[i].offset == f->nodes[n].start &&
		    !strcmp(cx->run->sites[i].file, t->path))
			return i;
	return (size_t)-1;
}

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
static bool one_arg_last(struct plan *p, struct uptodate *u, struct bytes *b)
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

/* the call node of f at byte offset off, or -1 */
static int call_node_at(const struct func *f, size_t off)
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
 * The data completion of rq whose `if (F(rq, ...))` body holds node n (n
 * completes its leftover), or -1.
 */
static int leftover_of(struct ctx *cx, struct func *f, int n, const char *rq)
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

static void classify_pair(struct ctx *cx, struct func *f, int F, int L, size_t si, long li)
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
		if (shape == 2) {
			char *ind = line_indent(t, f->nodes[F].start);

			newcall = xasprintf("if (%s)\n%s\tBUG()", s->replacement, ind);
			free(ind);
		} else {
			newcall = xstrdup(s->replacement);
		}
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

static void classify_last_only(struct ctx *cx, struct func *f, int L, size_t si,
			       bool after_data_only)
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
	p.cx = cx;
	p.f = f;
	p.t = t;
	p.si = si;
	p.F = L;
	p.L = -1;
	fill_common(&p, &u, &b);
	if (u.cls == BM_UT_WRAPPER)
		s->pattern = BM_PAT_WRAPPER_PARAM;
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

/*
 * A driver's own static function that happens to carry a legacy name is not
 * the legacy API; a non-static definition (block/ll_rw_blk.c in a whole
 * tree) is the API itself, and calls of it stay sites.
 */
static bool defined_in_run(struct ctx *cx, const char *name, size_t tu)
{
	struct func *f = func_by_name(cx, name, tu);

	return f && f->tu == tu && f->is_static;
}

static void classify_func(struct ctx *cx, size_t fi)
{
	struct func *f = &cx->funcs[fi];
	struct tunit *t = &cx->tus[f->tu];
	int *calls = NULL, ncalls = 0;
	long *sites = NULL;
	int *paired = NULL;
	unsigned macro_first = 0; /* line of a data completion a macro expands to */

	for (int n = 0; n < f->nnodes; n++) {
		char *name;

		if (f->nodes[n].kind != CXCursor_CallExpr)
			continue;
		name = node_callee(f, n);
		if (bm_is_legacy_name(name, strlen(name)) && !defined_in_run(cx, name, f->tu)) {
			calls = xrealloc(calls, (size_t)(ncalls + 1) * sizeof(int));
			calls[ncalls++] = n;
		}
		free(name);
	}
	if (!ncalls)
		return;
	sites = xcalloc((size_t)ncalls, sizeof(long));
	paired = xcalloc((size_t)ncalls, sizeof(int));
	for (int i = 0; i < ncalls; i++) {
		char *name = node_callee(f, calls[i]);
		struct node *nd = &f->nodes[calls[i]];

		sites[i] = -1;
		if (nd->start == 0 && nd->end == 0) {
			free(name);
			continue;
		}
		/* from a macro expansion: the lexer reports it where it is spelled */
		if (nd->macro) {
			if (is_first(name) && !macro_first)
				macro_first = offset_line(t, nd->start, NULL);
			free(name);
			continue;
		}
		sites[i] = (long)site_new(cx, f, calls[i], name);
		free(name);
	}
	/* pair each first/chunk with the next last on the same request */
	for (int i = 0; i < ncalls; i++) {
		char *name, *rq;
		int L = -1;
		struct timespec started;

		if (sites[i] < 0 || t->over_time)
			continue;
		budget_start(&started);
		name = node_callee(f, calls[i]);
		if (!is_first(name)) {
			free(name);
			continue;
		}
		if (call_arg(f, calls[i], 0) >= 0) {
			char *raw = node_text(t, &f->nodes[call_arg(f, calls[i], 0)]);

			rq = normalize_ws(raw);
			free(raw);
		} else {
			rq = xstrdup("");
		}
		for (int j = i + 1; j < ncalls && L < 0; j++) {
			char *nj = node_callee(f, calls[j]);

			if (sites[j] >= 0 && !paired[j] && !strcmp(nj, "end_that_request_last") &&
			    call_arg(f, calls[j], 0) >= 0) {
				char *raw = node_text(t, &f->nodes[call_arg(f, calls[j], 0)]);
				char *r2 = normalize_ws(raw);

				if (!strcmp(r2, rq)) {
					L = j;
					paired[j] = 1;
				}
				free(r2);
				free(raw);
			}
			free(nj);
		}
		if (L >= 0) {
			cx->partner[sites[i]] = sites[L];
			cx->partner[sites[L]] = sites[i];
		}
		classify_pair(cx, f, calls[i], L >= 0 ? calls[L] : -1, (size_t)sites[i],
			      L >= 0 ? sites[L] : -1);
		free(rq);
		free(name);
		budget_charge(cx, f->tu, &started);
	}
	for (int i = 0; i < ncalls; i++) {
		char *name;
		struct bm_site *s;
		struct timespec started;

		if (sites[i] < 0 || t->over_time)
			continue;
		budget_start(&started);
		name = node_callee(f, calls[i]);
		s = &cx->run->sites[sites[i]];
		if (is_end_request(name)) {
			classify_end_request(cx, f, calls[i], (size_t)sites[i]);
		} else if (!strcmp(name, "end_that_request_last") && !paired[i] && macro_first) {
			/* `#define MY_FIRST end_that_request_first`: a data completion no
			 * site stands for; this final step may be its, not a last-only call */
			site_manual(cx, (size_t)sites[i], "macro",
				    "a data completion in %s() comes from a macro expansion (line "
				    "%u), which blkmig neither pairs nor converts: this "
				    "end_that_request_last may be its final step; convert both by "
				    "hand",
				    f->name, macro_first);
		} else if (!strcmp(name, "end_that_request_last") &&
			   (!paired[i] || cx->partner[sites[i]] < 0)) {
			/* (paired, then released: its data completions end no request) */
			classify_last_only(cx, f, calls[i], (size_t)sites[i], paired[i] != 0);
		} else if (!strcmp(name, "end_that_request_last")) {
			struct bm_site *fs = &cx->run->sites[cx->partner[sites[i]]];

			s->pattern = fs->pattern;
			s->lock = fs->lock;
			s->uptodate_class = fs->uptodate_class;
			if (fs->verdict == BM_AUTO) {
				free(s->replacement);
				s->replacement = xasprintf("(folded into %s at line %u)",
							   fs->replacement, fs->line);
				s->verdict = BM_AUTO;
				s->confidence = fs->confidence;
			} else if (!s->reason_code) {
				s->verdict = BM_MANUAL;
				s->reason_code = fs->reason_code;
				s->reason_text = xasprintf("paired with %s at line %u: %s",
							   fs->call, fs->line, fs->reason_text);
			}
		}
		free(name);
		budget_charge(cx, f->tu, &started);
	}
	/* compat code and multi-version files (version_guard.c): before wrapper groups */
	version_guard_func(cx, f, sites, (size_t)ncalls);
	free(calls);
	free(sites);
	free(paired);
}

/* The functions of one file by start offset (C has no nested functions: at most one
 * contains an offset). */
struct file_funcs {
	struct ctx *cx;
	size_t *v, n;
};

static int func_start_cmp(const void *a, const void *b, void *arg)
{
	const struct ctx *cx = arg;
	size_t x = cx->funcs[*(const size_t *)a].start, y = cx->funcs[*(const size_t *)b].start;

	return x < y ? -1 : x > y;
}

static void file_funcs_init(struct file_funcs *ff, struct ctx *cx, size_t tu)
{
	ff->cx = cx;
	ff->n = 0;
	ff->v = xmalloc((cx->nfuncs + 1) * sizeof(*ff->v));
	for (size_t i = 0; i < cx->nfuncs; i++)
		if (cx->funcs[i].tu == tu)
			ff->v[ff->n++] = i;
	if (ff->n > 1)
		qsort_r(ff->v, ff->n, sizeof(*ff->v), func_start_cmp, cx);
}

/* The function of the file containing off (binary search). */
static size_t func_at(const struct file_funcs *ff, size_t off, bool *found)
{
	size_t lo = 0, hi = ff->n; /* the first function starting after off */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ff->cx->funcs[ff->v[mid]].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo > 0 && off < ff->cx->funcs[ff->v[lo - 1]].end;
	return *found ? ff->v[lo - 1] : 0;
}

/*
 * Is NAME( at off the name of a function declaration or definition in the
 * AST (a prototype, an old header's own end_request)?  Where the file
 * parsed, this and not the word before the name decides.
 */
static bool ast_declares_at(struct tunit *t, size_t off)
{
	CXSourceLocation loc;
	CXCursor c;
	CXFile file;
	unsigned at;

	if (!t->tu || !t->cxfile)
		return false;
	loc = clang_getLocationForOffset(t->tu, t->cxfile, (unsigned)off);
	c = clang_getCursor(t->tu, loc);
	if (c.kind != CXCursor_FunctionDecl)
		return false;
	clang_getSpellingLocation(clang_getCursorLocation(c), &file, NULL, NULL, &at);
	return file && clang_File_isEqual(file, t->cxfile) && at == off;
}

/*
 * Every lexer hit the AST did not explain becomes a manual site, unless the
 * AST declares the function there; without that evidence the lexer's guess
 * counts only when NAME( follows a return type (prefilter.c).
 */
static int offset_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A call the AST does not hold: in a preprocessor branch this parse did not take
 * (named, with what to do), or in code around a parse error.
 */
static char *line_text(struct tunit *t, unsigned line)
{
	size_t a, b;

	offset_line(t, 0, NULL); /* (builds the line index) */
	a = line >= 1 && line - 1 < t->nlines ? t->line_starts[line - 1] : t->len;
	for (b = a; b < t->len && t->src[b] != '\n'; b++)
		;
	return xstrndup(t->src + a, b - a);
}

static void unparsed_reason(struct ctx *cx, struct tunit *t, size_t si, const char *name)
{
	struct bm_site *s = &cx->run->sites[si];
	struct bm_vguard *g;
	unsigned line, if_line;
	const struct bm_file *f = &cx->run->files[t->file_index];

	if (f->status == BM_PARSE_FAILED && f->fail_code) { /* resource_limit (parse.c) */
		site_manual(cx, si, f->fail_code, "%s is in a file that was not parsed: %s", name,
			    f->reason ? f->reason : f->fail_code);
		return;
	}
	g = bm_vguard_build(t->src, t->len);
	if (bm_vg_branch_at(g, s->offset, &line, &if_line)) {
		char *cond = line_text(t, if_line), *dir = line_text(t, line);
		char *which =
		    line == if_line ? xstrdup("") : xasprintf("`%s` (line %u) of ", dir, line);

		const char *c = cond;
		bool dead;

		while (*c == ' ' || *c == '\t' || *c == '#')
			c++;
		dead = !strncmp(c, "if", 2) && strspn(c + 2, " \t") &&
		       c[2 + strspn(c + 2, " \t")] == '0' && !c[3 + strspn(c + 2, " \t")] &&
		       line == if_line;
		if (dead)
			site_manual(
			    cx, si, "unparsed",
			    "%s is in `%s` (line %u), code that is never compiled: nothing "
			    "runs it, nothing proves a rewrite of it; convert it by hand if "
			    "it is to live again",
			    name, cond, if_line);
		else
			site_manual(
			    cx, si, "unparsed",
			    "%s is in the branch %s`%s` (line %u), which this parse does "
			    "not compile, so nothing proves a rewrite of it: run again with "
			    "that branch compiled (-D or -U the macro it tests) or convert "
			    "it by hand",
			    name, which, cond, if_line);
		free(cond);
		free(dir);
		free(which);
	} else {
		site_manual(cx, si, "unparsed",
			    "%s is not in the parsed code: a parse error around it (the file's "
			    "diagnostics name it) leaves nothing to prove a rewrite with",
			    name);
	}
	bm_vguard_free(g);
}

static void token_fallback(struct ctx *cx)
{
	for (size_t ti = 0; ti < cx->ntus; ti++) {
		struct tunit *t = &cx->tus[ti];
		size_t *known = NULL, nknown = 0;

		/* the offsets of the sites the AST found in this file, sorted: a hit is
		 * looked up in O(log n), not against every site of the run */
		for (size_t k = 0; k < cx->run->nsites; k++)
			nknown += !strcmp(cx->run->sites[k].file, t->path);
		known = xmalloc((nknown ? nknown : 1) * sizeof(*known));
		nknown = 0;
		for (size_t k = 0; k < cx->run->nsites; k++)
			if (!strcmp(cx->run->sites[k].file, t->path))
				known[nknown++] = cx->run->sites[k].offset;
		if (nknown > 1)
			qsort(known, nknown, sizeof(*known), offset_cmp);
		struct file_funcs ff;

		file_funcs_init(&ff, cx, ti);
		for (size_t h = 0; h < t->nhits; h++) {
			struct bm_hit *hit = &t->hits[h];
			bool infn;
			size_t fi;

			if (!hit->call || (t->tu && defined_in_run(cx, hit->name, ti)))
				continue;
			/* a site already (cheap) before asking the AST (clang_getCursor) */
			if (nknown &&
			    bsearch(&hit->offset, known, nknown, sizeof(*known), offset_cmp))
				continue;
			if (hit->lex_decl || ast_declares_at(t, hit->offset))
				continue;
			size_t si = site_alloc(cx);
			struct bm_site *s = &cx->run->sites[si];

			fi = func_at(&ff, hit->offset, &infn);
			s->file = xstrdup(t->path);
			s->offset = hit->offset;
			s->end_offset = hit->end;
			s->line = hit->line;
			s->column = hit->column;
			s->end_line = hit->line;
			s->end_column = hit->column + (unsigned)(hit->end - hit->offset);
			/* a function the AST lost (a parse error, a branch not compiled):
			 * its name from the text around the call */
			s->function = infn	 ? xstrdup(cx->funcs[fi].name)
				      : t->clean ? text_function_at(t->clean, t->len, hit->offset)
						 : NULL;
			if (!s->function)
				s->function = xstrdup("");
			s->call = xstrdup(hit->name);
			s->pattern = BM_PAT_UNCLASSIFIED;
			s->confidence = "low";
			s->replacement = xstrdup("");
			bool in_macro_arg = false;

			for (size_t q = 0;
			     infn && q < (size_t)cx->funcs[fi].nnodes && !in_macro_arg; q++) {
				struct node *nd = &cx->funcs[fi].nodes[q];

				size_t e = nd->start, depth = 0;

				if (nd->kind != CXCursor_CallExpr || !nd->macro || hit->offset < e)
					continue;
				/* the invocation's extent: its name and balanced parentheses */
				while (e < t->len &&
				       (isalnum((unsigned char)t->clean[e]) || t->clean[e] == '_'))
					e++;
				while (e < t->len && isspace((unsigned char)t->clean[e]))
					e++;
				for (; e < t->len; e++) {
					if (t->clean[e] == '(')
						depth++;
					else if (t->clean[e] == ')' && depth && --depth == 0)
						break;
					else if (!depth)
						break;
				}
				in_macro_arg = hit->offset < e;
			}
			/* inside the text another site's rewrite replaces (the one-argument
			 * end_that_request_last one_arg_last() folds): gone with it */
			long by = -1;

			for (size_t k = 0; k < cx->run->nsites && by < 0 && !in_macro_arg; k++) {
				const struct bm_site *o = &cx->run->sites[k];

				for (size_t e = 0; o->verdict == BM_AUTO && e < o->nedits; e++)
					if (!strcmp(o->edits[e].file, t->path) &&
					    o->edits[e].start <= hit->offset &&
					    hit->end <= o->edits[e].end)
						by = (long)k;
			}
			if (by >= 0) {
				const struct bm_site *o = &cx->run->sites[by];

				s = &cx->run->sites[si];
				s->verdict = BM_AUTO;
				s->pattern = o->pattern;
				s->lock = o->lock;
				s->confidence = o->confidence;
				free(s->replacement);
				s->replacement = xasprintf(
				    "(folded into %s at line %u; this one-argument %s of kernels "
				    "before 2.6.16 gave end_io no error, the new call gives it the "
				    "data completion's error, %s)",
				    o->replacement, o->line, hit->name, o->error_expr);
				cx->partner[si] = by;
				cx->partner[by] = (long)si;
			} else if (in_macro_arg)
				site_manual(
				    cx, si, "macro",
				    "%s is called inside a macro invocation; convert it by hand",
				    hit->name);
			else if (hit->in_define)
				site_manual(
				    cx, si, "macro",
				    "%s is called in a macro definition; convert the macro by "
				    "hand",
				    hit->name);
			else
				unparsed_reason(cx, t, si, hit->name);
		}
		free(known);
		free(ff.v);
	}
}

/*
 * A site left before its lock was looked at (an uptodate or a shape decided
 * first) still says what the lock is there, from the lock analysis of its
 * function, instead of "unknown" under a spin_lock_irq of the queue lock.
 */
static void manual_sites_lock(struct ctx *cx)
{
	for (size_t i = 0; i < cx->run->nsites; i++) {
		struct bm_site *s = &cx->run->sites[i];

		if (s->verdict != BM_MANUAL || s->lock != BM_LOCK_UNKNOWN || s->lock_evidence.n)
			continue;
		for (size_t fi = 0; fi < cx->nfuncs; fi++) {
			struct func *f = &cx->funcs[fi];
			int n;

			if (s->offset < f->start || s->offset >= f->end ||
			    strcmp(cx->tus[f->tu].path, s->file))
				continue;
			n = call_node_at(f, s->offset);
			if (n >= 0 && !f->nodes[n].macro)
				s->lock = lock_at(cx, f, n, &s->lock_evidence);
			break;
		}
	}
}

static int site_cmp_ctx(const void *a, const void *b)
{
	const struct bm_site *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void classify_all(struct ctx *cx)
{
	for (size_t fi = 0; fi < cx->nfuncs; fi++)
		classify_func(cx, fi);
	wrappers_resolve(cx);
	locals_rename(cx);
	manual_sites_lock(cx);
	/* a folded end_that_request_last names its partner's final new call */
	for (size_t i = 0; i < cx->run->nsites; i++) {
		struct bm_site *s = &cx->run->sites[i], *fs;

		if (cx->partner[i] < 0)
			continue;
		fs = &cx->run->sites[cx->partner[i]];
		if (cx->partner[cx->partner[i]] != (long)i) {
			/* a leftover rewritten with its data completion */
			if (fs->verdict == BM_MANUAL && s->verdict != BM_MANUAL) {
				s->verdict = BM_MANUAL;
				s->reason_code = fs->reason_code;
				free(s->reason_text);
				s->reason_text =
				    xasprintf("completes the leftover of %s at line %u: %s",
					      fs->call, fs->line, fs->reason_text);
				free(s->replacement);
				s->replacement = xstrdup("");
			}
			continue;
		}
		if (strncmp(s->replacement, "(folded into ", 13))
			continue;
		free(s->replacement);
		s->replacement = fs->verdict == BM_AUTO ? xasprintf("(folded into %s at line %u)",
								    fs->replacement, fs->line)
							: xstrdup("");
	}
	token_fallback(cx);
	budget_apply(cx);
	version_guard_sites(cx); /* also the sites no AST saw */
	for (size_t i = 0; i < cx->run->nsites; i++) {
		struct bm_site *s = &cx->run->sites[i];

		for (size_t ti = 0; ti < cx->ntus; ti++)
			if (!strcmp(cx->tus[ti].path, s->file))
				site_before_after(s, &cx->tus[ti]);
		if (!s->uptodate_expr)
			s->uptodate_expr = xstrdup("");
		if (!s->error_expr)
			s->error_expr = xstrdup("");
		if (!s->bytes_expr)
			s->bytes_expr = xstrdup("");
		if (!s->bytes_origin)
			s->bytes_origin = xstrdup("");
		if (!s->after)
			s->after = xstrdup("");
		if (s->verdict == BM_MANUAL && s->reason_code &&
		    !strcmp(s->reason_code, "unparsed"))
			s->typed = false;
	}
	/* report order: by file, then position (side tables are no longer needed) */
	if (cx->run->nsites) /* qsort's array must not be NULL, even for 0 elements */
		qsort(cx->run->sites, cx->run->nsites, sizeof(*cx->run->sites), site_cmp_ctx);
}
