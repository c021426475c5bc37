/*
 * migrate_sites.c - each inventory site's final verdict once the result is known
 * (after stage 4 of cmd_migrate.c).
 *
 * Owns whether a site was converted (by spatch or the analyzer), stays for review, or
 * belongs to a file left untouched, its edit and replacement told on the user's file,
 * and the verify findings of the result merged into the report.
 */

#include <stdlib.h>
#include <string.h>

#include "migrate_stages.h"
#include "origin_map.h"
#include "udiff.h"
#include "util.h"
#include "vec.h"

/* Does @text still call @name (an identifier followed by "(")? */
/*
 * A call of name in text, outside the #else of a guard the analysis wrote
 * (guard_rewrite.c: the old lines kept for kernels before 2.6.25).
 */
static int still_calls(const char *text, const char *name)
{
	static const char guard[] = "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)\n";
	size_t n = strlen(name);
	const char *g = strstr(text, guard), *els, *end;

	if (g && (els = strstr(g, "\n#else\n")) && (end = strstr(els, "\n#endif"))) {
		char *rest = xasprintf("%.*s%s", (int)(els - text), text, end + 7);
		int r = still_calls(rest, name);

		free(rest);
		return r;
	}
	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		const char *q = p + n;
		char before = p > text ? p[-1] : ' ';

		if (before == '_' || (before >= 'a' && before <= 'z') ||
		    (before >= 'A' && before <= 'Z') || (before >= '0' && before <= '9'))
			continue;
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if (*q == '(')
			return 1;
	}
	return 0;
}

/* @text on one line: runs of white space become one space, trimmed. */
static char *collapse_space(const char *text)
{
	char *r = xmalloc(strlen(text) + 1), *o = r;
	bool space = false;

	for (const char *p = text; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			space = o != r;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		*o++ = *p;
	}
	*o = '\0';
	return r;
}

/* Final outcome of each inventory site for the report and the summary. */
/*
 * A site left because the queue lock is held on some paths to it and not on others
 * (an old lock bug) whose call 2.6.25 still has, with the same contract (end_request,
 * end_queued_request, end_dequeued_request): left as it is, it behaves as before, and
 * an old bug never blocks the rest of a file.  The same for such a call left as
 * multi_version, and for any site left as compat_branch (version_guard.c).
 */
static bool old_call_kept(const struct bm_site *s)
{
	/* version_guard.c: code for kernels before 2.6.25 only (or the file's own version
	 * of the API), never compiled with the converted code: it stays as it is */
	if (s->verdict == BM_MANUAL && s->reason_code && !strcmp(s->reason_code, "compat_branch"))
		return true;
	/* multi_version: a call 2.6.25 still has, kept for the older kernels */
	return s->verdict == BM_MANUAL && s->reason_code &&
	       (!strcmp(s->reason_code, "lock_mixed") ||
		!strcmp(s->reason_code, "multi_version")) &&
	       (!strcmp(s->call, "end_request") || !strcmp(s->call, "end_queued_request") ||
		!strcmp(s->call, "end_dequeued_request"));
}

/*
 * A file is converted whole or not at all.  A file whose conversion leaves any of its
 * legacy calls to a human (a manual site, or a call still in its lines after both tools)
 * would mix the 2.6.24 and 2.6.25 APIs, and a converted call can then finish a request
 * that a legacy call left beside it finishes again (mmc's error loop before its
 * end_that_request_last).  Such a file is left as it was, before anything is written,
 * and the report names the sites that need the human.  The exceptions (old_call_kept()):
 * a call 2.6.25 still has, left for its lock context alone or for the older kernels a
 * multi-version file supports, and code compiled only for kernels before 2.6.25.
 */
/*
 * The analysis put the site's rewrite under a version guard (guard_rewrite.c): its old
 * lines may stand unchanged in the guard's #else, the directives inserted around them
 * (for the second half of a pair, some lines away).  The final text of the site's lines
 * widened until it holds the guard, when the call is gone from it but for the #else;
 * else NULL.
 */
static char *guarded_after(const struct cand *c, const struct bm_site *s)
{
	unsigned first, last;
	bool guarded = false;

	for (size_t e = 0; e < s->lock_evidence.n; e++)
		guarded |= !strncmp(s->lock_evidence.v[e], "version_guarded:", 16);
	if (!guarded || !c->final)
		return NULL;
	before_range(s, c->orig_data, c->orig_len, &first, &last);
	for (unsigned w = 1; w <= 256; w *= 2) {
		char *after = udiff_new_lines(c->orig_data, c->orig_len, c->final, c->final_len,
					      first > w ? first - w : 1, last + w);

		if (after && strstr(after, "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)\n") &&
		    strstr(after, "\n#endif")) {
			if (!still_calls(after, s->call))
				return after;
			free(after);
			return NULL;
		}
		free(after);
	}
	return NULL;
}

static bool guarded_away(const struct cand *c, const struct bm_site *s)
{
	char *after = guarded_after(c, s);

	free(after);
	return after != NULL;
}

void leave_partial_files(struct mig *m)
{
	/* (the file is converted around a site left as old_call_kept() says) */
	for (size_t ci = 0; ci < m->nc; ci++) {
		struct cand *c = &m->c[ci];
		struct bm_strlist left = {0};

		if (!changed(c))
			continue;
		udiff_trust_begin(); /* c's texts stay as they are in this loop */
		for (size_t i = 0; i < m->inv.nsites; i++) {
			const struct bm_site *s = &m->inv.sites[i];
			bool manual =
			    s->verdict == BM_MANUAL && !(m->origin && m->origin[i] == 's');
			unsigned first, last;
			char *after;

			if (cand_of(m, s->file) != c || old_call_kept(s))
				continue;
			if (!manual) {
				before_range(s, c->orig_data, c->orig_len, &first, &last);
				after = udiff_new_lines(c->orig_data, c->orig_len, c->final,
							c->final_len, first, last);
				manual =
				    after && still_calls(after, s->call) && !guarded_away(c, s);
				free(after);
			}
			if (manual)
				strlist_push_owned(
				    &left,
				    xasprintf("%s at line %u (%s)", s->call, s->line,
					      s->reason_code ? s->reason_code : "still called"));
		}
		udiff_trust_end();
		if (left.n) {
			char *list = xstrdup(left.v[0]), *why;

			for (size_t k = 1; k < left.n; k++) {
				char *t = xasprintf("%s, %s", list, left.v[k]);

				free(list);
				list = t;
			}
			why = xasprintf("%zu legacy call(s) of this file need a human: %s; "
					"converting the others alone would mix the 2.6.24 "
					"and 2.6.25 APIs in one file",
					left.n, list);

			leave_untouched(c, "partial_file", why);
			free(why);
			free(list);
		}
		strlist_free(&left);
	}
}

void finish_sites(struct mig *m, size_t *converted, size_t *by_spatch)
{
	*converted = *by_spatch = 0;
	udiff_trust_begin(); /* no candidate's text changes in this loop */
	for (size_t i = 0; i < m->inv.nsites; i++) {
		struct bm_site *s = &m->inv.sites[i];
		struct cand *c = cand_of(m, s->file);
		unsigned first, last;
		char *wide;

		if (!c) {
			if (s->verdict == BM_AUTO)
				set_manual(s, "unparsed", "the file was not converted");
			continue;
		}
		if (m->notes && m->notes[i] && !c->problem) {
			if (s->verdict == BM_MANUAL) {
				char *t = xasprintf("%s; %s", s->reason_text ? s->reason_text : "",
						    m->notes[i]);

				free(s->reason_text);
				s->reason_text = t;
			} else {
				strlist_push(&s->lock_evidence, m->notes[i]);
			}
		}
		if (c->problem) {
			if (s->verdict == BM_AUTO || !s->reason_code ||
			    !strcmp(c->problem_code, "file_not_writable") ||
			    !strcmp(c->problem_code, "timeout"))
				set_manual(s, c->problem_code, c->problem);
			continue;
		}
		if (s->verdict == BM_MANUAL && m->origin && m->origin[i] == 's') {
			/* spatch converted a site the analyzer left for review (not one it
			 * holds unsafe): the file changes there, so the report says so */
			s->verdict = BM_AUTO;
			s->reason_code = NULL;
			free(s->reason_text);
			s->reason_text = NULL;
		}
		if (s->verdict == BM_MANUAL)
			continue;
		before_range(s, c->orig_data, c->orig_len, &first, &last);
		free(s->after);
		s->after =
		    udiff_new_lines(c->orig_data, c->orig_len, c->final, c->final_len, first, last);
		if (!s->after)
			s->after = xstrdup("");
		/* The oracle: a site counts as converted only if its call is gone from its
		 * lines. One that spatch skipped and the second analysis did not see stays,
		 * and is reported rather than lost. */
		if (still_calls(s->after, s->call) && (wide = guarded_after(c, s))) {
			/* the site's lines with the guard the analysis wrote around them */
			free(s->after);
			s->after = wide;
		}
		if (still_calls(s->after, s->call)) {
			char *why =
			    xasprintf("%s is still called here after spatch and the analyzer "
				      "(spatch skipped it and the analysis of its output did "
				      "not find it)",
				      s->call);

			set_manual(s, "unparsed", why);
			free(why);
			continue;
		}
		(*converted)++;
		if (m->origin && m->origin[i] == 's') {
			/* spatch's rewrite, not the analyzer's proposal, is what happened */
			(*by_spatch)++;
			free(s->replacement);
			s->replacement =
			    *s->after ? collapse_space(s->after)
				      : xstrdup("(folded into the conversion spatch made above)");
			/* a replacement is the call, as scan gives it: no statement ';' (nor
			 * a comment after it) */
			trim_statement_end(s->replacement);
			origin_line_edit(&m->inv, s, c->orig_data, c->orig_len);
			fold_into_covering_site(&m->inv, s);
		}
	}
	udiff_trust_end();
}

/* The verify findings of the result belong to the report, told on the original files. */
void merge_findings(struct mig *m)
{
	/* the verify findings of the result belong to the report */
	for (size_t i = 0; i < m->ver.nfindings; i++) {
		struct bm_finding *src = &m->ver.findings[i], *d;
		char *file;

		if (!bm_finding_fails(src))
			continue; /* the inventory already reports the old bug */
		file = user_names(m, src->file);
		d = vec_push(m->inv.findings, m->inv.nfindings, m->inv.findings_cap);
		*d = *src;
		d->file = file;
		{
			char *at = xasprintf("%s:%u", src->file, src->line), *u = user_names(m, at);
			const char *colon = strrchr(u, ':');

			d->line = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : d->line;
			free(at);
			free(u);
		}
		d->function = xstrdup(src->function ? src->function : "");
		d->message = user_text_of(m, cand_of(m, src->file), src->message);
	}
}
