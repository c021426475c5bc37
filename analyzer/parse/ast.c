/*
 * ast.c - a flat copy of each function body's cursor tree with parent links
 * and byte ranges (libclang gives neither parents for statements nor
 * offsets directly), plus the source-text helpers the analyses share.
 */
#include <ctype.h>
#include <string.h>

#include "analysis.h"
#include "func_index.h"

size_t loc_offset(CXSourceLocation loc, CXFile *file)
{
	unsigned off;

	/* no line or column: those make libclang read the file the location is in and
	 * index its lines, for every header a top-level declaration comes from */
	clang_getExpansionLocation(loc, file, NULL, NULL, &off);
	return off;
}

bool is_main_file_definition(CXCursor c, CXFile main)
{
	CXFile file;

	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return false;
	loc_offset(clang_getCursorLocation(c), &file);
	return file && main && clang_File_isEqual(file, main);
}

bool is_fnptr_type(CXType t)
{
	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Pointer)
		return false;
	t = clang_getCanonicalType(clang_getPointeeType(t));
	return t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto;
}

enum node_tkind cursor_tkind(CXCursor c)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));

	if (t.kind == CXType_Int)
		return TK_INT;
	if (t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto)
		return TK_FN;
	return is_fnptr_type(t) ? TK_FNPTR : TK_OTHER;
}

void decl_info_of(CXCursor decl, CXFile main, struct decl_info *d)
{
	CXCursor parent = clang_getCursorSemanticParent(decl);
	CXString nm = clang_getCursorSpelling(decl);
	CXFile file = NULL;
	unsigned off;

	memset(d, 0, sizeof(*d));
	d->usr = cursor_usr(clang_getCanonicalCursor(decl));
	d->name = xstrdup(clang_getCString(nm));
	clang_disposeString(nm);
	/* where the text names it: for a macro argument, where the argument is written */
	clang_getFileLocation(clang_getCursorLocation(decl), &file, NULL, NULL, &off);
	d->off = off;
	d->in_main = file && main && clang_File_isEqual(file, main);
	d->fnptr = is_fnptr_type(clang_getCursorType(decl));
	d->kind = clang_getCursorKind(decl);
	d->parent_kind = clang_getCursorKind(parent);
	d->storage = clang_Cursor_getStorageClass(decl);
	if (d->parent_kind == CXCursor_FunctionDecl)
		d->parent_usr = cursor_usr(parent);
}

void decl_info_free(struct decl_info *d)
{
	if (!d)
		return;
	free(d->usr);
	free(d->name);
	free(d->parent_usr);
}

bool cursor_range(struct tunit *t, CXCursor c, size_t *start, size_t *end, bool *macro)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation b = clang_getRangeStart(r), e = clang_getRangeEnd(r);
	CXFile fb = NULL, fe = NULL, sf = NULL;
	unsigned line, col, soff;

	*start = loc_offset(b, &fb);
	*end = loc_offset(e, &fe);
	clang_getSpellingLocation(b, &sf, &line, &col, &soff);
	*macro = !sf || !fb || !clang_File_isEqual(sf, fb) || soff != *start;
	clang_getSpellingLocation(e, &sf, &line, &col, &soff);
	if (!sf || !fe || !clang_File_isEqual(sf, fe) || soff != *end)
		*macro = true;
	if (!fb || !unit_file(t) || !clang_File_isEqual(fb, unit_file(t)))
		return false;
	if (*end < *start || *end > t->len)
		*end = *start;
	/* libclang reports expansion points for both locations of a node that
	 * comes from a macro: a call or name must be spelled where it starts */
	enum CXCursorKind k = clang_getCursorKind(c);

	if (k == CXCursor_CallExpr || k == CXCursor_DeclRefExpr) {
		CXString sp = clang_getCursorSpelling(c);
		const char *name = clang_getCString(sp);
		size_t nl = strlen(name);

		if (nl &&
		    (*start + nl > t->len || memcmp(t->src + *start, name, nl) ||
		     isalnum((unsigned char)t->src[*start + nl]) || t->src[*start + nl] == '_'))
			*macro = true;
		clang_disposeString(sp);
	}
	return true;
}

struct build_state {
	struct tunit *t;
	struct func *f;
	int cap;
	int parent;
	int last_child;
};

static enum CXChildVisitResult build_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct build_state *bs = d;
	struct func *f = bs->f;
	int idx, saved_parent = bs->parent, saved_last = bs->last_child;
	struct node *n;

	(void)parent;
	if (f->nnodes >= bs->cap) {
		bs->cap = bs->cap ? bs->cap * 2 : 256;
		f->nodes = xrealloc(f->nodes, (size_t)bs->cap * sizeof(*f->nodes));
		f->curs = xrealloc(f->curs, (size_t)bs->cap * sizeof(*f->curs));
	}
	idx = f->nnodes++;
	n = &f->nodes[idx];
	memset(n, 0, sizeof(*n));
	f->curs[idx] = c;
	n->kind = clang_getCursorKind(c);
	if (n->kind == CXCursor_UnaryOperator || n->kind == CXCursor_BinaryOperator)
		n->tkind = (unsigned char)cursor_tkind(c);
	n->parent = bs->parent;
	n->first = n->next = -1;
	if (!cursor_range(bs->t, c, &n->start, &n->end, &n->macro))
		n->start = n->end = 0;
	if (bs->parent >= 0) {
		if (bs->last_child >= 0)
			f->nodes[bs->last_child].next = idx;
		else
			f->nodes[bs->parent].first = idx;
	}
	bs->parent = idx;
	bs->last_child = -1;
	clang_visitChildren(c, build_visit, bs);
	/* nodes are numbered in preorder: a subtree is one run of indices */
	f->nodes[idx].last = f->nnodes - 1;
	bs->parent = saved_parent;
	bs->last_child = idx;
	(void)saved_last;
	return CXChildVisit_Continue;
}

/* The member a call goes through, seen through parens, casts and `*`. */
static char *call_member(const struct func *f, int call)
{
	int n = node_child(f, call, 0);

	for (int guard = 0; n >= 0 && guard < 8; guard++) {
		enum CXCursorKind k = f->nodes[n].kind;

		if (k == CXCursor_MemberRefExpr) {
			CXString sp = clang_getCursorSpelling(f->curs[n]);
			char *r = xstrdup(clang_getCString(sp));

			clang_disposeString(sp);
			return r[0] ? r : (free(r), NULL);
		}
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    k != CXCursor_UnaryOperator && k != CXCursor_CStyleCastExpr)
			return NULL;
		n = node_child(f, n, k == CXCursor_CStyleCastExpr ? node_nchildren(f, n) - 1 : 0);
	}
	return NULL;
}

static char *spelling(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return r;
}

static void build_node_refs(struct tunit *t, struct func *f)
{
	for (int n = 0; n < f->nnodes; n++) {
		CXCursor c = f->curs[n], d;
		enum CXCursorKind k = f->nodes[n].kind;
		struct node_ref *r;

		if (k == CXCursor_VarDecl && is_fnptr_type(clang_getCursorType(c))) {
			r = f->nodes[n].ref = xcalloc(1, sizeof(*r));
			r->decl = xmalloc(sizeof(*r->decl));
			decl_info_of(c, unit_file(t), r->decl);
			continue;
		}
		if (k != CXCursor_CallExpr && k != CXCursor_DeclRefExpr && k != CXCursor_GotoStmt &&
		    k != CXCursor_LabelStmt)
			continue;
		r = f->nodes[n].ref = xcalloc(1, sizeof(*r));
		if (k == CXCursor_LabelStmt) {
			r->name = spelling(c);
			continue;
		}
		d = clang_getCursorReferenced(c);
		if (k == CXCursor_GotoStmt) {
			r->name = spelling(d);
			continue;
		}
		r->usr = clang_Cursor_isNull(d) ? xstrdup("") : cursor_usr(d);
		if (k == CXCursor_DeclRefExpr) {
			r->ref_kind = clang_getCursorKind(d);
			r->fnptr =
			    (r->ref_kind == CXCursor_VarDecl || r->ref_kind == CXCursor_ParmDecl) &&
			    is_fnptr_type(clang_getCursorType(d));
			clang_getFileLocation(clang_getCursorLocation(c), NULL, NULL, NULL,
					      &r->file_off);
			if (r->fnptr) {
				r->decl = xmalloc(sizeof(*r->decl));
				decl_info_of(d, unit_file(t), r->decl);
			}
			continue;
		}
		r->name = spelling(c);
		r->member = call_member(f, n);
		r->nargs = clang_Cursor_getNumArguments(c);
		if (r->nargs < 0)
			r->nargs = 0;
	}
}

void ast_build_func(struct tunit *t, CXCursor fn, struct func *f)
{
	struct build_state bs = {t, f, 0, -1, -1};

	f->nodes = NULL;
	f->curs = NULL;
	f->nnodes = 0;
	f->body = -1;
	/* root node: the function itself */
	build_visit(fn, clang_getNullCursor(), &bs);
	/* kept for the whole run: no room to grow */
	f->nodes = xrealloc(f->nodes, (size_t)f->nnodes * sizeof(*f->nodes));
	f->curs = xrealloc(f->curs, (size_t)f->nnodes * sizeof(*f->curs));
	for (int k = f->nodes[0].first; k >= 0; k = f->nodes[k].next)
		if (f->nodes[k].kind == CXCursor_CompoundStmt)
			f->body = k;
	build_node_refs(t, f);
}

/* Give the nodes of F, built from FN in an earlier load of its unit, FN's cursors. */
struct refill_state {
	struct func *f;
	int at;
	bool same;
};

static enum CXChildVisitResult refill_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct refill_state *rs = d;

	(void)parent;
	if (rs->at >= rs->f->nnodes || rs->f->nodes[rs->at].kind != clang_getCursorKind(c)) {
		rs->same = false;
		return CXChildVisit_Break;
	}
	rs->f->curs[rs->at++] = c;
	clang_visitChildren(c, refill_visit, rs);
	return rs->same ? CXChildVisit_Continue : CXChildVisit_Break;
}

static bool refill_func(struct func *f, CXCursor fn)
{
	struct refill_state rs = {f, 0, true};

	f->decl = fn;
	f->curs = xrealloc(f->curs, ((size_t)f->nnodes + 1) * sizeof(*f->curs));
	refill_visit(fn, clang_getNullCursor(), &rs);
	return rs.same && rs.at == f->nnodes;
}

struct refill_unit {
	struct ctx *cx;
	struct tunit *t;
	size_t ti, next; /* the next function of the unit in cx->funcs to match */
	bool ok;
};

static void refill_match(struct refill_unit *ru, CXCursor c)
{
	struct ctx *cx = ru->cx;
	size_t start, end;
	bool macro;
	char *usr;

	while (ru->next < cx->nfuncs && cx->funcs[ru->next].tu != ru->ti)
		ru->next++;
	if (ru->next >= cx->nfuncs || !is_main_file_definition(c, ru->t->unit_file) ||
	    !cursor_range(ru->t, c, &start, &end, &macro))
		return;
	usr = cursor_usr(c);
	/* the unit's functions in funcs are those the first load found, in its order:
	 * a definition the build did not take (past --timeout) matches none */
	if (!strcmp(usr, cx->funcs[ru->next].usr) && cx->funcs[ru->next].start == start) {
		ru->ok &= refill_func(&cx->funcs[ru->next], c);
		ru->next++;
	}
	free(usr);
}

static enum CXChildVisitResult refill_top(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	refill_match(d, c);
	return CXChildVisit_Continue;
}

/* F alone, where the parse child's list says it is; else its whole unit. */
void ast_refill_func(struct ctx *cx, struct func *f)
{
	struct tunit *t = &cx->tus[f->tu];
	CXCursor c = clang_getNullCursor();
	char *usr = NULL;

	if (f->locator >= 0 && t->unit && t->unit_file)
		c = clang_getCursor(t->unit, clang_getLocationForOffset(t->unit, t->unit_file,
									(unsigned)f->locator));
	if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c))
		usr = cursor_usr(c);
	if (!usr || strcmp(usr, f->usr) || !refill_func(f, c)) {
		free(f->curs);
		f->curs = NULL;
		ast_refill_unit(cx, f->tu);
	}
	free(usr);
}

void ast_refill_unit(struct ctx *cx, size_t ti)
{
	struct tunit *t = &cx->tus[ti];
	struct refill_unit ru = {cx, t, ti, 0, true};
	CXCursor *listed = func_index_cursors(t);

	if (listed) {
		for (size_t i = 0; i < t->nfn; i++)
			refill_match(&ru, listed[i]);
		free(listed);
	} else {
		clang_visitChildren(clang_getTranslationUnitCursor(t->unit), refill_top, &ru);
	}
	while (ru.next < cx->nfuncs && cx->funcs[ru.next].tu != ti)
		ru.next++;
	if (!ru.ok || ru.next < cx->nfuncs) {
		fprintf(stderr,
			"blkmig: internal error: %s parsed again does not give back "
			"the functions its first load gave\n",
			t->path);
		exit(BM_EXIT_USAGE);
	}
}

void ast_free_func(struct func *f)
{
	for (int n = 0; n < f->nnodes; n++) {
		struct node_ref *r = f->nodes[n].ref;

		if (r) {
			free(r->name);
			free(r->usr);
			free(r->member);
			decl_info_free(r->decl);
			free(r->decl);
			free(r);
		}
	}
	free(f->nodes);
	f->nodes = NULL;
	free(f->curs);
	f->curs = NULL;
	for (size_t i = 0; i < f->nlock_ids; i++)
		free(f->lock_ids[i].id);
	free(f->lock_ids);
	f->lock_ids = NULL;
	f->nlock_ids = f->lock_ids_cap = 0;
}

char *range_text(struct tunit *t, size_t start, size_t end)
{
	if (end > t->len || start > end)
		return xstrdup("");
	return xstrndup(t->src + start, end - start);
}

char *node_text(struct tunit *t, const struct node *n)
{
	return range_text(t, n->start, n->end);
}

int node_child(const struct func *f, int n, int k)
{
	int c = f->nodes[n].first;

	while (c >= 0 && k-- > 0)
		c = f->nodes[c].next;
	return c;
}

int node_nchildren(const struct func *f, int n)
{
	int k = 0;

	for (int c = f->nodes[n].first; c >= 0; c = f->nodes[c].next)
		k++;
	return k;
}

int node_strip(const struct func *f, int n)
{
	while (n >= 0 &&
	       (f->nodes[n].kind == CXCursor_UnexposedExpr ||
		f->nodes[n].kind == CXCursor_ParenExpr) &&
	       node_nchildren(f, n) == 1)
		n = f->nodes[n].first;
	return n;
}

int node_strip_casts(const struct func *f, int n)
{
	n = node_strip(f, n);
	while (n >= 0 && f->nodes[n].kind == CXCursor_CStyleCastExpr) {
		int c = -1;

		for (int k = f->nodes[n].first; k >= 0; k = f->nodes[k].next)
			c = k; /* the operand is the last child (after a type ref) */
		n = node_strip(f, c);
	}
	return n;
}

char *node_callee(const struct func *f, int n)
{
	if (f->nodes[n].kind == CXCursor_CallExpr && f->nodes[n].ref)
		return xstrdup(f->nodes[n].ref->name);
	CXString s = clang_getCursorSpelling(node_cursor(f, n));
	char *r = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return r;
}

int call_nargs(const struct func *f, int call)
{
	if (f->nodes[call].kind == CXCursor_CallExpr && f->nodes[call].ref)
		return f->nodes[call].ref->nargs;
	int n = clang_Cursor_getNumArguments(node_cursor(f, call));

	return n < 0 ? 0 : n;
}

/* Arguments are the children after the callee expression. */
int call_arg(const struct func *f, int call, int k)
{
	int nargs = call_nargs(f, call);
	int nch = node_nchildren(f, call);

	if (k >= nargs || nch < nargs)
		return -1;
	return node_child(f, call, nch - nargs + k);
}

static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

char *unary_op(struct tunit *t, const struct func *f, int n)
{
	const struct node *u = &f->nodes[n];
	int c = u->first;

	if (c < 0 || u->start > f->nodes[c].start)
		return xstrdup("");
	if (f->nodes[c].start == u->start) /* postfix */
		return trimmed(t->src + f->nodes[c].end, u->end - f->nodes[c].end);
	return trimmed(t->src + u->start, f->nodes[c].start - u->start);
}

char *binary_op(struct tunit *t, const struct func *f, int n)
{
	int a = node_child(f, n, 0), b = node_child(f, n, 1);

	if (a < 0 || b < 0 || f->nodes[a].end > f->nodes[b].start)
		return xstrdup("");
	return trimmed(t->src + f->nodes[a].end, f->nodes[b].start - f->nodes[a].end);
}

/* The parent of node n, skipping parentheses and implicit nodes. */
int node_up(const struct func *f, int n)
{
	int p = f->nodes[n].parent;

	while (p >= 0 && (f->nodes[p].kind == CXCursor_UnexposedExpr ||
			  f->nodes[p].kind == CXCursor_ParenExpr))
		p = f->nodes[p].parent;
	return p;
}

char *cursor_usr(CXCursor c)
{
	CXString s = clang_getCursorUSR(c);
	char *r = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return r;
}

char *ref_usr(const struct func *f, int n)
{
	if (f->nodes[n].ref && f->nodes[n].ref->usr)
		return xstrdup(f->nodes[n].ref->usr);
	CXCursor r = clang_getCursorReferenced(node_cursor(f, n));

	if (clang_Cursor_isNull(r))
		return xstrdup("");
	return cursor_usr(r);
}

/*
 * Whether node n gives the local variable named by usr a value: its
 * initializer (STORE_SET), a plain `=` (STORE_SET) or a compound assignment
 * such as `+=` (STORE_COMPOUND, the new value depends on the old one).
 * Comparisons and other binary operators store nothing.  The data-flow
 * analyses of uptodate and of byte counts both read assignments this way.
 */
enum store_kind node_store(struct tunit *t, const struct func *f, int n, const char *usr, int *rhs)
{
	const struct node *nd = &f->nodes[n];
	enum store_kind kind = STORE_NONE;

	*rhs = -1;
	if (nd->kind == CXCursor_VarDecl) {
		char *u = cursor_usr(node_cursor(f, n));

		if (!strcmp(u, usr))
			for (int c = nd->first; c >= 0; c = f->nodes[c].next)
				if (f->nodes[c].kind != CXCursor_TypeRef)
					*rhs = c;
		free(u);
		return *rhs >= 0 ? STORE_SET : STORE_NONE;
	}
	if (nd->kind == CXCursor_CompoundAssignOperator)
		kind = STORE_COMPOUND;
	else if (nd->kind == CXCursor_BinaryOperator) {
		char *op = binary_op(t, f, n);

		if (!strcmp(op, "="))
			kind = STORE_SET;
		free(op);
	}
	if (kind != STORE_NONE) {
		int l = node_strip(f, node_child(f, n, 0));
		char *u = l >= 0 && f->nodes[l].kind == CXCursor_DeclRefExpr ? ref_usr(f, l) : NULL;

		if (u && !strcmp(u, usr))
			*rhs = node_child(f, n, 1);
		else
			kind = STORE_NONE;
		free(u);
	}
	return kind;
}

/* The identity of a spinlock expression, from its text. */
char *lock_identity_text(const char *s)
{
	char buf[256];
	size_t n = 0;
	const char *last;

	for (; *s && n + 1 < sizeof(buf); s++)
		if (!isspace((unsigned char)*s) && *s != '(' && *s != ')' && *s != '&')
			buf[n++] = *s;
	buf[n] = '\0';
	last = NULL;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '.')
			last = buf + i + 1;
		else if (buf[i] == '-' && buf[i + 1] == '>')
			last = buf + i + 2;
	}
	if (last && !strcmp(last, "queue_lock"))
		return xstrdup("QUEUE_LOCK");
	if (last)
		return xasprintf("field:%s", last);
	return xasprintf("var:%s", buf);
}

char *lock_identity(struct tunit *t, const struct func *f, int n)
{
	char *txt = node_text(t, &f->nodes[n]);
	char *r = lock_identity_text(txt);

	free(txt);
	return r;
}

/*
 * Line (and column) of a byte offset: a binary search in the file's line starts, which
 * are indexed once per file (a scan from the start for every site made a file's cost
 * grow with the square of its sites).
 */
unsigned offset_line(const struct tunit *t, size_t off, unsigned *col)
{
	struct tunit *mt = (struct tunit *)t; /* the index is a cache, not a change */
	size_t lo = 0, hi, at = off;

	if (!mt->nlines) {
		vec_append(mt->line_starts, mt->nlines, mt->lines_cap, 0);
		for (size_t i = 0; i < t->len; i++)
			if (t->src[i] == '\n')
				vec_append(mt->line_starts, mt->nlines, mt->lines_cap, i + 1);
	}
	if (at > t->len)
		at = t->len;
	/* the last line start <= off; a start at off itself only counts when
	 * the newline before it lies before off (same as counting newlines < off) */
	hi = mt->nlines;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (mt->line_starts[mid] <= at)
			lo = mid;
		else
			hi = mid;
	}
	if (col)
		*col = (unsigned)(off - mt->line_starts[lo]) + 1;
	return (unsigned)lo + 1;
}

bool node_within(const struct func *f, int n, int ancestor)
{
	/* preorder numbering (build_visit): O(1), not a walk up the parents */
	return n >= 0 && ancestor >= 0 && n >= ancestor && n <= f->nodes[ancestor].last;
}

bool is_stmt_kind(enum CXCursorKind k)
{
	return (k >= CXCursor_FirstStmt && k <= CXCursor_LastStmt) || k == CXCursor_CallExpr ||
	       (k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr);
}

/* The statement (child of a compound, if/loop body, or label) holding n. */
int enclosing_stmt(const struct func *f, int n)
{
	while (n >= 0) {
		int p = f->nodes[n].parent;

		if (p < 0)
			return -1;
		enum CXCursorKind pk = f->nodes[p].kind;

		if (pk == CXCursor_CompoundStmt || pk == CXCursor_LabelStmt ||
		    pk == CXCursor_CaseStmt || pk == CXCursor_DefaultStmt)
			return n;
		if ((pk == CXCursor_IfStmt || pk == CXCursor_WhileStmt || pk == CXCursor_ForStmt ||
		     pk == CXCursor_DoStmt) &&
		    n != node_child(f, p, 0))
			return n;
		n = p;
	}
	return -1;
}

bool range_has_error(const struct tunit *t, size_t start, size_t end)
{
	for (size_t i = 0; i < t->nerr; i++)
		if (t->err_offsets[i] >= start && t->err_offsets[i] <= end)
			return true;
	return false;
}

/*
 * Text identities confuse equally named fields of different structs
 * (host->lock, port->lock): where the AST has the member, add the struct.
 */
char *lock_identity_refined(const struct func *f, int n, const char *plain)
{
	const char *field;

	if (!f || n < 0 || strncmp(plain, "field:", 6))
		return NULL;
	field = plain + 6;
	for (int k = n; k < f->nnodes; k++) {
		CXString sp;
		bool same;

		if (!node_within(f, k, n))
			continue;
		if (f->nodes[k].kind != CXCursor_MemberRefExpr)
			continue;
		sp = clang_getCursorSpelling(node_cursor(f, k));
		same = !strcmp(clang_getCString(sp), field);
		clang_disposeString(sp);
		if (!same)
			continue;
		CXCursor fd = clang_getCursorReferenced(node_cursor(f, k));
		CXCursor rec = clang_getCursorSemanticParent(fd);
		char *usr, *r;

		if (clang_Cursor_isNull(fd) || clang_Cursor_isNull(rec))
			return NULL;
		usr = cursor_usr(rec);
		r = usr[0] ? xasprintf("%s@%s", plain, usr) : NULL;
		free(usr);
		return r;
	}
	return NULL;
}

bool is_queue_lock(struct ctx *cx, const char *plain, const char *refined)
{
	size_t pl = strlen(plain);

	if (!strcmp(plain, "QUEUE_LOCK"))
		return true;
	if (refined) {
		if (strlist_has(&cx->queue_locks, refined))
			return true;
		/* a registered field of that name in another struct: not this one */
		for (size_t i = 0; i < cx->queue_locks.n; i++)
			if (!strncmp(cx->queue_locks.v[i], plain, pl) &&
			    cx->queue_locks.v[i][pl] == '@')
				return false;
	}
	return strlist_has(&cx->queue_locks, plain);
}

/*
 * The identity of the lock an argument expression names, from the AST:
 * QUEUE_LOCK for any ->queue_lock, "field:NAME@STRUCT" for another member,
 * "var:NAME" for a variable.  NULL when the AST does not say (then the
 * text is used).  Sees through macros such as CCISS_LOCK(i).
 */
static char *lock_identity_depth(const struct func *f, int n, int depth);

/*
 * A local pointer that only ever holds one lock (`spinlock_t *qlock =
 * req->q->queue_lock;` or assigned once) names that lock.  Any store of
 * something else, or a second identity, and it names nothing known.
 */
static char *local_alias_identity(const struct func *f, int ref, int depth)
{
	CXCursor d = clang_getCursorReferenced(node_cursor(f, ref));
	char *usr, *id = NULL;
	bool bad = false;

	if (depth > 2 || clang_getCursorKind(d) != CXCursor_VarDecl ||
	    clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_FunctionDecl)
		return NULL;
	usr = cursor_usr(d);
	for (int k = 0; k < f->nnodes && !bad; k++) {
		int value = -1;

		if (f->nodes[k].kind == CXCursor_VarDecl) {
			char *u = cursor_usr(node_cursor(f, k));

			if (!strcmp(u, usr))
				for (int c = f->nodes[k].first; c >= 0; c = f->nodes[c].next)
					if (f->nodes[c].kind != CXCursor_TypeRef)
						value = c;
			free(u);
		} else if (f->nodes[k].kind == CXCursor_BinaryOperator ||
			   f->nodes[k].kind == CXCursor_CompoundAssignOperator) {
			int lhs = node_strip(f, node_child(f, k, 0));
			char *u = lhs >= 0 && f->nodes[lhs].kind == CXCursor_DeclRefExpr
				      ? ref_usr(f, lhs)
				      : NULL;

			if (u && !strcmp(u, usr)) {
				if (f->nodes[k].kind == CXCursor_CompoundAssignOperator)
					bad = true;
				else
					value = node_child(f, k, 1);
			}
			free(u);
		} else if (f->nodes[k].kind == CXCursor_UnaryOperator) {
			/* &qlock: may be written through */
			int op = node_strip(f, node_child(f, k, 0));
			char *u = op >= 0 && f->nodes[op].kind == CXCursor_DeclRefExpr &&
					  node_up(f, op) == k
				      ? ref_usr(f, op)
				      : NULL;

			if (u && !strcmp(u, usr)) {
				char *txt = NULL;
				CXSourceRange r = clang_getCursorExtent(node_cursor(f, k));
				CXToken *toks = NULL;
				unsigned nt = 0;
				CXTranslationUnit tu =
				    clang_Cursor_getTranslationUnit(node_cursor(f, k));

				clang_tokenize(tu, r, &toks, &nt);
				if (nt) {
					CXString sp = clang_getTokenSpelling(tu, toks[0]);

					txt = xstrdup(clang_getCString(sp));
					clang_disposeString(sp);
				}
				clang_disposeTokens(tu, toks, nt);
				bad = txt && !strcmp(txt, "&");
				free(txt);
			}
			free(u);
		}
		if (value < 0 || bad)
			continue;
		char *v = lock_identity_depth(f, value, depth + 1);

		if (!v || (id && strcmp(id, v)))
			bad = true;
		if (!id && v)
			id = v;
		else
			free(v);
	}
	free(usr);
	if (bad) {
		free(id);
		return NULL;
	}
	return id;
}

char *lock_identity_ast(const struct func *f, int n)
{
	/* asked of the same nodes every round of facts: the answer is the node's, kept
	 * so that a round needs no unit in memory for it (units.c) */
	struct func *mf = (struct func *)f;
	struct lock_memo *m;

	for (size_t i = 0; i < f->nlock_ids; i++)
		if (f->lock_ids[i].node == n)
			return f->lock_ids[i].id ? xstrdup(f->lock_ids[i].id) : NULL;
	m = vec_push(mf->lock_ids, mf->nlock_ids, mf->lock_ids_cap);
	m->node = n;
	m->id = lock_identity_depth(f, n, 0);
	return m->id ? xstrdup(m->id) : NULL;
}

static char *lock_identity_depth(const struct func *f, int n, int depth)
{
	while (n >= 0) {
		enum CXCursorKind k = f->nodes[n].kind;

		if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr ||
		    k == CXCursor_UnaryOperator || k == CXCursor_CStyleCastExpr) {
			int last = -1;

			for (int c = f->nodes[n].first; c >= 0; c = f->nodes[c].next)
				if (f->nodes[c].kind != CXCursor_TypeRef)
					last = c;
			n = last;
			continue;
		}
		break;
	}
	if (n < 0)
		return NULL;
	CXString sp = clang_getCursorSpelling(node_cursor(f, n));
	char *name = xstrdup(clang_getCString(sp)), *r = NULL;

	clang_disposeString(sp);
	if (f->nodes[n].kind == CXCursor_MemberRefExpr && name[0]) {
		if (!strcmp(name, "queue_lock")) {
			r = xstrdup("QUEUE_LOCK");
		} else {
			CXCursor fd = clang_getCursorReferenced(node_cursor(f, n));
			CXCursor rec = clang_getCursorSemanticParent(fd);
			char *usr = clang_Cursor_isNull(rec) ? xstrdup("") : cursor_usr(rec);

			r = usr[0] ? xasprintf("field:%s@%s", name, usr)
				   : xasprintf("field:%s", name);
			free(usr);
		}
	} else if (f->nodes[n].kind == CXCursor_DeclRefExpr && name[0]) {
		r = local_alias_identity(f, n, depth);
		if (!r)
			r = xasprintf("var:%s", name);
	}
	free(name);
	return r;
}

/*
 * The function a byte offset lies in, read from the text alone (for code the
 * AST lost: a parse error, a branch that is not compiled): the top-level brace
 * block holding @off, when the text before its '{' is a parameter list `NAME(...)`.
 * @clean is the source with comments and literals blanked.  Only the first
 * branch of each #if/#ifdef chain counts (#elif/#else .. #endif are skipped), so
 * that `#if A  f(x) {  #else  f(x, y) {  #endif` opens one block, as the
 * compiled file does; a block the offset is in when skipped branches also
 * hold it is found through the first branch.  Returns the name, or NULL.
 */
char *text_function_at(const char *s, size_t len, size_t off)
{
	int depth = 0;
	size_t open = 0;
	bool line_start = true;

	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (ch == '\n') {
			line_start = true;
			continue;
		}
		if (line_start && ch == '#') {
			size_t d = i + 1;
			int nest = 0;

			while (d < len && (s[d] == ' ' || s[d] == '\t'))
				d++;
			/* #else/#elif of a chain: skip to its #endif, unless off is in it */
			if (!strncmp(s + d, "else", 4) || !strncmp(s + d, "elif", 4)) {
				size_t j = i, endif = len;

				for (; j < len; j++) {
					if (j && s[j - 1] != '\n')
						continue;
					size_t k = j;

					while (k < len && (s[k] == ' ' || s[k] == '\t'))
						k++;
					if (s[k] != '#')
						continue;
					k++;
					while (k < len && (s[k] == ' ' || s[k] == '\t'))
						k++;
					if (!strncmp(s + k, "if", 2))
						nest++;
					else if (!strncmp(s + k, "endif", 5) && nest-- == 0) {
						endif = j;
						break;
					}
				}
				/* the offset in the skipped branch: read that branch instead */
				if (!(off >= i && off < endif)) {
					i = endif;
					while (i < len && s[i] != '\n')
						i++;
					continue;
				}
			}
			while (i < len && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < len && s[i + 1] == '\n')
					i++;
				i++;
			}
			i--;
			continue;
		}
		if (ch != ' ' && ch != '\t' && ch != '\r')
			line_start = false;
		if (ch == '{') {
			if (depth++ == 0)
				open = i;
		} else if (ch == '}' && depth > 0 && --depth == 0) {
			if (off < open || off > i)
				continue;
			/* `NAME ( ... ) {`: the parameter list right before the brace */
			size_t k = open;

			while (k > 0 && isspace((unsigned char)s[k - 1]))
				k--;
			if (!k || s[k - 1] != ')')
				return NULL;
			int pd = 0;

			while (k > 0) {
				k--;
				if (s[k] == ')')
					pd++;
				else if (s[k] == '(' && --pd == 0)
					break;
			}
			while (k > 0 && isspace((unsigned char)s[k - 1]))
				k--;
			size_t e = k;

			while (k > 0 && (isalnum((unsigned char)s[k - 1]) || s[k - 1] == '_'))
				k--;
			if (k == e || isdigit((unsigned char)s[k]))
				return NULL;
			char *name = xstrndup(s + k, e - k);
			static const char *const not_fn[] = {"if",     "while",	 "for",
							     "switch", "sizeof", "return"};

			for (size_t q = 0; q < sizeof(not_fn) / sizeof(not_fn[0]); q++)
				if (!strcmp(name, not_fn[q])) {
					free(name);
					return NULL;
				}
			return name;
		}
	}
	return NULL;
}

/* ---- function-like macros the driver's headers define ---------------------- */

struct macro_find {
	CXTranslationUnit tu;
	const char *name;
	char *body;
};

/* the body of `#define NAME(...) body` in buf, continuation lines joined */
static char *define_body(const char *buf, size_t size, const char *name)
{
	size_t nl = strlen(name);

	for (size_t i = 0; buf && i + 8 + nl < size; i++) {
		size_t k = i, e;

		if (i && buf[i - 1] != '\n')
			continue;
		while (k < size && (buf[k] == ' ' || buf[k] == '\t'))
			k++;
		if (k >= size || buf[k] != '#')
			continue;
		k++;
		while (k < size && (buf[k] == ' ' || buf[k] == '\t'))
			k++;
		if (size - k < 7 + nl || strncmp(buf + k, "define", 6))
			continue;
		k += 6;
		while (k < size && (buf[k] == ' ' || buf[k] == '\t'))
			k++;
		if (strncmp(buf + k, name, nl) || buf[k + nl] != '(')
			continue;
		for (k += nl; k < size && buf[k] != ')' && buf[k] != '\n'; k++)
			;
		if (k >= size || buf[k] != ')')
			continue;
		struct sbuf b = {0};

		for (e = k + 1; e < size && buf[e] != '\n'; e++) {
			if (buf[e] == '\\' && e + 1 < size && buf[e + 1] == '\n') {
				e++;
				sbuf_addn(&b, " ", 1);
				continue;
			}
			sbuf_addn(&b, buf + e, 1);
		}
		return sbuf_take(&b);
	}
	return NULL;
}

static void find_in_inclusion(CXFile file, CXSourceLocation *stack, unsigned n, CXClientData d)
{
	struct macro_find *m = d;
	size_t size = 0;
	const char *buf;

	(void)stack;
	(void)n;
	if (m->body)
		return;
	buf = clang_getFileContents(m->tu, file, &size);
	m->body = define_body(buf, size, m->name);
}

/* The body of function-like macro NAME as the unit's files define it, or NULL. */
char *macro_body(struct tunit *t, const char *name)
{
	struct macro_find m = {NULL, name, NULL};

	if (t->src)
		m.body = define_body(t->src, t->len, name);
	if (!m.body && (m.tu = unit_tu(t)))
		clang_getInclusions(m.tu, find_in_inclusion, &m);
	return m.body;
}
