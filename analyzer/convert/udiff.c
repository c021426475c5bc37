/*
 * udiff.c - Myers line diff and unified-diff output (see udiff.h).
 *
 * The rewrites touch a few lines of a file, so after trimming the equal head and tail
 * the edit distance D is usually small and the O(D^2) memory of keeping every Myers
 * frontier is fine.  A file with thousands of changes is cut at its unique lines first
 * (anchored()), so each piece's D is small again.  A piece with D above MAX_D (no unique
 * line to cut at) falls back to replacing it whole, which is still a correct diff, only a
 * larger one.
 */
#include "udiff.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_D 4000

struct line {
	const char *s;
	size_t len; /* including the '\n' when there is one */
	uint64_t hash;
};

/* An edit script entry: ' ' keep, '-' delete old line, '+' insert new line. */
struct op {
	char kind;
	size_t a, b; /* line index in old (for ' ' and '-') and new (' ' and '+') */
};

/*
 * One header line, "--- a/PATH": a name with a byte git would not print raw (a
 * control character, '"', '\\', or any byte >= 0x80) is quoted as git quotes it
 * (core.quotePath): the prefix inside the quotes, C escapes for \\a \\b \\t \\n \\v
 * \\f \\r \\" \\\\, three octal digits for the rest.  `git apply` and GNU patch read
 * it back; a raw newline would end the header in the middle of the name.
 */
/* git's escape letter for C, or 0 when it writes C as three octal digits */
static char git_escape(unsigned char c)
{
	switch (c) {
	case '\a': return 'a';
	case '\b': return 'b';
	case '\t': return 't';
	case '\n': return 'n';
	case '\v': return 'v';
	case '\f': return 'f';
	case '\r': return 'r';
	case '"': return '"';
	case '\\': return '\\';
	default: return 0;
	}
}

static bool git_must_quote(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\' || c >= 0x7f;
}

static int header_name(FILE *out, const char *lead, const char *path)
{
	const char *marker = lead + 4; /* "a/" or "b/" */
	bool quote = false;

	for (const unsigned char *p = (const unsigned char *)path; *p && !quote; p++)
		quote = git_must_quote(*p);
	/* a space: a tab ends the name, as GNU diff and git write it (GNU patch takes
	 * the name up to the first blank otherwise) */
	if (!quote) {
		const char *end = strchr(path, ' ') ? "\t" : "";

		return fprintf(out, "%s%s%s\n", lead, path, end) < 0 ? -1 : 0;
	}
	if (fprintf(out, "%.4s\"%s", lead, marker) < 0)
		return -1;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (!git_must_quote(*p))
			fputc(*p, out);
		else if (git_escape(*p))
			fprintf(out, "\\%c", git_escape(*p));
		else
			fprintf(out, "\\%03o", *p);
	}
	return fprintf(out, "\"\n") < 0 ? -1 : 0;
}

static size_t split_lines(const char *s, size_t len, struct line **out)
{
	size_t n = 0, cap = 64, i, start = 0;
	struct line *v = malloc(cap * sizeof(*v));

	if (!v)
		return (size_t)-1;
	for (i = 0; i <= len; i++) {
		if (i == len ? i > start : s[i] == '\n') {
			size_t end = i == len ? i : i + 1;
			uint64_t h = 1469598103934665603ULL;
			size_t k;

			if (n == cap) {
				struct line *nv = realloc(v, (cap *= 2) * sizeof(*v));

				if (!nv) {
					free(v);
					return (size_t)-1;
				}
				v = nv;
			}
			for (k = start; k < end; k++)
				h = (h ^ (unsigned char)s[k]) * 1099511628211ULL;
			v[n].s = s + start;
			v[n].len = end - start;
			v[n].hash = h;
			n++;
			start = end;
		}
	}
	*out = v;
	return n;
}

static int line_eq(const struct line *x, const struct line *y)
{
	return x->hash == y->hash && x->len == y->len && memcmp(x->s, y->s, x->len) == 0;
}

struct script {
	struct op *ops;
	size_t n, cap;
};

static int push(struct script *sc, char kind, size_t a, size_t b)
{
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 256;
		struct op *ops = realloc(sc->ops, cap * sizeof(*ops));

		if (!ops)
			return -1;
		sc->ops = ops;
		sc->cap = cap;
	}
	sc->ops[sc->n].kind = kind;
	sc->ops[sc->n].a = a;
	sc->ops[sc->n].b = b;
	sc->n++;
	return 0;
}

/*
 * Myers diff of A[a0..a1) and B[b0..b1); appends ops in reverse order to @rev.
 * Returns 0, 1 when D exceeded @max_d (nothing appended), -1 on memory error.
 */
static int myers_bounded(const struct line *A, size_t a0, size_t a1, const struct line *B,
			 size_t b0, size_t b1, struct script *rev, long max_d)
{
	long N = (long)(a1 - a0), M = (long)(b1 - b0), max = N + M, d, k;
	long **trace;
	long *v, off;
	long found = -1;

	if (max > 2 * max_d)
		max = 2 * max_d;
	trace = calloc((size_t)max + 1, sizeof(*trace));
	if (!trace)
		return -1;
	off = max + 1;
	v = calloc(2 * (size_t)max + 3, sizeof(*v));
	if (!v) {
		free(trace);
		return -1;
	}
	for (d = 0; d <= max && d <= max_d; d++) {
		for (k = -d; k <= d; k += 2) {
			long x, y;

			if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
				x = v[off + k + 1];
			else
				x = v[off + k - 1] + 1;
			y = x - k;
			while (x < N && y < M && line_eq(&A[a0 + x], &B[b0 + y])) {
				x++;
				y++;
			}
			v[off + k] = x;
			if (x >= N && y >= M) {
				found = d;
				break;
			}
		}
		/* keep the frontier after step d (range -d..d) */
		trace[d] = malloc((2 * (size_t)d + 1) * sizeof(long));
		if (!trace[d]) {
			found = -2;
			break;
		}
		memcpy(trace[d], &v[off - d], (2 * (size_t)d + 1) * sizeof(long));
		if (found >= 0)
			break;
	}
	if (found < 0) {
		for (k = 0; k <= max; k++)
			free(trace[k]);
		free(trace);
		free(v);
		return found == -2 ? -1 : 1;
	}
	/* Backtrack from (N, M) through the kept frontiers. */
	{
		long x = N, y = M;

		for (d = found; d > 0; d--) {
			long *pv = trace[d - 1];
			long kk = x - y, prev_k, px, py;

#define PV(kx) pv[(kx) + (d - 1)]
			if (kk == -d || (kk != d && PV(kk - 1) < PV(kk + 1)))
				prev_k = kk + 1;
			else
				prev_k = kk - 1;
			px = PV(prev_k);
#undef PV
			py = px - prev_k;
			while (x > px && y > py) {
				x--;
				y--;
				if (push(rev, ' ', a0 + x, b0 + y))
					goto oom;
			}
			if (x == px) {
				y--;
				if (push(rev, '+', a0 + x, b0 + y))
					goto oom;
			} else {
				x--;
				if (push(rev, '-', a0 + x, b0 + y))
					goto oom;
			}
		}
		while (x > 0 && y > 0) {
			x--;
			y--;
			if (push(rev, ' ', a0 + x, b0 + y))
				goto oom;
		}
	}
	for (k = 0; k <= found; k++)
		free(trace[k]);
	free(trace);
	free(v);
	return 0;
oom:
	for (k = 0; k <= found; k++)
		free(trace[k]);
	free(trace);
	free(v);
	return -1;
}

static int myers(const struct line *A, size_t a0, size_t a1, const struct line *B, size_t b0,
		 size_t b1, struct script *rev)
{
	return myers_bounded(A, a0, a1, B, b0, b1, rev, MAX_D);
}

static int put_line(FILE *out, char mark, const struct line *l)
{
	if (fputc(mark, out) == EOF || fwrite(l->s, 1, l->len, out) != l->len)
		return -1;
	if (l->len == 0 || l->s[l->len - 1] != '\n') {
		if (fputs("\n\\ No newline at end of file\n", out) == EOF)
			return -1;
	}
	return 0;
}

/* Hunk header counts: a range of 0 lines starts at the line before it (GNU convention). */
static void range(FILE *out, char sign, size_t start, size_t count)
{
	if (count == 1)
		fprintf(out, " %c%zu", sign, start + 1);
	else
		fprintf(out, " %c%zu,%zu", sign, count ? start + 1 : start, count);
}

static int emit(FILE *out, const char *path, const struct line *A, const struct line *B,
		const struct op *ops, size_t nops, int context)
{
	size_t i = 0, hunks = 0;

	while (i < nops) {
		size_t first, last, j, a_start, b_start, a_cnt = 0, b_cnt = 0;

		while (i < nops && ops[i].kind == ' ')
			i++;
		if (i == nops)
			break;
		/* [first, last) is one hunk: extend while the next change is within
		 * 2*context kept lines. */
		first = i >= (size_t)context ? i - context : 0;
		while (first < i && ops[first].kind != ' ')
			first++;
		last = i;
		for (;;) {
			size_t gap = 0;

			while (last < nops && ops[last].kind != ' ')
				last++;
			j = last;
			while (j < nops && ops[j].kind == ' ') {
				j++;
				gap++;
			}
			if (j < nops && gap <= 2 * (size_t)context) {
				last = j;
				continue;
			}
			last += gap < (size_t)context ? gap : (size_t)context;
			break;
		}
		if (hunks == 0 &&
		    (header_name(out, "--- a/", path) < 0 || header_name(out, "+++ b/", path) < 0))
			return -1;
		a_start = ops[first].a;
		b_start = ops[first].b;
		for (j = first; j < last; j++) {
			if (ops[j].kind != '+')
				a_cnt++;
			if (ops[j].kind != '-')
				b_cnt++;
		}
		fputs("@@", out);
		range(out, '-', a_start, a_cnt);
		range(out, '+', b_start, b_cnt);
		fputs(" @@\n", out);
		for (j = first; j < last; j++) {
			const struct line *l = ops[j].kind == '+' ? &B[ops[j].b] : &A[ops[j].a];

			if (put_line(out, ops[j].kind, l))
				return -1;
		}
		hunks++;
		i = last;
	}
	return ferror(out) ? -1 : (int)hunks;
}

/* Myers on one range, or (D above MAX_D) the whole range replaced; reversed ops. */
static int myers_or_replace(const struct line *A, size_t a0, size_t a1, const struct line *B,
			    size_t b0, size_t b1, struct script *rev)
{
	int m = myers(A, a0, a1, B, b0, b1, rev);

	if (m != 1)
		return m;
	for (size_t i = b1; i-- > b0;)
		if (push(rev, '+', a1, i))
			return -1;
	for (size_t i = a1; i-- > a0;)
		if (push(rev, '-', i, b0))
			return -1;
	return 0;
}

/* One distinct line of the two ranges: how often, and where (its last place) in each. */
struct uniq {
	const struct line *l;
	size_t na, nb, a, b;
};

static struct uniq *uniq_slot(struct uniq *tab, size_t mask, const struct line *l)
{
	size_t i = (size_t)l->hash & mask;

	while (tab[i].l && !line_eq(tab[i].l, l))
		i = (i + 1) & mask;
	return &tab[i];
}

/*
 * Myers keeps one frontier per step, O(D^2) memory and time: fine for the few lines
 * a conversion changes, not for thousands of changes in one file (issue 25, item 9:
 * 2 GB at 8k changes).  Past ANCHOR_D, the ranges are cut at the lines that occur
 * exactly once in each and stay in order (the longest such chain, patience diff's
 * anchors), and Myers runs between them; each gap's D is small.  Below ANCHOR_D the
 * script is plain Myers, as before.  Appends reversed ops; 0 or -1.
 */
#define ANCHOR_D 1000

static int anchored(const struct line *A, size_t a0, size_t a1, const struct line *B, size_t b0,
		    size_t b1, struct script *rev)
{
	size_t n = (a1 - a0) + (b1 - b0), cap = 16, mask, np = 0, len = 0;
	struct uniq *tab;
	size_t *pa, *pb, *tails, *prev, *chain;
	int rc = -1;

	while (cap < 2 * n + 2)
		cap *= 2;
	mask = cap - 1;
	tab = calloc(cap, sizeof(*tab));
	pa = malloc((a1 - a0 + 1) * sizeof(*pa));
	pb = malloc((a1 - a0 + 1) * sizeof(*pb));
	tails = malloc((a1 - a0 + 1) * sizeof(*tails));
	prev = malloc((a1 - a0 + 1) * sizeof(*prev));
	chain = malloc((a1 - a0 + 1) * sizeof(*chain));
	if (!tab || !pa || !pb || !tails || !prev || !chain)
		goto out;
	for (size_t i = a0; i < a1; i++) {
		struct uniq *u = uniq_slot(tab, mask, &A[i]);

		u->l = &A[i];
		u->na++;
		u->a = i;
	}
	for (size_t j = b0; j < b1; j++) {
		struct uniq *u = uniq_slot(tab, mask, &B[j]);

		u->l = u->l ? u->l : &B[j];
		u->nb++;
		u->b = j;
	}
	for (size_t i = a0; i < a1; i++) {
		struct uniq *u = uniq_slot(tab, mask, &A[i]);

		if (u->na == 1 && u->nb == 1) {
			pa[np] = i;
			pb[np++] = u->b;
		}
	}
	/* the longest chain increasing in B (patience sorting, O(n log n)) */
	for (size_t k = 0; k < np; k++) {
		size_t lo = 0, hi = len;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (pb[tails[mid]] < pb[k])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[k] = lo ? tails[lo - 1] : (size_t)-1;
		tails[lo] = k;
		if (lo == len)
			len++;
	}
	if (len) {
		size_t k = tails[len - 1];

		for (size_t c = len; c-- > 0; k = prev[k])
			chain[c] = k;
	}
	/* back to front: the gap after each anchor, then the anchor */
	{
		size_t ea = a1, eb = b1;

		for (size_t c = len; c-- > 0;) {
			size_t ia = pa[chain[c]], ib = pb[chain[c]];

			if (myers_or_replace(A, ia + 1, ea, B, ib + 1, eb, rev) < 0 ||
			    push(rev, ' ', ia, ib))
				goto out;
			ea = ia;
			eb = ib;
		}
		if (myers_or_replace(A, a0, ea, B, b0, eb, rev) < 0)
			goto out;
	}
	rc = 0;
out:
	free(tab);
	free(pa);
	free(pb);
	free(tails);
	free(prev);
	free(chain);
	return rc;
}

/* Plain Myers while D stays small, anchored beyond (see anchored()). */
static int diff_middle(const struct line *A, size_t a0, size_t a1, const struct line *B, size_t b0,
		       size_t b1, struct script *rev)
{
	size_t mark = rev->n;
	int m = myers_bounded(A, a0, a1, B, b0, b1, rev, ANCHOR_D);

	if (m != 1)
		return m;
	rev->n = mark;
	return anchored(A, a0, a1, B, b0, b1, rev);
}

/* Diff @old -> @new into a forward op script; returns 0 or -1. */
static int diff_script(const char *old, size_t old_len, const char *new, size_t new_len,
		       struct line **Ap, size_t *nap, struct line **Bp, struct script *fwd)
{
	struct line *A = NULL, *B = NULL;
	size_t na, nb, head = 0, tail = 0, i;
	struct script rev = {0};
	int m;

	na = split_lines(old, old_len, &A);
	nb = split_lines(new, new_len, &B);
	if (na == (size_t)-1 || nb == (size_t)-1)
		goto fail;
	while (head < na && head < nb && line_eq(&A[head], &B[head]))
		head++;
	while (tail < na - head && tail < nb - head &&
	       line_eq(&A[na - 1 - tail], &B[nb - 1 - tail]))
		tail++;

	/* Build the script back to front: tail, middle (reversed by myers), head. */
	for (i = 0; i < tail; i++)
		if (push(&rev, ' ', na - 1 - i, nb - 1 - i))
			goto fail;
	m = diff_middle(A, head, na - tail, B, head, nb - tail, &rev);
	if (m < 0)
		goto fail;
	if (m == 1) {
		for (i = nb - tail; i-- > head;)
			if (push(&rev, '+', na - tail, i))
				goto fail;
		for (i = na - tail; i-- > head;)
			if (push(&rev, '-', i, head))
				goto fail;
	}
	for (i = head; i-- > 0;)
		if (push(&rev, ' ', i, i))
			goto fail;
	for (i = rev.n; i-- > 0;)
		if (push(fwd, rev.ops[i].kind, rev.ops[i].a, rev.ops[i].b))
			goto fail;
	free(rev.ops);
	*Ap = A;
	*Bp = B;
	*nap = na;
	return 0;
fail:
	if (na != (size_t)-1)
		free(A);
	if (nb != (size_t)-1)
		free(B);
	free(rev.ops);
	return -1;
}

int udiff_write(FILE *out, const char *path, const char *old, size_t old_len, const char *new,
		size_t new_len, int context)
{
	struct line *A, *B;
	struct script fwd = {0};
	size_t na;
	int rc;

	if (old_len == new_len && memcmp(old, new, old_len) == 0)
		return 0;
	if (diff_script(old, old_len, new, new_len, &A, &na, &B, &fwd) < 0) {
		free(fwd.ops);
		return -1;
	}
	rc = emit(out, path, A, B, fwd.ops, fwd.n, context);
	free(A);
	free(B);
	free(fwd.ops);
	return rc;
}

/*
 * The diff of the last pair udiff_new_lines() was asked about, kept with copies of both
 * texts: migrate asks for every site of a file against the same pair, and one whole-file
 * diff per site made a file with thousands of sites quadratic (issue 25, item 9).  The
 * copies make a hit exact (same bytes, same script), whatever the callers did with their
 * buffers meanwhile.  op_of_old[i] is the script entry of old line i.
 */
static struct {
	char *old, *new;
	size_t old_len, new_len;
	struct line *A, *B;
	size_t na;
	struct script fwd;
	size_t *op_of_old;
	/* the caller's buffers it was loaded from, and whether they may be trusted to
	 * hold the same texts (udiff_trust_begin) */
	const char *src_old, *src_new;
} memo;

static bool trusted;

/* Only buffers asked about inside the window are trusted: the memo forgets its own. */
void udiff_trust_begin(void)
{
	trusted = true;
	memo.src_old = memo.src_new = NULL;
}

void udiff_trust_end(void)
{
	trusted = false;
}

static void memo_drop(void)
{
	free(memo.old);
	free(memo.new);
	free(memo.A);
	free(memo.B);
	free(memo.fwd.ops);
	free(memo.op_of_old);
	memset(&memo, 0, sizeof(memo));
}

static int memo_load(const char *old, size_t old_len, const char *new, size_t new_len)
{
	bool same_buffers = memo.old && memo.old_len == old_len && memo.new_len == new_len &&
			    memo.src_old == old && memo.src_new == new;

	/* comparing the texts costs the file's size per question: thousands of sites */
	if (same_buffers && trusted)
		return 0;
	if (memo.old && memo.old_len == old_len && memo.new_len == new_len &&
	    (!old_len || !memcmp(memo.old, old, old_len)) &&
	    (!new_len || !memcmp(memo.new, new, new_len))) {
		memo.src_old = old;
		memo.src_new = new;
		return 0;
	}
	memo_drop();
	memo.src_old = old;
	memo.src_new = new;
	memo.old = malloc(old_len + 1);
	memo.new = malloc(new_len + 1);
	if (!memo.old || !memo.new)
		goto fail;
	if (old_len)
		memcpy(memo.old, old, old_len);
	if (new_len)
		memcpy(memo.new, new, new_len);
	memo.old_len = old_len;
	memo.new_len = new_len;
	if (diff_script(memo.old, old_len, memo.new, new_len, &memo.A, &memo.na, &memo.B,
			&memo.fwd) < 0)
		goto fail;
	memo.op_of_old = malloc((memo.na + 1) * sizeof(*memo.op_of_old));
	if (!memo.op_of_old)
		goto fail;
	for (size_t i = 0; i < memo.fwd.n; i++)
		if (memo.fwd.ops[i].kind != '+')
			memo.op_of_old[memo.fwd.ops[i].a] = i;
	return 0;
fail:
	memo_drop();
	return -1;
}

char *udiff_new_lines(const char *old, size_t old_len, const char *new, size_t new_len,
		      unsigned first, unsigned last)
{
	size_t i, i0, i1, len = 0;
	const struct op *ops;
	char *res;

	if (!first || last < first || memo_load(old, old_len, new, new_len) < 0)
		return NULL;
	ops = memo.fwd.ops;
	/* every old line has one entry, in order: the range's entries are those of its
	 * first and last line that exist, and the insertions between them */
	if (first > memo.na) {
		i0 = 1;
		i1 = 0;
	} else {
		i0 = memo.op_of_old[first - 1];
		i1 = memo.op_of_old[(last < memo.na ? last : memo.na) - 1];
		/* lines inserted right after the range belong to it (a rewrite grew) */
		while (i1 + 1 < memo.fwd.n && ops[i1 + 1].kind == '+')
			i1++;
	}
	for (i = i0; i <= i1; i++)
		if (ops[i].kind != '-')
			len += memo.B[ops[i].b].len;
	res = malloc(len + 1);
	if (res) {
		len = 0;
		for (i = i0; i <= i1; i++) {
			if (ops[i].kind == '-')
				continue;
			memcpy(res + len, memo.B[ops[i].b].s, memo.B[ops[i].b].len);
			len += memo.B[ops[i].b].len;
		}
		res[len] = '\0';
	}
	return res;
}

int udiff_hunks(const char *old, size_t old_len, const char *new, size_t new_len,
		struct udiff_hunk **out, size_t *n)
{
	struct line *A, *B;
	struct script fwd = {0};
	size_t na, cap = 0, oa = 0, nb = 0;
	struct udiff_hunk *h = NULL, *cur = NULL;

	*out = NULL;
	*n = 0;
	if (old_len == new_len && memcmp(old, new, old_len) == 0)
		return 0;
	if (diff_script(old, old_len, new, new_len, &A, &na, &B, &fwd) < 0) {
		free(fwd.ops);
		return -1;
	}
	for (size_t i = 0; i < fwd.n; i++) {
		char k = fwd.ops[i].kind;

		if (k == ' ') {
			cur = NULL;
			oa++;
			nb++;
			continue;
		}
		if (!cur) {
			if (*n == cap) {
				struct udiff_hunk *nh =
				    realloc(h, (cap = cap ? 2 * cap : 8) * sizeof(*h));

				if (!nh) {
					free(h);
					free(A);
					free(B);
					free(fwd.ops);
					return -1;
				}
				h = nh;
			}
			cur = &h[(*n)++];
			cur->old_first = (unsigned)oa + 1;
			cur->new_first = (unsigned)nb + 1;
			cur->old_count = cur->new_count = 0;
		}
		if (k == '-') {
			cur->old_count++;
			oa++;
		} else {
			cur->new_count++;
			nb++;
		}
	}
	free(A);
	free(B);
	free(fwd.ops);
	*out = h;
	return 0;
}
