/*
 * html_report.c - HTML writer for the review page (see html_report.h).
 *
 * Everything the page shows is computed here from the sites themselves (totals, groups,
 * chart), so the page agrees with the site list even if a summary field is missing.
 * All report text is HTML-escaped; the only script is the manual-only filter.
 */
#include "html_report.h"

#include <stdlib.h>
#include <string.h>

static void esc(FILE *o, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", o); break;
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '"': fputs("&quot;", o); break;
		case '\'': fputs("&#39;", o); break;
		default: fputc(*s, o);
		}
	}
}

static const char *str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

/* A small ordered counter: name -> (auto, manual). */
struct tally {
	char **names;
	long *autos, *manuals;
	size_t n;
};

static void tally_add(struct tally *t, const char *name, int manual)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->names[i], name) == 0)
			break;
	if (i == t->n) {
		t->names = realloc(t->names, (t->n + 1) * sizeof(*t->names));
		t->autos = realloc(t->autos, (t->n + 1) * sizeof(*t->autos));
		t->manuals = realloc(t->manuals, (t->n + 1) * sizeof(*t->manuals));
		if (!t->names || !t->autos || !t->manuals)
			abort();
		t->names[i] = strdup(name);
		t->autos[i] = t->manuals[i] = 0;
		t->n++;
	}
	if (manual)
		t->manuals[i]++;
	else
		t->autos[i]++;
}

static void tally_free(struct tally *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->autos);
	free(t->manuals);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	return strndup(path, (size_t)(slash - path));
}

static void table(FILE *o, const char *id, const char *title, const char *col,
		  const struct tally *t)
{
	size_t i;

	fprintf(o, "<h3>%s</h3>\n<table id=\"%s\"><thead><tr><th>", title, id);
	esc(o, col);
	fputs("</th><th>auto</th><th>manual</th><th>total</th></tr></thead><tbody>\n", o);
	for (i = 0; i < t->n; i++) {
		fputs("<tr data-name=\"", o);
		esc(o, t->names[i]);
		fputs("\"><td>", o);
		esc(o, t->names[i]);
		fprintf(o,
			"</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td>"
			"<td class=\"num\">%ld</td></tr>\n",
			t->autos[i], t->manuals[i], t->autos[i] + t->manuals[i]);
	}
	fputs("</tbody></table>\n", o);
}

/* Horizontal stacked bars, one per pattern: auto in green, manual in orange. */
static void chart(FILE *o, const struct tally *t)
{
	long max = 1;
	size_t i;
	const int bar_w = 360, row_h = 22, label_w = 170;

	for (i = 0; i < t->n; i++)
		if (t->autos[i] + t->manuals[i] > max)
			max = t->autos[i] + t->manuals[i];
	fprintf(o,
		"<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%zu\" role=\"img\" aria-label=\"sites by pattern\">\n",
		label_w + bar_w + 60, t->n * row_h + 30);
	for (i = 0; i < t->n; i++) {
		int y = (int)i * row_h + 4;
		int wa = (int)(t->autos[i] * bar_w / max), wm = (int)(t->manuals[i] * bar_w / max);

		fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label_w - 6, y + 14);
		esc(o, t->names[i]);
		fputs("</text>\n", o);
		fprintf(o, "<rect class=\"bar-auto\" data-pattern=\"");
		esc(o, t->names[i]);
		fprintf(o, "\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"16\"/>\n", label_w, y, wa);
		fprintf(o, "<rect class=\"bar-manual\" data-pattern=\"");
		esc(o, t->names[i]);
		fprintf(o, "\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"16\"/>\n", label_w + wa, y,
			wm);
		fprintf(o, "<text x=\"%d\" y=\"%d\">%ld</text>\n", label_w + wa + wm + 4, y + 14,
			t->autos[i] + t->manuals[i]);
	}
	fprintf(o,
		"<rect class=\"bar-auto\" x=\"%d\" y=\"%zu\" width=\"12\" height=\"12\"/>"
		"<text x=\"%d\" y=\"%zu\">auto</text>"
		"<rect class=\"bar-manual\" x=\"%d\" y=\"%zu\" width=\"12\" height=\"12\"/>"
		"<text x=\"%d\" y=\"%zu\">manual</text>\n",
		label_w, t->n * row_h + 12, label_w + 16, t->n * row_h + 22, label_w + 70,
		t->n * row_h + 12, label_w + 86, t->n * row_h + 22);
	fputs("</svg>\n", o);
}

static void code_block(FILE *o, const char *cls, const char *title, const char *code)
{
	fprintf(o, "<div class=\"code %s\"><div class=\"code-title\">%s</div><pre>", cls, title);
	esc(o, *code ? code : "(folded into the site above)");
	fputs("</pre></div>\n", o);
}

static void site(FILE *o, json_t *s, size_t idx)
{
	json_t *lock = json_object_get(s, "lock"), *ev = json_object_get(lock, "evidence");
	json_t *reason = json_object_get(s, "reason"), *upd = json_object_get(s, "uptodate");
	json_t *bytes = json_object_get(s, "bytes"), *e;
	const char *verdict = str(s, "verdict");
	size_t i;

	fprintf(o, "<section class=\"site %s\" id=\"site-%zu\" data-verdict=\"",
		strcmp(verdict, "manual") == 0 ? "manual" : "auto", idx);
	esc(o, verdict);
	fputs("\" data-pattern=\"", o);
	esc(o, str(s, "pattern"));
	fputs("\" data-file=\"", o);
	esc(o, str(s, "file"));
	fputs("\">\n<h4><span class=\"loc\">", o);
	esc(o, str(s, "file"));
	fprintf(o, ":%lld:%lld</span> ", json_integer_value(json_object_get(s, "line")),
		json_integer_value(json_object_get(s, "column")));
	fputs("<span class=\"fn\">", o);
	esc(o, str(s, "function"));
	fputs("()</span> <span class=\"call\">", o);
	esc(o, str(s, "call"));
	fputs("</span> <span class=\"badge verdict\">", o);
	esc(o, verdict);
	fputs("</span> <span class=\"badge pattern\">", o);
	esc(o, str(s, "pattern"));
	fputs("</span>", o);
	if (*str(s, "confidence")) {
		fputs(" <span class=\"badge confidence\">confidence ", o);
		esc(o, str(s, "confidence"));
		fputs("</span>", o);
	}
	fputs("</h4>\n<dl>\n", o);
	if (reason && json_is_object(reason)) {
		fputs("<dt>reason</dt><dd class=\"reason\"><code>", o);
		esc(o, str(reason, "code"));
		fputs("</code> ", o);
		esc(o, str(reason, "text"));
		fputs("</dd>\n", o);
	}
	fputs("<dt>lock</dt><dd class=\"lock\"><span class=\"lock-state\">", o);
	esc(o, lock ? str(lock, "state") : "unknown");
	fputs("</span>", o);
	if (json_array_size(ev)) {
		fputs("<ul class=\"evidence\">", o);
		json_array_foreach(ev, i, e)
		{
			fputs("<li>", o);
			esc(o, json_string_value(e));
			fputs("</li>", o);
		}
		fputs("</ul>", o);
	}
	fputs("</dd>\n", o);
	if (upd && *str(upd, "expr")) {
		fputs("<dt>uptodate</dt><dd><code>", o);
		esc(o, str(upd, "expr"));
		fputs("</code> (", o);
		esc(o, str(upd, "class"));
		fputs(") &#8594; error <code>", o);
		esc(o, str(upd, "error_expr"));
		fputs("</code></dd>\n", o);
	}
	if (bytes && *str(bytes, "expr")) {
		fputs("<dt>bytes</dt><dd><code>", o);
		esc(o, str(bytes, "expr"));
		fputs("</code> ", o);
		esc(o, str(bytes, "origin"));
		fputs("</dd>\n", o);
	}
	fputs("</dl>\n<div class=\"codes\">\n", o);
	code_block(o, "before", "before", str(s, "before"));
	code_block(o, "after", "after",
		   *str(s, "after")		    ? str(s, "after")
		   : strcmp(verdict, "manual") == 0 ? "(left as it is)"
						    : "");
	fputs("</div>\n</section>\n", o);
}

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.5em}table{border-collapse:collapse;margin:.3em 0 1em}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}td.num{text-align:right}"
    ".totals td{font-weight:bold}.groups{display:flex;flex-wrap:wrap;gap:2em}"
    "svg text{font:12px sans-serif}.bar-auto{fill:#3a9d5d}.bar-manual{fill:#e8863a}"
    ".site{border:1px solid #ccc;border-left:6px solid #3a9d5d;margin:1em 0;padding:.4em 1em}"
    ".site.manual{border-left-color:#e8863a}.site h4{margin:.3em 0}"
    ".badge{font-size:.8em;border-radius:3px;padding:1px 5px;background:#eee}"
    ".site.manual .verdict{background:#e8863a;color:#fff}"
    ".site.auto .verdict{background:#3a9d5d;color:#fff}"
    ".codes{display:flex;gap:1em}.code{flex:1;min-width:0}"
    ".code pre{tab-size:4;background:#f6f6f6;padding:.5em;overflow:auto;margin:0}"
    ".before pre{border-left:3px solid #c44}.after pre{border-left:3px solid #3a9d5d}"
    ".code-title{font-size:.8em;color:#666}dl{margin:.3em 0}dt{float:left;width:6em;color:#666}"
    "dd{margin-left:6.5em}ul.evidence{margin:0;padding-left:1.2em}"
    "#filter{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #ddd}";

static const char script[] =
    "(function(){var box=document.getElementById('manual-only');"
    "function apply(){var only=box.checked,n=0;"
    "document.querySelectorAll('section.site').forEach(function(s){"
    "var hide=only&&s.dataset.verdict!=='manual';"
    "if(hide)s.setAttribute('hidden','');else{s.removeAttribute('hidden');n++;}});"
    "document.getElementById('shown-count').textContent=String(n);"
    "document.body.classList.toggle('manual-only',only);}"
    "box.addEventListener('change',apply);"
    "if(location.hash==='#manual')box.checked=true;apply();})();";

int html_report_write(FILE *o, json_t *report)
{
	json_t *sites = json_object_get(report, "sites"), *files = json_object_get(report, "files");
	json_t *findings = json_object_get(report, "findings"), *s, *tool;
	struct tally by_verdict = {0}, by_pattern = {0}, by_dir = {0}, by_reason = {0};
	long autos = 0, manuals = 0, files_with_sites = 0, skipped = 0;
	size_t i;

	json_array_foreach(sites, i, s)
	{
		int manual = strcmp(str(s, "verdict"), "manual") == 0;
		char *dir = dir_of(str(s, "file"));

		manual ? manuals++ : autos++;
		tally_add(&by_verdict, manual ? "manual" : "auto", manual);
		tally_add(&by_pattern, *str(s, "pattern") ? str(s, "pattern") : "(none)", manual);
		tally_add(&by_dir, dir, manual);
		if (manual)
			tally_add(&by_reason,
				  *str(json_object_get(s, "reason"), "code")
				      ? str(json_object_get(s, "reason"), "code")
				      : "(none)",
				  1);
		free(dir);
	}
	json_array_foreach(files, i, s) if (json_integer_value(json_object_get(s, "sites")) > 0)
	    files_with_sites++;

	tool = json_object_get(report, "tool");
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>blkmig migration report</title>\n<style>",
	      o);
	fputs(css, o);
	fputs("</style></head>\n<body>\n<h1>blkmig migration report</h1>\n<p class=\"meta\">", o);
	esc(o, str(tool, "name"));
	fputc(' ', o);
	esc(o, str(tool, "version"));
	fputs(", command <code>", o);
	esc(o, str(report, "command"));
	fputs("</code></p>\n", o);

	fputs("<h2>Totals</h2>\n<table id=\"totals\" class=\"totals\"><tbody>\n", o);
	fprintf(o, "<tr><th>files scanned</th><td data-key=\"files\">%zu</td></tr>\n",
		json_array_size(files));
	fprintf(o, "<tr><th>files with sites</th><td data-key=\"files_with_sites\">%ld</td></tr>\n",
		files_with_sites);
	fprintf(o, "<tr><th>sites</th><td data-key=\"sites\">%ld</td></tr>\n", autos + manuals);
	fprintf(o, "<tr><th>converted automatically</th><td data-key=\"auto\">%ld</td></tr>\n",
		autos);
	fprintf(o, "<tr><th>left for manual work</th><td data-key=\"manual\">%ld</td></tr>\n",
		manuals);
	fprintf(o, "<tr><th>verify findings</th><td data-key=\"findings\">%zu</td></tr>\n",
		json_array_size(findings));
	fputs("</tbody></table>\n<h2>Sites by pattern</h2>\n", o);
	chart(o, &by_pattern);
	fputs("<div class=\"groups\">\n<div>", o);
	table(o, "by-verdict", "By verdict", "verdict", &by_verdict);
	fputs("</div><div>", o);
	table(o, "by-pattern", "By pattern", "pattern", &by_pattern);
	fputs("</div><div>", o);
	table(o, "by-reason", "Manual, by reason", "reason", &by_reason);
	fputs("</div><div>", o);
	table(o, "by-directory", "By directory", "directory", &by_dir);
	fputs("</div>\n</div>\n", o);

	/* Files that did not parse cleanly: a reviewer must know what was not seen. Files
	 * skipped for having no legacy token are only counted (a tree has thousands). */
	fputs("<h2>Files not fully parsed</h2>\n<table id=\"files\"><thead><tr><th>file</th>"
	      "<th>status</th><th>errors</th><th>reason</th></tr></thead><tbody>\n",
	      o);
	{
		long bad = 0;

		json_array_foreach(files, i, s)
		{
			const char *st = str(json_object_get(s, "parse"), "status");

			bad += strcmp(st, "ok") && strcmp(st, "skipped");
		}
		if (!bad)
			fputs("<tr><td colspan=\"4\">none: every file with a legacy token parsed "
			      "cleanly</td></tr>\n",
			      o);
	}
	json_array_foreach(files, i, s)
	{
		json_t *p = json_object_get(s, "parse");
		const char *st = str(p, "status");

		if (strcmp(st, "skipped") == 0) {
			skipped++;
			continue;
		}
		if (strcmp(st, "ok") == 0)
			continue;
		fputs("<tr><td>", o);
		esc(o, str(s, "path"));
		fputs("</td><td>", o);
		esc(o, st);
		fprintf(o, "</td><td class=\"num\">%lld</td><td>",
			json_integer_value(json_object_get(p, "errors")));
		esc(o, str(p, "reason"));
		fputs("</td></tr>\n", o);
	}
	fprintf(o,
		"</tbody></table>\n<p id=\"skipped\">%ld files without a legacy token were "
		"not parsed.</p>\n",
		skipped);

	if (json_array_size(findings)) {
		fputs("<h2>Verify findings</h2>\n<table id=\"findings\"><thead><tr><th>where</th>"
		      "<th>kind</th><th>message</th></tr></thead><tbody>\n",
		      o);
		json_array_foreach(findings, i, s)
		{
			fputs("<tr><td>", o);
			esc(o, str(s, "file"));
			fprintf(o, ":%lld</td><td>",
				json_integer_value(json_object_get(s, "line")));
			esc(o, str(s, "kind"));
			fputs("</td><td>", o);
			esc(o, str(s, "message"));
			fputs("</td></tr>\n", o);
		}
		fputs("</tbody></table>\n", o);
	}

	fputs("<h2>Sites</h2>\n<div id=\"filter\"><label><input type=\"checkbox\" "
	      "id=\"manual-only\"> show only sites left for manual work</label> "
	      "(<span id=\"shown-count\">",
	      o);
	fprintf(o, "%ld</span> shown)</div>\n", autos + manuals);
	json_array_foreach(sites, i, s) site(o, s, i);
	fputs("<script>", o);
	fputs(script, o);
	fputs("</script>\n</body></html>\n", o);

	tally_free(&by_verdict);
	tally_free(&by_pattern);
	tally_free(&by_dir);
	tally_free(&by_reason);
	return ferror(o) ? -1 : 0;
}
