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
 *
 * This file owns what the shapes share: sites and their manual verdicts,
 * housekeeping, a statement's place in its block, the new call's edits
 * (fill_common, set_new_call) and the work before L that stays, moves into
 * a callback (work_plan, make_callback) or makes the site manual.  The
 * shapes are in classify_*.c, their shared declarations in classify_shapes.h.
 */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "classify_shapes.h"

/* the text of node n with every blank dropped (normalize_ws) */
char *text_norm(struct tunit *t, const struct node *n)
{
	char *raw = node_text(t, n), *r = normalize_ws(raw);

	free(raw);
	return r;
}

bool is_first(const char *n)
{
	return !strcmp(n, "end_that_request_first") || !strcmp(n, "end_that_request_chunk");
}

bool is_end_request(const char *n)
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

size_t site_alloc(struct ctx *cx)
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
	CXCursor ref = clang_getCursorReferenced(node_cursor(f, n));

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
bool pure_test(struct tunit *t, const struct func *f, int cond)
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

bool stmt_is_housekeeping(struct tunit *t, const struct func *f, int st)
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
bool stmt_never_returns(struct tunit *t, const struct func *f, int st)
{
	const char *p = t->src + f->nodes[st].start;

	return !strncmp(p, "BUG()", 5) || !strncmp(p, "BUG ()", 6) || !strncmp(p, "panic(", 6);
}

/* statements of a body: the children of a compound, or the body itself */
int body_stmts(const struct func *f, int body, int *out, int max)
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
int index_holding(const struct func *f, const int *list, int cnt, int n)
{
	for (int i = 0; i < cnt; i++)
		if (node_within(f, n, list[i]))
			return i;
	return -1;
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
		CXCursor r = clang_getCursorReferenced(node_cursor(f, n));
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

void set_new_call(struct bm_site *s, const char *variant, const char *rq, const char *err,
		  const char *bytes, const char *cb)
{
	free(s->replacement);
	if (cb)
		s->replacement = xasprintf("%s(%s, %s, %s, %s)", variant, rq, err, bytes, cb);
	else
		s->replacement = xasprintf("%s(%s, %s, %s)", variant, rq, err, bytes);
}

/* The plan of a site that is one call (end_request, a last-only final step): its
 * common fields filled, the wrapper pattern where uptodate is a parameter. */
void plan_one_call(struct plan *p, struct ctx *cx, struct func *f, size_t si, int call,
		   struct uptodate *u, struct bytes *b)
{
	p->cx = cx;
	p->f = f;
	p->t = &cx->tus[f->tu];
	p->si = si;
	p->F = call;
	p->L = -1;
	fill_common(p, u, b);
	if (u->cls == BM_UT_WRAPPER)
		cx->run->sites[si].pattern = BM_PAT_WRAPPER_PARAM;
}

void fill_common(struct plan *p, struct uptodate *u, struct bytes *b)
{
	struct bm_site *s = &p->cx->run->sites[p->si];

	s->uptodate_expr = xstrdup(u->expr ? u->expr : "");
	s->uptodate_class = u->cls;
	s->error_expr = xstrdup(u->error_expr ? u->error_expr : "");
	s->uptodate_origin = xstrdup(u->cls == BM_UT_BOOLEAN && u->why ? u->why : "");
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
			r = clang_getCursorReferenced(node_cursor(p->f, a));
			if (clang_getCursorKind(r) == CXCursor_VarDecl &&
			    clang_getCursorKind(clang_getCursorSemanticParent(r)) ==
				CXCursor_FunctionDecl) {
				p->cx->lvar[p->si] = cursor_usr(r);
				p->cx->lfunc[p->si] = (long)(p->f - p->cx->funcs);
			}
		}
	}
}

/* the compound statement directly holding statement st, and st's index */
int siblings(const struct func *f, int st, int *list, int *cnt)
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

bool rq_mentioned(struct plan *p, int st)
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
		CXString fn = clang_getCursorSpelling(node_cursor(f, c));

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
		CXType ty = clang_getCursorType(node_cursor(f, tops[k]));
		CXString ts = clang_getTypeSpelling(ty);
		CXString mn = clang_getCursorSpelling(node_cursor(f, tops[k]));
		const char *type = clang_getCString(ts);
		char *local = xasprintf("saved_%s", clang_getCString(mn));
		char *chain = node_text(t, &f->nodes[tops[k]]);

		if (!type[0] || strchr(type, '(') || strchr(type, '[') ||
		    strstr(type, "anonymous") || ty.kind == CXType_Invalid) {
			ok = false;
		} else {
			bool taken = false;

			for (int n = 0; n < f->nnodes; n++) {
				CXString sp = clang_getCursorSpelling(node_cursor(f, n));

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
int work_plan(struct plan *p, int from, int to)
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
char *make_callback(struct plan *p, int from, int to)
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
