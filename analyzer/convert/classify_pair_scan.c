/*
 * classify_pair_scan.c - the statements between a data completion F and its final
 * step L, read for classify_pair.c (struct plan): each statement's role
 * (housekeeping, the lock pair around L, L, work, an assertion on F's kept result),
 * the checks of F's result the shapes accept, and the edits that remove the roles
 * that go (with a flags variable left unused, and the housekeeping inside a mixed
 * if).
 */
#include <string.h>

#include "classify_shapes.h"

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
		usr = cursor_usr(node_cursor(f, v));
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

bool scan_region(struct plan *p, int from, int to, const char **why)
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

/*
 * With the lock pair gone, a `flags` variable declared on its own and used
 * nowhere else would only draw an unused-variable warning: remove it too.
 */
void remove_unused_flags(struct plan *p, struct bm_site *s, int lock_stmt, int gone)
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
		sp = clang_getCursorSpelling(node_cursor(f, n));
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

void remove_roles(struct plan *p, struct bm_site *s, int from, int to, bool with_work)
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
