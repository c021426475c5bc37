/*
 * indent_fix.c - the layout of the lines a conversion adds (indent_fix.h).
 *
 * A conversion rewrites a call inside a line it keeps: the line keeps whatever
 * indentation it had, a broken one too (DAC960's tab and a space before an `if`, jsflash's
 * fifteen spaces and two tabs), and the analyzer writes its new call on one line however
 * long.  checkpatch warns on the lines a patch adds, so those are laid out here, after the
 * conversion, for both tools.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "indent_fix.h"
#include "udiff.h"
#include "util.h"

#define FIX_WIDTH 80 /* spatch's --max-width: a line is at most FIX_WIDTH - 1 columns */
/* checkpatch's --max-line-length: a line with a trailing comment the driver had may
 * keep code under FIX_WIDTH and still pass this (xd.c's "wrap up" comment) */
#define CHECKPATCH_WIDTH 100

struct fline {
	const char *s; /* the line's text, without '\n' nor a '\r' before it */
	size_t len;
	bool cr;	 /* ended by "\r\n" */
	bool nl;	 /* ended by a newline at all (the last line may not be) */
	bool added;	 /* in a change block of the diff */
	unsigned oldmax; /* the widest old line of its change block */
};

static size_t split(const char *t, size_t n, struct fline **out)
{
	size_t k = 0, cap = 16;
	struct fline *l = xcalloc(cap, sizeof(*l));

	for (size_t i = 0; i < n;) {
		const char *nl = memchr(t + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - t) : n;

		if (k == cap)
			l = xrealloc(l, (cap *= 2) * sizeof(*l));
		memset(&l[k], 0, sizeof(l[k]));
		l[k].s = t + i;
		l[k].len = e - i;
		l[k].nl = nl != NULL;
		if (nl && l[k].len && t[e - 1] == '\r') {
			l[k].cr = true;
			l[k].len--;
		}
		k++;
		i = nl ? e + 1 : n;
	}
	*out = l;
	return k;
}

/* The visual column after @n bytes of @s, from column @col (tabs of 8). */
static unsigned width_from(unsigned col, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		col = s[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

/* Indentation to column @col: tabs, then spaces unless @tabs_only; spaces only when
 * @no_tabs (a line indented with spaces keeps that style) */
static void put_indent(struct sbuf *o, unsigned col, bool tabs_only, bool no_tabs)
{
	for (unsigned i = 0; !no_tabs && i < col / 8; i++)
		sbuf_add(o, "\t");
	for (unsigned i = 0; !tabs_only && i < (no_tabs ? col : col % 8); i++)
		sbuf_add(o, " ");
}

static size_t lead(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static bool starts_with_word(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && !memcmp(s, w, k) &&
	       (n == k || !(s[k] == '_' || (s[k] >= 'a' && s[k] <= 'z') ||
			    (s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= '0' && s[k] <= '9')));
}

/*
 * Whether the line after @s (a line of code, trimmed here) starts a statement: @s ends
 * one (`;`, a brace, a label), is a control line (`if (...)`, `else`), a preprocessor or
 * comment line.  Otherwise the next line continues @s's statement.
 */
static bool ends_statement(const char *s, size_t n)
{
	size_t b = lead(s, n), depth = 0;
	const char *c;

	s += b;
	n -= b;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n || s[0] == '#' || s[0] == '*' || (n >= 2 && !memcmp(s, "/*", 2)))
		return true;
	if (n >= 2 && !memcmp(s + n - 2, "*/", 2)) { /* a trailing comment */
		for (c = s + n - 2; c > s && memcmp(c, "/*", 2); c--)
			;
		n = (size_t)(c - s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (!n)
			return true;
	}
	switch (s[n - 1]) {
	case ';':
	case '{':
	case '}': return true;
	case ':': return !memchr(s, '?', n);
	case ')':
		if (s[0] == '}') {
			s++;
			n--;
			b = lead(s, n);
			s += b;
			n -= b;
		}
		if (starts_with_word(s, n, "else")) {
			s += 4;
			n -= 4;
			b = lead(s, n);
			s += b;
			n -= b;
		}
		if (!starts_with_word(s, n, "if") && !starts_with_word(s, n, "for") &&
		    !starts_with_word(s, n, "while") && !starts_with_word(s, n, "switch"))
			return false;
		for (size_t i = 0; i < n; i++) {
			if (s[i] == '(')
				depth++;
			else if (s[i] == ')' && depth-- == 0)
				return false;
		}
		return depth == 0;
	default:
		b = s[0] == '}' ? 1 + lead(s + 1, n - 1) : 0;
		return (n == b + 4 && starts_with_word(s + b, n - b, "else")) ||
		       (n == b + 2 && starts_with_word(s + b, n - b, "do"));
	}
}

static bool ends_with_comma(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n && s[n - 1] == ',';
}

static bool ends_with_char(const char *s, size_t n, char c)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n && s[n - 1] == c;
}

/*
 * Whether @s is a declaration: TYPE NAME; (type words, `*`), or with @init an
 * initializer, an array or more names too.  Keywords that start statements are not
 * types.
 */
static bool is_decl(const char *s, size_t n, bool init)
{
	static const char *const stmt[] = {"return",  "goto",	"break", "continue", "case",
					   "default", "else",	"do",	 "if",	     "while",
					   "for",     "switch", "sizeof"};
	size_t i = lead(s, n), words = 0;

	while (i < n) {
		size_t a = i;

		while (i < n && (s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
				 (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			i++;
		if (i == a)
			break;
		if (!words)
			for (size_t k = 0; k < sizeof(stmt) / sizeof(stmt[0]); k++)
				if (i - a == strlen(stmt[k]) && !memcmp(s + a, stmt[k], i - a))
					return false;
		words++;
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '*'))
			i++;
	}
	if (words < 2 || i >= n)
		return false;
	if (s[i] == ';')
		return lead(s + i + 1, n - i - 1) == n - i - 1;
	return init && (s[i] == '=' || s[i] == '[' || s[i] == ',');
}

/* The code of @s ends where a comment starts (outside strings); its length. */
static size_t code_end(const char *s, size_t n)
{
	char q = 0;

	for (size_t i = 0; i < n; i++) {
		if (q) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == q)
				q = 0;
		} else if (s[i] == '"' || s[i] == '\'') {
			q = s[i];
		} else if (s[i] == '/' && i + 1 < n && (s[i + 1] == '*' || s[i + 1] == '/')) {
			return i;
		}
	}
	return n;
}

/*
 * @s (a whole line, @n bytes) broken after its arguments' commas as spatch breaks the
 * lines it writes, into @o with @eol between the lines; false (nothing written) when it
 * has no call with two arguments or needs no break.
 */
/* comment_too: the line is too wide only with its trailing comment, so the last
 * argument goes on a line of its own unless the comment fits after it there */
static bool break_line(struct sbuf *o, const char *s, size_t n, const char *eol, bool comment_too)
{
	size_t ce = code_end(s, n), paren = (size_t)-1;
	size_t stack[64], depth = 0, commas[64], nc = 0;
	char q = 0;
	struct sbuf out = {0};
	unsigned w, align;
	bool broke = false;

	/* the first open parenthesis (from the left) whose own arguments hold a comma */
	for (size_t i = 0; i < ce; i++) {
		if (q) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == q)
				q = 0;
			continue;
		}
		if (s[i] == '"' || s[i] == '\'') {
			q = s[i];
		} else if (s[i] == '(') {
			if (depth == 64)
				return false;
			stack[depth++] = i;
		} else if (s[i] == ')') {
			if (!depth)
				continue;
			if (stack[--depth] == paren)
				break;
		} else if (s[i] == ',' && depth) {
			if (paren == (size_t)-1)
				paren = stack[depth - 1];
			if (stack[depth - 1] == paren && nc < 64)
				commas[nc++] = i;
		}
	}
	if (paren == (size_t)-1 || !nc)
		return false;
	align = width_from(0, s, paren + 1);
	sbuf_addn(&out, s, commas[0] + 1);
	w = width_from(0, s, commas[0] + 1);
	for (size_t k = 0; k < nc; k++) {
		size_t a = commas[k] + 1, e, ew;
		bool last = k + 1 == nc;

		while (a < ce && (s[a] == ' ' || s[a] == '\t'))
			a++;
		if (last) {
			e = n; /* the rest of the line, its comment too */
			ew = ce;
			while (ew > a && (s[ew - 1] == ' ' || s[ew - 1] == '\t'))
				ew--;
		} else {
			e = ew = commas[k + 1] + 1;
		}
		/* spatch keeps an argument and its comma while the line stays within 78
		 * columns (the space after the comma counted), the last with the rest
		 * of the statement within 79 */
		if (width_from(w + 1, s + a, ew - a) <=
			(unsigned)(last ? FIX_WIDTH - 1 : FIX_WIDTH - 2) &&
		    (!last || !comment_too ||
		     width_from(w + 1, s + a, e - a) <= CHECKPATCH_WIDTH)) {
			sbuf_add(&out, " ");
			w = width_from(w + 1, s + a, e - a);
		} else {
			sbuf_add(&out, eol);
			put_indent(&out, align, false, !memchr(s, '\t', lead(s, n)));
			w = width_from(align, s + a, e - a);
			broke = true;
		}
		sbuf_addn(&out, s + a, e - a);
	}
	if (broke) {
		char *t = sbuf_take(&out);

		sbuf_add(o, t);
		free(t);
	} else {
		free(sbuf_take(&out));
	}
	return broke;
}

static char *fix(const char *old, size_t old_len, const char *new, size_t new_len, size_t *out_len)
{
	struct udiff_hunk *h = NULL;
	struct fline *ol = NULL, *nl = NULL;
	size_t nh = 0, no, nn;
	struct sbuf o = {0};
	bool changed = false;
	int delta = 0;			 /* the shift of the statement the next lines continue */
	const struct fline *prev = NULL; /* the last non-blank line written */
	char *res = NULL;

	if (udiff_hunks(old, old_len, new, new_len, &h, &nh) < 0 || !nh) {
		free(h);
		return NULL;
	}
	no = split(old, old_len, &ol);
	nn = split(new, new_len, &nl);
	for (size_t k = 0; k < nh; k++) {
		unsigned m = 0;

		for (unsigned i = h[k].old_first; i < h[k].old_first + h[k].old_count; i++)
			if (i >= 1 && i <= no && width_from(0, ol[i - 1].s, ol[i - 1].len) > m)
				m = width_from(0, ol[i - 1].s, ol[i - 1].len);
		for (unsigned i = h[k].new_first; i < h[k].new_first + h[k].new_count; i++)
			if (i >= 1 && i <= nn) {
				nl[i - 1].added = true;
				nl[i - 1].oldmax = m;
			}
	}
	for (size_t i = 0; i < nn; i++) {
		struct fline *l = &nl[i];
		const char *eol = l->cr ? "\r\n" : "\n";
		size_t b = lead(l->s, l->len);
		bool stmt = !prev || ends_statement(prev->s, prev->len);
		struct sbuf line = {0};
		bool joined = false;
		char *t;

		if (b == l->len) { /* a blank line */
			sbuf_addn(&o, l->s, l->len + l->cr + l->nl);
			continue;
		}
		if (!l->added) {
			delta = 0;
			sbuf_addn(&o, l->s, l->len + l->cr + l->nl);
			prev = l;
			continue;
		}
		if (stmt)
			delta = 0;
		if (memchr(l->s, '\t', b)) {
			unsigned col = width_from(0, l->s, b), ncol = col, nsp = 0;
			bool space_tab = false, stmt_fix;
			size_t j = 0;

			for (size_t k = 0; k + 1 < b; k++)
				space_tab |= l->s[k] == ' ' && l->s[k + 1] == '\t';
			while (j < b && l->s[j] == '\t')
				j++;
			nsp = (unsigned)(b - j);
			/* tabs then 1-7 spaces (nothing after) before a statement */
			stmt_fix =
			    stmt && l->s[b] != '*' &&
			    (space_tab || (!memchr(l->s + j, '\t', b - j) && nsp && nsp < 8));
			if (stmt_fix) {
				ncol = col / 8 * 8;
				delta = (int)ncol - (int)col;
			} else if (!stmt && (int)col + delta >= 0) {
				ncol = (unsigned)((int)col + delta);
			}
			if (stmt_fix || space_tab || ncol != col) {
				put_indent(&line, ncol, stmt_fix, false);
				sbuf_addn(&line, l->s + b, l->len - b);
			}
			/* its continuation lines were aligned by the broken indentation
			 * (spatch counts it otherwise): the statement is laid out again */
			if (stmt_fix && ends_with_comma(l->s, l->len)) {
				while (i + 1 < nn && nl[i + 1].added &&
				       lead(nl[i + 1].s, nl[i + 1].len) < nl[i + 1].len &&
				       code_end(nl[i + 1].s, nl[i + 1].len) == nl[i + 1].len &&
				       !ends_statement(nl[i].s, nl[i].len)) {
					size_t c = lead(nl[i + 1].s, nl[i + 1].len);

					i++;
					sbuf_add(&line, " ");
					sbuf_addn(&line, nl[i].s + c, nl[i].len - c);
					joined = true;
				}
				l = &nl[i];
				delta = 0;
			}
		}
		if (!line.len)
			sbuf_addn(&line, l->s, l->len);
		t = sbuf_take(&line);
		{
			size_t tl = strlen(t);
			unsigned w = width_from(0, t, code_end(t, tl)), wall = width_from(0, t, tl);
			/* the driver's trailing comment after a call that grew: checkpatch
			 * measures the whole line */
			bool comment_too = wall > CHECKPATCH_WIDTH;

			if ((w >= FIX_WIDTH || comment_too) &&
			    (joined || (w >= FIX_WIDTH ? w : wall) > l->oldmax) &&
			    t[lead(t, tl)] != '#' && t[tl - 1] != '\\' &&
			    break_line(&o, t, tl, eol, comment_too))
				changed = true;
			else
				sbuf_addn(&o, t, tl);
			changed |= tl != l->len || memcmp(t, l->s, tl);
		}
		free(t);
		if (l->nl)
			sbuf_add(&o, eol);
		/* a declaration the conversion adds at the top of a block, right before
		 * a statement it adds too: a blank line after the declarations (a
		 * declaration renamed in place keeps the original's spacing) */
		if (l->nl && i + 1 < nn && nl[i + 1].added && is_decl(l->s, l->len, false) &&
		    (!prev || is_decl(prev->s, prev->len, true) ||
		     ends_with_char(prev->s, prev->len, '{')) &&
		    lead(nl[i + 1].s, nl[i + 1].len) < nl[i + 1].len &&
		    !is_decl(nl[i + 1].s, nl[i + 1].len, true) &&
		    nl[i + 1].s[lead(nl[i + 1].s, nl[i + 1].len)] != '}' &&
		    nl[i + 1].s[lead(nl[i + 1].s, nl[i + 1].len)] != '#') {
			sbuf_add(&o, eol);
			changed = true;
		}
		prev = l;
	}
	if (changed) {
		res = sbuf_take(&o);
		*out_len = strlen(res);
	} else {
		free(sbuf_take(&o));
	}
	free(h);
	free(ol);
	free(nl);
	return res;
}

void indent_fix_text(const char *old, size_t old_len, char **new, size_t *new_len)
{
	char *r;
	size_t len = 0;

	if (!*new || memchr(*new, '\0', *new_len))
		return;
	r = fix(old, old_len, *new, *new_len, &len);
	if (r) {
		free(*new);
		*new = r;
		*new_len = len;
	}
}
