/*
 * report_json.c - the JSON report of analyzer/REPORT.md (schema version 2),
 * written with jansson.  Files are named relative to the run's root ("root"), as SARIF
 * names them, in every field and in every FILE:LINE of a text (evidence, reasons,
 * diagnostics, messages); the files without a legacy call are counted
 * (summary.files_skipped) and listed only with --list-skipped.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "json_text.h"
#include "report_paths.h"
#include "util.h"

/* @text with its FILE:LINE references relative to @root, as a JSON string */
static json_t *rel_string(const char *root, const char *text)
{
	char *r = report_rel_text(root, text ? text : "");
	json_t *j = bm_json_text(r);

	free(r);
	return j;
}

static json_t *name_string(const char *root, const char *path)
{
	char *r = report_name(root, path);
	json_t *j = bm_json_text(r);

	free(r);
	return j;
}

static json_t *json_site(const struct bm_site *s, const char *root)
{
	json_t *o = json_object(), *ev = json_array(), *edits = json_array();
	char *file = report_name(root, s->file);

	for (size_t i = 0; i < s->lock_evidence.n; i++)
		json_array_append_new(ev, rel_string(root, s->lock_evidence.v[i]));
	for (size_t i = 0; i < s->nedits; i++)
		json_array_append_new(edits, json_pack("{s:o, s:I, s:I, s:o}", "file",
						       name_string(root, s->edits[i].file), "start",
						       (json_int_t)s->edits[i].start, "end",
						       (json_int_t)s->edits[i].end, "text",
						       bm_json_text(s->edits[i].text)));
	json_object_set_new(o, "id", bm_json_textf("%s:%u:%u", file, s->line, s->column));
	json_object_set_new(o, "file", bm_json_text(file));
	free(file);
	json_object_set_new(o, "line", json_integer(s->line));
	json_object_set_new(o, "column", json_integer(s->column));
	json_object_set_new(o, "end_line", json_integer(s->end_line));
	json_object_set_new(o, "end_column", json_integer(s->end_column));
	json_object_set_new(o, "offset", json_integer((json_int_t)s->offset));
	json_object_set_new(o, "end_offset", json_integer((json_int_t)s->end_offset));
	json_object_set_new(o, "function", bm_json_text(s->function));
	json_object_set_new(o, "call", bm_json_text(s->call));
	json_object_set_new(o, "pattern", bm_json_text(bm_pattern_name(s->pattern)));
	json_object_set_new(
	    o, "lock", json_pack("{s:s, s:o}", "state", bm_lock_name(s->lock), "evidence", ev));
	json_object_set_new(o, "uptodate",
			    json_pack("{s:o, s:s, s:o}", "expr", bm_json_text(s->uptodate_expr),
				      "class", bm_uptodate_class_name(s->uptodate_class),
				      "error_expr", bm_json_text(s->error_expr)));
	/* why a variable is taken as 0 or 1 (a return range, a switch's labels) */
	if (s->uptodate_origin && s->uptodate_origin[0])
		json_object_set_new(json_object_get(o, "uptodate"), "origin",
				    bm_json_text(s->uptodate_origin));
	json_object_set_new(o, "bytes",
			    json_pack("{s:o, s:o}", "expr", bm_json_text(s->bytes_expr), "origin",
				      bm_json_text(s->bytes_origin)));
	json_object_set_new(o, "replacement", bm_json_text(s->replacement));
	json_object_set_new(o, "before", bm_json_text(s->before ? s->before : ""));
	json_object_set_new(o, "after", bm_json_text(s->after ? s->after : ""));
	json_object_set_new(o, "verdict", bm_json_text(s->verdict == BM_AUTO ? "auto" : "manual"));
	if (s->verdict == BM_MANUAL && s->reason_code)
		json_object_set_new(o, "reason",
				    json_pack("{s:s, s:o}", "code", s->reason_code, "text",
					      rel_string(root, s->reason_text)));
	json_object_set_new(o, "confidence", bm_json_text(s->confidence ? s->confidence : "low"));
	if (s->parse_note)
		json_object_set_new(o, "parse_errors", rel_string(root, s->parse_note));
	json_object_set_new(o, "typed", json_boolean(s->typed));
	json_object_set_new(o, "edits", edits);
	return o;
}

static json_t *json_summary(const struct bm_run *run)
{
	json_t *by_reason = json_object(), *by_pattern = json_object(), *by_kind = json_object();
	json_t *left_by = json_object(), *sum;
	size_t nauto = 0, nmanual = 0, with = 0, converted = 0, left = 0, unparsed = 0;
	size_t skipped = 0;

	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];

		with += f->nsites > 0;
		skipped += f->status == BM_PARSE_SKIPPED;
		unparsed += f->status == BM_PARSE_FAILED || f->status == BM_PARSE_PARTIAL;
		if (f->outcome && !strcmp(f->outcome, "converted"))
			converted++;
		if (f->outcome && !strcmp(f->outcome, "left_untouched")) {
			const char *code = f->outcome_code ? f->outcome_code : "unparsed";
			json_t *c = json_object_get(left_by, code);

			left++;
			json_object_set_new(left_by, code,
					    json_integer(c ? json_integer_value(c) + 1 : 1));
		}
	}
	/* verify lists no sites (REPORT.md), so its summary counts none */
	for (size_t i = 0; i < (strcmp(run->command, "verify") ? run->nsites : 0); i++) {
		const struct bm_site *s = &run->sites[i];
		const char *pn = bm_pattern_name(s->pattern);
		json_t *c = json_object_get(by_pattern, pn);

		json_object_set_new(by_pattern, pn,
				    json_integer(c ? json_integer_value(c) + 1 : 1));
		if (s->verdict == BM_AUTO) {
			nauto++;
		} else {
			nmanual++;
			c = json_object_get(by_reason, s->reason_code);
			json_object_set_new(by_reason, s->reason_code,
					    json_integer(c ? json_integer_value(c) + 1 : 1));
		}
	}
	for (size_t i = 0; i < run->nfindings; i++) {
		const char *k = bm_finding_kind_name(run->findings[i].kind);
		json_t *c = json_object_get(by_kind, k);

		json_object_set_new(by_kind, k, json_integer(c ? json_integer_value(c) + 1 : 1));
	}
	sum =
	    json_pack("{s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:I, s:o}", "files_scanned",
		      (json_int_t)run->nfiles, "files_with_sites", (json_int_t)with, "sites",
		      (json_int_t)(nauto + nmanual), "auto", (json_int_t)nauto, "manual",
		      (json_int_t)nmanual, "manual_by_reason", by_reason, "by_pattern", by_pattern,
		      "findings", (json_int_t)run->nfindings, "findings_by_kind", by_kind);
	json_object_set_new(sum, "files_skipped", json_integer((json_int_t)skipped));
	json_object_set_new(sum, "files_not_fully_parsed", json_integer((json_int_t)unparsed));
	json_object_set_new(sum, "files_converted", json_integer((json_int_t)converted));
	json_object_set_new(sum, "files_left_untouched", json_integer((json_int_t)left));
	json_object_set_new(sum, "files_left_by_reason", left_by);
	return sum;
}

int bm_report_json(const struct bm_run *run, FILE *out)
{
	json_t *doc = json_object(), *files = json_array(), *sites = json_array(),
	       *findings = json_array();
	bool verify = !strcmp(run->command, "verify");
	/* --root, else the current directory; a file outside it keeps an absolute path */
	char *root = report_root(run->root), *label = report_root_label(run, root);
	int r;

	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];
		json_t *parse;

		/* a tree has thousands: counted in the summary, listed when asked */
		if (f->status == BM_PARSE_SKIPPED && !f->nsites && !f->outcome &&
		    !run->opt.list_skipped)
			continue;
		parse = json_pack("{s:s, s:I, s:I, s:b}", "status", bm_parse_status_name(f->status),
				  "errors", (json_int_t)f->errors, "warnings",
				  (json_int_t)f->warnings, "used_model", f->used_model);

		json_t *diags = json_array(), *fo;

		if (f->reason)
			json_object_set_new(parse, "reason", rel_string(root, f->reason));
		for (size_t d = 0; d < f->diagnostics.n; d++)
			json_array_append_new(diags, rel_string(root, f->diagnostics.v[d]));
		json_object_set_new(parse, "diagnostics", diags);
		fo = json_pack("{s:o, s:o, s:I}", "path", name_string(root, f->path), "parse",
			       parse, "sites", (json_int_t)f->nsites);
		if (f->outcome) {
			json_t *oc = json_pack("{s:s}", "status", f->outcome);

			if (f->outcome_code)
				json_object_set_new(oc, "code", bm_json_text(f->outcome_code));
			if (f->outcome_text)
				json_object_set_new(oc, "text", rel_string(root, f->outcome_text));
			json_object_set_new(fo, "outcome", oc);
		}
		json_array_append_new(files, fo);
	}
	if (!verify)
		for (size_t i = 0; i < run->nsites; i++)
			json_array_append_new(sites, json_site(&run->sites[i], root));
	for (size_t i = 0; i < run->nfindings; i++) {
		const struct bm_finding *x = &run->findings[i];

		json_array_append_new(findings, json_pack("{s:o, s:I, s:I, s:o, s:s, s:o}", "file",
							  name_string(root, x->file), "line",
							  (json_int_t)x->line, "column",
							  (json_int_t)x->column, "function",
							  bm_json_text(x->function), "kind",
							  bm_finding_kind_name(x->kind), "message",
							  rel_string(root, x->message)));
	}
	json_object_set_new(doc, "schema_version", json_integer(2));
	json_object_set_new(doc, "tool",
			    json_pack("{s:s, s:s}", "name", "blkmig", "version", BLKMIG_VERSION));
	json_object_set_new(doc, "command", bm_json_text(run->command));
	json_object_set_new(doc, "root", bm_json_text(label));
	json_object_set_new(doc, "files", files);
	json_object_set_new(doc, "sites", sites);
	json_object_set_new(doc, "findings", findings);
	json_object_set_new(doc, "summary", json_summary(run));
	r = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	free(label);
	free(root);
	return r;
}
