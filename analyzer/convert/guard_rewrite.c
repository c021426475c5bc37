/*
 * guard_rewrite.c - a proven conversion in a file that also builds for kernels
 * before 2.6.25 (issue 20 item 3, version_guard.c's multi_version).  The new
 * calls do not exist there, so the rewrite goes under the file's own kind of
 * guard and the old lines stay in its #else:
 *
 *	#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)
 *		__blk_end_request(rq, -EIO, rq->hard_cur_sectors << 9);
 *	#else
 *		end_request(rq, 0);
 *	#endif
 *
 * Each kernel then compiles what it compiled or what 2.6.25 needs.  Only a
 * rewrite confined to one function's lines is guarded (not a wrapper renamed
 * across its callers, not a callback added elsewhere): the rest stays
 * multi_version for a human.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "rewrite.h"

#define GUARD_IF "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)\n"

bool site_guarded(const struct bm_site *s)
{
	return s->nedits == 1 && !strncmp(s->edits[0].text, GUARD_IF, strlen(GUARD_IF));
}

static int edit_cmp(const void *a, const void *b)
{
	const struct bm_edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

bool guard_rewrite(struct ctx *cx, struct func *f, size_t si)
{
	struct bm_site *s = &cx->run->sites[si];
	struct tunit *t = &cx->tus[f->tu];
	size_t a = (size_t)-1, b = 0, at;
	struct sbuf nb = {0};
	char *old, *text;

	if (s->verdict != BM_AUTO || !s->nedits)
		return false;
	for (size_t e = 0; e < s->nedits; e++) {
		const struct bm_edit *x = &s->edits[e];

		if (strcmp(x->file, t->path) || x->start < f->start || x->end > f->end)
			return false; /* beyond its function: not one guard's worth */
		a = x->start < a ? x->start : a;
		b = x->end > b ? x->end : b;
	}
	/* whole lines, so that the directives stand on their own */
	while (a > 0 && t->src[a - 1] != '\n')
		a--;
	if (b > a && t->src[b - 1] == '\n')
		b--; /* an edit that takes its line's newline ends on that line */
	while (b < t->len && t->src[b] != '\n')
		b++;
	if (b < t->len)
		b++;
	/* no other site's edit in those lines */
	for (size_t i = 0; i < cx->run->nsites; i++)
		for (size_t e = 0; i != si && e < cx->run->sites[i].nedits; e++) {
			const struct bm_edit *x = &cx->run->sites[i].edits[e];

			if (!strcmp(x->file, t->path) && x->start < b && a < x->end)
				return false;
		}
	qsort(s->edits, s->nedits, sizeof(*s->edits), edit_cmp);
	at = a;
	for (size_t e = 0; e < s->nedits; e++) {
		if (s->edits[e].start < at)
			return false; /* overlapping edits: not ours to merge */
		sbuf_addn(&nb, t->src + at, s->edits[e].start - at);
		sbuf_add(&nb, s->edits[e].text);
		at = s->edits[e].end;
	}
	sbuf_addn(&nb, t->src + at, b - at);
	/* (statements removed at its end leave a blank line before the #else) */
	while (nb.len >= 2 && nb.s[nb.len - 1] == '\n' && nb.s[nb.len - 2] == '\n')
		nb.s[--nb.len] = 0;
	old = xstrndup(t->src + a, b - a);
	text = xasprintf(GUARD_IF "%s%s#else\n%s%s#endif\n", nb.s ? nb.s : "",
			 nb.s && nb.len && nb.s[nb.len - 1] != '\n' ? "\n" : "", old,
			 b - a && old[b - a - 1] != '\n' ? "\n" : "");
	for (size_t e = 0; e < s->nedits; e++) {
		free(s->edits[e].file);
		free(s->edits[e].text);
	}
	s->nedits = 0;
	edit_add(s, t->path, a, b, text);
	free(text);
	free(old);
	free(nb.s);
	return true;
}
