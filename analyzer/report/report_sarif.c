/*
 * report_sarif.c - SARIF 2.1.0 that GitHub code scanning accepts and places.
 *
 * - A log for a CI artifact: it names no path of the machine that wrote it.  Files are
 *   named relative to the run's root (--root, else the current directory) with
 *   uriBaseId SRCROOT, declared in originalUriBaseIds without a uri unless the user
 *   gives one (--sarif-base-uri); so are the files that evidence and messages cite.
 * - One rule per reason code (manual sites and files left untouched), one rule
 *   `convert` for the sites blkmig converts, one per verify finding kind; each with
 *   short and full description and help (text and markdown); a helpUri only where the
 *   documentation has an https address ($BLKMIG_DOC_URL), never a local file.
 * - relatedLocations: every FILE:LINE the lock evidence and the reason cite (the lock
 *   taken, the registration, the callers), and the lines of the same file the reason
 *   names ("end_that_request_last at line 42").
 * - run.automationDetails.id "blkmig/COMMAND/ROOT/" (ROOT the root's last component), so
 *   a CI that uploads the logs of several commands or trees keeps them apart.
 * - One result per site with its region; every converted site carries a fix (its
 *   edits, or for a rewrite by spatch, its lines before and after).
 * - partialFingerprints do not depend on line numbers: file, function, call and the
 *   occurrence of that call in that function.
 */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_text.h"
#include "report_paths.h"
#include "util.h"

struct sarif {
	const struct bm_run *run;
	char *root;	 /* absolute, no trailing slash */
	char *help_base; /* https URI of REPORT.md, or NULL */
	json_t *rules;
	json_t *rule_index; /* id -> index */
};

static json_t *artifact_location(const struct sarif *x, const char *path)
{
	char *rel = report_rel_path(x->root, path);
	json_t *o;

	if (rel)
		o = json_pack("{s:s%, s:s}", "uri", rel, strlen(rel), "uriBaseId", "SRCROOT");
	else
		o = json_pack("{s:o}", "uri", report_file_uri(path));
	free(rel);
	return o;
}

static const char *reason_help(const char *code)
{
	static const struct {
		const char *code, *help;
	} h[] = {
	    {"lock_unknown", "Find out whether the queue lock is held where the call runs "
			     "(who calls the function, from which context). Held: use "
			     "__blk_end_request(); not held: blk_end_request()."},
	    {"lock_mixed", "The function runs with the queue lock held from some callers and "
			   "without it from others. Take the lock on the paths without it (then "
			   "__blk_end_request()) or drop it on the others (then "
			   "blk_end_request())."},
	    {"lock_not_held",
	     "The 2.6.24 final step (end_request, end_that_request_last, ...; not the data "
	     "completion end_that_request_first/chunk) needed the queue lock but runs without "
	     "it: a driver locking bug. "
	     "Decide whether to take the lock (then __blk_end_request()) or to use "
	     "blk_end_request(), which takes it itself."},
	    {"rq_used_after_completion", "A statement after the completion reads the request, "
					 "which may already be freed. Move that read before the "
					 "call or keep what it needs in a local."},
	    {"last_may_have_data",
	     "end_that_request_last() alone: decide whether the request still holds data "
	     "(then complete blk_rq_bytes(rq)) or none (0 bytes)."},
	    {"work_not_movable", "Work between the data completion and the final step uses "
				 "locals or the lock; restructure it or complete in two steps."},
	    {"wrapper_external_callers",
	     "A non-static wrapper takes the uptodate value; convert its callers outside this "
	     "run together with it."},
	    {"uptodate_unknown", "Decide what the uptodate value means (success flag, "
				 "boolean, errno) and write the error for the new call."},
	    {"bytes_unknown", "Decide whether the count is in sectors or in bytes."},
	    {"macro", "The call is inside a macro: convert the macro by hand."},
	    {"unparsed", "The code around the call could not be parsed (a parse error, or a "
			 "preprocessor branch that is not compiled): fix the parse or convert "
			 "by hand."},
	    {"shape", "The call is in a shape the conversion catalogue does not cover: "
		      "convert by hand."},
	    {"compat_branch",
	     "The call is in a branch compiled only for kernels before 2.6.25 (a "
	     "LINUX_VERSION_CODE guard), or in the file's own definition of a newer "
	     "completion function or of a macro named like a legacy or newer one: it keeps "
	     "the legacy API on purpose, and "
	     "the file's branch for 2.6.25 and later is what runs on newer kernels. Nothing "
	     "to convert."},
	    {"multi_version",
	     "The file builds for kernels before 2.6.25 too (it tests LINUX_VERSION_CODE), "
	     "and this call is compiled for them: the 2.6.25 call does not exist there. Put "
	     "the conversion under the file's own #if LINUX_VERSION_CODE >= "
	     "KERNEL_VERSION(2,6,25) with this call in its #else, or keep the call "
	     "(end_request(), end_queued_request() and end_dequeued_request() exist up to "
	     "2.6.30)."},
	    {"conflicting_edits", "Two rewrites overlap: the file was left as it was; convert "
				  "the overlapping sites by hand."},
	    {"file_not_writable", "Make the file writable (not hard-linked, not changing) and "
				  "run again."},
	    {"verify_failed", "The converted file would have a lock-variant race or deadlock: "
			      "it was left as it was; see the verify message."},
	    {"tools_disagree",
	     "spatch converted a site the analyzer holds unsafe: the file was left as it was; "
	     "review the site the message names."},
	    {"partial_file", "Other legacy calls of this file need a human: the file was left as "
			     "it was, so it never mixes the 2.6.24 and 2.6.25 APIs; resolve the "
			     "sites the message names, then run again."},
	    {"timeout", "The file's analysis or spatch's run on it took longer than --timeout: "
			"it was left as it was; run it alone with a larger --timeout."},
	    {"resource_limit", "The file's parse needed more memory than --parse-memory: it was "
			       "left as it was; run it alone with a larger --parse-memory (or "
			       "look for a header that grows without bound)."},
	    {"spatch_output_rejected",
	     "spatch changed the file outside the sites and what their conversion may touch (the "
	     "line is named): its output was not trusted and the file was left as it was; check "
	     "the spatch and the semantic patches run, or run with --no-spatch."},
	    {"rewrite_not_confined",
	     "The analyzer's rewrite reached outside the sites and what their conversion may "
	     "touch (a blkmig bug): the file was left as it was; please report it."},
	};

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++)
		if (!strcmp(h[i].code, code))
			return h[i].help;
	return NULL;
}

/* "lock_unknown" -> "LockUnknown": SARIF wants a rule's name to differ from its id */
static char *camel(const char *id)
{
	char *r = xmalloc(strlen(id) + 5), *o = r;
	bool up = true;

	for (const char *p = id; *p; p++) {
		if (*p == '_') {
			up = true;
			continue;
		}
		*o++ = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
		up = false;
	}
	/* a one-word id would differ from its name only in case, which SARIF1001 ignores */
	strcpy(o, strchr(id, '_') ? "" : "Site");
	return r;
}

/* The rule's index, adding the rule on first use. */
static int rule(struct sarif *x, const char *id, const char *shortd, const char *fulld,
		const char *help, const char *level)
{
	json_t *ix = json_object_get(x->rule_index, id), *r;
	char *md, *name;
	size_t n;

	if (ix)
		return (int)json_integer_value(ix);
	n = json_array_size(x->rules);
	name = camel(id);
	if (x->help_base)
		md = xasprintf("**%s**: %s\n\n%s\n\nSee [the reason codes](%s#%s).", id, fulld,
			       help, x->help_base, id);
	else
		md = xasprintf("**%s**: %s\n\n%s\n\nSee `%s` in blkmig's REPORT.md "
			       "(`share/doc/blkmig/` of the installation, `analyzer/` of "
			       "the source).",
			       id, fulld, help, id);
	r = json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s, s:s%}}", "id", id, "name", name,
		      "shortDescription", "text", shortd, "fullDescription", "text", fulld, "help",
		      "text", help, "markdown", md, strlen(md));
	if (x->help_base)
		json_object_set_new(r, "helpUri", bm_json_textf("%s#%s", x->help_base, id));
	json_object_set_new(r, "defaultConfiguration", json_pack("{s:s}", "level", level));
	json_array_append_new(x->rules, r);
	json_object_set_new(x->rule_index, id, json_integer((json_int_t)n));
	free(md);
	free(name);
	return (int)n;
}

static int reason_rule(struct sarif *x, const char *code)
{
	const char *d = bm_reason_description(code), *h = reason_help(code);

	if (!*d)
		d = code;
	return rule(x, code, d, d, h ? h : d, "warning");
}

/* A region for bytes [a, b) of file text (1-based lines and columns). */
static json_t *region(const char *text, size_t len, size_t a, size_t b)
{
	unsigned sl = 1, sc = 1, el = 1, ec = 1, line = 1;
	size_t ls = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i == a) {
			sl = line;
			sc = (unsigned)(i - ls) + 1;
		}
		if (i == b) {
			el = line;
			ec = (unsigned)(i - ls) + 1;
			break;
		}
		if (i < len && text[i] == '\n') {
			line++;
			ls = i + 1;
		}
	}
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "startLine", (json_int_t)sl,
			 "startColumn", (json_int_t)sc, "endLine", (json_int_t)el, "endColumn",
			 (json_int_t)ec, "charOffset", (json_int_t)a, "charLength",
			 (json_int_t)(b - a));
}

/* FNV-1a, 64 bits, as 16 hex digits */
static char *fingerprint(const char *a, const char *b, const char *c, unsigned n)
{
	unsigned long long h = 1469598103934665603ULL;
	char *s = xasprintf("%s\x1f%s\x1f%s\x1f%u", a, b, c, n);

	for (const char *p = s; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	free(s);
	return xasprintf("%016llx", h);
}

/* The occurrence of (function, call) of site @k in its file, counted from 1. */
static unsigned occurrence(const struct bm_run *run, size_t k)
{
	const struct bm_site *s = &run->sites[k];
	unsigned n = 1;

	for (size_t i = 0; i < k; i++) {
		const struct bm_site *t = &run->sites[i];

		n += !strcmp(t->file, s->file) && !strcmp(t->function, s->function) &&
		     !strcmp(t->call, s->call);
	}
	return n;
}

/* The fix of a converted site: its edits, one artifactChange per file. */
static json_t *edit_changes(const struct sarif *x, const struct bm_site *s)
{
	json_t *changes = json_array();

	for (size_t i = 0; i < s->nedits; i++) {
		const char *file = s->edits[i].file;
		bool seen = false;
		size_t len = 0, *order, no = 0;
		char *text;
		json_t *repl;

		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(s->edits[k].file, file);
		if (seen)
			continue;
		text = read_file(file, &len);
		repl = json_array();
		order = xcalloc(s->nedits, sizeof(size_t));
		for (size_t k = 0; k < s->nedits; k++)
			if (!strcmp(s->edits[k].file, file))
				order[no++] = k;
		for (size_t a = 1; a < no; a++)
			for (size_t b = a;
			     b > 0 && s->edits[order[b]].start < s->edits[order[b - 1]].start;
			     b--) {
				size_t tmp = order[b];

				order[b] = order[b - 1];
				order[b - 1] = tmp;
			}
		for (size_t oi = 0; oi < no; oi++) {
			const struct bm_edit *e = &s->edits[order[oi]];

			json_array_append_new(
			    repl, json_pack("{s:o, s:{s:o}}", "deletedRegion",
					    text ? region(text, len, e->start, e->end)
						 : json_pack("{s:I, s:I}", "charOffset",
							     (json_int_t)e->start, "charLength",
							     (json_int_t)(e->end - e->start)),
					    "insertedContent", "text", bm_json_text(e->text)));
		}
		free(order);
		free(text);
		json_array_append_new(changes,
				      json_pack("{s:o, s:o}", "artifactLocation",
						artifact_location(x, file), "replacements", repl));
	}
	return changes;
}

/* The fix of a site another tool rewrote: its lines before -> after. */
static json_t *line_changes(const struct sarif *x, const struct bm_site *s)
{
	size_t len = 0, blen = strlen(s->before);
	char *text = read_file(s->file, &len);
	const char *p = NULL;
	json_t *changes = NULL;

	if (text && blen)
		for (p = memmem(text, len, s->before, blen);
		     p && (size_t)(p - text) + blen <= s->offset;
		     p = memmem(p + 1, len - (size_t)(p + 1 - text), s->before, blen))
			;
	if (p && (size_t)(p - text) <= s->offset) {
		size_t a = (size_t)(p - text);

		changes = json_pack("[{s:o, s:[{s:o, s:{s:o}}]}]", "artifactLocation",
				    artifact_location(x, s->file), "replacements", "deletedRegion",
				    region(text, len, a, a + blen), "insertedContent", "text",
				    bm_json_text(s->after));
	}
	free(text);
	return changes;
}

static json_t *location(const struct sarif *x, const char *file, unsigned line, unsigned col,
			unsigned eline, unsigned ecol, const char *function)
{
	json_t *reg = json_pack("{s:I, s:I}", "startLine", (json_int_t)(line ? line : 1),
				"startColumn", (json_int_t)(col ? col : 1));
	json_t *loc;

	if (eline >= line && eline && ecol) {
		json_object_set_new(reg, "endLine", json_integer(eline));
		json_object_set_new(reg, "endColumn", json_integer(ecol));
	}
	loc = json_pack("{s:{s:o, s:o}}", "physicalLocation", "artifactLocation",
			artifact_location(x, file), "region", reg);
	if (function && *function)
		json_object_set_new(
		    loc, "logicalLocations",
		    json_pack("[{s:o, s:s}]", "name", bm_json_text(function), "kind", "function"));
	return loc;
}

/* One related location, unless the same line is one already. */
static void add_related(const struct sarif *x, json_t *arr, const char *file, unsigned line,
			const char *text)
{
	json_t *loc = location(x, file, line, 1, 0, 0, NULL), *r;
	json_t *al = json_object_get(json_object_get(loc, "physicalLocation"), "artifactLocation");
	size_t i;

	json_array_foreach(arr, i, r)
	{
		json_t *pl = json_object_get(r, "physicalLocation");

		if (json_equal(json_object_get(pl, "artifactLocation"), al) &&
		    json_integer_value(
			json_object_get(json_object_get(pl, "region"), "startLine")) == line) {
			json_decref(loc);
			return;
		}
	}
	json_object_set_new(loc, "id", json_integer((json_int_t)json_array_size(arr) + 1));
	json_object_set_new(loc, "message", json_pack("{s:o}", "text", bm_json_text(text)));
	json_array_append_new(arr, loc);
}

/* Every FILE:LINE that @text cites (lock evidence, callers), told by @text. */
static void related_refs(const struct sarif *x, json_t *arr, const char *text)
{
	size_t n;
	struct report_ref *r = report_text_refs(text, &n);
	char *rel = n ? report_rel_text(x->root, text) : NULL;

	for (size_t i = 0; i < n; i++)
		add_related(x, arr, r[i].file, r[i].line, rel);
	free(rel);
	report_refs_free(r, n);
}

/* The lines of the site's own file its reason names: "NAME at line N", "(line N)". */
static void related_lines(const struct sarif *x, json_t *arr, const struct bm_site *s)
{
	const char *t = s->reason_text;

	for (const char *p = t ? strstr(t, "line ") : NULL; p; p = strstr(p + 1, "line ")) {
		const char *d = p + 5, *w;
		unsigned line = (unsigned)strtoul(d, NULL, 10);
		char *text;

		if (*d < '1' || *d > '9' ||
		    (p > t && ((p[-1] >= 'a' && p[-1] <= 'z') || p[-1] == '_')))
			continue;
		/* the name before " at line N", if any */
		w = p;
		if (w - t >= 4 && !strncmp(w - 4, " at ", 4)) {
			const char *e = w - 4, *b = e;

			while (b > t &&
			       (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') ||
				(b[-1] >= 'A' && b[-1] <= 'Z') || (b[-1] >= '0' && b[-1] <= '9')))
				b--;
			text = b < e ? xasprintf("%.*s at line %u", (int)(e - b), b, line)
				     : xasprintf("line %u", line);
		} else {
			text = xasprintf("line %u, named by the reason", line);
		}
		add_related(x, arr, s->file, line, text);
		free(text);
	}
}

static json_t *site_result(struct sarif *x, size_t k)
{
	const struct bm_site *s = &x->run->sites[k];
	json_t *res = json_object(), *props = json_object(), *ev = json_array(), *changes = NULL;
	json_t *rl = json_array();
	char *msg, *fp, *rel = report_rel_path(x->root, s->file), *why;
	int ri;

	if (s->verdict == BM_AUTO) {
		ri =
		    rule(x, "convert", "legacy completion call blkmig converts",
			 "A call of the 2.6.24 completion API that blkmig rewrites to the "
			 "2.6.25 API exactly (lock variant, error value, byte count).",
			 "Review the fix: the new call, and the housekeeping it replaces.", "note");
		msg = xasprintf("%s in %s(): convert to %s (lock %s) [%s]", s->call,
				s->function[0] ? s->function : "(file scope)", s->replacement,
				bm_lock_name(s->lock), bm_pattern_name(s->pattern));
	} else {
		ri = reason_rule(x, s->reason_code);
		why = report_rel_text(x->root, s->reason_text ? s->reason_text : "");
		msg = xasprintf("%s in %s() needs manual review: %s [%s]", s->call,
				s->function[0] ? s->function : "(file scope)", why, s->reason_code);
		free(why);
		related_refs(x, rl, s->reason_text);
		related_lines(x, rl, s);
	}
	for (size_t i = 0; i < s->lock_evidence.n; i++) {
		json_array_append_new(
		    ev, bm_json_text(why = report_rel_text(x->root, s->lock_evidence.v[i])));
		free(why);
		related_refs(x, rl, s->lock_evidence.v[i]);
	}
	json_object_set_new(res, "ruleId",
			    json_string(s->verdict == BM_AUTO ? "convert" : s->reason_code));
	json_object_set_new(res, "ruleIndex", json_integer(ri));
	json_object_set_new(res, "level", json_string(s->verdict == BM_AUTO ? "note" : "warning"));
	json_object_set_new(res, "message", json_pack("{s:o}", "text", bm_json_text(msg)));
	json_object_set_new(res, "locations",
			    json_pack("[o]", location(x, s->file, s->line, s->column, s->end_line,
						      s->end_column, s->function)));
	if (json_array_size(rl))
		json_object_set(res, "relatedLocations", rl);
	json_decref(rl);
	fp = fingerprint(rel ? rel : s->file, s->function, s->call, occurrence(x->run, k));
	json_object_set_new(res, "partialFingerprints", json_pack("{s:s}", "blkmigSite/v1", fp));
	free(fp);
	json_object_set_new(props, "verdict",
			    json_string(s->verdict == BM_AUTO ? "auto" : "manual"));
	if (s->reason_code)
		json_object_set_new(props, "reason", json_string(s->reason_code));
	json_object_set_new(props, "pattern", json_string(bm_pattern_name(s->pattern)));
	json_object_set_new(props, "call", bm_json_text(s->call));
	json_object_set_new(props, "lock", json_string(bm_lock_name(s->lock)));
	json_object_set_new(props, "lockEvidence", ev);
	json_object_set_new(props, "uptodateClass",
			    json_string(bm_uptodate_class_name(s->uptodate_class)));
	json_object_set_new(props, "confidence",
			    json_string(s->confidence ? s->confidence : "low"));
	if (s->parse_note)
		json_object_set_new(props, "parseErrors", bm_json_text(s->parse_note));
	json_object_set_new(props, "typed", json_boolean(s->typed));
	json_object_set_new(res, "properties", props);
	if (s->verdict == BM_AUTO && s->replacement[0] != '(') {
		if (s->nedits)
			changes = edit_changes(x, s);
		else if (s->after && s->after[0] && s->before)
			changes = line_changes(x, s);
	}
	if (changes)
		json_object_set_new(res, "fixes",
				    json_pack("[{s:{s:o}, s:o}]", "description", "text",
					      bm_json_text(s->replacement), "artifactChanges",
					      changes));
	free(rel);
	free(msg);
	return res;
}

/* A file fix/migrate left untouched, at its first site. */
static json_t *file_result(struct sarif *x, const struct bm_file *f)
{
	const char *code = f->outcome_code ? f->outcome_code : "unparsed";
	unsigned line = 1;
	char *rel = report_rel_path(x->root, f->path), *fp;
	char *why = report_rel_text(x->root, f->outcome_text ? f->outcome_text : code);
	json_t *res;
	int ri = reason_rule(x, code);

	for (size_t k = 0; k < x->run->nsites; k++)
		if (!strcmp(x->run->sites[k].file, f->path)) {
			line = x->run->sites[k].line;
			break;
		}
	fp = fingerprint(rel ? rel : f->path, "", "(file)", 0);
	res = json_pack("{s:s, s:i, s:s, s:{s:o}, s:[o], s:{s:s}}", "ruleId", code, "ruleIndex", ri,
			"level", "warning", "message", "text",
			bm_json_textf("file left untouched: %s", why), "locations",
			location(x, f->path, line, 1, 0, 0, NULL), "partialFingerprints",
			"blkmigFile/v1", fp);
	free(why);
	free(fp);
	free(rel);
	return res;
}

/* What a verify finding kind means, and what to do about it (its rule's texts). */
static const char *finding_summary(enum bm_finding_kind kind)
{
	switch (kind) {
	case BM_FIND_LEGACY_CALL: return "a legacy completion call is left";
	case BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK:
		return "__blk_end_request reachable without the queue lock (a race)";
	case BM_FIND_PREEXISTING_LOCK_BUG:
		return "the original already completed without the queue lock it needed (an old "
		       "bug the conversion kept, with the same contract)";
	case BM_FIND_PREEXISTING_UNENDED:
		return "the original never ended a request whose data it completed (an old bug: "
		       "its loop never ended); the 2.6.25 call ends it";
	default: return "blk_end_request* reachable with the queue lock held (a deadlock)";
	}
}

static const char *finding_help(enum bm_finding_kind kind)
{
	switch (kind) {
	case BM_FIND_LEGACY_CALL: return "Convert the legacy call (blkmig migrate).";
	case BM_FIND_PREEXISTING_LOCK_BUG:
		return "Take the queue lock around the completion, or switch to blk_end_request "
		       "once no caller holds it; the conversion did not change this.";
	case BM_FIND_PREEXISTING_UNENDED:
		return "Check that ending the request there is what the driver meant; the "
		       "original hung in that loop.";
	default: return "Use the lock variant that matches the lock context.";
	}
}

/* A legacy call left and an old bug kept are warnings; a problem the conversion made fails. */
static const char *finding_level(const struct bm_finding *f)
{
	return f->kind == BM_FIND_LEGACY_CALL || !bm_finding_fails(f) ? "warning" : "error";
}

int bm_report_sarif(const struct bm_run *run, FILE *out)
{
	bool verify = !strcmp(run->command, "verify");
	json_t *results = json_array(), *artifacts = json_array(), *notes = json_array();
	json_t *root, *driver, *bases;
	struct sarif x = {run, report_run_root(run), report_help_base(), json_array(),
			  json_object()};
	const char *base, *slash;
	char *auto_id;
	int r;

	if (verify) {
		for (size_t i = 0; i < run->nfindings; i++) {
			const struct bm_finding *f = &run->findings[i];
			const char *n = bm_finding_kind_name(f->kind);
			int ri = rule(&x, n, n, finding_summary(f->kind), finding_help(f->kind),
				      finding_level(f));

			char *msg = report_rel_text(x.root, f->message);
			json_t *res =
			    json_pack("{s:s, s:i, s:s, s:{s:o}, s:[o]}", "ruleId", n, "ruleIndex",
				      ri, "level", finding_level(f), "message", "text",
				      bm_json_text(msg), "locations",
				      location(&x, f->file, f->line, f->column, 0, 0, f->function));
			json_t *rl = json_array();

			related_refs(&x, rl, f->message);
			if (json_array_size(rl))
				json_object_set(res, "relatedLocations", rl);
			json_decref(rl);
			json_array_append_new(results, res);
			free(msg);
		}
	} else {
		for (size_t i = 0; i < run->nsites; i++)
			json_array_append_new(results, site_result(&x, i));
		for (size_t i = 0; i < run->nfiles; i++)
			if (run->files[i].outcome &&
			    !strcmp(run->files[i].outcome, "left_untouched"))
				json_array_append_new(results, file_result(&x, &run->files[i]));
	}
	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];

		if (!f->nsites && f->status != BM_PARSE_FAILED && f->status != BM_PARSE_PARTIAL)
			continue;
		json_array_append_new(
		    artifacts, json_pack("{s:o}", "location", artifact_location(&x, f->path)));
		if (f->status == BM_PARSE_FAILED || f->status == BM_PARSE_PARTIAL) {
			char *why = report_rel_text(x.root, f->reason ? f->reason : "");

			json_array_append_new(
			    notes,
			    json_pack("{s:s, s:{s:o}, s:[{s:{s:o}}]}", "level",
				      f->status == BM_PARSE_FAILED ? "error" : "warning", "message",
				      "text", bm_json_text(why), "locations", "physicalLocation",
				      "artifactLocation", artifact_location(&x, f->path)));
			free(why);
		}
	}
	/* SRCROOT is the root; its uri only where the user gives one: a CI's log must not
	 * name a directory of the machine that wrote it */
	base = run->opt.sarif_base_uri;
	if (base && *base)
		bases = json_pack(
		    "{s:{s:o}}", "SRCROOT", "uri",
		    bm_json_textf("%s%s", base, base[strlen(base) - 1] == '/' ? "" : "/"));
	else
		bases = json_pack("{s:{s:{s:s}}}", "SRCROOT", "description", "text",
				  "the directory blkmig ran on (--root, else the current "
				  "directory); blkmig --sarif-base-uri URI gives its uri");
	driver = json_pack("{s:s, s:s, s:s, s:o}", "name", "blkmig", "version", BLKMIG_VERSION,
			   "semanticVersion", BLKMIG_VERSION, "rules", x.rules);
	if (x.help_base)
		json_object_set_new(driver, "informationUri", bm_json_text(x.help_base));
	slash = strrchr(x.root, '/');
	auto_id = xasprintf("blkmig/%s/%s/", run->command, slash && slash[1] ? slash + 1 : "root");
	root = json_pack("{s:s, s:s, s:[{s:{s:o}, s:{s:o}, s:o, s:o, s:o, s:[{s:b, s:o}]}]}",
			 "$schema", "https://json.schemastore.org/sarif-2.1.0.json", "version",
			 "2.1.0", "runs", "tool", "driver", driver, "automationDetails", "id",
			 bm_json_text(auto_id), "originalUriBaseIds", bases, "artifacts", artifacts,
			 "results", results, "invocations", "executionSuccessful",
			 run->io_errors == 0, "toolExecutionNotifications", notes);
	free(auto_id);
	r = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	json_decref(x.rule_index);
	free(x.root);
	free(x.help_base);
	return r;
}
