/*
 * origin_map.c - paths and lines of a private copy told as the user's original ones,
 * and the file-level outcome of fix/migrate in the report model (origin_map.h).
 *
 * Why a line map: spatch and the analyzer's edits change line counts, and verify and the
 * second analysis run on the changed copy; a report must cite the line of the file the
 * user has.  The map matches equal lines in order (common head and tail, then runs of
 * three equal lines within a window), which is exact for the small local rewrites
 * migrate makes.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "origin_map.h"
#include "util.h"
#include "vec.h"

struct lines {
	const char **p;
	size_t *len;
	size_t n;
};

static void split_lines(const char *data, size_t len, struct lines *l)
{
	size_t cap = 0, lcap = 0, ln = 0, i = 0;

	memset(l, 0, sizeof(*l));
	while (i < len) {
		size_t e = i;

		while (e < len && data[e] != '\n')
			e++;
		vec_append(l->p, l->n, cap, data + i);
		vec_append(l->len, ln, lcap, e - i);
		i = e + 1;
	}
}

static int same(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return i < a->n && j < b->n && a->len[i] == b->len[j] &&
	       !memcmp(a->p[i], b->p[j], a->len[i]);
}

/* three equal lines in a row (fewer at the end of either file) */
static int anchor(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	for (size_t k = 0; k < 3; k++) {
		if (i + k >= a->n || j + k >= b->n)
			return k > 0 && i + k >= a->n && j + k >= b->n;
		if (!same(a, i + k, b, j + k))
			return 0;
	}
	return 1;
}

/*
 * The whole line map of the last (copy, original) pair: reports ask for every site's
 * lines against the same pair, and one walk from the top per question made a file with
 * thousands of sites quadratic (issue 25, item 9).  The walk answers every line at once:
 * map[j] is the original line of copy line j + 1 for j < nmap, `tail` for the rest.
 * Kept with copies of both texts, so a hit is exact.
 */
static struct {
	char *copy, *orig;
	size_t copy_len, orig_len;
	unsigned *map;
	size_t nmap;
	unsigned tail;
	/* the caller's buffers it was built from (origin_trust_begin) */
	const char *src_copy, *src_orig;
} memo;

static bool trusted;

/* Only buffers asked about inside the window are trusted: the memo forgets its own. */
void origin_trust_begin(void)
{
	trusted = true;
	memo.src_copy = memo.src_orig = NULL;
}

void origin_trust_end(void)
{
	trusted = false;
}

static bool memo_hit(const char *copy_data, size_t copy_len, const char *orig_data, size_t orig_len)
{
	if (!memo.map || memo.copy_len != copy_len || memo.orig_len != orig_len)
		return false;
	if (trusted && memo.src_copy == copy_data && memo.src_orig == orig_data)
		return true; /* no file-sized compare per question */
	if ((copy_len && memcmp(memo.copy, copy_data, copy_len)) ||
	    (orig_len && memcmp(memo.orig, orig_data, orig_len)))
		return false;
	memo.src_copy = copy_data;
	memo.src_orig = orig_data;
	return true;
}

static void memo_build(const char *copy_data, size_t copy_len, const char *orig_data,
		       size_t orig_len)
{
	struct lines o, c;
	size_t i = 0, j = 0;
	const size_t window = 400;

	free(memo.copy);
	free(memo.orig);
	free(memo.map);
	memo.src_copy = copy_data;
	memo.src_orig = orig_data;
	memo.copy = xmalloc(copy_len + 1);
	memo.orig = xmalloc(orig_len + 1);
	if (copy_len)
		memcpy(memo.copy, copy_data, copy_len);
	if (orig_len)
		memcpy(memo.orig, orig_data, orig_len);
	memo.copy_len = copy_len;
	memo.orig_len = orig_len;
	split_lines(memo.orig, orig_len, &o);
	split_lines(memo.copy, copy_len, &c);
	memo.map = xmalloc((c.n + 1) * sizeof(*memo.map));
	for (;;) {
		size_t best_a = 0, best_b = 0, d, found = 0;

		if (same(&o, i, &c, j)) {
			memo.map[j] = (unsigned)i + 1;
			i++, j++;
			continue;
		}
		/* a change: the nearest resynchronisation (smallest a + b) */
		for (d = 1; d <= 2 * window && !found; d++)
			for (size_t a = 0; a <= d && !found; a++) {
				size_t b = d - a;

				if (a > window || b > window)
					continue;
				if (anchor(&o, i + a, &c, j + b)) {
					best_a = a, best_b = b;
					found = 1;
				}
			}
		if (!found) {
			/* no resync (always so at the end of the copy): the rest is one change */
			memo.nmap = j;
			memo.tail = (unsigned)(i < o.n ? i : o.n ? o.n - 1 : 0) + 1;
			break;
		}
		/* inside the change: its first original line */
		for (size_t k = 0; k < best_b; k++)
			memo.map[j + k] = (unsigned)i + 1;
		i += best_a, j += best_b;
	}
	free(o.p), free(o.len), free(c.p), free(c.len);
}

unsigned origin_line(const char *copy_data, size_t copy_len, const char *orig_data, size_t orig_len,
		     unsigned line)
{
	size_t want = line ? line - 1 : 0;

	if (!memo_hit(copy_data, copy_len, orig_data, orig_len))
		memo_build(copy_data, copy_len, orig_data, orig_len);
	return want < memo.nmap ? memo.map[want] : memo.tail;
}

static char *replace_copy(const struct origin_copy *oc, const char *s)
{
	size_t cl = strlen(oc->copy), dlen = 0;
	struct sbuf out = {0};
	const char *q = s, *hit;
	char *data;
	bool was_trusted;

	if (!strstr(s, oc->copy))
		return xstrdup(s);
	data = read_file(oc->copy, &dlen);
	was_trusted = trusted; /* a buffer read here is freed below: never trusted */
	trusted = false;
	while ((hit = strstr(q, oc->copy))) {
		char *after = (char *)hit + cl;

		sbuf_addn(&out, q, (size_t)(hit - q));
		sbuf_add(&out, oc->orig);
		if (*after == ':' && after[1] >= '0' && after[1] <= '9') {
			unsigned long line = strtoul(after + 1, &after, 10);

			sbuf_printf(&out, ":%u",
				    data ? origin_line(data, dlen, oc->orig_data, oc->orig_len,
						       (unsigned)line)
					 : (unsigned)line);
		}
		q = after;
	}
	sbuf_add(&out, q);
	if (memo.src_copy == data)
		memo.src_copy = NULL;
	free(data);
	trusted = was_trusted;
	return sbuf_take(&out);
}

char *origin_text_of(const struct origin_copy *oc, const char *msg)
{
	struct sbuf out = {0};
	const char *q = msg ? msg : "", *hit;
	size_t dlen = 0;
	char *data = NULL, *r;
	bool was_trusted = trusted; /* a buffer read here is freed below: never trusted */

	trusted = false;
	while ((hit = strstr(q, "line "))) {
		char *after = (char *)hit + 5;
		bool word = hit == msg || hit[-1] == ' ' || hit[-1] == '(';

		sbuf_addn(&out, q, (size_t)(after - q));
		q = after;
		if (!word || *after < '0' || *after > '9')
			continue;
		if (!data && !(data = read_file(oc->copy, &dlen)))
			continue;
		sbuf_printf(&out, "%u",
			    origin_line(data, dlen, oc->orig_data, oc->orig_len,
					(unsigned)strtoul(after, &after, 10)));
		q = after;
	}
	sbuf_add(&out, q);
	if (memo.src_copy == data)
		memo.src_copy = NULL;
	free(data);
	trusted = was_trusted;
	r = sbuf_take(&out);
	q = r;
	r = origin_text(oc, 1, q);
	free((char *)q);
	return r;
}

char *origin_text(const struct origin_copy *copies, size_t n, const char *msg)
{
	char *s = xstrdup(msg ? msg : "");

	for (size_t i = 0; i < n; i++) {
		char *t = replace_copy(&copies[i], s);

		free(s);
		s = t;
	}
	return s;
}

void origin_file_outcome(struct bm_run *run, const char *path, const char *outcome,
			 const char *code, const char *text)
{
	for (size_t i = 0; i < run->nfiles; i++) {
		struct bm_file *f = &run->files[i];

		if (strcmp(f->path, path))
			continue;
		f->outcome = outcome;
		f->outcome_code = code;
		free(f->outcome_text);
		f->outcome_text = text ? xstrdup(text) : NULL;
	}
}

char *origin_mixed_api(const struct bm_run *run, const char *path, const char *gone)
{
	const struct bm_site *broken = NULL;
	size_t nbroken = 0, convertible = 0;
	bool parse_errors = false;

	/* a call in a branch that is not compiled (#if 0) breaks nothing: only a file
	 * with parse errors has calls in broken code */
	for (size_t i = 0; i < run->nfiles; i++)
		if (!strcmp(run->files[i].path, path))
			parse_errors = run->files[i].status == BM_PARSE_PARTIAL;
	if (!parse_errors)
		return NULL;
	for (size_t i = 0; i < run->nsites; i++) {
		const struct bm_site *s = &run->sites[i];

		if (strcmp(s->file, path))
			continue;
		if (s->verdict == BM_AUTO || (gone && gone[i] == 's'))
			convertible++;
		else if (s->reason_code && !strcmp(s->reason_code, "unparsed"))
			broken = broken ? broken : s, nbroken++;
	}
	if (!broken || !convertible)
		return NULL;
	return xasprintf("%zu legacy call(s) are in code that could not be parsed (first: %s at "
			 "line %u); converting the other %zu would mix the old and the new API "
			 "in one file",
			 nbroken, broken->call, broken->line, convertible);
}

void origin_drop_edits(struct bm_site *s)
{
	for (size_t k = 0; k < s->nedits; k++) {
		free(s->edits[k].file);
		free(s->edits[k].text);
	}
	free(s->edits);
	s->edits = NULL;
	s->nedits = 0;
}

void origin_line_edit(const struct bm_run *run, struct bm_site *s, const char *orig_data,
		      size_t orig_len)
{
	size_t blen = s->before ? strlen(s->before) : 0, a;
	const char *p = NULL;

	origin_drop_edits(s);
	if (!blen || !s->after)
		return;
	/* the occurrence of the before lines that covers the call */
	for (p = memmem(orig_data, orig_len, s->before, blen);
	     p && (size_t)(p - orig_data) + blen <= s->offset;
	     p = memmem(p + 1, orig_len - (size_t)(p + 1 - orig_data), s->before, blen))
		;
	if (!p || (size_t)(p - orig_data) > s->offset)
		return;
	a = (size_t)(p - orig_data);
	for (size_t i = 0; i < run->nsites; i++) {
		const struct bm_site *t = &run->sites[i];

		if (t == s || strcmp(t->file, s->file))
			continue;
		for (size_t k = 0; k < t->nedits; k++)
			if (!strcmp(t->edits[k].file, s->file) && t->edits[k].start < a + blen &&
			    a < t->edits[k].end)
				return;
	}
	s->edits = xcalloc(1, sizeof(*s->edits));
	s->edits[0] = (struct bm_edit){xstrdup(s->file), a, a + blen, xstrdup(s->after)};
	s->nedits = 1;
}
