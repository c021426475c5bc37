/*
 * migrate_combine.c - migrate's choice, site by site, between spatch's rewrite and the
 * analyzer's.
 *
 * Owns the text side of that choice: which of spatch's change blocks touch which site,
 * undoing the blocks of the sites whose rewrite the analysis does not accept (so the
 * rest of the file keeps spatch's proven conversions and the analyzer gets the undone
 * sites back as legacy calls), and reading which lock contract a rewrite chose.
 * cmd_migrate.c decides which sites to reject and reports why.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate_combine.h"
#include "vec.h"
#include "udiff.h"
#include "util.h"

/* Does change block @h overlap lines [first, last]? An insertion counts for the lines
 * on both sides of it. */
static bool overlaps(const struct udiff_hunk *h, unsigned first, unsigned last)
{
	unsigned a = h->old_first, b = h->old_first + h->old_count - 1;

	if (!h->old_count) {
		a = h->old_first > 1 ? h->old_first - 1 : 1;
		b = h->old_first;
	}
	return a <= last && b >= first;
}

int combine_mark_touched(const char *orig, size_t orig_len, const char *spatched,
			 size_t spatched_len, struct combine_site *sites, size_t n)
{
	struct udiff_hunk *h;
	size_t nh;

	for (size_t i = 0; i < n; i++)
		sites[i].touched = false;
	if (udiff_hunks(orig, orig_len, spatched, spatched_len, &h, &nh) < 0)
		return -1;
	for (size_t k = 0; k < nh; k++)
		for (size_t i = 0; i < n; i++)
			if (overlaps(&h[k], sites[i].first, sites[i].last))
				sites[i].touched = true;
	free(h);
	return 0;
}

/* A top-level definition's lines: from after the previous top-level construct to its '}'. */
struct extent {
	unsigned first, last;
};

/*
 * The top-level brace blocks of C text @s (function bodies, with the lines of their
 * header before them; also struct and initializer bodies), skipping comments, string
 * and character literals and preprocessor lines. Returns how many, in *@out (malloc'd).
 */
static size_t top_level_blocks(const char *s, size_t len, struct extent **out)
{
	size_t n = 0, cap = 0;
	unsigned line = 1, after_top = 0, open_line = 0;
	int depth = 0;
	bool line_start = true;
	struct extent *v = NULL;

	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (ch == '\n') {
			line++;
			line_start = true;
			continue;
		}
		if (line_start && ch == '#') { /* a preprocessor line, with continuations */
			while (i < len && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < len && s[i + 1] == '\n')
					line++, i++;
				i++;
			}
			i--;
			continue;
		}
		if (ch != ' ' && ch != '\t')
			line_start = false;
		if (ch == '/' && i + 1 < len && s[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(s[i] == '*' && s[i + 1] == '/'); i++)
				line += s[i] == '\n';
			i++;
		} else if (ch == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i + 1 < len && s[i + 1] != '\n')
				i++;
		} else if (ch == '"' || ch == '\'') {
			for (i++; i < len && s[i] != ch; i++) {
				if (s[i] == '\\' && i + 1 < len)
					line += s[++i] == '\n';
				else
					line += s[i] == '\n';
			}
		} else if (ch == '{') {
			if (depth++ == 0)
				open_line = line;
		} else if (ch == '}' && depth > 0) {
			if (--depth == 0) {
				struct extent *e = vec_push(v, n, cap);

				e->first = after_top + 1 < open_line ? after_top + 1 : open_line;
				e->last = line;
				after_top = line;
			}
		} else if (ch == ';' && depth == 0) {
			after_top = line;
		}
	}
	*out = v;
	return n;
}

/* Byte offset of the start of 1-based line @line in @s (or @len past the end). */
static size_t line_start(const char *s, size_t len, unsigned line)
{
	size_t off = 0;

	for (unsigned l = 1; l < line && off < len; l++) {
		const char *nl = memchr(s + off, '\n', len - off);

		off = nl ? (size_t)(nl - s) + 1 : len;
	}
	return off;
}

/* A change block, and the site lines it belongs to beyond its own (0: none). */
struct block {
	struct udiff_hunk h;
	unsigned cover_first, cover_last;
};

static bool block_overlaps(const struct block *b, unsigned first, unsigned last)
{
	return overlaps(&b->h, first, last) ||
	       (b->cover_first && b->cover_first <= last && b->cover_last >= first);
}

/*
 * A change block that covers no site's lines but lies in the definition of a function
 * with sites (a renamed local `uptodate`, a removed `flags` declaration) belongs to those
 * sites: it covers their lines too, so it is kept or undone with them. Not when @strict.
 */
static void attribute_to_definitions(const char *orig, size_t orig_len, struct block *bl, size_t nb,
				     const struct combine_site *sites, size_t n, bool strict)
{
	struct extent *ext;
	size_t next;

	if (strict)
		return;
	next = top_level_blocks(orig, orig_len, &ext);
	for (size_t k = 0; k < nb; k++) {
		bool covers = false;
		unsigned lo = bl[k].h.old_first, hi = bl[k].h.old_first + bl[k].h.old_count;

		for (size_t i = 0; i < n && !covers; i++)
			covers = overlaps(&bl[k].h, sites[i].first, sites[i].last);
		for (size_t e = 0; e < next && !covers; e++) {
			if (lo < ext[e].first || hi > ext[e].last + 1)
				continue;
			for (size_t i = 0; i < n; i++) {
				if (sites[i].first < ext[e].first || sites[i].last > ext[e].last)
					continue;
				if (!bl[k].cover_first || sites[i].first < bl[k].cover_first)
					bl[k].cover_first = sites[i].first;
				if (sites[i].last > bl[k].cover_last)
					bl[k].cover_last = sites[i].last;
			}
			break;
		}
	}
	free(ext);
}

int combine_revert(const char *orig, size_t orig_len, const char *spatched, size_t spatched_len,
		   struct combine_site *sites, size_t n, bool strict, char **out, size_t *out_len)
{
	struct udiff_hunk *h;
	struct block *bl;
	size_t nh, len = 0;
	bool *undo, any = false, orphan = false, grew = true;
	char *res;
	int rc = 0;

	*out = NULL;
	*out_len = 0;
	if (udiff_hunks(orig, orig_len, spatched, spatched_len, &h, &nh) < 0)
		return -1;
	bl = xcalloc(nh + 1, sizeof(*bl));
	for (size_t k = 0; k < nh; k++)
		bl[k].h = h[k];
	attribute_to_definitions(orig, orig_len, bl, nh, sites, n, strict);
	undo = xcalloc(nh + 1, sizeof(bool));
	for (size_t k = 0; k < nh; k++) {
		bool covers = false;

		for (size_t i = 0; i < n; i++) {
			if (!block_overlaps(&bl[k], sites[i].first, sites[i].last))
				continue;
			covers = true;
			if (sites[i].reject)
				undo[k] = any = true;
		}
		orphan |= !covers;
	}
	if (!any)
		goto out;
	if (orphan) {
		rc = -1;
		goto out;
	}
	/* a site one undone block covers is undone whole, and so on */
	while (grew) {
		grew = false;
		for (size_t i = 0; i < n; i++) {
			bool part = false, all = true;

			for (size_t k = 0; k < nh; k++) {
				if (!block_overlaps(&bl[k], sites[i].first, sites[i].last))
					continue;
				part |= undo[k];
				all &= undo[k];
			}
			if (!part)
				continue;
			sites[i].reverted = true;
			for (size_t k = 0; k < nh && !all; k++)
				if (block_overlaps(&bl[k], sites[i].first, sites[i].last) &&
				    !undo[k])
					undo[k] = grew = true;
		}
	}
	/* orig outside the blocks; inside, spatch's lines or the original ones */
	res = xmalloc(orig_len + spatched_len + 1);
	{
		unsigned oline = 1;

		for (size_t k = 0; k < nh; k++) {
			size_t a = line_start(orig, orig_len, oline),
			       b = line_start(orig, orig_len, h[k].old_first);
			size_t e = line_start(orig, orig_len, h[k].old_first + h[k].old_count);

			memcpy(res + len, orig + a, b - a);
			len += b - a;
			if (undo[k]) {
				memcpy(res + len, orig + b, e - b);
				len += e - b;
			} else {
				size_t sa = line_start(spatched, spatched_len, h[k].new_first),
				       sb = line_start(spatched, spatched_len,
						       h[k].new_first + h[k].new_count);

				memcpy(res + len, spatched + sa, sb - sa);
				len += sb - sa;
			}
			oline = h[k].old_first + h[k].old_count;
		}
		{
			size_t a = line_start(orig, orig_len, oline);

			memcpy(res + len, orig + a, orig_len - a);
			len += orig_len - a;
		}
	}
	res[len] = '\0';
	*out = res;
	*out_len = len;
	rc = 1;
out:
	free(undo);
	free(bl);
	free(h);
	return rc;
}

const char *combine_variant(const char *text)
{
	static const char *const names[] = {"blk_end_request_callback", "__blk_end_request",
					    "blk_end_request"};
	const char *best = NULL, *best_at = NULL;

	for (size_t i = 0; text && i < sizeof(names) / sizeof(names[0]); i++) {
		size_t nl = strlen(names[i]);

		for (const char *p = strstr(text, names[i]); p; p = strstr(p + 1, names[i])) {
			char before = p > text ? p[-1] : ' ', after = p[nl];

			if (before == '_' || after == '_' || (after >= 'a' && after <= 'z') ||
			    (before >= 'a' && before <= 'z'))
				continue;
			if (!best_at || p < best_at)
				best = names[i], best_at = p;
			break;
		}
	}
	return best;
}

char *combine_bytes(const char *text)
{
	const char *v = combine_variant(text), *p;
	int depth = 0, arg = 0;
	struct sbuf b = {0};

	if (!v)
		return NULL;
	/* the first call of that name that is a whole word, as combine_variant found it */
	for (p = strstr(text, v); p; p = strstr(p + 1, v)) {
		char before = p > text ? p[-1] : ' ', after = p[strlen(v)];

		if (before != '_' && after != '_' && !(after >= 'a' && after <= 'z') &&
		    !(before >= 'a' && before <= 'z'))
			break;
	}
	if (!p || !(p = strchr(p + strlen(v), '(')))
		return NULL;
	/* the third argument, blanks dropped, with its own parentheses (not the
	 * separating comma, nor only the closing half of a nested call) */
	for (p++; *p; p++) {
		if ((*p == ')' || *p == ']') && depth == 0)
			break;
		if (*p == ',' && depth == 0) {
			if (++arg > 2)
				break;
			continue;
		}
		if (*p == '(' || *p == '[')
			depth++;
		else if (*p == ')' || *p == ']')
			depth--;
		if (arg == 2 && !(*p == ' ' || *p == '\t' || *p == '\n'))
			sbuf_addn(&b, p, 1);
	}
	if (arg < 2 || !*p) {
		free(b.s);
		return NULL;
	}
	return sbuf_take(&b);
}

bool combine_call_needs_lock(const char *call)
{
	return call &&
	       (!strcmp(call, "end_request") || !strcmp(call, "end_queued_request") ||
		!strcmp(call, "end_dequeued_request") || !strcmp(call, "end_that_request_last"));
}
