/*
 * report_sarif.c - SARIF 2.1.0: one rule per catalogue pattern (or per
 * verify finding kind), one result per site with its precise region and
 * logical location, and for every auto site a fix whose artifactChanges
 * are the site's text edits, so code-scanning viewers can show and apply
 * them.  Files that failed to parse become tool execution notifications.
 */
#include <jansson.h>
#include <string.h>

#include "util.h"

static json_t *uri(const char *path)
{
	if (path[0] == '/')
		return json_sprintf("file://%s", path);
	return json_string(path);
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

static json_t *site_result(const struct bm_site *s, int rule_index)
{
	json_t *res = json_object(), *props = json_object(), *ev = json_array();
	char *msg;

	if (s->verdict == BM_AUTO)
		msg = xasprintf("%s: convert to %s (lock %s)", s->call, s->replacement,
				bm_lock_name(s->lock));
	else
		msg = xasprintf("%s needs manual review [%s]: %s", s->call, s->reason_code,
				s->reason_text ? s->reason_text : "");
	for (size_t i = 0; i < s->lock_evidence.n; i++)
		json_array_append_new(ev, json_string(s->lock_evidence.v[i]));
	json_object_set_new(res, "ruleId", json_string(bm_pattern_name(s->pattern)));
	json_object_set_new(res, "ruleIndex", json_integer(rule_index));
	json_object_set_new(res, "level", json_string(s->verdict == BM_AUTO ? "note" : "warning"));
	json_object_set_new(res, "message", json_pack("{s:s}", "text", msg));
	json_object_set_new(
	    res, "locations",
	    json_pack("[{s:{s:{s:o}, s:{s:I, s:I, s:I, s:I, s:I, s:I}}, s:[{s:s, s:s}]}]",
		      "physicalLocation", "artifactLocation", "uri", uri(s->file), "region",
		      "startLine", (json_int_t)s->line, "startColumn", (json_int_t)s->column,
		      "endLine", (json_int_t)s->end_line, "endColumn", (json_int_t)s->end_column,
		      "charOffset", (json_int_t)s->offset, "charLength",
		      (json_int_t)(s->end_offset - s->offset), "logicalLocations", "name",
		      s->function[0] ? s->function : "(file scope)", "kind", "function"));
	json_object_set_new(props, "verdict",
			    json_string(s->verdict == BM_AUTO ? "auto" : "manual"));
	if (s->reason_code)
		json_object_set_new(props, "reason", json_string(s->reason_code));
	json_object_set_new(props, "lock", json_string(bm_lock_name(s->lock)));
	json_object_set_new(props, "lockEvidence", ev);
	json_object_set_new(props, "uptodateClass",
			    json_string(bm_uptodate_class_name(s->uptodate_class)));
	json_object_set_new(props, "confidence",
			    json_string(s->confidence ? s->confidence : "low"));
	json_object_set_new(props, "typed", json_boolean(s->typed));
	json_object_set_new(res, "properties", props);
	if (s->verdict == BM_AUTO && s->nedits) {
		json_t *changes = json_array();

		/* one artifactChange per file, replacements in file order */
		for (size_t i = 0; i < s->nedits; i++) {
			const char *file = s->edits[i].file;
			bool seen = false;
			size_t len = 0;
			char *text;
			json_t *repl;

			for (size_t k = 0; k < i; k++)
				seen |= !strcmp(s->edits[k].file, file);
			if (seen)
				continue;
			text = read_file(file, &len);
			repl = json_array();
			/* replacements in file order */
			size_t *order = xcalloc(s->nedits, sizeof(size_t)), no = 0;

			for (size_t k = 0; k < s->nedits; k++)
				if (!strcmp(s->edits[k].file, file))
					order[no++] = k;
			for (size_t x = 1; x < no; x++)
				for (size_t y = x; y > 0 && s->edits[order[y]].start <
								s->edits[order[y - 1]].start;
				     y--) {
					size_t tmp = order[y];

					order[y] = order[y - 1];
					order[y - 1] = tmp;
				}
			for (size_t oi = 0; oi < no; oi++) {
				const struct bm_edit *e = &s->edits[order[oi]];

				json_array_append_new(
				    repl,
				    json_pack("{s:o, s:{s:s}}", "deletedRegion",
					      text ? region(text, len, e->start, e->end)
						   : json_pack("{s:I, s:I}", "charOffset",
							       (json_int_t)e->start, "charLength",
							       (json_int_t)(e->end - e->start)),
					      "insertedContent", "text", e->text));
			}
			free(order);
			free(text);
			json_array_append_new(changes,
					      json_pack("{s:{s:o}, s:o}", "artifactLocation", "uri",
							uri(file), "replacements", repl));
		}
		json_object_set_new(res, "fixes",
				    json_pack("[{s:{s:s}, s:o}]", "description", "text",
					      s->replacement, "artifactChanges", changes));
	}
	free(msg);
	return res;
}

int bm_report_sarif(const struct bm_run *run, FILE *out)
{
	bool verify = !strcmp(run->command, "verify");
	json_t *rules = json_array(), *results = json_array(), *artifacts = json_array(),
	       *notes = json_array();
	json_t *root, *driver;
	int r;

	if (verify) {
		for (int k = 0; k < 3; k++) {
			const char *n = bm_finding_kind_name((enum bm_finding_kind)k);

			json_array_append_new(rules,
					      json_pack("{s:s, s:s, s:{s:s}, s:{s:s}}", "id", n,
							"name", n, "shortDescription", "text", n,
							"defaultConfiguration", "level", "error"));
		}
		for (size_t i = 0; i < run->nfindings; i++) {
			const struct bm_finding *x = &run->findings[i];

			json_array_append_new(
			    results,
			    json_pack("{s:s, s:i, s:s, s:{s:s}, s:[{s:{s:{s:o}, s:{s:I, s:I}}}]}",
				      "ruleId", bm_finding_kind_name(x->kind), "ruleIndex",
				      (int)x->kind, "level", "error", "message", "text", x->message,
				      "locations", "physicalLocation", "artifactLocation", "uri",
				      uri(x->file), "region", "startLine", (json_int_t)x->line,
				      "startColumn", (json_int_t)x->column));
		}
	} else {
		for (int p = 0; p < BM_PAT_COUNT; p++)
			json_array_append_new(
			    rules,
			    json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}}", "id",
				      bm_pattern_name((enum bm_pattern)p), "name",
				      bm_pattern_name((enum bm_pattern)p), "shortDescription",
				      "text", bm_pattern_title((enum bm_pattern)p),
				      "fullDescription", "text",
				      bm_pattern_title((enum bm_pattern)p), "defaultConfiguration",
				      "level", "warning"));
		for (size_t i = 0; i < run->nsites; i++)
			json_array_append_new(
			    results, site_result(&run->sites[i], (int)run->sites[i].pattern));
	}
	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];

		json_array_append_new(artifacts,
				      json_pack("{s:{s:o}}", "location", "uri", uri(f->path)));
		if (f->status == BM_PARSE_FAILED || f->status == BM_PARSE_PARTIAL)
			json_array_append_new(
			    notes,
			    json_pack("{s:s, s:{s:s}, s:[{s:{s:{s:o}}}]}", "level",
				      f->status == BM_PARSE_FAILED ? "error" : "warning", "message",
				      "text", f->reason ? f->reason : "", "locations",
				      "physicalLocation", "artifactLocation", "uri", uri(f->path)));
	}
	driver = json_pack("{s:s, s:s, s:s, s:o}", "name", "blkmig", "version", BLKMIG_VERSION,
			   "informationUri", "https://example.invalid/blkmig", "rules", rules);
	root = json_pack("{s:s, s:s, s:[{s:{s:o}, s:o, s:o, s:[{s:b, s:o}]}]}", "$schema",
			 "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
			 "runs", "tool", "driver", driver, "artifacts", artifacts, "results",
			 results, "invocations", "executionSuccessful", run->io_errors == 0,
			 "toolExecutionNotifications", notes);
	r = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return r;
}
