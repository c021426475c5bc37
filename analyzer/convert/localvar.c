/*
 * localvar.c - catalogue item 10's local variable: an `uptodate`-style
 * local that is only ever given constants (0, 1, an errno: virtio_blk's
 * 1, -ENOTTY, 0) or booleans, without side effects, and only feeds
 * completion calls becomes `error`, its assignments converted (1 -> 0,
 * 0 -> -EIO, -Exxx -> itself, c -> c ? 0 : -EIO, !x -> x ? -EIO : 0), and
 * the new calls take `error` as is.  Done only when every completion using
 * it is converted, every use of it is an assignment or an uptodate
 * argument, and it is the only such local of its function (two would both
 * become `error`); otherwise the sites keep their mapping (`u ? 0 : -EIO`
 * for a 0/1 local, else the exact form).  The semantic patches decide alike
 * (cocci/src/decide.cocci var_converted).
 */
#include <string.h>

#include "rewrite.h"

static bool names_usr(const struct func *f, int n, const char *usr)
{
	char *u;
	bool r;

	if (n < 0 || f->nodes[n].kind != CXCursor_DeclRefExpr)
		return false;
	u = ref_usr(f, n);
	r = !strcmp(u, usr);
	free(u);
	return r;
}

/* Collect the edits that rename the variable; false if a use forbids it. */
static bool rename_edits(struct ctx *cx, struct func *f, const char *usr, struct bm_site *scratch)
{
	struct tunit *t = &cx->tus[f->tu];

	for (int n = 0; n < f->nnodes; n++) {
		struct node *nd = &f->nodes[n];

		if (nd->kind == CXCursor_VarDecl) {
			char *u = cursor_usr(node_cursor(f, n));
			bool mine = !strcmp(u, usr);
			CXString sp;
			CXFile file;
			size_t off;
			int init = -1;

			free(u);
			if (!mine)
				continue;
			sp = clang_getCursorSpelling(node_cursor(f, n));
			off = loc_offset(clang_getCursorLocation(node_cursor(f, n)), &file);
			if (!file || !clang_File_isEqual(file, unit_file(t)) ||
			    strncmp(t->src + off, clang_getCString(sp),
				    strlen(clang_getCString(sp)))) {
				clang_disposeString(sp);
				return false;
			}
			edit_add(scratch, t->path, off, off + strlen(clang_getCString(sp)),
				 "error");
			clang_disposeString(sp);
			for (int c = nd->first; c >= 0; c = f->nodes[c].next)
				if (f->nodes[c].kind != CXCursor_TypeRef)
					init = c;
			if (init >= 0) {
				struct uptodate v;
				char *it = node_text(t, &f->nodes[init]);
				bool effects = has_side_effects_in(t, it);

				free(it);
				if (effects) /* the new value would drop them */
					return false;
				uptodate_classify(cx, f, init, &v);
				if (v.cls != BM_UT_CONSTANT && v.cls != BM_UT_BOOLEAN) {
					uptodate_free(&v);
					return false;
				}
				edit_add(scratch, t->path, f->nodes[init].start, f->nodes[init].end,
					 v.error_expr);
				uptodate_free(&v);
			}
			continue;
		}
		if (!names_usr(f, n, usr))
			continue;
		if (nd->macro)
			return false;
		int p = node_up(f, n);

		if (p < 0)
			return false;
		if (f->nodes[p].kind == CXCursor_CallExpr) {
			char *callee = node_callee(f, p);
			bool legacy = bm_is_legacy_name(callee, strlen(callee)) &&
				      node_strip(f, call_arg(f, p, 1)) == n;

			free(callee);
			if (legacy)
				continue; /* rewritten with its site */
			return false;
		}
		if (f->nodes[p].kind == CXCursor_BinaryOperator &&
		    node_strip(f, node_child(f, p, 0)) == n) {
			char *op = binary_op(t, f, p);
			bool assign = !strcmp(op, "=");
			int rhs = node_child(f, p, 1);
			struct uptodate v;

			free(op);
			if (!assign || rhs < 0)
				return false;
			{
				char *it = node_text(t, &f->nodes[rhs]);
				bool effects = has_side_effects_in(t, it);

				free(it);
				if (effects) /* the new value would drop them */
					return false;
			}
			uptodate_classify(cx, f, rhs, &v);
			if (v.cls != BM_UT_CONSTANT && v.cls != BM_UT_BOOLEAN) {
				uptodate_free(&v);
				return false;
			}
			edit_add(scratch, t->path, f->nodes[n].start, f->nodes[n].end, "error");
			edit_add(scratch, t->path, f->nodes[rhs].start, f->nodes[rhs].end,
				 v.error_expr);
			uptodate_free(&v);
			continue;
		}
		return false;
	}
	/* `error` must be free in the function */
	for (int n = 0; n < f->nnodes; n++) {
		enum CXCursorKind k = f->nodes[n].kind;
		CXString sp;
		bool clash;

		if (k != CXCursor_VarDecl && k != CXCursor_DeclRefExpr && k != CXCursor_ParmDecl)
			continue;
		sp = clang_getCursorSpelling(node_cursor(f, n));
		clash = !strcmp(clang_getCString(sp), "error");
		clang_disposeString(sp);
		if (clash)
			return false;
	}
	return true;
}

/* In s, replace every ", OLD," argument spelling by ", error," (edits too). */
static char *swap_arg(const char *text, const char *old)
{
	char *pat = xasprintf(", %s,", old);
	struct sbuf b = {0};
	const char *p = text, *q;

	while ((q = strstr(p, pat))) {
		sbuf_addn(&b, p, (size_t)(q - p));
		sbuf_add(&b, ", error,");
		p = q + strlen(pat);
	}
	sbuf_add(&b, p);
	free(pat);
	return sbuf_take(&b);
}

static void scratch_free(struct bm_site *scratch)
{
	for (size_t e = 0; e < scratch->nedits; e++) {
		free(scratch->edits[e].file);
		free(scratch->edits[e].text);
	}
	free(scratch->edits);
	memset(scratch, 0, sizeof(*scratch));
}

static bool same_var(struct ctx *cx, size_t a, size_t b)
{
	return cx->lvar[b] && cx->lfunc[b] == cx->lfunc[a] && !strcmp(cx->lvar[b], cx->lvar[a]);
}

/*
 * Rename each variable that may be renamed; only one per function (two
 * locals of one function both renamed to `error` would clash).  A function
 * with two or more candidates renames none: they keep their mappings at the
 * calls (the semantic patches decide alike).
 */
void locals_rename(struct ctx *cx)
{
	size_t nsites = cx->run->nsites;
	bool *done = xcalloc(nsites + 1, sizeof(bool));
	bool *lead_ok = xcalloc(nsites + 1, sizeof(bool));

	for (size_t si = 0; si < nsites; si++) {
		struct bm_site scratch = {0};
		bool ok = true;

		units_trim(); /* between sites: no cursor is held */
		if (done[si] || !cx->lvar[si] || cx->lfunc[si] < 0)
			continue;
		for (size_t sj = si; sj < nsites; sj++) {
			if (!same_var(cx, si, sj))
				continue;
			done[sj] = true;
			ok &= cx->run->sites[sj].verdict == BM_AUTO;
		}
		lead_ok[si] =
		    ok && rename_edits(cx, &cx->funcs[cx->lfunc[si]], cx->lvar[si], &scratch);
		scratch_free(&scratch);
	}
	for (size_t si = 0; si < nsites; si++) {
		struct bm_site scratch = {0};
		bool alone = true;

		if (!lead_ok[si])
			continue;
		for (size_t sk = 0; sk < nsites; sk++)
			if (sk != si && lead_ok[sk] && cx->lfunc[sk] == cx->lfunc[si])
				alone = false;
		if (!alone ||
		    !rename_edits(cx, &cx->funcs[cx->lfunc[si]], cx->lvar[si], &scratch)) {
			scratch_free(&scratch);
			continue;
		}
		for (size_t sj = si; sj < nsites; sj++) {
			struct bm_site *s = &cx->run->sites[sj];
			char *r;

			if (!same_var(cx, si, sj))
				continue;
			for (size_t e = 0; e < s->nedits; e++) {
				r = swap_arg(s->edits[e].text, s->error_expr);
				free(s->edits[e].text);
				s->edits[e].text = r;
			}
			r = swap_arg(s->replacement, s->error_expr);
			free(s->replacement);
			s->replacement = r;
			free(s->error_expr);
			s->error_expr = xstrdup("error");
			for (size_t e = 0; e < scratch.nedits; e++)
				edit_add(s, scratch.edits[e].file, scratch.edits[e].start,
					 scratch.edits[e].end, scratch.edits[e].text);
		}
		scratch_free(&scratch);
	}
	free(lead_ok);
	free(done);
}
