/*
 * edit_apply.c - overlap detection and application of text edits (see edit_apply.h),
 * and bm_apply_edits(), the plain applier of an already sorted, disjoint set (site.h).
 *
 * Edits are sorted by (start, end, text) so that the result does not depend on the order
 * the rewriters produced them in.
 */
#include "edit_apply.h"
#include "site.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static int edit_cmp(const void *pa, const void *pb)
{
	const struct text_edit *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return strcmp(a->text, b->text);
}

static int same_edit(const struct text_edit *a, const struct text_edit *b)
{
	return a->start == b->start && a->end == b->end && strcmp(a->text, b->text) == 0;
}

/*
 * Two edits collide when their ranges share a byte, when two different insertions sit
 * at one point (their order would be a guess), or when an insertion falls strictly
 * inside a replaced range. An insertion at the very start or end of a replaced range is
 * unambiguous: it goes before, resp. after, the replacement.
 */
static int collide(const struct text_edit *a, const struct text_edit *b)
{
	int a_ins = a->start == a->end, b_ins = b->start == b->end;

	if (a_ins && b_ins)
		return a->start == b->start;
	if (a_ins)
		return a->start > b->start && a->start < b->end;
	if (b_ins)
		return b->start > a->start && b->start < a->end;
	return a->start < b->end && b->start < a->end;
}

static int add_conflict(struct edit_result *res, const struct text_edit *a,
			const struct text_edit *b)
{
	struct edit_conflict *c = realloc(res->conflicts, (res->nconflicts + 1) * sizeof(*c));

	if (!c)
		return -1;
	res->conflicts = c;
	c[res->nconflicts].site_a = a->site;
	c[res->nconflicts].site_b = b->site;
	c[res->nconflicts].offset = b->start > a->start ? b->start : a->start;
	res->nconflicts++;
	return 0;
}

int edits_apply(const char *src, size_t len, struct text_edit *edits, size_t n,
		struct edit_result *res)
{
	size_t i, j, keep = 0, out_len, pos, o;
	char *out;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < n; i++) {
		if (edits[i].start > edits[i].end || edits[i].end > len || !edits[i].text) {
			res->error = "edit outside the file or with an inverted range";
			return -1;
		}
	}
	if (n)
		qsort(edits, n, sizeof(*edits), edit_cmp);

	/* Drop exact duplicates: two sites asking for the same change is not a conflict. */
	for (i = 0; i < n; i++) {
		if (keep && same_edit(&edits[keep - 1], &edits[i]))
			continue;
		edits[keep++] = edits[i];
	}
	n = keep;

	/*
	 * Every colliding pair is reported, in the order of the pairs (j < i).  In start
	 * order an earlier edit j can only collide with i while i starts inside it
	 * (i.start < j.end) or at its start: the other edits are dropped from the active
	 * list, so thousands of disjoint edits cost no all-pairs walk (issue 25, item 9).
	 */
	if (n > 1) {
		size_t *active = malloc(n * sizeof(*active)), nactive = 0;

		if (!active) {
			res->error = "out of memory";
			return -1;
		}
		for (i = 0; i < n; i++) {
			size_t kept = 0;

			for (size_t k = 0; k < nactive; k++) {
				const struct text_edit *e = &edits[active[k]];

				if (e->end > edits[i].start || e->start == edits[i].start)
					active[kept++] = active[k];
			}
			nactive = kept;
			for (size_t k = 0; k < nactive; k++) {
				j = active[k];
				if (collide(&edits[j], &edits[i]) &&
				    add_conflict(res, &edits[j], &edits[i])) {
					free(active);
					res->error = "out of memory";
					return -1;
				}
			}
			active[nactive++] = i;
		}
		free(active);
	}
	if (res->nconflicts)
		return 1;

	out_len = len;
	for (i = 0; i < n; i++)
		out_len += strlen(edits[i].text) - (edits[i].end - edits[i].start);
	out = malloc(out_len + 1);
	if (!out) {
		res->error = "out of memory";
		return -1;
	}
	pos = 0;
	o = 0;
	for (i = 0; i < n; i++) {
		size_t tl = strlen(edits[i].text);

		memcpy(out + o, src + pos, edits[i].start - pos);
		o += edits[i].start - pos;
		memcpy(out + o, edits[i].text, tl);
		o += tl;
		pos = edits[i].end;
	}
	memcpy(out + o, src + pos, len - pos);
	o += len - pos;
	out[o] = '\0';
	res->data = out;
	res->len = o;
	res->applied = n;
	return 0;
}

void edit_result_free(struct edit_result *res)
{
	free(res->data);
	free(res->conflicts);
	memset(res, 0, sizeof(*res));
}

/* The text of src with the edits e[0..n) (sorted, not overlapping) applied: NULL if one
 * lies outside it or out of order. */
char *bm_apply_edits(const char *src, size_t len, const struct bm_edit *e, size_t n, size_t *outlen)
{
	struct sbuf b = {0};
	size_t pos = 0;

	for (size_t i = 0; i < n; i++) {
		if (e[i].start < pos || e[i].end < e[i].start || e[i].end > len) {
			free(b.s);
			return NULL;
		}
		sbuf_addn(&b, src + pos, e[i].start - pos);
		sbuf_add(&b, e[i].text);
		pos = e[i].end;
	}
	sbuf_addn(&b, src + pos, len - pos);
	if (outlen)
		*outlen = b.len;
	return sbuf_take(&b);
}
