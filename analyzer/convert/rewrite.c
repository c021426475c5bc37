/*
 * rewrite.c - turning decisions into text edits on the original file:
 * statement extents (libclang ranges stop before the ';'), whole-line
 * removals, indentation, generated callbacks, and the before/after lines a
 * report shows for a site.
 */
#include <ctype.h>
#include <string.h>

#include "rewrite.h"
#include "indent_fix.h"

size_t stmt_end(const struct tunit *t, const struct func *f, int stmt)
{
	size_t e = f->nodes[stmt].end;
	size_t p = e;

	if (f->nodes[stmt].kind == CXCursor_CompoundStmt)
		return e;
	/* a statement ending in a compound body (if/while) has no ';' */
	if (e > 0 && t->src[e - 1] == '}')
		return e;
	while (p < t->len && isspace((unsigned char)t->clean[p]))
		p++;
	if (p < t->len && t->src[p] == ';')
		return p + 1;
	return e;
}

void stmt_line_range(const struct tunit *t, size_t start, size_t end, size_t *a, size_t *b)
{
	size_t s = start, e = end;

	while (s > 0 && (t->src[s - 1] == ' ' || t->src[s - 1] == '\t'))
		s--;
	if (s == 0 || t->src[s - 1] == '\n') {
		size_t q = e;

		while (q < t->len && (t->src[q] == ' ' || t->src[q] == '\t'))
			q++;
		if (q + 1 < t->len && t->src[q] == '\r' && t->src[q + 1] == '\n')
			q++; /* a CR LF line: its CR goes with the line */
		if (q < t->len && t->src[q] == '\n') {
			*a = s;
			*b = q + 1;
			return;
		}
		if (q >= t->len) {
			*a = s;
			*b = q;
			return;
		}
	}
	*a = start;
	*b = end;
}

char *line_indent(const struct tunit *t, size_t off)
{
	size_t s = off, e;

	while (s > 0 && t->src[s - 1] != '\n')
		s--;
	e = s;
	while (e < t->len && (t->src[e] == ' ' || t->src[e] == '\t'))
		e++;
	return xstrndup(t->src + s, e - s);
}

void edit_add(struct bm_site *s, const char *file, size_t start, size_t end, const char *text)
{
	s->edits = xrealloc(s->edits, (s->nedits + 1) * sizeof(*s->edits));
	s->edits[s->nedits].file = xstrdup(file);
	s->edits[s->nedits].start = start;
	s->edits[s->nedits].end = end;
	s->edits[s->nedits].text = xstrdup(text);
	s->nedits++;
}

void edit_remove_stmt(struct bm_site *s, const struct tunit *t, const struct func *f, int stmt)
{
	size_t a, b;

	stmt_line_range(t, f->nodes[stmt].start, stmt_end(t, f, stmt), &a, &b);
	edit_add(s, t->path, a, b, "");
}

/* the length of the blank line at off (spaces, tabs, CR, then LF), or 0 */
static size_t blank_line_at(const struct tunit *t, size_t off)
{
	size_t q = off;

	while (q < t->len && (t->src[q] == ' ' || t->src[q] == '\t' || t->src[q] == '\r'))
		q++;
	return q < t->len && t->src[q] == '\n' ? q + 1 - off : 0;
}

/*
 * edit_remove_stmt, and the blank line after the statement when one comes
 * before it too: a paragraph that goes leaves no double blank line.
 */
void edit_remove_stmt_paragraph(struct bm_site *s, const struct tunit *t, const struct func *f,
				int st)
{
	size_t a, b, prev;

	stmt_line_range(t, f->nodes[st].start, stmt_end(t, f, st), &a, &b);
	if (a > 0 && t->src[a - 1] == '\n' && b > a && t->src[b - 1] == '\n') {
		prev = a - 1;
		while (prev > 0 && t->src[prev - 1] != '\n')
			prev--;
		if (blank_line_at(t, prev) == a - prev)
			b += blank_line_at(t, b);
	}
	edit_add(s, t->path, a, b, "");
}

static size_t line_start(const struct tunit *t, size_t off)
{
	while (off > 0 && t->src[off - 1] != '\n')
		off--;
	return off;
}

static size_t line_end(const struct tunit *t, size_t off)
{
	while (off < t->len && (off == 0 || t->src[off - 1] != '\n'))
		off++;
	return off;
}

/*
 * The lines around the site's call, grown by every edit of the site that
 * touches or adjoins them (edits in callers far away are not shown), before
 * and after the edits.
 */
void site_before_after(struct bm_site *s, const struct tunit *t)
{
	size_t a = line_start(t, s->offset), b = line_end(t, s->end_offset);
	struct bm_edit *mine = NULL;
	size_t n = 0;
	bool grew = true;
	char *after;

	while (grew) {
		grew = false;
		for (size_t i = 0; i < s->nedits; i++) {
			const struct bm_edit *e = &s->edits[i];
			size_t ea, eb;

			if (strcmp(e->file, t->path))
				continue;
			ea = line_start(t, e->start);
			eb = line_end(t, e->end > e->start ? e->end - 1 : e->end);
			/* adjoining: within one line of the window */
			if (eb + 1 < line_start(t, a > 0 ? a - 1 : 0) || ea > line_end(t, b + 1))
				continue;
			if (ea < a) {
				a = ea;
				grew = true;
			}
			if (eb > b) {
				b = eb;
				grew = true;
			}
		}
	}
	free(s->before);
	s->before = range_text((struct tunit *)t, a, b);
	if (s->verdict != BM_AUTO)
		return;
	mine = xcalloc(s->nedits + 1, sizeof(*mine));
	for (size_t i = 0; i < s->nedits; i++) {
		if (strcmp(s->edits[i].file, t->path) || s->edits[i].start < a ||
		    s->edits[i].end > b)
			continue;
		mine[n] = s->edits[i];
		mine[n].start -= a;
		mine[n].end -= a;
		n++;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && mine[j].start < mine[j - 1].start; j--) {
			struct bm_edit x = mine[j];

			mine[j] = mine[j - 1];
			mine[j - 1] = x;
		}
	after = bm_apply_edits(s->before, b - a, mine, n, &n);
	if (after) /* laid out as the file is (indent_fix.c) */
		indent_fix_text(s->before, b - a, &after, &n);
	free(s->after);
	s->after = after ? after : xstrdup("");
	free(mine);
}

/*
 * One evaluation per call (issue 22 point 1).  A request argument that is a
 * macro of the file expanding to a call (`#define CURRENT
 * elv_next_request(QUEUE)`) would be evaluated twice by the new call, as the
 * request and in its byte count.  Where the old call is a statement on a line
 * of its own in a block (after `;`, `{`, `}` or a label's `:`; preprocessor
 * lines skipped), it becomes a C90 block that reads the request once:
 *
 *	{
 *		struct request *req = CURRENT;
 *
 *		__blk_end_request(req, -EIO, req->hard_cur_sectors << 9);
 *	}
 *
 * The local is the first of req, rq, cur_req (then cur_req2, ...) that is no
 * word of the file's code (comments and strings aside; a member x->req or
 * x.req does not count, its declaration does).  spatch's rule
 * is the same (cocci/src/decide.cocci, once_local()).
 */

/* the body of object-like macro NAME as the file defines it, or NULL */
static char *object_macro_body(const struct tunit *t, const char *name)
{
	size_t nl = strlen(name);

	for (size_t i = 0; i < t->len; i++) {
		size_t k = i;
		struct sbuf b = {0};

		if (i && t->src[i - 1] != '\n')
			continue;
		while (k < t->len && (t->src[k] == ' ' || t->src[k] == '\t'))
			k++;
		if (k >= t->len || t->src[k] != '#')
			continue;
		k++;
		while (k < t->len && (t->src[k] == ' ' || t->src[k] == '\t'))
			k++;
		if (t->len - k < 7 + nl || strncmp(t->src + k, "define", 6) ||
		    (t->src[k + 6] != ' ' && t->src[k + 6] != '\t'))
			continue;
		k += 6;
		while (k < t->len && (t->src[k] == ' ' || t->src[k] == '\t'))
			k++;
		if (t->len - k < nl || strncmp(t->src + k, name, nl) ||
		    (k + nl < t->len && t->src[k + nl] != ' ' && t->src[k + nl] != '\t' &&
		     t->src[k + nl] != '\n'))
			continue;
		for (k += nl; k < t->len && t->src[k] != '\n'; k++) {
			if (t->src[k] == '\\' && k + 1 < t->len && t->src[k + 1] == '\n') {
				k++;
				sbuf_addn(&b, " ", 1);
				continue;
			}
			sbuf_addn(&b, t->src + k, 1);
		}
		return sbuf_take(&b);
	}
	return NULL;
}

static char *once_name(const struct tunit *t)
{
	static const char *const names[] = {"req", "rq", "cur_req"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!word_in(t->clean, t->len, names[i]))
			return xstrdup(names[i]);
	for (unsigned i = 2;; i++) {
		char *w = xasprintf("cur_req%u", i);

		if (!word_in(t->clean, t->len, w))
			return w;
		free(w);
	}
}

char *rq_once_local(const struct tunit *t, const char *rq, size_t start, size_t end,
		    size_t *stmt_to)
{
	size_t q, ls;
	char *body;
	bool calls;

	if (!*rq || isdigit((unsigned char)*rq))
		return NULL;
	for (const char *c = rq; *c; c++)
		if (!(isalnum((unsigned char)*c) || *c == '_'))
			return NULL;
	body = object_macro_body(t, rq);
	calls = body && has_side_effects(body);
	free(body);
	if (!calls)
		return NULL;
	/* nothing before the call on its line */
	for (ls = start; ls > 0 && t->src[ls - 1] != '\n'; ls--)
		if (t->src[ls - 1] != ' ' && t->src[ls - 1] != '\t')
			return NULL;
	/* the statement's ';' right after the call, then nothing on the line */
	for (q = end; q < t->len && (t->clean[q] == ' ' || t->clean[q] == '\t'); q++)
		;
	if (q >= t->len || t->src[q] != ';')
		return NULL;
	*stmt_to = q + 1;
	for (q++; q < t->len && t->src[q] != '\n'; q++)
		if (t->src[q] != ' ' && t->src[q] != '\t' && t->src[q] != '\r')
			return NULL;
	/* a statement of a block: what stands before it */
	q = ls;
	for (;;) {
		size_t lq;

		while (q > 0 && isspace((unsigned char)t->clean[q - 1]))
			q--;
		if (!q)
			return NULL;
		for (lq = q - 1; lq > 0 && t->clean[lq - 1] != '\n'; lq--)
			;
		while (lq < q && (t->clean[lq] == ' ' || t->clean[lq] == '\t'))
			lq++;
		if (t->clean[lq] != '#')
			break;
		for (q = lq; q > 0 && t->clean[q - 1] != '\n'; q--)
			;
	}
	if (!strchr(";{}:", t->clean[q - 1]))
		return NULL;
	return once_name(t);
}

char *rq_once_block(const struct tunit *t, size_t start, const char *local, const char *rq,
		    const char *call)
{
	char *ind = line_indent(t, start);
	char *r = xasprintf("{\n%s\tstruct request *%s = %s;\n\n%s\t%s;\n%s}", ind, local, rq, ind,
			    call, ind);

	free(ind);
	return r;
}
