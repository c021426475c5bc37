/*
 * version_guard_sites.c - the version guards' rule on sites (issue 20 item 3,
 * version_guard_func(), version_guard_sites()), read from the conditional
 * structure facts/version_guard.c finds: a site in a compat branch, or in the
 * file's own definition of a legacy or 2.6.25 completion function or macro, is
 * left as it is (compat_branch); a site of a file with version tests whose code is
 * compiled for kernels on both sides of 2.6.25 is left (multi_version): converting
 * it would break the file for the older kernels it supports.
 */
#include <string.h>

#include "analysis.h"

/* ---- the rule: sites in compat code and in multi-version files ---------------- */

static bool is_new_api(const char *n)
{
	static const char *const names[] = {
	    "blk_end_request",	     "__blk_end_request",     "blk_end_request_callback",
	    "blk_end_request_all",   "__blk_end_request_all", "blk_end_request_cur",
	    "__blk_end_request_cur", "blk_end_request_err",   "__blk_end_request_err"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(n, names[i]))
			return true;
	return false;
}

static bool is_api_name(const char *n)
{
	return n && *n && (bm_is_legacy_name(n, strlen(n)) || is_new_api(n));
}

static bool is_whole_call(const char *call)
{
	return !strcmp(call, "end_request") || !strcmp(call, "end_queued_request") ||
	       !strcmp(call, "end_dequeued_request");
}

/* "#if at line N" or "#else at line N of the #if at line M" */
static void branch_words(struct sbuf *b, const char *kind, unsigned line, unsigned if_line)
{
	sbuf_printf(b, "%s at line %u", kind, line);
	if (line != if_line)
		sbuf_printf(b, " of the #if at line %u", if_line);
}

/*
 * Why site s (in function fname, "" if none is known, defined at fline) is left for
 * the version guards, or NULL: *code is set with it.
 */
static char *hold_reason(const struct bm_vguard *g, struct tunit *t, const struct bm_site *s,
			 const char *fname, unsigned fline, const char **code)
{
	struct bm_vg_compat c;
	struct sbuf b = {0};
	const char *mname;
	unsigned mline = 0;

	if (bm_vg_compat_at(g, s->offset, &c)) {
		*code = "compat_branch";
		sbuf_add(&b, "in the branch for kernels before 2.6.25 (");
		branch_words(&b, c.kind, c.line, c.if_line);
		sbuf_add(&b, "), which keeps the legacy API on purpose; ");
		if (c.new_line) {
			sbuf_add(&b, "the file's branch for 2.6.25 and later (");
			branch_words(&b, c.new_kind, c.new_line, c.if_line);
			sbuf_add(&b, ") is what runs on newer kernels");
		} else {
			sbuf_add(&b, "on 2.6.25 and later this code is not compiled");
		}
		sbuf_add(&b, ": nothing to convert");
		return sbuf_take(&b);
	}
	/* the file's own version of the API: a macro of a legacy or a newer name, or a
	 * function of a newer name (a function of a legacy name is the API itself, as
	 * block/ll_rw_blk.c defines it in a whole tree: its body converts like a wrapper) */
	mname = bm_vg_define_at(g, s->offset, &mline);
	if (is_api_name(mname) || (fname && is_new_api(fname))) {
		const char *n = is_api_name(mname) ? mname : fname;
		unsigned line = is_api_name(mname) ? mline : fline;
		const char *what = is_api_name(mname) ? "#define of" : "definition of";

		*code = "compat_branch";
		if (is_new_api(n))
			sbuf_printf(&b,
				    "in this file's own %s %s (line %u), its stand-in for the "
				    "newer call on kernels that lack it, written with the legacy "
				    "API on purpose%s: nothing to convert",
				    what, n, line,
				    strstr(n, "_cur") || strstr(n, "_all") || strstr(n, "_err")
					? ""
					: " (converted, it would call itself)");
		else
			sbuf_printf(&b,
				    "in this file's own %s %s (line %u), the legacy API as the "
				    "file spells it for the kernels it supports: it stays as it "
				    "is: nothing to convert",
				    what, n, line);
		return sbuf_take(&b);
	}
	if (bm_vg_multi_version_at(g, s->offset)) {
		const unsigned *lines;
		size_t n = bm_vg_lvc_lines(g, &lines);
		struct bm_vset v;
		char *vt;
		const char *newcall =
		    strstr(s->replacement, "blk_end_request_callback") ? "blk_end_request_callback"
		    : strstr(s->replacement, "__blk_end_request")      ? "__blk_end_request"
		    : strstr(s->replacement, "blk_end_request")	       ? "blk_end_request"
								       : "__blk_end_request";

		*code = "multi_version";
		bm_vg_versions_at(g, s->offset, &v);
		vt = bm_vset_text(&v);
		if (v.n == 1 && v.lo[0] == 0 && v.hi[0] == BM_VER_END)
			sbuf_add(&b, "this call is outside every version guard, and ");
		else
			sbuf_printf(&b, "this call is compiled for %s, and ", vt);
		free(vt);
		sbuf_add(&b, "this file also builds for kernels before 2.6.25 (LINUX_VERSION_CODE "
			     "tests at line");
		sbuf_add(&b, n > 1 ? "s " : " ");
		for (size_t i = 0; i < n && i < 8; i++)
			sbuf_printf(&b, "%s%u", i ? ", " : "", lines[i]);
		if (n > 8)
			sbuf_add(&b, ", ...");
		sbuf_printf(&b,
			    "), where %s() does not exist: put the conversion under the file's "
			    "own `#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)`",
			    newcall);
		if (s->verdict == BM_AUTO && s->replacement[0] && s->replacement[0] != '(')
			sbuf_printf(&b, " (there: `%s`)", s->replacement);
		if (is_whole_call(s->call))
			sbuf_printf(&b, " or keep the call (%s() exists up to 2.6.30)", s->call);
		else
			sbuf_printf(&b,
				    " with this call in its #else (%s() is gone in 2.6.25, so the "
				    "file needs both)",
				    s->call);
		return sbuf_take(&b);
	}
	(void)t;
	return NULL;
}

/* site si is a guarded rewrite, or the folded half of one */
static bool guarded_or_partner(struct ctx *cx, size_t si)
{
	long p = cx->partner ? cx->partner[si] : -1;

	return site_guarded(&cx->run->sites[si]) || (p >= 0 && site_guarded(&cx->run->sites[p]) &&
						     cx->run->sites[si].verdict == BM_AUTO);
}

/* what the guard says, beside the lock evidence of the site it holds (and of the other
 * half of its pair, whose old call stands in the same #else) */
static void guard_note(struct ctx *cx, const struct bm_vguard *g, size_t si)
{
	const unsigned *lines;
	size_t n = bm_vg_lvc_lines(g, &lines);
	long p = cx->partner ? cx->partner[si] : -1;
	struct sbuf b = {0};

	for (size_t i = 0; i < n && i < 8; i++)
		sbuf_printf(&b, "%s%u", i ? ", " : "", lines[i]);
	for (int k = 0; k < 2 && (!k || p >= 0); k++) {
		struct bm_site *s = &cx->run->sites[k ? (size_t)p : si];

		strlist_push_owned(
		    &s->lock_evidence,
		    xasprintf("version_guarded: this file also builds for kernels before 2.6.25 "
			      "(LINUX_VERSION_CODE tests at line%s %s%s), where the new call does "
			      "not exist: it goes under `#if LINUX_VERSION_CODE >= "
			      "KERNEL_VERSION(2,6,25)` and the old lines stay in its #else",
			      n > 1 ? "s" : "", b.s ? b.s : "", n > 8 ? ", ..." : ""));
	}
	free(b.s);
}

/* Asked once per function: the answer is kept in the unit (a file of thousands of
 * functions was searched whole for each, issue 25 item 9). */
static bool has_lvc(struct tunit *t)
{
	if (!t->has_lvc)
		t->has_lvc = t->src && memmem(t->src, t->len, "LINUX_VERSION_CODE", 18) ? 1 : -1;
	return t->has_lvc > 0;
}

void version_guard_func(struct ctx *cx, struct func *f, const long *sites, size_t n)
{
	struct tunit *t = &cx->tus[f->tu];
	struct bm_vguard *g;
	unsigned fline = offset_line(t, f->start, NULL);

	if (!has_lvc(t) && !is_new_api(f->name))
		return;
	g = bm_vguard_build(t->src, t->len);
	/* first the proven rewrites that can go under the file's own kind of guard
	 * (guard_rewrite.c), so that the other half of a pair knows it */
	for (size_t i = 0; i < n; i++) {
		const char *code = NULL;
		char *why;

		if (sites[i] < 0)
			continue;
		why = hold_reason(g, t, &cx->run->sites[sites[i]], f->name, fline, &code);
		if (why && !strcmp(code, "multi_version") && guard_rewrite(cx, f, (size_t)sites[i]))
			guard_note(cx, g, (size_t)sites[i]);
		free(why);
	}
	for (size_t i = 0; i < n; i++) {
		const char *code = NULL;
		char *why;

		if (sites[i] < 0 || guarded_or_partner(cx, (size_t)sites[i]))
			continue;
		why = hold_reason(g, t, &cx->run->sites[sites[i]], f->name, fline, &code);
		if (why)
			site_manual(cx, (size_t)sites[i], code, "%s", why);
		free(why);
	}
	bm_vguard_free(g);
}

static bool is_hold_code(const char *code)
{
	return code && (!strcmp(code, "compat_branch") || !strcmp(code, "multi_version"));
}

void version_guard_sites(struct ctx *cx)
{
	for (size_t ti = 0; ti < cx->ntus; ti++) {
		struct tunit *t = &cx->tus[ti];
		struct bm_vguard *g = NULL;

		for (size_t si = 0; si < cx->run->nsites; si++) {
			struct bm_site *s = &cx->run->sites[si];
			const char *code = NULL;
			char *why, *fname = NULL;
			size_t at = 0;
			unsigned fline = 0;

			if (strcmp(s->file, t->path) || !t->src ||
			    (s->reason_code && !strcmp(s->reason_code, "timeout")))
				continue;
			if (!g)
				g = bm_vguard_build(t->src, t->len);
			fname = bm_vg_function_at(g, s->offset, &at);
			if (fname)
				fline = offset_line(t, at, NULL);
			if (s->function[0] && (!fname || strcmp(fname, s->function))) {
				/* the AST's function: its name is spelled at its start */
				free(fname);
				fname = xstrdup(s->function);
				fline = 0;
				for (size_t fi = 0; fi < cx->nfuncs; fi++)
					if (cx->funcs[fi].tu == ti &&
					    !strcmp(cx->funcs[fi].name, s->function) &&
					    cx->funcs[fi].start <= s->offset &&
					    s->offset < cx->funcs[fi].end)
						fline = offset_line(t, cx->funcs[fi].start, NULL);
			}
			why = guarded_or_partner(cx, si)
				  ? NULL
				  : hold_reason(g, t, s, fname ? fname : "", fline, &code);
			/* (a site version_guard_func() held keeps its text, which may name the
			 * rewrite; one held as the partner of another gets its own) */
			if (why &&
			    !(is_hold_code(s->reason_code) && !strcmp(s->reason_code, code) &&
			      s->reason_text && strncmp(s->reason_text, "paired with ", 12))) {
				site_manual(cx, si, code, "%s", why);
				s = &cx->run->sites[si];
			} else if (!why && is_hold_code(s->reason_code)) {
				/* given by a neighbour (a wrapper group, a pair): not ours */
				s->reason_code = "shape";
			}
			/* a site no AST placed: the function the text shows */
			if (why && !s->function[0] && fname) {
				free(s->function);
				s->function = xstrdup(fname);
			}
			free(why);
			free(fname);
		}
		bm_vguard_free(g);
	}
}
