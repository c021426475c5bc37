/*
 * end_io_error.c - 2.6.24's end_io_error(uptodate), `unlikely((uptodate) <= 0)`,
 * went away with the uptodate convention in 2.6.25 (issue 20 item 5).  A file
 * blkmig converts must not keep it: each use left in such a file, in code or in
 * another macro's body, becomes the test it stood for, spelled out, so that the file builds on
 * 2.6.25 and means what it meant; the driver's own definition of the macro (a
 * compat block) stays.  A use whose argument a wrapper's renaming
 * turned into `error` is the wrapper's to rewrite (wrappers.c): E(u) is non-zero
 * exactly when u <= 0, so there it becomes `error`.
 */
#include <ctype.h>
#include <string.h>

#include "analysis.h"
#include "rewrite.h"

/* some site's edit already covers [a, b) of file */
static bool edited(struct ctx *cx, const char *file, size_t a, size_t b)
{
	for (size_t i = 0; i < cx->run->nsites; i++) {
		const struct bm_site *s = &cx->run->sites[i];

		for (size_t e = 0; e < s->nedits; e++)
			if (!strcmp(s->edits[e].file, file) && s->edits[e].start < b &&
			    a < s->edits[e].end)
				return true;
	}
	return false;
}

/*
 * offset p of s is in a directive that is about end_io_error itself: the driver's
 * own definition of it (a compat block), a test of whether it exists, an #undef.
 * A use in another macro's body is a use like any other.
 */
static bool about_the_macro(const char *s, size_t p)
{
	size_t l = p;

	for (;;) {
		while (l > 0 && s[l - 1] != '\n')
			l--;
		if (l >= 2 && s[l - 2] == '\\') {
			l--; /* a continued line: look at the one before */
			continue;
		}
		break;
	}
	while (s[l] == ' ' || s[l] == '\t')
		l++;
	if (s[l] != '#')
		return false;
	for (l++; s[l] == ' ' || s[l] == '\t'; l++)
		;
	if (!strncmp(s + l, "define", 6)) {
		for (l += 6; s[l] == ' ' || s[l] == '\t'; l++)
			;
		return l == p; /* #define end_io_error(u) ... */
	}
	return true; /* #if/#ifdef/#ifndef/#undef/#elif */
}

static void rewrite_unit(struct ctx *cx, size_t tu)
{
	struct tunit *t = &cx->tus[tu];
	static const char name[] = "end_io_error";
	struct bm_site *anchor = NULL;
	const char *c = t->clean;

	for (size_t i = 0; i < cx->run->nsites && !anchor; i++) {
		struct bm_site *s = &cx->run->sites[i];

		if (s->verdict == BM_AUTO && s->nedits && !strcmp(s->file, t->path))
			anchor = s;
	}
	if (!anchor || !c)
		return;
	for (const char *h = strstr(c, name); h; h = strstr(h + 1, name)) {
		size_t p = (size_t)(h - c), q = p + sizeof(name) - 1, open, close;
		int depth = 0;
		char *arg, *text;

		if ((p && (isalnum((unsigned char)c[p - 1]) || c[p - 1] == '_')) ||
		    isalnum((unsigned char)c[q]) || c[q] == '_' || about_the_macro(c, p))
			continue;
		while (q < t->len && isspace((unsigned char)c[q]))
			q++;
		if (q >= t->len || c[q] != '(')
			continue;
		open = q;
		for (close = open; close < t->len; close++)
			if (c[close] == '(')
				depth++;
			else if (c[close] == ')' && --depth == 0)
				break;
		if (close >= t->len || edited(cx, t->path, p, close + 1))
			continue;
		arg = range_text(t, open + 1, close);
		text = xasprintf("unlikely((%s) <= 0)", arg);
		edit_add(anchor, t->path, p, close + 1, text);
		free(arg);
		free(text);
	}
}

void rewrite_end_io_error(struct ctx *cx)
{
	for (size_t tu = 0; tu < cx->ntus; tu++) {
		units_trim(); /* between units: no cursor is held */
		rewrite_unit(cx, tu);
	}
}
