/*
 * bytes_flow.c - the byte count of the new call.  end_that_request_first
 * counts sectors: the whole request (hard_nr_sectors, nr_sectors) becomes
 * blk_rq_bytes(rq), the current segment (current_nr_sectors,
 * hard_cur_sectors) blk_rq_cur_bytes(rq), anything else `n << 9`, also
 * when n is a variable.  end_that_request_chunk counts bytes and passes its
 * count through.  A count that reaches the call through a variable is
 * followed to its assignments: bytes flowing where sectors are expected, or
 * sectors where bytes are expected, are reported instead of guessed.
 */
#include <string.h>

#include "rewrite.h"

void bytes_free(struct bytes *b)
{
	free(b->expr);
	free(b->origin);
	free(b->why);
	memset(b, 0, sizeof(*b));
}

static bool looks_bytes(const char *s)
{
	return strstr(s, "<< 9") || strstr(s, "<<9") || strstr(s, "* 512") || strstr(s, "*512") ||
	       strstr(s, "data_len") || strstr(s, "bi_size") || strstr(s, "bv_len") ||
	       strstr(s, "blk_rq_bytes") || strstr(s, "blk_rq_cur_bytes") || strstr(s, "bytes");
}

static bool looks_sectors(const char *s)
{
	return (strstr(s, "nr_sectors") || strstr(s, "cur_sectors") || strstr(s, "sectors")) &&
	       !looks_bytes(s);
}

/* Texts of every value assigned to the local variable named at node n. */
static char *assigned_values(struct ctx *cx, struct func *f, int n, int *count)
{
	struct tunit *t = &cx->tus[f->tu];
	char *usr = ref_usr(f, n);
	struct sbuf b = {0};

	*count = 0;
	for (int k = 0; k < f->nnodes; k++) {
		int rhs;

		node_store(t, f, k, usr, &rhs);
		if (rhs >= 0) {
			char *txt = node_text(t, &f->nodes[rhs]);

			sbuf_printf(&b, "%s%s", *count ? "; " : "", txt);
			free(txt);
			(*count)++;
		}
	}
	free(usr);
	return sbuf_take(&b);
}

static const char *member_of_rq(const char *text, const char *rq)
{
	char *nt = normalize_ws(text), *nrq = normalize_ws(rq);
	size_t l = strlen(nrq);
	const char *r = NULL;
	static const char *const fields[] = {"hard_nr_sectors", "nr_sectors", "current_nr_sectors",
					     "hard_cur_sectors"};

	if (!strncmp(nt, nrq, l) && !strncmp(nt + l, "->", 2))
		for (size_t i = 0; i < 4; i++)
			if (!strcmp(nt + l + 2, fields[i]))
				r = fields[i];
	free(nt);
	free(nrq);
	return r;
}

void bytes_from_sectors(struct ctx *cx, struct func *f, int n, const char *rq, struct bytes *b)
{
	struct tunit *t = &cx->tus[f->tu];
	int s = node_strip_casts(f, n);
	char *txt = node_text(t, &f->nodes[n]);
	const char *field = member_of_rq(txt, rq);

	memset(b, 0, sizeof(*b));
	{
		/* the accessors of later kernels say the same */
		char *nt = normalize_ws(txt), *nrq = normalize_ws(rq);
		char *cur = xasprintf("blk_rq_cur_sectors(%s)", nrq);
		char *all = xasprintf("blk_rq_sectors(%s)", nrq);

		if (!strcmp(nt, cur))
			field = "current_nr_sectors";
		else if (!strcmp(nt, all))
			field = "nr_sectors";
		free(nt);
		free(nrq);
		free(cur);
		free(all);
	}
	if (field && (!strcmp(field, "hard_nr_sectors") || !strcmp(field, "nr_sectors"))) {
		b->expr = xasprintf("blk_rq_bytes(%s)", rq);
		b->origin = xasprintf("whole request (%s)", txt);
		b->whole = true;
	} else if (field) {
		b->expr = xasprintf("blk_rq_cur_bytes(%s)", rq);
		b->origin = xasprintf("current segment (%s)", txt);
	} else if (looks_bytes(txt)) {
		b->why = xasprintf("'%s' looks like a byte count, but end_that_request_first "
				   "takes sectors",
				   txt);
	} else {
		if (s >= 0 && f->nodes[s].kind == CXCursor_DeclRefExpr &&
		    clang_getCursorKind(clang_getCursorReferenced(f->nodes[s].c)) ==
			CXCursor_VarDecl) {
			int cnt;
			char *vals = assigned_values(cx, f, s, &cnt);

			if (cnt && looks_bytes(vals)) {
				b->why =
				    xasprintf("sector count '%s' is assigned byte-like values (%s)",
					      txt, vals);
				free(vals);
				free(txt);
				return;
			}
			b->origin =
			    cnt ? xasprintf("sectors in '%s' (assigned: %s), << 9", txt, vals)
				: xasprintf("sectors in '%s', << 9", txt);
			free(vals);
		} else {
			b->origin = xasprintf("sectors '%s', << 9", txt);
		}
		b->expr = xasprintf(is_simple_operand(txt) ? "%s << 9" : "(%s) << 9", txt);
	}
	free(txt);
}

void bytes_from_bytes(struct ctx *cx, struct func *f, int n, struct bytes *b)
{
	struct tunit *t = &cx->tus[f->tu];
	int s = node_strip_casts(f, n);
	char *txt = node_text(t, &f->nodes[n]);

	memset(b, 0, sizeof(*b));
	if (looks_sectors(txt)) {
		b->why = xasprintf("'%s' looks like a sector count, but end_that_request_chunk "
				   "takes bytes",
				   txt);
		free(txt);
		return;
	}
	if (s >= 0 && f->nodes[s].kind == CXCursor_DeclRefExpr &&
	    clang_getCursorKind(clang_getCursorReferenced(f->nodes[s].c)) == CXCursor_VarDecl) {
		int cnt;
		char *vals = assigned_values(cx, f, s, &cnt);

		if (cnt && looks_sectors(vals)) {
			b->why = xasprintf("byte count '%s' is assigned sector-like values (%s)",
					   txt, vals);
			free(vals);
			free(txt);
			return;
		}
		b->origin = cnt ? xasprintf("bytes in '%s' (assigned: %s)", txt, vals)
				: xasprintf("bytes in '%s'", txt);
		free(vals);
	} else {
		b->origin = xasprintf("bytes '%s'", txt);
	}
	b->expr = txt;
}
