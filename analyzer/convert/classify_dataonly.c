/*
 * classify_dataonly.c - data completions whose result is ignored and whose
 * final step runs later: in a later interrupt of the same transfer, or
 * after a goto (ide-cd-style packet interrupts):
 *
 *         if (rq->bio)
 *                 end_that_request_chunk(rq, 1, blen);   // more to come
 *         ...
 *         return ide_started;
 *   done:
 *         spin_lock_irqsave(&ide_lock, flags);
 *         blkdev_dequeue_request(rq);
 *         end_that_request_last(rq, 1);
 *
 * end_that_request_chunk completed bytes and never ended the request.  The
 * 2.6.25 call that does exactly that is blk_end_request_callback() with a
 * callback that returns 1: the data part runs as before, and when it
 * finishes the request the callback keeps the final step from running
 * (API-SEMANTICS.md).  That call takes no lock (the final step is the only
 * part that does), so it is right in any lock context; only its return value
 * differs, and here nobody reads it.  The final step then stays where it was,
 * as a last-only call (classify_lastonly.c), whose check that the driver does not end
 * bios itself is the precise one below: reading rq->bio to find the data is
 * no completion.
 */
#include <string.h>

#include "classify_shapes.h"

bool dataonly_applies(struct ctx *cx, struct func *f, int F, char **why)
{
	enum bm_lock_state l;

	if (enclosing_stmt(f, F) != F) {
		*why = NULL;
		return false;
	}
	l = lock_at(cx, f, F, NULL);
	if (l == BM_LOCK_HELD) {
		*why = xstrdup(
		    "the data completion runs with the queue lock held, and the only 2.6.25 "
		    "call that completes data without ending the request, "
		    "blk_end_request_callback, is the variant called without it");
		return false;
	}
	*why = NULL;
	return true;
}

char *dataonly_callback(struct ctx *cx, struct func *f, struct bm_site *s)
{
	struct tunit *t = &cx->tus[f->tu];
	char *name = xasprintf("%s_data_only_cb", f->name), *text;
	size_t at = f->start;

	for (unsigned sfx = 2; sfx < 100; sfx++) {
		bool used = false;

		for (size_t q = 0; q < cx->nfuncs; q++)
			used |= cx->funcs[q].tu == f->tu && !strcmp(cx->funcs[q].name, name);
		if (!used)
			break;
		free(name);
		name = xasprintf("%s_data_only_cb%u", f->name, sfx);
	}
	while (at > 0 && t->src[at - 1] != '\n')
		at--;
	/* before the comment that introduces f, not between them */
	{
		size_t e = at;

		while (e > 0 &&
		       (t->src[e - 1] == '\n' || t->src[e - 1] == ' ' || t->src[e - 1] == '\t'))
			e--;
		if (e >= 2 && e == at - 1 && t->src[e - 1] == '/' && t->src[e - 2] == '*') {
			size_t c = e - 2;

			while (c >= 2 && !(t->src[c - 1] == '*' && t->src[c - 2] == '/'))
				c--;
			if (c >= 2) {
				c -= 2;
				while (c > 0 && t->src[c - 1] != '\n')
					c--;
				at = c;
			}
		}
	}
	/* every data-only site of f inserts this same text here: one copy stays */
	text = xasprintf("/* blk_end_request_callback: complete the data only, the request "
			 "ends later */\nstatic int %s(struct request *rq)\n{\n\treturn 1;\n}\n\n",
			 name);
	edit_add(s, t->path, at, at, text);
	free(text);
	return name;
}

/* calls that only read a bio: passing rq->bio to them ends nothing */
static const char *const bio_readers[] = {
    "bio_data",		 "bio_iovec",		"bio_iovec_idx", "bio_sectors",	 "bio_cur_sectors",
    "bio_page",		 "bio_offset",		"bio_segments",	 "bio_data_dir", "bio_barrier",
    "bio_sync",		 "bio_rw_ahead",	"bio_failfast",	 "bio_kmap_irq", "bio_kunmap_irq",
    "__bio_kmap_atomic", "__bio_kunmap_atomic", "bio_to_phys",	 "bio_has_data"};

static bool bio_reader(const char *name)
{
	for (size_t i = 0; i < sizeof(bio_readers) / sizeof(bio_readers[0]); i++)
		if (!strcmp(name, bio_readers[i]))
			return true;
	return false;
}

int bios_ended_by_driver(struct tunit *t, const struct func *f, int L, const char *rq)
{
	char *nrq = normalize_ws(rq);

	for (int n = 0; n < f->nnodes; n++) {
		int p;
		char *txt, *want;
		bool hit = false;

		if (f->nodes[n].start >= f->nodes[L].start)
			continue;
		if (f->nodes[n].kind == CXCursor_CallExpr) {
			char *callee = node_callee(f, n);

			hit = !strcmp(callee, "bio_endio") || !strcmp(callee, "bio_put");
			free(callee);
		} else if (f->nodes[n].kind == CXCursor_MemberRefExpr) {
			CXString fld = clang_getCursorSpelling(node_cursor(f, n));

			hit = !strcmp(clang_getCString(fld), "bio") ||
			      !strcmp(clang_getCString(fld), "biotail");
			clang_disposeString(fld);
			if (hit) {
				txt = node_text(t, &f->nodes[n]);
				char *nt = normalize_ws(txt);

				want = xasprintf("%s->%s", nrq,
						 strstr(nt, "biotail") ? "biotail" : "bio");
				hit = !strcmp(nt, want);
				free(want);
				free(nt);
				free(txt);
			}
			/* read in a test, dereferenced, or given to a reader: no completion */
			p = hit ? node_up(f, n) : -1;
			if (p >= 0) {
				enum CXCursorKind k = f->nodes[p].kind;

				if (k == CXCursor_MemberRefExpr || k == CXCursor_IfStmt ||
				    k == CXCursor_WhileStmt || k == CXCursor_ConditionalOperator) {
					hit = false;
				} else if (k == CXCursor_UnaryOperator) {
					char *op = unary_op(t, f, p);

					hit = strcmp(op, "!") != 0;
					free(op);
				} else if (k == CXCursor_BinaryOperator) {
					char *op = binary_op(t, f, p);

					hit = strcmp(op, "==") && strcmp(op, "!=") &&
					      strcmp(op, "&&") && strcmp(op, "||");
					free(op);
				} else if (k == CXCursor_CallExpr) {
					char *callee = node_callee(f, p);

					hit = !bio_reader(callee);
					free(callee);
				}
			}
		}
		if (hit) {
			free(nrq);
			return n;
		}
	}
	free(nrq);
	return -1;
}
