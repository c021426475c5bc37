/*
 * classify_fallback.c - legacy calls the AST did not show (a file that did not
 * parse, a call under a preprocessor branch not taken, a macro): found by their
 * tokens, each a manual site with the reason it was not analysed, or, for the
 * one-argument final step, converted by classify_onearg.c.
 */
#include <ctype.h>
#include <string.h>

#include "classify_shapes.h"

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
	CXTranslationUnit tu = unit_tu(t);
	CXSourceLocation loc;
	CXCursor c;
	CXFile file;
	unsigned at;

	if (!tu || !unit_file(t))
		return false;
	loc = clang_getLocationForOffset(tu, unit_file(t), (unsigned)off);
	c = clang_getCursor(tu, loc);
	if (c.kind != CXCursor_FunctionDecl)
		return false;
	clang_getSpellingLocation(clang_getCursorLocation(c), &file, NULL, NULL, &at);
	return file && clang_File_isEqual(file, unit_file(t)) && at == off;
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

void token_fallback(struct ctx *cx)
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

			if (!hit->call || (unit_parsed(t) && defined_in_run(cx, hit->name, ti)))
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
