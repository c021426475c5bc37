/*
 * migrate_judge.c - what of spatch's rewrite migrate takes (stages 2 and 3 of
 * cmd_migrate.c).
 *
 * Owns the checks of spatch's output (confined to its sites, parses as well as the
 * original), the judgement of spatch's rewrite site by site against the analysis
 * (migrate_combine.c undoes the rejected blocks), and the reconciliation of the
 * analysis of spatch's result with the inventory: which inventory site spatch
 * converted, which the analyzer still sees.
 */

#include <stdlib.h>
#include <string.h>

#include "atomic_write.h"
#include "migrate_combine.h"
#include "migrate_stages.h"
#include "origin_map.h"
#include "output_guard.h"
#include "parse_cache.h"
#include "udiff.h"
#include "util.h"

/* "function\x1fcall\x1ftrimmed line text": what identifies a site across rewrites */
static char *site_key(const struct bm_site *s, const char *data, size_t len)
{
	size_t a = s->offset < len ? s->offset : len, b;

	while (a > 0 && data[a - 1] != '\n')
		a--;
	b = a;
	while (b < len && data[b] != '\n')
		b++;
	while (a < b && (data[a] == ' ' || data[a] == '\t'))
		a++;
	while (b > a && (data[b - 1] == ' ' || data[b - 1] == '\t' || data[b - 1] == '\r'))
		b--;
	return xasprintf("%s\x1f%s\x1f%.*s", s->function ? s->function : "", s->call, (int)(b - a),
			 data + a);
}

/* The lines [first, last] (1-based) the site's "before" text covers in @data. */
/* "call(..); + a trailing comment" -> "call(..)": the statement's end is not part of the call */
void trim_statement_end(char *r)
{
	size_t n = strlen(r);

	while (n && (r[n - 1] == ' ' || r[n - 1] == '\t'))
		n--;
	if (n >= 2 && r[n - 1] == '/' && r[n - 2] == '*') {
		char *open = NULL;

		for (char *q = r; (q = strstr(q, "/*")) && q < r + n - 2; q++)
			open = q;
		if (open)
			n = (size_t)(open - r);
		while (n && (r[n - 1] == ' ' || r[n - 1] == '\t'))
			n--;
	}
	if (n && r[n - 1] == ';')
		n--;
	r[n] = '\0';
}

/*
 * A spatch-converted site whose lines lie inside another site's edit (the
 * end_that_request_last of a pair spatch rewrote as one call) has no change
 * of its own: it is folded into that site's, and says so, as the analyzer's
 * folded sites do.
 */
void fold_into_covering_site(const struct bm_run *run, struct bm_site *s)
{
	if (s->nedits)
		return;
	for (size_t i = 0; i < run->nsites; i++) {
		const struct bm_site *t = &run->sites[i];

		if (t == s || strcmp(t->file, s->file))
			continue;
		for (size_t k = 0; k < t->nedits; k++)
			if (!strcmp(t->edits[k].file, s->file) && t->edits[k].start <= s->offset &&
			    s->offset < t->edits[k].end) {
				free(s->replacement);
				s->replacement = xasprintf(
				    "(folded into the conversion spatch made at line %u)", t->line);
				return;
			}
	}
}

/*
 * The lines [*first, *last] of @data that hold the site's `before` text: its first
 * occurrence that covers the call.  An occurrence covers it only if it starts in
 * (offset - blen, offset], so only that window is searched, and the line is counted back
 * from the call's own line: a whole-file search per site made a file with thousands of
 * sites quadratic (issue 25, item 9).
 */
void before_range(const struct bm_site *s, const char *data, size_t len, unsigned *first,
		  unsigned *last)
{
	unsigned nl = 0;
	const char *p;
	size_t blen = s->before ? strlen(s->before) : 0, from, to;

	*first = *last = s->line;
	if (!blen || s->offset >= len)
		return;
	for (size_t i = 0; i + 1 < blen; i++)
		nl += s->before[i] == '\n';
	from = s->offset + 1 >= blen ? s->offset + 1 - blen : 0;
	to = s->offset + blen < len ? s->offset + blen : len;
	p = memmem(data + from, to - from, s->before, blen);
	if (p && (size_t)(p - data) <= s->offset) {
		unsigned line = s->line;

		for (const char *q = p; q < data + s->offset; q++)
			line -= *q == '\n';
		*first = line;
		*last = line + nl;
	}
}

static int is_unsafe_reason(const char *code)
{
	/* every reason the analysis leaves a site for: nothing else proves spatch's
	 * rewrite of it exact (a conversion is taken only where the analysis proves it) */
	return code != NULL;
}

void set_manual(struct bm_site *s, const char *code, const char *text)
{
	s->verdict = BM_MANUAL;
	s->reason_code = code;
	free(s->reason_text);
	s->reason_text = xstrdup(text);
	free(s->after);
	s->after = xstrdup("");
	free(s->replacement);
	s->replacement = xstrdup("");
	origin_drop_edits(s); /* REPORT.md: a manual site has no edits */
}

/*
 * spatch's output is not trusted (issue 25, item 1; output_guard.c): a file whose copy
 * spatch changed outside its sites and what their conversion may touch (a truncated
 * file, another function, garbage at file scope) is left byte for byte
 * (spatch_output_rejected), and its copy is restored for the analysis that follows.
 */
void guard_spatch_output(struct mig *m)
{
	for (size_t ci = 0; ci < m->nc; ci++) {
		struct cand *c = &m->c[ci];
		struct og_site *sites;
		size_t n = 0, sp_len;
		char *sp, err[256];
		unsigned bad;

		if (c->problem || read_whole_file(c->tmp, &sp, &sp_len, err, sizeof(err)) < 0)
			continue;
		sites = xcalloc(m->inv.nsites + 1, sizeof(*sites));
		for (size_t i = 0; i < m->inv.nsites; i++)
			if (cand_of(m, m->inv.sites[i].file) == c) {
				before_range(&m->inv.sites[i], c->orig_data, c->orig_len,
					     &sites[n].first, &sites[n].last);
				n++;
			}
		if (output_guard_confined(c->orig_data, c->orig_len, sp, sp_len, sites, n, NULL, 0,
					  &bad) == 0) {
			char *why = output_guard_message("spatch's output", c->orig_data,
							 c->orig_len, sp_len, bad);

			leave_untouched(c, "spatch_output_rejected", why);
			free(why);
			atomic_replace_new(c->tmp, c->orig_data, c->orig_len, err, sizeof(err));
		}
		free(sites);
		free(sp);
	}
}

/*
 * The parse half of the check (issue 25, item 1): a changed file whose original parses
 * without an error must give a result that does too, both parsed alike
 * (output_guard_parse: the same options, private copies outside the tree).  Where the
 * original has errors in that context, its headers are missing and the check is left to
 * the confinement alone.  A result verify parsed without an
 * error cannot be worse; for one it parsed with errors only the original is parsed (in
 * the same way: verify's copy is outside the tree too), and one it did not parse (no
 * completion call left) is parsed with its original.
 */
void guard_parse(struct mig *m)
{
	struct og_text *t = xcalloc(m->nc + 1, sizeof(*t));
	size_t *ci = xcalloc(m->nc + 1, sizeof(*ci)), n = 0;

	for (size_t i = 0; i < m->nc; i++) {
		const struct cand *c = &m->c[i];
		const struct bm_file *vf = NULL;
		const char *base = strrchr(c->tmp, '/') ? strrchr(c->tmp, '/') + 1 : c->tmp;

		if (!changed(c))
			continue;
		for (size_t k = 0; k < m->ver.nfiles; k++)
			if (!strcmp(m->ver.files[k].path, c->tmp))
				vf = &m->ver.files[k];
		if (vf && vf->status == BM_PARSE_OK)
			continue;
		t[n] = (struct og_text){.name = base,
					.old = c->orig_data,
					.new = c->final,
					.old_len = c->orig_len,
					.new_len = c->final_len};
		/* verify parsed the result in this context already: its errors are known */
		if (vf && vf->status == BM_PARSE_PARTIAL) {
			t[n].new_known = true;
			t[n].new_errors = vf->errors;
		}
		ci[n++] = i;
	}
	if (n) {
		struct bm_run o, nw;
		char *dir = xasprintf("%s/parse-check", m->tmpdir);
		/* the verdicts kept from an earlier run (guard_cache.c); the others parsed */
		bool *known = xcalloc(n, sizeof(*known));
		struct guard_cache *g = guard_cache_take(m, t, n, known);
		struct og_text *u = xcalloc(n, sizeof(*u));
		size_t *ui = xcalloc(n, sizeof(*ui)), nu = 0;

		for (size_t k = 0; k < n; k++)
			if (!known[k]) {
				ui[nu] = k;
				u[nu++] = t[k];
			}
		bm_run_init(&o, "verify");
		bm_run_init(&nw, "verify");
		copy_options(&o.opt, &m->post.opt);
		copy_options(&nw.opt, &m->post.opt);
		o.opt.quiet = nw.opt.quiet = true;
		if (nu) {
			bool parsed;

			guard_cache_watch(g, dir, u, ui, nu);
			/* the check's verdict is kept (guard_cache.c), not its parses: their
			 * texts are this run's, and stored they would be many megabytes */
			bool keeping = parse_cache_enable(false);

			parsed = output_guard_parse(&o, &nw, dir, u, nu) == 0;
			parse_cache_enable(keeping);
			guard_cache_keep(g, u, ui, nu, parsed);
			for (size_t j = 0; j < nu && parsed; j++) {
				t[ui[j]] = u[j];
				known[ui[j]] = true;
			}
		}
		guard_cache_free(g);
		free(u);
		free(ui);
		{
			for (size_t k = 0; k < n; k++) {
				struct cand *c = &m->c[ci[k]];
				bool sp =
				    c->spatched && (c->spatched_len != c->orig_len ||
						    memcmp(c->spatched, c->orig_data, c->orig_len));
				char *why;

				/* an original that parses with errors here lacks headers
				 * (stubs stood in): a count says nothing then (a version guard
				 * a rewrite adds is an error where KERNEL_VERSION is unknown) */
				if (!known[k] || !t[k].parsed || t[k].old_errors ||
				    !t[k].new_errors)
					continue;
				why = xasprintf("%s parses with %u error(s) where the original has "
						"%u (both parsed alike); not trusted: nothing of "
						"this file is written",
						sp ? "spatch's result" : "the analyzer's rewrite",
						t[k].new_errors, t[k].old_errors);
				leave_untouched(
				    c, sp ? "spatch_output_rejected" : "rewrite_not_confined", why);
				free(why);
			}
		}
		bm_run_free(&o);
		bm_run_free(&nw);
		free(known);
		free(dir);
	}
	free(t);
	free(ci);
}

/*
 * The analysis judges spatch's rewrite site by site (proof, not unanimity): a site the
 * analysis holds unsafe, or where spatch chose another lock contract than the one the
 * analysis proves, gets spatch's change undone in the private copy, so the rest of the
 * file keeps spatch's conversions and the analysis of the copy sees the site again (and
 * converts it, or reports it). Only when spatch's changes cannot be separated by site is
 * the whole file left, as before (tools_disagree).
 */
void judge_spatch(struct mig *m)
{
	m->notes = xcalloc(m->inv.nsites + 1, sizeof(char *));
	for (size_t ci = 0; ci < m->nc; ci++) {
		struct cand *c = &m->c[ci];
		struct combine_site *cs;
		size_t *idx, n = 0, out_len;
		char *sp, *out, err[256];
		size_t sp_len;
		bool strict = false;
		int r;

		if (c->problem || read_whole_file(c->tmp, &sp, &sp_len, err, sizeof(err)) < 0)
			continue;
		cs = xcalloc(m->inv.nsites + 1, sizeof(*cs));
		idx = xcalloc(m->inv.nsites + 1, sizeof(*idx));
		for (size_t i = 0; i < m->inv.nsites; i++) {
			if (cand_of(m, m->inv.sites[i].file) != c)
				continue;
			before_range(&m->inv.sites[i], c->orig_data, c->orig_len, &cs[n].first,
				     &cs[n].last);
			idx[n++] = i;
		}
		combine_mark_touched(c->orig_data, c->orig_len, sp, sp_len, cs, n);
		for (size_t k = 0; k < n; k++) {
			struct bm_site *s = &m->inv.sites[idx[k]];
			char *text;
			const char *vs, *va;

			if (!cs[k].touched)
				continue;
			if (s->verdict == BM_MANUAL && is_unsafe_reason(s->reason_code)) {
				/* a wrapper's callers elsewhere may carry spatch's change too */
				strict |= s->pattern == BM_PAT_WRAPPER_PARAM ||
					  s->uptodate_class == BM_UT_WRAPPER ||
					  !strcmp(s->reason_code, "wrapper_external_callers") ||
					  !strcmp(s->reason_code, "uptodate_unknown");
				cs[k].reject =
				    !strcmp(s->reason_code, "compat_branch") ||
					    !strcmp(s->reason_code, "multi_version")
					? xasprintf("spatch rewrote it too; that rewrite was "
						    "undone (%s)",
						    s->reason_code)
					: xasprintf("spatch rewrote it, but the analysis cannot "
						    "prove that rewrite exact (%s), so it was not "
						    "taken",
						    s->reason_code);
				continue;
			}
			if (s->verdict != BM_AUTO)
				continue;
			text = udiff_new_lines(c->orig_data, c->orig_len, sp, sp_len, cs[k].first,
					       cs[k].last);
			vs = combine_variant(text);
			va = combine_variant(s->replacement);
			if (vs && va && strcmp(vs, va)) {
				cs[k].reject = xasprintf(
				    "spatch chose %s here; the analysis proves %s (%s), so the "
				    "analyzer's rewrite was taken",
				    vs, va,
				    s->lock_evidence.n ? s->lock_evidence.v[0]
						       : "its lock context");
			} else if (vs && va) {
				/* the byte count is proven by the analysis alone (rq_fields.c):
				 * a helper where the driver may have changed what it reads is
				 * not spatch's to decide */
				char *bs = combine_bytes(text), *ba = combine_bytes(s->replacement);

				if (bs && ba && strcmp(bs, ba))
					cs[k].reject = xasprintf(
					    "spatch passes %s bytes here; the analysis proves %s "
					    "exact (%s), so the analyzer's rewrite was taken",
					    bs, ba, s->bytes_origin ? s->bytes_origin : "");
				free(bs);
				free(ba);
			}
			free(text);
		}
		/* a first/last pair is one rewrite: undoing one half undoes the other (the
		 * sites of one function go together, as the analysis pairs them) */
		for (size_t k = 0; k < n; k++) {
			const struct bm_site *s = &m->inv.sites[idx[k]];

			if (!cs[k].reject || !s->function || !*s->function)
				continue;
			for (size_t j = 0; j < n; j++) {
				const struct bm_site *o = &m->inv.sites[idx[j]];

				if (j != k && cs[j].touched && !cs[j].reject && o->function &&
				    !strcmp(o->function, s->function))
					cs[j].reject = xasprintf("spatch's rewrite here goes with "
								 "its rewrite of line %u "
								 "in %s(), which was not taken",
								 s->line, s->function);
			}
		}
		r = combine_revert(c->orig_data, c->orig_len, sp, sp_len, cs, n, strict, &out,
				   &out_len);
		if (r > 0 && atomic_replace_new(c->tmp, out, out_len, err, sizeof(err)) < 0)
			r = -1;
		for (size_t k = 0; k < n; k++) {
			if (r > 0 && cs[k].reverted)
				m->notes[idx[k]] =
				    cs[k].reject ? cs[k].reject
						 : xstrdup("spatch's change here was undone with a "
							   "neighbouring site's it could not be "
							   "separated from");
			else
				free(cs[k].reject);
		}
		if (r < 0) {
			char *why = xasprintf(
			    "spatch converted a site here that the analyzer holds unsafe or "
			    "converts with another lock contract, and spatch's changes in this "
			    "file cannot be undone site by site");

			leave_untouched(c, "tools_disagree", why);
			free(why);
		}
		free(out);
		free(sp);
		free(cs);
		free(idx);
	}
}

/*
 * A verify finding that the original already had: __blk_end_request without the queue
 * lock in a function whose 2.6.24 code called a legacy function that needed the lock
 * (end_request, end_queued/dequeued_request, end_that_request_last) where the analysis
 * found it not held. The conversion kept that call's contract; the bug predates it.
 */
bool preexisting_lock_bug(struct mig *m, const struct bm_finding *f, struct cand *c)
{
	size_t bugs = 0, findings = 0;

	if (f->kind != BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK)
		return false;
	for (size_t i = 0; i < m->inv.nsites; i++) {
		const struct bm_site *s = &m->inv.sites[i];

		bugs += cand_of(m, s->file) == c && s->lock == BM_LOCK_NOT_HELD &&
			combine_call_needs_lock(s->call) && s->function && f->function &&
			!strcmp(s->function, f->function);
	}
	for (size_t i = 0; i < m->ver.nfindings; i++) {
		const struct bm_finding *g = &m->ver.findings[i];

		findings += g->kind == BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK &&
			    cand_of(m, g->file) == c && g->function && f->function &&
			    !strcmp(g->function, f->function);
	}
	return bugs && findings <= bugs;
}

/*
 * spatch converted a site the analysis reported for a reason that does not make its
 * rewrite unsafe (judge_spatch undid those): the site is converted, so the report says
 * so, with the analysis' reservation as evidence. A call that needed the queue lock and
 * ran without it kept its contract (judge_spatch undid any other variant): a pre-existing
 * lock bug, reported as such.
 */
static void accept_spatch_site(struct bm_site *s)
{
	char *note;

	/* the call that needed the lock: a data completion's final step, not itself */
	bool data = s->call && (!strcmp(s->call, "end_that_request_first") ||
				!strcmp(s->call, "end_that_request_chunk"));

	if (s->reason_code && !strcmp(s->reason_code, "lock_not_held"))
		note = xasprintf("preexisting_lock_bug: 2.6.24 already called %s%s here without "
				 "the queue lock (%s); converted by spatch to __blk_end_request, "
				 "the same contract",
				 data ? "end_that_request_last, the final step of this " : "",
				 s->call, s->reason_text ? s->reason_text : "");
	else
		note = xasprintf("converted by spatch; the analysis had reported it (%s: %s) "
				 "but holds nothing against the rewrite, and verify accepts it",
				 s->reason_code ? s->reason_code : "manual",
				 s->reason_text ? s->reason_text : "");
	strlist_push_owned(&s->lock_evidence, note);
	s->verdict = BM_AUTO;
	s->reason_code = NULL;
	free(s->reason_text);
	s->reason_text = NULL;
}

/*
 * Decide every inventory site's outcome from the post-spatch analysis: still there as
 * auto (the analyzer converts it), still there as manual (reported), or gone (spatch
 * converted it). Files where spatch converted a site the analyzer holds unsafe are
 * left untouched.
 */
void reconcile(struct mig *m, bool *used_post)
{
	struct cand **post_cand = xcalloc(m->post.nsites + 1, sizeof(*post_cand));

	for (size_t j = 0; j < m->post.nsites; j++)
		post_cand[j] = cand_of(m, m->post.sites[j].file);
	for (size_t i = 0; i < m->nc; i++) {
		char err[256];

		if (read_whole_file(m->c[i].tmp, &m->c[i].spatched, &m->c[i].spatched_len, err,
				    sizeof(err)) < 0)
			m->c[i].spatched = NULL;
	}
	origin_trust_begin(); /* the copies and originals stay as they are in this loop */
	for (size_t i = 0; i < m->inv.nsites; i++) {
		struct bm_site *s = &m->inv.sites[i];
		struct cand *c = cand_of(m, s->file);
		char *key;
		size_t j;

		if (!c)
			continue;
		key = site_key(s, c->orig_data, c->orig_len);
		for (j = 0; j < m->post.nsites; j++) {
			struct bm_site *p = &m->post.sites[j];
			char *pkey;
			int same;

			if (used_post[j] || post_cand[j] != c || !c->spatched)
				continue;
			pkey = site_key(p, c->spatched, c->spatched_len);
			/* the same text and the same place: two calls of one function can read
			 * alike (mmc's chunks), so the copy's line must stand where this one is */
			same = !strcmp(key, pkey) &&
			       origin_line(c->spatched, c->spatched_len, c->orig_data, c->orig_len,
					   p->line) == s->line;
			free(pkey);
			if (same)
				break;
		}
		free(key);
		if (j < m->post.nsites) {
			struct bm_site *p = &m->post.sites[j];

			used_post[j] = true;
			m->origin[i] = p->verdict == BM_AUTO ? 'a' : 0;
			if (p->verdict == BM_MANUAL) {
				char *t = user_text_of(m, c, p->reason_text);

				set_manual(s, p->reason_code, t);
				free(t);
			} else {
				c->by_analyzer++;
			}
			continue;
		}
		/* spatch converted it */
		if (s->verdict == BM_MANUAL && is_unsafe_reason(s->reason_code)) {
			char *why = xasprintf("spatch converted %s at line %u, but the analyzer "
					      "holds it unsafe (%s)",
					      s->call, s->line, s->reason_code);

			leave_untouched(c, "tools_disagree", why);
			free(why);
		} else {
			c->by_spatch++;
			m->origin[i] = 's';
			if (s->verdict == BM_MANUAL)
				accept_spatch_site(s);
		}
	}
	origin_trust_end();
	free(post_cand);
}
