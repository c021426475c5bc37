/*
 * output_guard.c - the confinement check on a rewritten file (issue 25, item 1).
 *
 * A spatch that exits 0 after truncating a file, or after writing garbage in place of a
 * call, must not get its output written; nor may a bug in the analyzer's own rewrite
 * reach code that no site asked to change.  Before anything is written, the change
 * blocks of old -> new (udiff.c) are checked against the regions a correct conversion
 * of the file's sites touches, from what the analysis knows and from the original text
 * alone (no parse: the check is cheap and cannot disagree with a parse context):
 *
 *   - the lines of every site;
 *   - the top-level definition (a function: its header and body) that holds a site:
 *     the call's rewrite, a renamed uptodate local or parameter, a #define constant
 *     resolved, a hoisted declaration among the declarations, a housekeeping call
 *     dropped beside the call;
 *   - every definition that calls one of those, transitively: the callers of a
 *     converted wrapper, whose arguments change (in other functions of the file);
 *   - every line that uses end_io_error (spelled out as unlikely((u) <= 0) anywhere,
 *     macro bodies included), up to the end of its parentheses;
 *   - a file-scope #define (with its continuation lines) or declaration that names a
 *     legacy completion call, end_io_error or one of the functions above; a
 *     declaration also when it names a function with a site in another file (the
 *     prototype of a non-static wrapper converted there, in a header of the driver);
 *   - an insertion next to an allowed region, across blank and comment lines (a
 *     version guard #if ... #else ... #endif around a function, a callback inserted
 *     before it); a blank line changed there likewise.
 *
 * Anything else (the file truncated, another function changed, a line written at file
 * scope) and the file is left byte for byte by the caller.  The cost is linear in the
 * file: one masking pass, one pass for the top-level definitions, one for the calls
 * between them (a hash of the definitions' names), one diff.
 */
#include "output_guard.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "udiff.h"
#include "util.h"
#include "vec.h"

struct block {
	unsigned lead, head, last; /* first line after the previous construct, header, '}' */
	size_t open, close;	   /* offsets of its '{' and '}' */
	size_t name, name_len;	   /* the identifier before the header's first '(' (or 0 len) */
	bool active;
};

/* A top-level declaration (up to its ';'): its lines and offsets. */
struct decl {
	unsigned head, last;
	size_t from, to;
};

struct guard {
	const char *s; /* the original with comments and literals blanked (newlines kept) */
	size_t len;
	unsigned nlines;
	size_t *line_off; /* line_off[l]: offset of line l (1-based); [nlines + 1] = len */
	bool *gap;	  /* the line holds no code (blank or comment only) */
	bool *blank;	  /* the line is white space only in the original */
	bool *pp;	  /* a preprocessor line (or its continuation) */
	bool *pp_start;	  /* the first line of a directive */
	bool *other;	  /* in an #else or #elif branch: not counted for braces */
	bool *allowed;
	struct block *b;
	size_t nb;
	struct decl *d;
	size_t nd;
	size_t *slots; /* name hash: block index + 1, 0 empty */
	size_t nslots;
};

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* @orig with comments and the contents of string and character literals blanked. */
static char *mask(const char *o, size_t len)
{
	char *m = xmalloc(len + 1);

	memcpy(m, o, len);
	m[len] = '\0';
	for (size_t i = 0; i < len; i++) {
		if (o[i] == '/' && i + 1 < len && o[i + 1] == '*') {
			size_t j = i + 2;

			while (j + 1 < len && !(o[j] == '*' && o[j + 1] == '/'))
				j++;
			j = j + 1 < len ? j + 2 : len;
			for (size_t k = i; k < j; k++)
				if (m[k] != '\n')
					m[k] = ' ';
			i = j - 1;
		} else if (o[i] == '/' && i + 1 < len && o[i + 1] == '/') {
			while (i < len && o[i] != '\n')
				m[i++] = ' ';
			i--;
		} else if (o[i] == '"' || o[i] == '\'') {
			char q = o[i];
			size_t j = i + 1;

			while (j < len && o[j] != q && o[j] != '\n') {
				if (o[j] == '\\' && j + 1 < len && o[j + 1] != '\n')
					m[j++] = ' ';
				m[j++] = ' ';
			}
			i = j < len && o[j] == q ? j : j - 1;
		}
	}
	return m;
}

static void lines(struct guard *g, const char *orig)
{
	unsigned n = 1;

	for (size_t i = 0; i < g->len; i++)
		n += g->s[i] == '\n' && i + 1 < g->len;
	if (!g->len)
		n = 0;
	g->nlines = n;
	g->line_off = xcalloc(n + 2, sizeof(size_t));
	g->gap = xcalloc(n + 2, sizeof(bool));
	g->blank = xcalloc(n + 2, sizeof(bool));
	g->pp = xcalloc(n + 2, sizeof(bool));
	g->pp_start = xcalloc(n + 2, sizeof(bool));
	g->other = xcalloc(n + 2, sizeof(bool));
	g->allowed = xcalloc(n + 2, sizeof(bool));
	for (unsigned l = 1; l <= n; l++) {
		size_t a = l == 1 ? 0 : g->line_off[l], e;
		bool code = false, text = false;

		g->line_off[l] = a;
		for (e = a; e < g->len && g->s[e] != '\n'; e++) {
			code |= g->s[e] != ' ' && g->s[e] != '\t' && g->s[e] != '\r';
			text |= orig[e] != ' ' && orig[e] != '\t' && orig[e] != '\r';
		}
		g->gap[l] = !code;
		g->blank[l] = !text;
		g->line_off[l + 1] = e + 1 < g->len ? e + 1 : g->len;
	}
	/* preprocessor lines, with their continuations */
	for (unsigned l = 1; l <= n; l++) {
		size_t p = g->line_off[l];

		while (p < g->len && (g->s[p] == ' ' || g->s[p] == '\t'))
			p++;
		if (p >= g->len || g->s[p] != '#')
			continue;
		g->pp_start[l] = true;
		for (;;) {
			size_t e = g->line_off[l + 1];

			g->pp[l] = true;
			while (e > g->line_off[l] && (g->s[e - 1] == '\n' || g->s[e - 1] == '\r'))
				e--;
			if (l >= n || e == g->line_off[l] || g->s[e - 1] != '\\')
				break;
			l++;
		}
	}
	/*
	 * The braces are counted in the first branch of each #if only: a function whose
	 * header or an if differs by kernel version opens one brace per branch
	 * ("#if ...\n\tif (a) {\n#else\n\tif (b) {\n#endif"), and counting both would
	 * never close it.
	 */
	{
		unsigned char *skip = xcalloc(n + 2, 1); /* per #if nesting level (capped) */
		unsigned level = 0, skipping = 0;

		for (unsigned l = 1; l <= n; l++) {
			size_t p = g->line_off[l];

			if (!g->pp_start[l]) {
				g->other[l] = skipping > 0;
				continue;
			}
			while (p < g->len && (g->s[p] == ' ' || g->s[p] == '\t' || g->s[p] == '#'))
				p++;
			if (!strncmp(g->s + p, "if", 2)) {
				level++;
			} else if ((!strncmp(g->s + p, "else", 4) ||
				    !strncmp(g->s + p, "elif", 4)) &&
				   level && level <= n && !skip[level]) {
				skip[level] = 1;
				skipping++;
			} else if (!strncmp(g->s + p, "endif", 5) && level) {
				if (level <= n && skip[level]) {
					skip[level] = 0;
					skipping--;
				}
				level--;
			}
		}
		free(skip);
	}
}

static unsigned line_of(const struct guard *g, size_t off)
{
	unsigned lo = 1, hi = g->nlines;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo + 1) / 2;

		if (g->line_off[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* The top-level definitions and declarations of the file (preprocessor lines skipped). */
static void top_level(struct guard *g)
{
	size_t cap_b = 0, cap_d = 0, open = 0, name = 0, name_len = 0, last_id = 0, last_len = 0;
	size_t from = 0;
	unsigned boundary = 0, head = 0;
	int depth = 0, paren = 0;
	bool have_name = false;

	for (size_t i = 0; i < g->len; i++) {
		unsigned l;
		char c = g->s[i];

		if (c == '\n' || c == ' ' || c == '\t' || c == '\r')
			continue;
		l = line_of(g, i);
		if (g->pp[l]) { /* a directive: a boundary at file scope */
			i = g->line_off[l + 1] - 1;
			if (depth == 0 && !head)
				boundary = l;
			continue;
		}
		if (g->other[l]) { /* an #else branch: its lines belong where they stand */
			i = g->line_off[l + 1] - 1;
			continue;
		}
		if (depth == 0 && !head) {
			head = l;
			from = i;
		}
		if (ident_char(c)) {
			size_t a = i;

			while (i + 1 < g->len && ident_char(g->s[i + 1]))
				i++;
			last_id = a;
			last_len = i + 1 - a;
			continue;
		}
		if (depth == 0) {
			if (c == '(' && paren++ == 0 && !have_name && last_len) {
				have_name = true;
				name = last_id;
				name_len = last_len;
			} else if (c == ')' && paren > 0) {
				paren--;
			}
		}
		if (c == '{') {
			if (depth++ == 0)
				open = i;
		} else if (c == '}' && depth > 0) {
			if (--depth == 0) {
				struct block *b = vec_push(g->b, g->nb, cap_b);

				b->lead = boundary + 1;
				b->head = head ? head : l;
				b->last = l;
				b->open = open;
				b->close = i;
				b->name = have_name ? name : 0;
				b->name_len = have_name ? name_len : 0;
				b->active = false;
				/* "struct x {...} y;" or "= {...};": the ';' ends it, not a decl */
				boundary = l;
				head = 0;
				have_name = false;
				paren = 0;
				last_len = 0;
			}
		} else if (c == ';' && depth == 0) {
			if (head) {
				struct decl *d = vec_push(g->d, g->nd, cap_d);

				d->head = head;
				d->last = l;
				d->from = from;
				d->to = i + 1;
			}
			boundary = l;
			head = 0;
			have_name = false;
			paren = 0;
			last_len = 0;
		}
	}
	if (depth > 0 && g->nlines) { /* never closed: the block runs to the end */
		struct block *b = vec_push(g->b, g->nb, cap_b);

		b->lead = boundary + 1;
		b->head = head ? head : g->nlines;
		b->last = g->nlines;
		b->open = open;
		b->close = g->len;
		b->name = have_name ? name : 0;
		b->name_len = have_name ? name_len : 0;
		b->active = false;
	}
}

static size_t hash_mem(const char *s, size_t n)
{
	size_t h = 5381;

	for (size_t i = 0; i < n; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}

static void index_names(struct guard *g)
{
	g->nslots = 2 * g->nb + 1;
	g->slots = xcalloc(g->nslots, sizeof(size_t));
	for (size_t k = 0; k < g->nb; k++) {
		size_t h;

		if (!g->b[k].name_len)
			continue;
		h = hash_mem(g->s + g->b[k].name, g->b[k].name_len) % g->nslots;
		while (g->slots[h])
			h = (h + 1) % g->nslots;
		g->slots[h] = k + 1;
	}
}

/* Calls @fn(ctx, k) for every definition named @s[0..n). */
static void each_named(const struct guard *g, const char *s, size_t n,
		       void (*fn)(const struct guard *, size_t, void *), void *ctx)
{
	for (size_t h = hash_mem(s, n) % g->nslots; g->slots[h]; h = (h + 1) % g->nslots) {
		const struct block *b = &g->b[g->slots[h] - 1];

		if (b->name_len == n && !memcmp(g->s + b->name, s, n))
			fn(g, g->slots[h] - 1, ctx);
	}
}

static const char *const legacy[] = {
    "end_that_request_first", "end_that_request_chunk", "end_that_request_last", "end_request",
    "end_queued_request",     "end_dequeued_request",	"end_io_error",
};

static bool is_legacy(const char *s, size_t n)
{
	for (size_t k = 0; k < sizeof(legacy) / sizeof(legacy[0]); k++)
		if (strlen(legacy[k]) == n && !memcmp(legacy[k], s, n))
			return true;
	return false;
}

/* edges: callee definition -> a definition that calls it */
struct edge {
	size_t callee, caller;
};

struct edges {
	struct edge *v;
	size_t n, cap;
	size_t caller;
};

static void add_edge(const struct guard *g, size_t callee, void *ctx)
{
	struct edges *e = ctx;

	(void)g;
	if (callee != e->caller)
		*(struct edge *)vec_push(e->v, e->n, e->cap) = (struct edge){callee, e->caller};
}

static void found_active(const struct guard *g, size_t k, void *ctx)
{
	*(bool *)ctx |= g->b[k].active;
}

struct ext_names {
	const char *const *v; /* sorted */
	size_t n;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Is s[0..len) one of @x? */
static bool in_names(const struct ext_names *x, const char *s, size_t len)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(x->v[mid], s, len);

		if (!c)
			c = x->v[mid][len] ? 1 : 0;
		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Does s[from, to) name a legacy call, end_io_error, an active definition or, with @x,
 * a function with a site in another file (a prototype of a wrapper converted there)? */
static bool names_active(const struct guard *g, size_t from, size_t to, const struct ext_names *x)
{
	for (size_t i = from; i < to; i++) {
		size_t a = i;
		bool act = false;

		if (!ident_char(g->s[i]) || (i > 0 && ident_char(g->s[i - 1])))
			continue;
		while (i + 1 < to && ident_char(g->s[i + 1]))
			i++;
		if (is_legacy(g->s + a, i + 1 - a) ||
		    (x && x->n && in_names(x, g->s + a, i + 1 - a)))
			return true;
		each_named(g, g->s + a, i + 1 - a, found_active, &act);
		if (act)
			return true;
	}
	return false;
}

static size_t block_at(const struct guard *g, unsigned line)
{
	size_t lo = 0, hi = g->nb;

	while (lo < hi) { /* the first block whose last line is >= line */
		size_t mid = lo + (hi - lo) / 2;

		if (g->b[mid].last < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nb && g->b[lo].head <= line ? lo : g->nb;
}

static void mark_regions(struct guard *g, const struct og_site *sites, size_t n,
			 const struct ext_names *x)
{
	struct edges e = {0};
	size_t *queue = xcalloc(g->nb + 1, sizeof(size_t)), qn = 0, *first_edge, *order;

	for (size_t i = 0; i < n; i++) {
		size_t k = block_at(g, sites[i].first);

		for (unsigned l = sites[i].first; l <= sites[i].last && l <= g->nlines; l++)
			g->allowed[l] = true;
		if (k < g->nb && !g->b[k].active) {
			g->b[k].active = true;
			queue[qn++] = k;
		}
	}
	/* the calls between definitions: callee -> callers */
	for (size_t k = 0; k < g->nb; k++) {
		e.caller = k;
		for (size_t i = g->b[k].open; i < g->b[k].close; i++) {
			size_t a = i, p;

			if (!ident_char(g->s[i]) || ident_char(g->s[i - 1]))
				continue;
			while (ident_char(g->s[i + 1]))
				i++;
			for (p = i + 1; p < g->b[k].close && (g->s[p] == ' ' || g->s[p] == '\t' ||
							      g->s[p] == '\n' || g->s[p] == '\r');
			     p++)
				;
			if (g->s[p] != '(' || (g->s[a] >= '0' && g->s[a] <= '9'))
				continue;
			each_named(g, g->s + a, i + 1 - a, add_edge, &e);
			/* a caller of a wrapper converted in another file */
			if (x->n && !g->b[k].active && in_names(x, g->s + a, i + 1 - a)) {
				g->b[k].active = true;
				queue[qn++] = k;
			}
		}
	}
	/* edges grouped by callee (a counting sort), then the callers of the active ones */
	first_edge = xcalloc(g->nb + 2, sizeof(size_t));
	order = xcalloc(e.n + 1, sizeof(size_t));
	for (size_t j = 0; j < e.n; j++)
		first_edge[e.v[j].callee + 1]++;
	for (size_t k = 0; k < g->nb; k++)
		first_edge[k + 1] += first_edge[k];
	{
		size_t *fill = xcalloc(g->nb + 1, sizeof(size_t));

		for (size_t j = 0; j < e.n; j++)
			order[first_edge[e.v[j].callee] + fill[e.v[j].callee]++] = j;
		free(fill);
	}
	for (size_t q = 0; q < qn; q++) {
		size_t k = queue[q];

		for (size_t x = first_edge[k]; x < first_edge[k + 1]; x++) {
			size_t c = e.v[order[x]].caller;

			if (!g->b[c].active) {
				g->b[c].active = true;
				queue[qn++] = c;
			}
		}
	}
	for (size_t k = 0; k < g->nb; k++)
		if (g->b[k].active)
			for (unsigned l = g->b[k].head; l <= g->b[k].last; l++)
				g->allowed[l] = true;
	/* file-scope declarations (a wrapper's prototype) and #defines that name them */
	for (size_t k = 0; k < g->nd; k++)
		if (names_active(g, g->d[k].from, g->d[k].to, x))
			for (unsigned l = g->d[k].head; l <= g->d[k].last; l++)
				g->allowed[l] = true;
	for (unsigned l = 1; l <= g->nlines; l++) {
		unsigned e2 = l;

		if (!g->pp_start[l])
			continue;
		while (e2 < g->nlines && g->pp[e2 + 1] && !g->pp_start[e2 + 1])
			e2++;
		if (names_active(g, g->line_off[l], g->line_off[e2 + 1], NULL))
			for (unsigned x = l; x <= e2; x++)
				g->allowed[x] = true;
		l = e2;
	}
	/* end_io_error, anywhere: its line up to the end of its parentheses */
	for (const char *p = g->s; (p = memmem(p, g->len - (size_t)(p - g->s), "end_io_error", 12));
	     p += 12) {
		size_t off = (size_t)(p - g->s);
		int depth = 0;
		unsigned l = line_of(g, off);

		if ((off > 0 && ident_char(p[-1])) || (off + 12 < g->len && ident_char(p[12])))
			continue;
		g->allowed[l] = true;
		for (size_t i = off + 12; i < g->len; i++) {
			if (g->s[i] == '(')
				depth++;
			else if (g->s[i] == ')' && --depth <= 0)
				break;
			else if (g->s[i] == '\n' && depth > 0)
				g->allowed[line_of(g, i + 1)] = true;
			else if (depth == 0 && g->s[i] != ' ' && g->s[i] != '\t')
				break;
		}
	}
	free(first_edge);
	free(order);
	free(queue);
	free(e.v);
}

/* Across blank and comment lines from line @l (up with @dir -1, down with +1): the
 * first line with code, 0 or nlines + 1 past the ends. */
static unsigned across_gap(const struct guard *g, unsigned l, int dir)
{
	while (l >= 1 && l <= g->nlines && g->gap[l] && !g->pp[l])
		l = dir < 0 ? l - 1 : l + 1;
	return l;
}

static bool near_allowed(const struct guard *g, unsigned above, unsigned below)
{
	unsigned a = above >= 1 ? across_gap(g, above, -1) : 0,
		 b = below <= g->nlines ? across_gap(g, below, 1) : g->nlines + 1;

	return (a >= 1 && a <= g->nlines && g->allowed[a]) ||
	       (b >= 1 && b <= g->nlines && g->allowed[b]);
}

int output_guard_confined(const char *orig, size_t orig_len, const char *new, size_t new_len,
			  const struct og_site *sites, size_t n, const char *const *names,
			  size_t nnames, unsigned *bad_line)
{
	struct ext_names x = {NULL, 0};
	struct guard g = {0};
	struct udiff_hunk *h = NULL;
	size_t nh = 0;
	int rc = 1;

	*bad_line = 0;
	if (orig_len == new_len && !memcmp(orig, new, orig_len))
		return 1;
	if (udiff_hunks(orig, orig_len, new, new_len, &h, &nh) < 0)
		return -1;
	g.s = mask(orig, orig_len);
	g.len = orig_len;
	lines(&g, orig);
	top_level(&g);
	index_names(&g);
	if (nnames) {
		const char **v = xcalloc(nnames, sizeof(*v));

		memcpy(v, names, nnames * sizeof(*v));
		qsort(v, nnames, sizeof(*v), cmp_name);
		x.v = v;
		x.n = nnames;
	}
	mark_regions(&g, sites, n, &x);
	free((void *)x.v);
	for (size_t k = 0; k < nh && rc == 1; k++) {
		unsigned lo = h[k].old_first, hi = h[k].old_first + h[k].old_count;

		if (!h[k].old_count) { /* inserted before lo */
			if (!(lo <= g.nlines && g.allowed[lo]) && !(lo > 1 && g.allowed[lo - 1]) &&
			    !near_allowed(&g, lo - 1, lo)) {
				rc = 0;
				*bad_line = lo;
			}
			continue;
		}
		for (unsigned l = lo; l < hi; l++) {
			if (l <= g.nlines &&
			    (g.allowed[l] || (g.blank[l] && near_allowed(&g, l - 1, l + 1))))
				continue;
			rc = 0;
			*bad_line = l;
			break;
		}
	}
	free(h);
	free((char *)g.s);
	free(g.line_off);
	free(g.gap);
	free(g.blank);
	free(g.pp);
	free(g.pp_start);
	free(g.other);
	free(g.allowed);
	free(g.b);
	free(g.d);
	free(g.slots);
	return rc;
}

char *output_guard_message(const char *who, const char *orig, size_t orig_len, size_t new_len,
			   unsigned bad_line)
{
	unsigned nl = 0, l = 1;
	size_t a = 0, e;
	char text[64];
	size_t t = 0;

	for (size_t i = 0; i < orig_len; i++)
		nl += orig[i] == '\n';
	if (!new_len && orig_len)
		return xasprintf("%s is empty where the file has %u lines; not trusted: "
				 "nothing of this file is written",
				 who, nl);
	while (a < orig_len && l < bad_line) {
		l += orig[a] == '\n';
		a++;
	}
	if (a >= orig_len)
		return xasprintf("%s adds text at the end of the file, outside the sites being "
				 "converted and what their conversion may touch; not trusted: "
				 "nothing of this file is written",
				 who);
	while (a < orig_len && (orig[a] == ' ' || orig[a] == '\t'))
		a++;
	for (e = a; e < orig_len && orig[e] != '\n' && orig[e] != '\r' && t < 60; e++)
		text[t++] = orig[e] == '\t' ? ' ' : orig[e];
	if (e < orig_len && orig[e] != '\n' && orig[e] != '\r' && t >= 3)
		memcpy(text + t - 3, "...", 3);
	text[t] = '\0';
	return xasprintf(
	    "%s changes the file at line %u (`%s`), outside the sites being converted and "
	    "what their conversion may touch (the functions that hold them, the "
	    "callers of a converted wrapper, end_io_error, the legacy calls' "
	    "macros); not trusted: nothing of this file is written",
	    who, bad_line, text);
}
