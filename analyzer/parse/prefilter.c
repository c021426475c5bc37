/*
 * prefilter.c - a small C lexer that finds the legacy completion names in
 * raw source text, outside comments, string and character literals (like
 * spatch's token check).  Any such token makes a file parsed, and the hits
 * are the ground truth the AST sites are checked against: a call the lexer
 * sees and the AST does not becomes a manual "unparsed" site, so no call is
 * ever lost to a parse error.  Whether NAME( declares or calls is decided by
 * the AST where the file parsed (classify.c); the lexer's own guess here is
 * only the fallback, and it errs toward "call": it takes NAME( for a
 * declaration only right after a type keyword (the legacy functions return
 * void or int), never after an arbitrary identifier, which may be a macro.
 */
#include <ctype.h>
#include <string.h>

#include "analysis.h"

static const char *const legacy_names[] = {
    "end_that_request_first", "end_that_request_chunk", "end_that_request_last", "end_request",
    "end_queued_request",     "end_dequeued_request",
};

int bm_is_legacy_name(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(legacy_names) / sizeof(legacy_names[0]); i++)
		if (strlen(legacy_names[i]) == n && !memcmp(legacy_names[i], s, n))
			return 1;
	return 0;
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* Words after which NAME( can only be a declaration (return types). */
static int type_keyword(const char *s, size_t n)
{
	static const char *const kw[] = {"void", "int", "long", "unsigned", "signed", "bool"};

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strlen(kw[i]) == n && !memcmp(kw[i], s, n))
			return 1;
	return 0;
}

/* Skip spaces, newlines, line continuations and comments from p. */
static size_t skip_space(const char *s, size_t len, size_t p)
{
	while (p < len) {
		if (isspace((unsigned char)s[p]) ||
		    (s[p] == '\\' && p + 1 < len && s[p + 1] == '\n')) {
			p++;
		} else if (s[p] == '/' && p + 1 < len && s[p + 1] == '*') {
			const char *e = memmem(s + p + 2, len - p - 2, "*/", 2);

			p = e ? (size_t)(e - s) + 2 : len;
		} else if (s[p] == '/' && p + 1 < len && s[p + 1] == '/') {
			while (p < len && s[p] != '\n')
				p++;
		} else {
			break;
		}
	}
	return p;
}

/* Every legacy name holds one of these: a text without them has no hit, and most of
 * a tree's files are spared the lexer. */
static bool may_hold_legacy_name(const char *s, size_t len)
{
	static const char *const parts[] = {"end_that_request_", "end_request", "queued_request"};

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (memmem(s, len, parts[i], strlen(parts[i])))
			return true;
	return false;
}

size_t bm_prefilter(const char *s, size_t len, struct bm_hit **out)
{
	struct bm_hit *v = NULL;
	size_t n = 0, cap = 0, p = 0;
	unsigned line = 1;
	size_t line_start = 0;
	int in_directive = 0, at_line_start = 1;
	size_t prev_start = 0, prev_len = 0; /* previous significant token */
	char prev_kind = 0;		     /* 'i' identifier, 'p' punctuation */

	if (!may_hold_legacy_name(s, len))
		p = len;
	while (p < len) {
		char c = s[p];

		if (c == '\n') {
			if (!(p > 0 && s[p - 1] == '\\') && in_directive) {
				in_directive = 0;
				prev_kind = 'p';
				prev_len = 0;
			}
			line++;
			line_start = p + 1;
			at_line_start = 1;
			p++;
			continue;
		}
		if (isspace((unsigned char)c)) {
			p++;
			continue;
		}
		if (c == '/' && p + 1 < len && s[p + 1] == '*') {
			size_t e = p + 2;

			while (e + 1 < len && !(s[e] == '*' && s[e + 1] == '/')) {
				if (s[e] == '\n') {
					line++;
					line_start = e + 1;
				}
				e++;
			}
			p = e + 2 > len ? len : e + 2;
			continue;
		}
		if (c == '/' && p + 1 < len && s[p + 1] == '/') {
			while (p < len && s[p] != '\n')
				p++;
			continue;
		}
		if (c == '#' && at_line_start) {
			in_directive = 1;
			at_line_start = 0;
			p++;
			/* #include <...>: skip the header name */
			size_t q = skip_space(s, len, p);

			if (len - q >= 7 && !memcmp(s + q, "include", 7)) {
				while (p < len && s[p] != '\n')
					p++;
			}
			prev_kind = 'p';
			continue;
		}
		at_line_start = 0;
		if (c == '"' || c == '\'') {
			size_t e = p + 1;

			while (e < len && s[e] != c && s[e] != '\n') {
				if (s[e] == '\\' && e + 1 < len) {
					if (s[e + 1] == '\n') {
						line++;
						line_start = e + 2;
					}
					e++;
				}
				e++;
			}
			p = e < len ? e + 1 : len;
			prev_kind = 'l';
			continue;
		}
		if (is_ident((unsigned char)c)) {
			size_t e = p;

			while (e < len && is_ident((unsigned char)s[e]))
				e++;
			if (!isdigit((unsigned char)c) && bm_is_legacy_name(s + p, e - p)) {
				size_t q = skip_space(s, len, e);
				int paren = q < len && s[q] == '(';
				int member = prev_kind == 'p' && prev_len &&
					     ((prev_len == 1 && s[prev_start] == '.') ||
					      (prev_len == 2 && !memcmp(s + prev_start, "->", 2)));
				/* in a macro body the word before is the macro's name: only
				 * "#define end_request(...)" itself is a definition; elsewhere
				 * only a return type makes one (a macro before a call, as in
				 * "} DRV_END end_request(rq, 1);", must stay a call) */
				int after_define =
				    prev_len == 6 && !memcmp(s + prev_start, "define", 6);
				int decl = prev_kind == 'i' &&
					   (in_directive ? after_define
							 : type_keyword(s + prev_start, prev_len));

				struct bm_hit *ls = vec_push(v, n, cap);

				ls->offset = p;
				ls->end = e;
				ls->line = line;
				ls->column = (unsigned)(p - line_start) + 1;
				ls->name = xstrndup(s + p, e - p);
				ls->call = paren && !member;
				ls->lex_decl = ls->call && decl;
				ls->in_define = in_directive;
			}
			prev_start = p;
			prev_len = e - p;
			prev_kind = isdigit((unsigned char)c) ? 'n' : 'i';
			p = e;
			continue;
		}
		if (c == '-' && p + 1 < len && s[p + 1] == '>') {
			prev_start = p;
			prev_len = 2;
			prev_kind = 'p';
			p += 2;
			continue;
		}
		prev_start = p;
		prev_len = 1;
		prev_kind = 'p';
		p++;
	}
	*out = v;
	return n;
}

void bm_hits_free(struct bm_hit *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(h[i].name);
	free(h);
}

int bm_looks_binary(const char *s, size_t len)
{
	size_t ctrl = 0;

	if (memchr(s, '\0', len))
		return 1;
	/* no branch in the loop: the compiler makes it a vector loop */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		ctrl += c < 32 && (c < '\t' || c > '\r');
	}
	return len && ctrl * 20 > len;
}

char *bm_binary_reason(const char *s, size_t len, size_t *nhits)
{
	const char *nul = memchr(s, '\0', len);
	struct bm_hit *hits = NULL;
	size_t n = bm_prefilter(s, len, &hits);

	bm_hits_free(hits, n);
	*nhits = n;
	if (!n)
		return xstrdup(BM_BINARY_REASON);
	return xasprintf(BM_BINARY_REASON " (%s at offset %zu), with %zu legacy completion "
					  "call name%s in it; not converted, left untouched",
			 nul ? "a NUL byte" : "control characters",
			 nul ? (size_t)(nul - s) : (size_t)0, n, n == 1 ? "" : "s");
}

char *bm_blank_comments(const char *s, size_t len)
{
	char *o = xstrndup(s, len);
	size_t p = 0;

	while (p < len) {
		if (s[p] == '/' && p + 1 < len && s[p + 1] == '*') {
			size_t e = p + 2;

			while (e + 1 < len && !(s[e] == '*' && s[e + 1] == '/'))
				e++;
			e = e + 2 > len ? len : e + 2;
			for (size_t i = p; i < e; i++)
				if (o[i] != '\n')
					o[i] = ' ';
			p = e;
		} else if (s[p] == '/' && p + 1 < len && s[p + 1] == '/') {
			while (p < len && s[p] != '\n')
				o[p++] = ' ';
		} else if (s[p] == '"' || s[p] == '\'') {
			char q = s[p];
			size_t e = p + 1;

			while (e < len && s[e] != q && s[e] != '\n') {
				if (s[e] == '\\' && e + 1 < len)
					e++;
				e++;
			}
			for (size_t i = p + 1; i < e && i < len; i++)
				if (o[i] != '\n')
					o[i] = ' ';
			p = e < len ? e + 1 : len;
		} else if (s[p] == '#') {
			/* #include <x>: blank the header name */
			size_t e = p + 1;

			while (e < len && (s[e] == ' ' || s[e] == '\t'))
				e++;
			if (len - e >= 7 && !memcmp(s + e, "include", 7)) {
				while (e < len && s[e] != '\n')
					o[e++] = ' ';
				p = e;
			} else {
				p++;
			}
		} else {
			p++;
		}
	}
	return o;
}
