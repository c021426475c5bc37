/*
 * parse_scope.c - what a file's parse errors touch, said at each of its sites
 * (issue 20 item 4).  Out-of-tree drivers come without their headers and old
 * trees meet today's compilers: many files parse with errors.  An error blocks
 * only what it touches: a site is classified from its own function, which
 * parsed whole or made the site manual (classify.c), and from the functions its
 * lock context rests on.  Every site of a file with errors says where they are
 * (a header, file scope, which functions) and that none is in what the site
 * rests on; an error in one of its callers lowers its confidence.
 */
#include <stdbool.h>
#include <string.h>

#include "analysis.h"
#include "vec.h"

/* the function of unit tu whose definition holds offset off, or NULL */
static struct func *func_holding(struct ctx *cx, size_t tu, size_t off)
{
	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];

		if (f->tu == tu && f->start <= off && off <= f->end)
			return f;
	}
	return NULL;
}

/* a caller of f (a function its lock context may rest on) that did not parse whole */
static struct func *caller_with_errors(struct ctx *cx, struct func *f)
{
	long fi = (long)(f - cx->funcs);

	for (size_t k = 0; k < cx->ncalls; k++) {
		struct func *caller = &cx->funcs[cx->calls[k].func];

		if (cx->calls[k].callee == fi && caller->has_errors)
			return caller;
	}
	return NULL;
}

/* "2 in included headers (include/asm-x86/pci.h), 1 at file scope (line 40), 1 in f()" */
static char *where_errors_are(struct ctx *cx, size_t tu, const struct bm_file *file)
{
	struct tunit *t = &cx->tus[tu];
	struct sbuf b = {0};
	size_t in_headers = file->errors > t->nerr ? file->errors - t->nerr : 0;
	const char *hdr = NULL;
	size_t hdr_len = 0;

	/* the first diagnostic outside the main file names a header: "PATH:L:C: error: ..." */
	for (size_t i = 0; i < file->diagnostics.n && !hdr; i++) {
		const char *d = file->diagnostics.v[i], *colon = strchr(d, ':');

		if (colon && strncmp(d, file->path, (size_t)(colon - d))) {
			hdr = d;
			hdr_len = (size_t)(colon - d);
		}
	}
	if (in_headers)
		sbuf_printf(&b, "%zu in included headers%s%.*s%s", in_headers, hdr ? " (" : "",
			    (int)hdr_len, hdr ? hdr : "", hdr ? ")" : "");
	/* the main file's errors, one entry per function (or file scope), in order */
	for (size_t i = 0; i < t->nerr; i++) {
		struct func *f = func_holding(cx, tu, t->err_offsets[i]);
		size_t n = 0;
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = func_holding(cx, tu, t->err_offsets[k]) == f;
		if (seen)
			continue;
		for (size_t k = i; k < t->nerr; k++)
			n += func_holding(cx, tu, t->err_offsets[k]) == f;
		sbuf_printf(&b, "%s%zu %s%s%s (line %u)", b.s ? ", " : "", n,
			    f ? "in " : "at file scope", f ? f->name : "", f ? "()" : "",
			    offset_line(t, t->err_offsets[i], NULL));
	}
	return sbuf_take(&b);
}

void note_parse_errors(struct ctx *cx)
{
	for (size_t i = 0; i < cx->run->nsites; i++) {
		struct bm_site *s = &cx->run->sites[i];
		const struct bm_file *file = NULL;
		size_t tu = cx->ntus;
		struct func *f = NULL, *bad_caller;
		char *where;

		for (size_t k = 0; k < cx->ntus; k++)
			if (!strcmp(cx->tus[k].path, s->file))
				tu = k;
		if (tu == cx->ntus)
			continue;
		file = &cx->run->files[cx->tus[tu].file_index];
		if (!file->errors || s->parse_note)
			continue;
		where = where_errors_are(cx, tu, file);
		f = s->function[0] ? func_holding(cx, tu, s->offset) : NULL;
		if (f && f->has_errors) {
			s->parse_note =
			    xasprintf("%u error(s): %s; %s() itself did not parse whole, so "
				      "nothing here rests on its code",
				      file->errors, where, f->name);
		} else if (f && (bad_caller = caller_with_errors(cx, f))) {
			if (s->verdict == BM_AUTO && !strcmp(s->confidence, "high"))
				s->confidence = "medium";
			s->parse_note =
			    xasprintf("%u error(s): %s; %s() parsed whole, but its caller "
				      "%s() did not, and the lock context rests on the "
				      "callers",
				      file->errors, where, f->name, bad_caller->name);
		} else if (f) {
			s->parse_note =
			    xasprintf("%u error(s): %s; none in %s() or in the functions "
				      "that call it",
				      file->errors, where, f->name);
		} else {
			s->parse_note = xasprintf("%u error(s): %s", file->errors, where);
		}
		free(where);
	}
}
