/*
 * fnptr.c - calls through a file's own function-pointer variables.  A static
 * function F whose address is taken has callers blkmig cannot see (facts.c),
 * unless every use of F as a value is followed here to its end: stored into a
 * "slot" (a file-static function-pointer variable, a local one, or the
 * parameter of a function of the same file, as `hd_out(..., &read_intr)` and
 * `do_hd = (intr_addr)` in hd.c), compared or tested, and every slot it
 * reaches is itself only written, tested, copied into another slot or called
 * (`do_hd()`, `(*do_hd)()`, `handler = do_hd; handler()`).  Then F's callers
 * are its direct callers and the calls through the slots holding it: they
 * become calls of F for the lock analysis (cx->mcalls, as the calls through
 * ops-table members; never rewritten).  A slot that escapes (its address
 * taken, stored in a struct or an array, passed to a function not of the
 * file, returned, exported, named in a file-scope initializer or where the
 * parse has no code) makes every function in it keep its unseen callers.
 * Operators are told apart by the AST's types, not by the text, so the same
 * holds inside macro expansions (SET_HANDLER).  A static function only: no
 * other file can name it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum slot_kind { SL_BAD, SL_FILE, SL_LOCAL, SL_PARAM };

struct slot {
	char *usr; /* the declaration's identity */
	char *name;
	enum slot_kind kind;
	size_t a, b;	 /* the text it may be named in */
	size_t decl_off; /* where its declaration names it */
	bool escaped;
	size_t esc_off;
};

struct ref {
	size_t func;
	int node;
	long slot; /* -1: a reference to the function fn */
	long fn;
	size_t off;
};

struct edge {
	long from_slot, from_fn; /* one of them is >= 0 */
	long to;
	size_t off;
};

struct through {
	long slot, fn; /* a call through slot, or (slot -1) of fn spelled as a value */
	size_t func;
	int node;
};

/*
 * What unit_pointers() found in one unit for one set of candidates, kept with the
 * unit: every facts round asks again, mostly of the same candidates, and the answer
 * depends on nothing else (the unit's nodes and text, its own functions), so that a
 * round needs no unit in memory for it (units.c).  Function indices are the run's:
 * fnptr_forget() drops it when they change.
 */
struct fnptr_memo {
	size_t *cand; /* the candidates, by index */
	bool *bad;    /* ... per candidate: a use not followed */
	size_t ncand;
	char **slot_names;
	size_t nslots;
	struct edge *edges;
	size_t nedges;
	struct through *thr;
	size_t nthr;
};

struct pstate {
	struct ctx *cx;
	size_t tu;
	struct slot *slots;
	size_t nslots, slots_cap;
	struct ref *refs;
	size_t nrefs, refs_cap;
	struct edge *edges;
	size_t nedges, edges_cap;
	struct through *thr;
	size_t nthr, thr_cap;
	bool *fn_bad;	    /* per function of the run: a use not followed */
	size_t *fn_bad_off; /* ... where */
	bool *cand;	    /* per function of the run: a candidate here */
};

/* where the text names a cursor: for a macro argument, where the argument is written */
static size_t cursor_off(CXCursor c, CXFile *file)
{
	unsigned off;

	clang_getFileLocation(clang_getCursorLocation(c), file, NULL, NULL, &off);
	return off;
}

/*
 * libclang 14 does not say which operator a node is, and inside a macro
 * expansion there is no text to read it from: the types tell.  A unary
 * operator on a function pointer whose result is an int is `!`; one whose
 * result is a function or a pointer to one is `*` or `&` of a function; any
 * other (`&` of a variable: a pointer to a pointer) is no use we follow.  The
 * node tree has it (ast.c); the cursor is asked only of a tree built without.
 */
/* BLKMIG_FNPTR_CURSORS=1: ask the unit, not the node tree (the analyzer suite compares) */
static bool plain(void)
{
	static int off = -1;

	if (off < 0)
		off = getenv("BLKMIG_FNPTR_CURSORS") != NULL;
	return !off;
}

static enum node_tkind type_kind(const struct func *f, int n)
{
	if (f->nodes[n].tkind != TK_UNKNOWN && plain())
		return (enum node_tkind)f->nodes[n].tkind;
	return cursor_tkind(node_cursor(f, n));
}

static long slot_find(struct pstate *ps, const char *usr)
{
	for (size_t i = 0; i < ps->nslots; i++)
		if (ps->slots[i].usr && !strcmp(ps->slots[i].usr, usr))
			return (long)i;
	return -1;
}

/* The slot a declaration is, made on first sight (kind SL_BAD: none we follow). */
static long slot_of_decl(struct pstate *ps, const struct decl_info *d)
{
	struct ctx *cx = ps->cx;
	struct tunit *t = &cx->tus[ps->tu];
	long i = slot_find(ps, d->usr);
	struct slot *s;

	if (i >= 0)
		return i;
	s = vec_push(ps->slots, ps->nslots, ps->slots_cap);
	s->usr = xstrdup(d->usr);
	s->name = xstrdup(d->name);
	s->decl_off = d->off;
	s->kind = SL_BAD;
	if (!d->in_main || !d->fnptr)
		return (long)(ps->nslots - 1);
	if (d->kind == CXCursor_VarDecl && d->parent_kind == CXCursor_TranslationUnit) {
		if (d->storage == CX_SC_Static) {
			s->kind = SL_FILE;
			s->a = 0;
			s->b = t->len;
		}
	} else if ((d->kind == CXCursor_VarDecl || d->kind == CXCursor_ParmDecl) &&
		   d->parent_kind == CXCursor_FunctionDecl && d->storage != CX_SC_Extern) {
		struct func *g = func_by_usr(cx, d->parent_usr);

		if (g && g->tu == ps->tu) {
			s->kind = d->kind == CXCursor_VarDecl ? SL_LOCAL : SL_PARAM;
			s->a = g->start;
			s->b = g->end;
		}
	}
	return (long)(ps->nslots - 1);
}

static long slot_of(struct pstate *ps, CXCursor decl)
{
	struct decl_info d;
	long i;

	decl_info_of(decl, unit_file(&ps->cx->tus[ps->tu]), &d);
	i = slot_of_decl(ps, &d);
	decl_info_free(&d);
	return i;
}

/* The slot node n of f names (a DeclRefExpr) or declares (a VarDecl): from the node
 * tree, which keeps those of function-pointer type; else from the unit. */
static long slot_of_node(struct pstate *ps, const struct func *f, int n)
{
	const struct node_ref *r = f->nodes[n].ref;

	if (r && r->decl && plain())
		return slot_of_decl(ps, r->decl);
	if (f->nodes[n].kind == CXCursor_VarDecl)
		return slot_of(ps, node_cursor(f, n));
	return slot_of(ps, clang_getCursorReferenced(node_cursor(f, n)));
}

/* The slot parameter k of g is. */
static long slot_of_param(struct pstate *ps, const struct func *g, int k)
{
	if (g->param_decl && plain())
		return slot_of_decl(ps, &g->param_decl[k]);
	return slot_of(ps, clang_Cursor_getArgument(func_cursor(g), (unsigned)k));
}

static void add_edge(struct pstate *ps, long from_slot, long from_fn, long to, size_t off)
{
	struct edge *e = vec_push(ps->edges, ps->nedges, ps->edges_cap);

	e->from_slot = from_slot;
	e->from_fn = from_fn;
	e->to = to;
	e->off = off;
}

/* The function a call node calls directly, or NULL: what the call refers to, from the
 * node tree (no function has the USR of a variable a call goes through). */
static struct func *direct_callee(struct ctx *cx, const struct func *f, int call)
{
	char *u = ref_usr(f, call);
	struct func *g = func_by_usr(cx, u);

	free(u);
	return g;
}

/*
 * Follow the value of node n of function fi (the function fn or the slot's
 * content, named at offset at) up the tree to where it ends; false when it
 * may go somewhere blkmig does not follow.
 */
static bool flow(struct pstate *ps, size_t fi, int n, long slot, long fn, size_t at)
{
	struct ctx *cx = ps->cx;
	struct func *f = &cx->funcs[fi];

	for (int guard = 0; guard < 64; guard++) {
		int p = f->nodes[n].parent;
		bool first = p >= 0 && f->nodes[p].first == n;
		enum node_tkind kind;
		long to;

		if (p < 0)
			return false;
		switch (f->nodes[p].kind) {
		case CXCursor_UnexposedExpr:
			/* an implicit conversion has one operand; an expression clang
			 * could not build (a RecoveryExpr) may hold several */
			if (node_nchildren(f, p) != 1)
				return false;
			n = p;
			continue;
		case CXCursor_ParenExpr:
		case CXCursor_CStyleCastExpr: n = p; continue;
		case CXCursor_UnaryOperator:
			switch (type_kind(f, p)) {
			case TK_INT: /* !v */ return true;
			case TK_FN: /* *v */
			case TK_FNPTR: /* &f, *v */ n = p; continue;
			default: /* &v */ return false;
			}
		case CXCursor_ConditionalOperator:
			if (first)
				return true;
			n = p;
			continue;
		case CXCursor_BinaryOperator:
			/*
			 * An int: a comparison or a logical operator (or a comma dropping
			 * the value).  A function pointer: `lhs = rhs` when the left side
			 * is an lvalue (a comma after a bare name reads alike: taking it
			 * for a store only adds a caller), else a comma or arithmetic
			 * passing the value on.  Stored anywhere but a variable: escapes.
			 */
			kind = type_kind(f, p);
			if (kind == TK_INT)
				return true;
			if (kind != TK_FNPTR)
				return false;
			if (!first) {
				int l = node_child(f, p, 0);

				while (l >= 0 && f->nodes[l].kind == CXCursor_ParenExpr)
					l = f->nodes[l].first;
				if (l >= 0 && f->nodes[l].kind == CXCursor_DeclRefExpr) {
					to = slot_of_node(ps, f, l);
					add_edge(ps, slot, fn, to, at);
				} else if (l < 0 || f->nodes[l].kind != CXCursor_UnexposedExpr) {
					return false;
				}
			}
			n = p; /* the operator's own value goes on */
			continue;
		case CXCursor_CallExpr:
			if (first) {
				struct func *g = direct_callee(cx, f, p);
				struct through *t;

				/* F(...) spelled plainly is a direct call (facts.c has it) */
				if (slot < 0 && g == &cx->funcs[fn])
					return true;
				t = vec_push(ps->thr, ps->nthr, ps->thr_cap);
				t->slot = slot;
				t->fn = fn;
				t->func = fi;
				t->node = p;
				return true;
			}
			for (int k = 0; k < call_nargs(f, p); k++) {
				struct func *g;

				if (call_arg(f, p, k) != n)
					continue;
				g = direct_callee(cx, f, p);
				if (!g || g->tu != ps->tu || k >= g->nparams)
					return false;
				to = slot_of_param(ps, g, k);
				add_edge(ps, slot, fn, to, at);
				return true;
			}
			return false;
		case CXCursor_VarDecl:
			to = slot_of_node(ps, f, p);
			add_edge(ps, slot, fn, to, at);
			return true;
		case CXCursor_IfStmt:
		case CXCursor_WhileStmt:
		case CXCursor_DoStmt:
		case CXCursor_ForStmt:
		case CXCursor_CaseStmt:
		case CXCursor_DefaultStmt:
		case CXCursor_LabelStmt:
		case CXCursor_CompoundStmt:
			return true; /* a condition tested, or a statement's value dropped */
		default: return false;
		}
	}
	return false;
}

/* n (a reference to a slot) is the bare left side of an operator giving a
 * function pointer: the variable is written (or, after a comma, dropped). */
static bool is_write(const struct func *f, int n)
{
	int p = f->nodes[n].parent;

	while (p >= 0 && f->nodes[p].kind == CXCursor_ParenExpr) {
		n = p;
		p = f->nodes[p].parent;
	}
	return p >= 0 && f->nodes[p].kind == CXCursor_BinaryOperator && f->nodes[p].first == n &&
	       type_kind(f, p) == TK_FNPTR;
}

/* Inside a #define (its logical line starts with '#'). */
static bool in_directive(const char *s, size_t off)
{
	size_t p = off;

	for (;;) {
		while (p > 0 && s[p - 1] != '\n')
			p--;
		if (p >= 2 && s[p - 2] == '\\') {
			p--;
			continue;
		}
		break;
	}
	while (s[p] == ' ' || s[p] == '\t')
		p++;
	return s[p] == '#';
}

static int off_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Every place the text names NAME in [a, b) (not a member, not `NAME(` when
 * calls are the AST's business) is a reference the AST has, or a declaration,
 * or a macro body: else the parse lost code that uses it.  *where: the first
 * one not accounted for.
 */
static bool text_covered(struct pstate *ps, const char *name, size_t a, size_t b, bool skip_calls,
			 const size_t *known, size_t nknown, size_t *where)
{
	struct tunit *t = &ps->cx->tus[ps->tu];
	const char *s = t->clean;
	size_t nl = strlen(name);

	if (!s || !nl)
		return false;
	for (size_t p = a; p + nl <= b && p + nl <= t->len; p++) {
		size_t q, m;

		if (memcmp(s + p, name, nl) ||
		    (p && (isalnum((unsigned char)s[p - 1]) || s[p - 1] == '_')) ||
		    (p + nl < t->len && (isalnum((unsigned char)s[p + nl]) || s[p + nl] == '_')))
			continue;
		for (m = p; m > 0 && isspace((unsigned char)s[m - 1]); m--)
			;
		if (m > 0 && (s[m - 1] == '.' || (m > 1 && s[m - 1] == '>' && s[m - 2] == '-')))
			continue;
		for (q = p + nl; q < t->len && isspace((unsigned char)s[q]); q++)
			;
		if (skip_calls && q < t->len && s[q] == '(')
			continue;
		if ((nknown && bsearch(&p, known, nknown, sizeof(*known), off_cmp)) ||
		    in_directive(s, p))
			continue;
		*where = p;
		return false;
	}
	return true;
}

/*
 * A reference outside every function body (a file-scope initializer, perhaps
 * through a macro): a use no flow follows, so the function or variable
 * named escapes.
 */
static enum CXChildVisitResult outside_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct pstate *ps = d;
	struct ctx *cx = ps->cx;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor r = clang_getCursorReferenced(c);
		enum CXCursorKind rk = clang_getCursorKind(r);
		size_t off = cursor_off(c, NULL);

		if (rk == CXCursor_FunctionDecl) {
			char *u = cursor_usr(r);
			struct func *g = func_by_usr(cx, u);

			free(u);
			if (g && ps->cand[g - cx->funcs] && !ps->fn_bad[g - cx->funcs]) {
				ps->fn_bad[g - cx->funcs] = true;
				ps->fn_bad_off[g - cx->funcs] = off;
			}
		} else if ((rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl) &&
			   is_fnptr_type(clang_getCursorType(r))) {
			/* slot_of() may grow ps->slots: index only after it */
			long si = slot_of(ps, r);
			struct slot *sl = &ps->slots[si];

			if (!sl->escaped) {
				sl->escaped = true;
				sl->esc_off = off;
			}
		}
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)) ||
	    (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c)))
		return CXChildVisit_Continue;
	clang_visitChildren(c, outside_visit, d);
	return CXChildVisit_Continue;
}

/*
 * What top_visit finds, from the list the parse child made (func_index.c):
 * visiting the whole unit here would make libclang read in every declaration
 * of every header from the saved AST.  A variable is matched to a slot by its
 * USR; one without a slot yet is named in no function body, so no flow reaches
 * it and its escape changes nothing.
 */
static void outer_refs(struct pstate *ps)
{
	struct ctx *cx = ps->cx;
	struct tunit *t = &cx->tus[ps->tu];
	size_t nslot_usr = ps->nslots;

	for (size_t i = 0; i < t->nouter; i++) {
		const struct outer_ref *r = &t->outer[i];

		if (!r->var) {
			struct func *g = func_by_usr(cx, r->usr);

			if (g && ps->cand[g - cx->funcs] && !ps->fn_bad[g - cx->funcs]) {
				ps->fn_bad[g - cx->funcs] = true;
				ps->fn_bad_off[g - cx->funcs] = r->off;
			}
			continue;
		}
		for (size_t k = 0; k < nslot_usr; k++) {
			struct slot *sl = &ps->slots[k];

			if (!sl->usr || strcmp(sl->usr, r->usr) || sl->escaped)
				continue;
			sl->escaped = true;
			sl->esc_off = r->off;
		}
	}
}

/* The analysis of one unit whose functions include candidates. */
static void unit_pointers(struct pstate *ps)
{
	struct ctx *cx = ps->cx;
	struct tunit *t = &cx->tus[ps->tu];
	size_t *known = NULL, nknown = 0, known_cap = 0;
	bool changed = true;

	/* every reference to a candidate or to a function-pointer variable */
	for (size_t fi = 0; fi < cx->nfuncs; fi++) {
		struct func *f = &cx->funcs[fi];

		if (f->tu != ps->tu)
			continue;
		for (int n = 0; n < f->nnodes; n++) {
			const struct node_ref *nr = f->nodes[n].ref;
			struct ref *r;

			/* what it names, from the node tree: the unit is asked only
			 * about the references that matter */
			if (f->nodes[n].kind != CXCursor_DeclRefExpr)
				continue;
			if (nr->ref_kind == CXCursor_FunctionDecl) {
				struct func *g = func_by_usr(cx, nr->usr);

				if (!g || !ps->cand[g - cx->funcs])
					continue;
				r = vec_push(ps->refs, ps->nrefs, ps->refs_cap);
				r->slot = -1;
				r->fn = g - cx->funcs;
			} else if (nr->fnptr) {
				long slot = slot_of_node(ps, f, n);

				/* slot_of() may grow ps->refs' neighbours: push after it */
				r = vec_push(ps->refs, ps->nrefs, ps->refs_cap);
				r->slot = slot;
				r->fn = -1;
			} else {
				continue;
			}
			r->func = fi;
			r->node = n;
			r->off = nr->file_off;
			vec_append(known, nknown, known_cap, r->off);
		}
	}
	/* where each value goes */
	for (size_t i = 0; i < ps->nrefs; i++) {
		struct ref *r = &ps->refs[i];
		const struct func *f = &cx->funcs[r->func];

		/* a body with parse errors may have lost what is done with the value */
		if (!f->has_errors && r->slot >= 0 && is_write(f, r->node))
			continue;
		if (!f->has_errors && flow(ps, r->func, r->node, r->slot, r->fn, r->off))
			continue;
		if (r->slot >= 0 && !ps->slots[r->slot].escaped) {
			ps->slots[r->slot].escaped = true;
			ps->slots[r->slot].esc_off = r->off;
		} else if (r->fn >= 0 && !ps->fn_bad[r->fn]) {
			ps->fn_bad[r->fn] = true;
			ps->fn_bad_off[r->fn] = r->off;
		}
	}
	if (t->outer_listed && !getenv("BLKMIG_WHOLE_FILE_VISIT"))
		outer_refs(ps);
	else
		clang_visitChildren(clang_getTranslationUnitCursor(unit_tu(t)), top_visit, ps);
	/* each name where the text has it and the AST does not */
	for (size_t i = 0; i < ps->nslots; i++)
		vec_append(known, nknown, known_cap, ps->slots[i].decl_off);
	if (nknown > 1)
		qsort(known, nknown, sizeof(*known), off_cmp);
	for (size_t i = 0; i < ps->nslots; i++) {
		struct slot *s = &ps->slots[i];

		if (s->kind == SL_BAD) {
			s->escaped = true;
			s->esc_off = s->decl_off;
		} else if (!s->escaped) {
			s->escaped = !text_covered(ps, s->name, s->a, s->b, false, known, nknown,
						   &s->esc_off);
		}
	}
	for (size_t fi = 0; fi < cx->nfuncs; fi++) {
		struct func *f = &cx->funcs[fi];

		if (ps->cand[fi] && !ps->fn_bad[fi] &&
		    !text_covered(ps, f->name, 0, t->len, true, known, nknown, &ps->fn_bad_off[fi]))
			ps->fn_bad[fi] = true;
	}
	free(known);
	/* a slot whose content goes into one that escapes escapes too */
	while (changed) {
		changed = false;
		for (size_t i = 0; i < ps->nedges; i++) {
			struct edge *e = &ps->edges[i];

			if (!ps->slots[e->to].escaped)
				continue;
			if (e->from_slot >= 0 && !ps->slots[e->from_slot].escaped) {
				ps->slots[e->from_slot].escaped = true;
				ps->slots[e->from_slot].esc_off = e->off;
				changed = true;
			} else if (e->from_fn >= 0 && !ps->fn_bad[e->from_fn]) {
				ps->fn_bad[e->from_fn] = true;
				ps->fn_bad_off[e->from_fn] = e->off;
			}
		}
	}
}

/* Whether function fn may be in slot s (through the edges). */
static bool reaches(struct pstate *ps, long fn, long s, bool *seen)
{
	memset(seen, 0, ps->nslots * sizeof(*seen));
	for (size_t i = 0; i < ps->nedges; i++)
		if (ps->edges[i].from_fn == fn)
			seen[ps->edges[i].to] = true;
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t i = 0; i < ps->nedges; i++) {
			struct edge *e = &ps->edges[i];

			if (e->from_slot >= 0 && seen[e->from_slot] && !seen[e->to])
				changed = seen[e->to] = true;
		}
	}
	return seen[s];
}

/* The calls through slots become calls of the functions they may hold. */
static void unit_calls(struct pstate *ps)
{
	struct ctx *cx = ps->cx;
	struct tunit *t = &cx->tus[ps->tu];
	bool *seen = xcalloc(ps->nslots + 1, sizeof(bool));

	for (size_t fi = 0; fi < cx->nfuncs; fi++) {
		struct func *f = &cx->funcs[fi];
		struct sbuf ev = {0};

		if (!ps->cand[fi])
			continue;
		if (ps->fn_bad[fi])
			continue; /* facts.c's evidence stands */
		for (size_t i = 0; i < ps->nthr; i++) {
			struct through *th = &ps->thr[i];
			struct call *c;

			if (th->slot >= 0 ? !reaches(ps, (long)fi, th->slot, seen)
					  : th->fn != (long)fi)
				continue;
			c = vec_push(cx->mcalls, cx->nmcalls, cx->mcalls_cap);
			c->func = th->func;
			c->node = th->node;
			c->callee_name =
			    xstrdup(th->slot >= 0 ? ps->slots[th->slot].name : f->name);
			c->callee_usr = xstrdup("");
			c->callee = (long)fi;
		}
		for (size_t i = 0; i < ps->nedges; i++)
			if (ps->edges[i].from_fn == (long)fi)
				sbuf_printf(&ev, "%s%s at %s:%u into %s", ev.len ? ", " : "",
					    f->name, t->path,
					    offset_line(t, ps->edges[i].off, NULL),
					    ps->slots[ps->edges[i].to].name);
		f->via_members = true;
		f->via_pointers = true;
		free(f->pointer_evidence);
		f->pointer_evidence =
		    ev.len ? xasprintf("%s's address goes only to function pointers of the file "
				       "that blkmig follows (%s)",
				       f->name, ev.s)
			   : xasprintf("%s is used as a value only where it is compared or tested",
				       f->name);
		free(ev.s);
	}
	free(seen);
}

static void memo_free(struct fnptr_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nslots; i++)
		free(m->slot_names[i]);
	free(m->slot_names);
	free(m->cand);
	free(m->bad);
	free(m->edges);
	free(m->thr);
	free(m);
}

void fnptr_forget(struct ctx *cx)
{
	for (size_t i = 0; i < cx->ntus; i++) {
		memo_free(cx->tus[i].fnptr);
		cx->tus[i].fnptr = NULL;
	}
}

/* The unit's memo, when it was made for exactly this round's candidates. */
static const struct fnptr_memo *memo_for(const struct pstate *ps)
{
	const struct fnptr_memo *m = ps->cx->tus[ps->tu].fnptr;
	size_t k = 0;

	if (!m)
		return NULL;
	for (size_t fi = 0; fi < ps->cx->nfuncs; fi++)
		if (ps->cand[fi] && (k >= m->ncand || m->cand[k++] != fi))
			return NULL;
	return k == m->ncand ? m : NULL;
}

static void memo_keep(struct pstate *ps)
{
	struct tunit *t = &ps->cx->tus[ps->tu];
	struct fnptr_memo *m = xcalloc(1, sizeof(*m));

	for (size_t fi = 0; fi < ps->cx->nfuncs; fi++)
		m->ncand += ps->cand[fi];
	m->cand = xcalloc(m->ncand + 1, sizeof(*m->cand));
	m->bad = xcalloc(m->ncand + 1, sizeof(*m->bad));
	for (size_t fi = 0, k = 0; fi < ps->cx->nfuncs; fi++)
		if (ps->cand[fi]) {
			m->cand[k] = fi;
			m->bad[k++] = ps->fn_bad[fi];
		}
	m->slot_names = xcalloc(ps->nslots + 1, sizeof(*m->slot_names));
	for (size_t i = 0; i < ps->nslots; i++)
		m->slot_names[i] = xstrdup(ps->slots[i].name);
	m->nslots = ps->nslots;
	m->edges = xcalloc(ps->nedges + 1, sizeof(*m->edges));
	if (ps->nedges) /* none yet: ps->edges is NULL, which memcpy must not be given */
		memcpy(m->edges, ps->edges, ps->nedges * sizeof(*ps->edges));
	m->nedges = ps->nedges;
	m->thr = xcalloc(ps->nthr + 1, sizeof(*m->thr));
	if (ps->nthr)
		memcpy(m->thr, ps->thr, ps->nthr * sizeof(*ps->thr));
	m->nthr = ps->nthr;
	memo_free(t->fnptr);
	t->fnptr = m;
}

/* The state unit_pointers() would leave, from the memo: what unit_calls() reads. */
static void memo_take(struct pstate *ps, const struct fnptr_memo *m)
{
	for (size_t k = 0; k < m->ncand; k++)
		ps->fn_bad[m->cand[k]] = m->bad[k];
	for (size_t i = 0; i < m->nslots; i++) {
		struct slot *sl = vec_push(ps->slots, ps->nslots, ps->slots_cap);

		sl->name = xstrdup(m->slot_names[i]);
	}
	for (size_t i = 0; i < m->nedges; i++)
		vec_append(ps->edges, ps->nedges, ps->edges_cap, m->edges[i]);
	for (size_t i = 0; i < m->nthr; i++)
		vec_append(ps->thr, ps->nthr, ps->thr_cap, m->thr[i]);
}

void fnptr_callers(struct ctx *cx)
{
	struct pstate ps = {0};

	ps.cx = cx;
	ps.cand = xcalloc(cx->nfuncs + 1, sizeof(bool));
	ps.fn_bad = xcalloc(cx->nfuncs + 1, sizeof(bool));
	ps.fn_bad_off = xcalloc(cx->nfuncs + 1, sizeof(size_t));
	for (size_t ti = 0; ti < cx->ntus; ti++) {
		bool any = false;

		units_trim(); /* between units: no cursor is held */
		if (!unit_parsed(&cx->tus[ti]) || cx->tus[ti].over_time || !cx->tus[ti].clean)
			continue;
		/* a static function of the unit used as a value, and in no other way */
		for (size_t fi = 0; fi < cx->nfuncs; fi++) {
			struct func *f = &cx->funcs[fi];

			ps.cand[fi] = f->tu == ti && f->is_static && f->role == ROLE_NONE &&
				      f->addr_taken && f->other_uses && !f->member_stores &&
				      !f->via_members;
			any |= ps.cand[fi];
		}
		if (!any)
			continue;
		ps.tu = ti;
		const struct fnptr_memo *m = getenv("BLKMIG_NO_FNPTR_MEMO") ? NULL : memo_for(&ps);

		if (m) {
			memo_take(&ps, m);
		} else {
			unit_pointers(&ps);
			memo_keep(&ps);
		}
		unit_calls(&ps);
		for (size_t i = 0; i < ps.nslots; i++) {
			free(ps.slots[i].name);
			free(ps.slots[i].usr);
		}
		ps.nslots = ps.nrefs = ps.nedges = ps.nthr = 0;
		memset(ps.fn_bad, 0, (cx->nfuncs + 1) * sizeof(bool));
	}
	free(ps.slots);
	free(ps.refs);
	free(ps.edges);
	free(ps.thr);
	free(ps.cand);
	free(ps.fn_bad);
	free(ps.fn_bad_off);
}
