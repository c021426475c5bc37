/*
 * bytes_flow.c - the byte count of the new call.  end_that_request_first
 * counts sectors: the whole request (hard_nr_sectors, nr_sectors) becomes
 * blk_rq_bytes(rq), the current segment (current_nr_sectors,
 * hard_cur_sectors) blk_rq_cur_bytes(rq), where the driver provably leaves
 * those fields alone (rq_fields.c), else the field itself `<< 9`; anything
 * else `n << 9`, also when n is a variable.  end_that_request_chunk counts bytes and passes its
 * count through.  A count that reaches the call through a variable is
 * followed to its assignments: bytes flowing where sectors are expected, or
 * sectors where bytes are expected, are reported instead of guessed.
 */
#include <string.h>

#include "flow.h"

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

/* X >> 9 or X / 512 at the top: a byte count turned into sectors */
static bool converts_to_sectors(const char *s)
{
	char *n = normalize_ws(s);
	size_t l = strlen(n);
	bool r = false;

	while (l && n[l - 1] == ' ')
		n[--l] = 0;
	r = (l > 4 && (!strcmp(n + l - 4, ">> 9") || !strcmp(n + l - 3, ">>9"))) ||
	    (l > 5 && (!strcmp(n + l - 5, "/ 512") || !strcmp(n + l - 4, "/512")));
	free(n);
	return r;
}

/* some value of a "; "-separated list is a byte count (not turned into sectors) */
static bool any_value_bytes(const char *vals)
{
	char *dup = xstrdup(vals), *save = NULL;
	bool r = false;

	for (char *v = strtok_r(dup, ";", &save); v && !r; v = strtok_r(NULL, ";", &save))
		r = looks_bytes(v) && !converts_to_sectors(v);
	free(dup);
	return r;
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
	if (field) {
		const char *why = NULL;
		bool intact = rq_fields_intact(cx, f->tu, &why);
		bool all = !strcmp(field, "hard_nr_sectors") || !strcmp(field, "nr_sectors");

		/* the helper reads the field now, as the old call did, only where
		 * the driver cannot have made it differ from what the helper uses */
		if (intact) {
			b->expr = xasprintf(all ? "blk_rq_bytes(%s)" : "blk_rq_cur_bytes(%s)", rq);
			b->origin = xasprintf("%s (%s); the driver changes no request field and "
					      "sees no packet request",
					      all ? "whole request" : "current segment", txt);
		} else {
			b->expr = xasprintf(is_simple_operand(txt) ? "%s << 9" : "(%s) << 9", txt);
			b->origin =
			    xasprintf("sectors '%s', << 9, as the old call read them: "
				      "not %s, because %s",
				      txt, all ? "blk_rq_bytes()" : "blk_rq_cur_bytes()", why);
		}
		/* every byte left: hard_nr_sectors is, for any request but a packet one
		 * (whose data need not be whole sectors), while the driver leaves it
		 * alone; nr_sectors only while the driver leaves every field alone */
		b->whole = all && intact;
		if (!b->whole && !strcmp(field, "hard_nr_sectors")) {
			char *pc = rq_packet_marker(cx, f->tu);
			char *w = pc ? NULL : rq_field_written(cx, f->tu, "hard_nr_sectors");

			b->whole = !pc && !w;
			free(pc);
			free(w);
		}
	} else if (looks_bytes(txt) && !converts_to_sectors(txt)) {
		b->why = xasprintf("'%s' looks like a byte count, but end_that_request_first "
				   "takes sectors",
				   txt);
	} else {
		if (s >= 0 && f->nodes[s].kind == CXCursor_DeclRefExpr &&
		    clang_getCursorKind(clang_getCursorReferenced(node_cursor(f, s))) ==
			CXCursor_VarDecl) {
			int cnt;
			char *vals = assigned_values(cx, f, s, &cnt);

			if (cnt && any_value_bytes(vals)) {
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
	    clang_getCursorKind(clang_getCursorReferenced(node_cursor(f, s))) == CXCursor_VarDecl) {
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
