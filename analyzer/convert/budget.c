/*
 * budget.c - the verdict of the per-file time limit of the analysis (--timeout):
 * after classification, every site of a file whose analysis passed its limit
 * (facts/budget_charge.c keeps the clock), and every site with an edit in such a
 * file, is left for a human with reason "timeout".
 */
#include <string.h>

#include "analysis.h"

/* The name of the function around offset off of t ("" if none): the analysis of a
 * file over its limit never collected its later functions. */
static char *enclosing_function(struct tunit *t, size_t off)
{
	CXTranslationUnit tu = unit_tu(t);
	CXCursor c;

	if (!tu || !unit_file(t))
		return xstrdup("");
	c = clang_getCursor(tu, clang_getLocationForOffset(tu, unit_file(t), (unsigned)off));
	while (!clang_Cursor_isNull(c) && c.kind != CXCursor_FunctionDecl &&
	       c.kind != CXCursor_TranslationUnit)
		c = clang_getCursorSemanticParent(c);
	if (clang_Cursor_isNull(c) || c.kind != CXCursor_FunctionDecl)
		return xstrdup("");
	CXString name = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(name));

	clang_disposeString(name);
	return r;
}

/* After classification: every site of a file over its limit, and every site with an
 * edit in such a file, is left for a human. */
void budget_apply(struct ctx *cx)
{
	for (size_t ti = 0; ti < cx->ntus; ti++) {
		struct tunit *t = &cx->tus[ti];

		if (!t->over_time)
			continue;
		if (!cx->run->opt.quiet)
			fprintf(stderr,
				"blkmig: %s: the analysis took longer than --timeout %u s; "
				"its sites are left for review and the file untouched\n",
				t->path, cx->run->opt.timeout);
		for (size_t si = 0; si < cx->run->nsites; si++) {
			struct bm_site *s = &cx->run->sites[si];
			bool touches = !strcmp(s->file, t->path);

			for (size_t e = 0; e < s->nedits && !touches; e++)
				touches = !strcmp(s->edits[e].file, t->path);
			if (!touches)
				continue;
			if (!strcmp(s->file, t->path) && s->function && !*s->function) {
				free(s->function);
				s->function = enclosing_function(t, s->offset);
			}
			if (touches)
				site_manual(cx, si, "timeout",
					    "the analysis of %s took longer than --timeout %u s "
					    "(%.1f s when it stopped); left untouched",
					    t->path, cx->run->opt.timeout, t->analysis_s);
		}
	}
}
