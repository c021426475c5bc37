/*
 * rq_fields.c - may the driver have changed the request fields that 2.6.25's
 * byte-count helpers read?  blk_rq_cur_bytes(rq) reads current_nr_sectors
 * and blk_rq_bytes(rq) hard_nr_sectors (data_len for a packet request), but
 * end_request() completed hard_cur_sectors << 9 and end_that_request_first()
 * its own count, and PIO drivers count current_nr_sectors, sector, buffer
 * and nr_sectors down as they transfer, or overwrite data_len with a residue.
 * A helper is therefore written only where a file provably leaves them alone:
 *  (a) no write (=, op=, ++, --, address taken) to one of those members, in
 *      the file or in a header of its own directory it includes;
 *  (b) no packet request: none of the calls that make or pass one;
 *  (c) no request handed to a function that is neither the file's own (then
 *      (a) covers it) nor a block-layer call that leaves the fields alone.
 * The proof is per file and conservative: a member of that name in another
 * struct counts as a write too, which only costs the helper's spelling.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "flow.h"

static const char *const rq_fields[] = {
    "current_nr_sectors", "hard_cur_sectors", "nr_sectors", "hard_nr_sectors", "sector",
    "hard_sector",	  "buffer",	      "data_len",
};

/* identifiers whose use means the file makes or passes packet requests
 * (cdrom_ioctl() hands SG_IO and CDROM_SEND_PACKET to scsi_cmd_ioctl()) */
static const char *const pc_markers[] = {
    "REQ_TYPE_BLOCK_PC",     "scsi_cmd_ioctl",	"blk_execute_rq",
    "blk_execute_rq_nowait", "blk_rq_map_user", "blk_rq_map_user_iov",
    "blk_rq_map_kern",	     "sg_io",		"cdrom_ioctl",
};

/* block-layer calls that take a request and leave the fields above alone */
static const char *const safe_calls[] = {
    "blk_fs_request",
    "blk_pc_request",
    "blk_special_request",
    "blk_barrier_rq",
    "blk_sense_request",
    "rq_data_dir",
    "rq_is_sync",
    "blkdev_dequeue_request",
    "blk_requeue_request",
    "add_disk_randomness",
    "blk_complete_request",
    "blk_end_sync_rq",
    "end_request",
    "end_that_request_first",
    "end_that_request_chunk",
    "end_that_request_last",
    "end_queued_request",
    "end_dequeued_request",
    "__blk_end_request",
    "blk_end_request",
    "blk_end_request_callback",
    "blk_insert_request",
    "blk_put_request",
    "__blk_put_request",
};

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* the word [p, p + n) of s stands alone */
static bool whole_word(const char *s, size_t len, size_t p, size_t n)
{
	return (p == 0 || !is_ident_char(s[p - 1])) && (p + n >= len || !is_ident_char(s[p + n]));
}

static size_t skip_back_ws(const char *s, size_t p)
{
	while (p > 0 && isspace((unsigned char)s[p - 1]))
		p--;
	return p;
}

/* start of the postfix expression that ends just before p (x, x->y, a[i].b, f(x)->y) */
static size_t postfix_start(const char *s, size_t p)
{
	bool group = false; /* just stepped over a (...) or [...] */

	for (;;) {
		size_t q = skip_back_ws(s, p);

		if (q && (s[q - 1] == ']' || s[q - 1] == ')')) {
			char open = s[q - 1] == ']' ? '[' : '(', close = s[q - 1];
			int depth = 0;

			while (q > 0) {
				q--;
				if (s[q] == close)
					depth++;
				else if (s[q] == open && --depth == 0)
					break;
			}
			p = q;
			group = true;
			continue;
		}
		if (q && is_ident_char(s[q - 1])) {
			while (q > 0 && is_ident_char(s[q - 1]))
				q--;
			p = q;
		} else if (!group) {
			return p;
		}
		group = false;
		q = skip_back_ws(s, p);
		if (q >= 2 && s[q - 1] == '>' && s[q - 2] == '-')
			p = q - 2;
		else if (q >= 1 && s[q - 1] == '.')
			p = q - 1;
		else
			return p;
	}
}

/* the member at [p, p + n) (after -> or .) is written or has its address taken */
/* the identifier that ends at offset e of s ("" when none), copied to out */
static void word_before(const char *s, size_t e, char *out, size_t cap)
{
	size_t b = e;

	while (b > 0 && is_ident_char(s[b - 1]))
		b--;
	snprintf(out, cap, "%.*s", (int)(e - b < cap ? e - b : cap - 1), s + b);
}

/*
 * A unary operator op just before offset b: no operand before it.  A ')' before
 * a '*' is an operand unless it closes an if/while/for/switch condition; before
 * a '&' it always counts as unary (a cast: (void *)&rq->sector), the side that
 * says "maybe written".
 */
static bool unary_before(const char *s, size_t b, char op)
{
	char w[16];
	size_t c;

	if (b < 1 || s[b - 1] != op || (b >= 2 && s[b - 2] == op))
		return false;
	c = skip_back_ws(s, b - 1);
	if (c == 0)
		return true;
	if (is_ident_char(s[c - 1])) {
		word_before(s, c, w, sizeof(w));
		return !strcmp(w, "return") || !strcmp(w, "else") || !strcmp(w, "do") ||
		       !strcmp(w, "case");
	}
	if (s[c - 1] == ']')
		return false;
	if (s[c - 1] == ')') {
		int depth = 0;

		if (op == '&')
			return true;
		while (c > 0) {
			c--;
			if (s[c] == ')')
				depth++;
			else if (s[c] == '(' && --depth == 0)
				break;
		}
		word_before(s, skip_back_ws(s, c), w, sizeof(w));
		return !strcmp(w, "if") || !strcmp(w, "while") || !strcmp(w, "for") ||
		       !strcmp(w, "switch");
	}
	return true;
}

static bool member_written(const char *s, size_t len, size_t p, size_t n)
{
	size_t q = p + n, b;
	bool assigned = false;

	b = skip_back_ws(s, p); /* before the -> or . that leads to the member */
	b = skip_back_ws(s, postfix_start(s, s[b - 1] == '.' ? b - 1 : b - 2));
	while (q < len && isspace((unsigned char)s[q]))
		q++;
	if (q + 1 < len && ((s[q] == '+' && s[q + 1] == '+') || (s[q] == '-' && s[q + 1] == '-')))
		return true; /* (also *rq->buffer++: the member moves) */
	if (q + 1 < len && s[q] == '=' && s[q + 1] != '=')
		assigned = true;
	if (q + 2 < len && strchr("+-*/%&|^", s[q]) && s[q + 1] == '=')
		assigned = true;
	if (q + 3 < len && (!strncmp(s + q, "<<=", 3) || !strncmp(s + q, ">>=", 3)))
		assigned = true;
	if (assigned)
		return !unary_before(s, b, '*'); /* *rq->buffer = 0 writes the data */
	if (b >= 2 &&
	    ((s[b - 1] == '+' && s[b - 2] == '+') || (s[b - 1] == '-' && s[b - 2] == '-')))
		return true;
	return unary_before(s, b, '&'); /* its address taken: may be written */
}

/* first write to a request field (only to `only`, when given) in clean text s; its
 * offset, or -1 */
static long first_field_write(const char *s, size_t len, const char **field, const char *only)
{
	for (size_t p = 0; p < len; p++) {
		size_t q;

		if (!is_ident_char(s[p]) || (p && is_ident_char(s[p - 1])))
			continue;
		q = skip_back_ws(s, p);
		if (!((q >= 2 && s[q - 1] == '>' && s[q - 2] == '-') ||
		      (q >= 1 && s[q - 1] == '.')))
			continue;
		/* `{ .buffer = NULL, ... }`: a designated initializer, no write */
		if (s[q - 1] == '.') {
			size_t d = skip_back_ws(s, q - 1);

			if (d >= 1 && (s[d - 1] == '{' || s[d - 1] == ','))
				continue;
		}
		for (size_t i = 0; i < sizeof(rq_fields) / sizeof(rq_fields[0]); i++) {
			size_t n = strlen(rq_fields[i]);

			if ((!only || !strcmp(only, rq_fields[i])) && p + n <= len &&
			    !strncmp(s + p, rq_fields[i], n) && whole_word(s, len, p, n) &&
			    member_written(s, len, p, n)) {
				*field = rq_fields[i];
				return (long)p;
			}
		}
	}
	return -1;
}

static long first_word(const char *s, size_t len, const char *const *words, size_t nwords,
		       const char **which)
{
	for (size_t p = 0; p < len; p++) {
		if (!is_ident_char(s[p]) || (p && is_ident_char(s[p - 1])))
			continue;
		for (size_t i = 0; i < nwords; i++) {
			size_t n = strlen(words[i]);

			if (p + n <= len && !strncmp(s + p, words[i], n) &&
			    whole_word(s, len, p, n)) {
				*which = words[i];
				return (long)p;
			}
		}
	}
	return -1;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* (a) and (b) over text src of file path; *why set (owned) when one fails */
static bool text_facts_hold(const char *path, const char *src, size_t len, char **why)
{
	char *clean = bm_blank_comments(src, len);
	const char *what = NULL;
	long at;
	bool ok = true;

	if ((at = first_field_write(clean, len, &what, NULL)) >= 0) {
		*why = xasprintf("the driver writes ->%s (%s:%u)", what, base_name(path),
				 bm_line_of(src, (size_t)at));
		ok = false;
	} else if ((at = first_word(clean, len, pc_markers,
				    sizeof(pc_markers) / sizeof(pc_markers[0]), &what)) >= 0) {
		*why = xasprintf("the driver may see packet requests (%s, %s:%u)", what,
				 base_name(path), bm_line_of(src, (size_t)at));
		ok = false;
	}
	free(clean);
	return ok;
}

/* the quoted includes of src that exist beside path: their text facts too */
static bool local_headers_hold(const char *path, const char *src, size_t len, char **why)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;

	for (size_t p = 0; p + 8 < len; p++) {
		const char *q, *e;
		char *hp, *text;
		size_t hlen;
		bool ok;

		if (src[p] != '#' || (p && src[p - 1] != '\n'))
			continue;
		q = src + p + 1;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "include", 7))
			continue;
		q += 7;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '"' || !(e = memchr(q + 1, '"', (size_t)(src + len - q - 1))))
			continue;
		hp = xasprintf("%.*s%.*s", (int)dirlen, path, (int)(e - q - 1), q + 1);
		text = read_file(hp, &hlen);
		ok = !text || text_facts_hold(hp, text, hlen, why);
		free(text);
		free(hp);
		if (!ok)
			return false;
	}
	return true;
}

static bool is_safe_call(const char *name)
{
	if (!strncmp(name, "blk_rq_", 7) || !strncmp(name, "elv_", 4) ||
	    !strncmp(name, "blk_queue_", 10))
		return true;
	for (size_t i = 0; i < sizeof(safe_calls) / sizeof(safe_calls[0]); i++)
		if (!strcmp(name, safe_calls[i]))
			return true;
	return false;
}

static bool is_request_pointer(CXCursor c)
{
	CXType ty = clang_getCanonicalType(clang_getCursorType(c));
	CXString s;
	bool r;

	if (ty.kind != CXType_Pointer)
		return false;
	s = clang_getTypeSpelling(clang_getCanonicalType(clang_getPointeeType(ty)));
	r = !strcmp(clang_getCString(s), "struct request");
	clang_disposeString(s);
	return r;
}

/* (c): every function of unit tu that the parse built */
static bool no_request_escapes(struct ctx *cx, size_t tu, char **why)
{
	struct tunit *t = &cx->tus[tu];

	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];

		if (f->tu != tu)
			continue;
		if (f->has_errors) {
			*why = xasprintf("%s() has parse errors, so the calls it passes the "
					 "request to are not known",
					 f->name);
			return false;
		}
		for (int n = 0; n < f->nnodes; n++) {
			CXCursor ref;
			struct func *own;
			char *callee;
			bool known;

			if (f->nodes[n].kind != CXCursor_CallExpr)
				continue;
			for (int k = 0; k < call_nargs(f, n); k++) {
				int a = call_arg(f, n, k);

				if (a < 0 || !is_request_pointer(node_cursor(f, a)))
					continue;
				ref = clang_getCursorReferenced(node_cursor(f, n));
				/* a variadic argument (a printk-style debug call) is only read */
				if (clang_getCursorKind(ref) == CXCursor_FunctionDecl &&
				    clang_Cursor_isVariadic(ref) &&
				    k >= clang_Cursor_getNumArguments(ref))
					continue;
				callee = node_callee(f, n);
				own = func_by_name(cx, callee, tu);
				known = clang_getCursorKind(ref) == CXCursor_FunctionDecl &&
					(is_safe_call(callee) || (own && own->tu == tu));
				if (!known) {
					*why =
					    xasprintf("the request goes to %s%s (%s:%u), which may "
						      "change its "
						      "fields",
						      *callee ? callee : "a call through a pointer",
						      *callee ? "()" : "", base_name(t->path),
						      offset_line(t, f->nodes[n].start, NULL));
					free(callee);
					return false;
				}
				free(callee);
				break;
			}
		}
	}
	return true;
}

bool rq_fields_intact(struct ctx *cx, size_t tu, const char **why)
{
	struct tunit *t = &cx->tus[tu];

	if (!t->fields_known) {
		char *w = NULL;

		t->fields_intact = text_facts_hold(t->path, t->src, t->len, &w) &&
				   local_headers_hold(t->path, t->src, t->len, &w) &&
				   no_request_escapes(cx, tu, &w);
		t->fields_why = w;
		t->fields_known = true;
	}
	*why = t->fields_why;
	return t->fields_intact;
}

char *rq_field_written(struct ctx *cx, size_t tu, const char *field)
{
	struct tunit *t = &cx->tus[tu];
	const char *what = NULL;
	long at = first_field_write(t->clean, t->len, &what, field);

	return at < 0 ? NULL
		      : xasprintf("the driver writes ->%s (%s:%u)", field, base_name(t->path),
				  bm_line_of(t->src, (size_t)at));
}

char *rq_packet_marker(struct ctx *cx, size_t tu)
{
	struct tunit *t = &cx->tus[tu];
	const char *what = NULL;
	long at = first_word(t->clean, t->len, pc_markers,
			     sizeof(pc_markers) / sizeof(pc_markers[0]), &what);

	return at < 0 ? NULL
		      : xasprintf("the driver may see packet requests (%s, %s:%u)", what,
				  base_name(t->path), bm_line_of(t->src, (size_t)at));
}
