/*
 * html_report.c - HTML writer for the review page (see html_report.h).
 *
 * Everything the page shows is computed here from the sites themselves (totals, groups,
 * chart), so the page agrees with the site list even if a summary field is missing.
 * All report text is HTML-escaped; the only script is the filter.  Filtering is by
 * attributes each site section carries (data-verdict, data-reason, data-dir, data-call,
 * data-search), so the page works from file:// with no network.
 */
#include "html_report.h"

#include <stdlib.h>
#include <string.h>

#include "report_paths.h"
#include "util.h"

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

/* A table whose rows filter the sites by @key (data-filter/data-value) when clicked. */
static void table(FILE *o, const char *id, const char *title, const char *col, const char *key,
		  const struct tally *t)
{
	size_t i;

	fprintf(o, "<h3>%s</h3>\n<table id=\"%s\"><thead><tr><th>", title, id);
	esc(o, col);
	fputs("</th><th>auto</th><th>manual</th><th>total</th></tr></thead><tbody>\n", o);
	for (i = 0; i < t->n; i++) {
		fputs("<tr data-name=\"", o);
		esc(o, t->names[i]);
		fprintf(o, "\" data-filter=\"%s\" data-value=\"", key);
		esc(o, t->names[i]);
		fputs("\" tabindex=\"0\" title=\"show only these sites\"><td>", o);
		esc(o, t->names[i]);
		fprintf(o,
			"</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td>"
			"<td class=\"num\">%ld</td></tr>\n",
			t->autos[i], t->manuals[i], t->autos[i] + t->manuals[i]);
	}
	fputs("</tbody></table>\n", o);
}

struct page {
	const struct html_sources *src;
	char *root;
	char *root_uri;
	/* the last file read, for context lines */
	char *cur_path;
	char *cur_data;
	size_t cur_len;
	bool cur_owned;
};

static const char *orig_text(struct page *pg, const char *path, size_t *len)
{
	if (!pg->cur_path || strcmp(pg->cur_path, path)) {
		if (pg->cur_owned)
			free(pg->cur_data);
		free(pg->cur_path);
		pg->cur_path = xstrdup(path);
		pg->cur_data = NULL;
		pg->cur_len = 0;
		pg->cur_owned = false;
		if (pg->src && pg->src->original)
			pg->cur_data = (char *)pg->src->original(path, &pg->cur_len, pg->src->ctx);
		if (!pg->cur_data) {
			pg->cur_data = read_file(path, &pg->cur_len);
			pg->cur_owned = true;
		}
	}
	*len = pg->cur_len;
	return pg->cur_data;
}

/* The path relative to the root, as written (not URI-encoded) when possible. */
static char *rel_of(struct page *pg, const char *path)
{
	char *r = report_rel_path(pg->root, path);

	if (!r)
		return xstrdup(path);
	/* undo the URI encoding for display */
	for (char *p = r, *q = r; *p; p++) {
		if (*p == '%' && p[1] && p[2]) {
			char h[3] = {p[1], p[2], 0};

			*q++ = (char)strtol(h, NULL, 16);
			p += 2;
		} else {
			*q++ = *p;
		}
		if (!p[1])
			*q = '\0';
	}
	return r;
}

static char *dir_part(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? xstrndup(rel, (size_t)(slash - rel)) : xstrdup(".");
}

/* Anchors: letters, digits, '-', '_', '.'; everything else '-'. */
static void anchor_part(FILE *o, const char *s)
{
	for (; *s; s++)
		fputc((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			      (*s >= '0' && *s <= '9') || *s == '_' || *s == '.'
			  ? *s
			  : '-',
		      o);
}

/* Lines [from, to] of @text with their numbers; line @mark highlighted. */
static void numbered(FILE *o, const char *text, size_t len, unsigned from, unsigned to,
		     unsigned mark_from, unsigned mark_to)
{
	unsigned line = 1;
	size_t i = 0;

	while (i < len && line <= to) {
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		if (line >= from) {
			char *l = xstrndup(text + i, e - i);

			fprintf(o, "<span class=\"ln%s\" data-line=\"%u\">%5u</span> ",
				line >= mark_from && line <= mark_to ? " mark" : "", line, line);
			esc(o, l);
			fputc('\n', o);
			free(l);
		}
		line++;
		i = e + 1;
	}
}

/* The first line of the site's "before" text in the original (its first occurrence
 * that covers the call), or the call's line. */
static unsigned before_line(const char *text, size_t len, json_t *s)
{
	const char *b = str(s, "before"), *p;
	size_t blen = strlen(b), off = (size_t)json_integer_value(json_object_get(s, "offset"));
	unsigned line = 1;

	if (!text || !blen)
		return (unsigned)json_integer_value(json_object_get(s, "line"));
	for (p = memmem(text, len, b, blen); p && (size_t)(p - text) + blen <= off;
	     p = memmem(p + 1, len - (size_t)(p + 1 - text), b, blen))
		;
	if (!p || (size_t)(p - text) > off)
		return (unsigned)json_integer_value(json_object_get(s, "line"));
	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void diff_block(FILE *o, const char *before, const char *after, unsigned first)
{
	const char *p;

	fputs("<div class=\"code diff\"><div class=\"code-title\">diff</div><pre>", o);
	fprintf(o, "<span class=\"hunk\">@@ -%u,%u +%u,%u @@</span>\n", first, count_lines(before),
		first, count_lines(after));
	for (p = before; *p;) {
		const char *e = strchr(p, '\n');
		char *l = xstrndup(p, e ? (size_t)(e - p) : strlen(p));

		fputs("<span class=\"del\">-", o);
		esc(o, l);
		fputs("</span>\n", o);
		free(l);
		p = e ? e + 1 : p + strlen(p);
	}
	for (p = after; *p;) {
		const char *e = strchr(p, '\n');
		char *l = xstrndup(p, e ? (size_t)(e - p) : strlen(p));

		fputs("<span class=\"add\">+", o);
		esc(o, l);
		fputs("</span>\n", o);
		free(l);
		p = e ? e + 1 : p + strlen(p);
	}
	fputs("</pre></div>\n", o);
}

static void site(FILE *o, struct page *pg, json_t *s, unsigned occ)
{
	json_t *lock = json_object_get(s, "lock"), *ev = json_object_get(lock, "evidence");
	json_t *reason = json_object_get(s, "reason"), *upd = json_object_get(s, "uptodate");
	json_t *bytes = json_object_get(s, "bytes"), *e;
	const char *verdict = str(s, "verdict"), *file = str(s, "file");
	const char *rcode = reason ? str(reason, "code") : "";
	bool manual = strcmp(verdict, "manual") == 0;
	unsigned line = (unsigned)json_integer_value(json_object_get(s, "line"));
	char *rel = rel_of(pg, file), *dir = dir_part(rel), *href = report_rel_path(pg->root, file);
	size_t i, len = 0;
	const char *text = orig_text(pg, file, &len);
	unsigned first = before_line(text, len, s), nb = count_lines(str(s, "before"));

	fprintf(o, "<section class=\"site %s\" id=\"site-", manual ? "manual" : "auto");
	anchor_part(o, rel);
	fputc('-', o);
	anchor_part(o, *str(s, "function") ? str(s, "function") : "file-scope");
	fputc('-', o);
	anchor_part(o, str(s, "call"));
	fprintf(o, "-%u\" data-verdict=\"", occ);
	esc(o, verdict);
	fputs("\" data-reason=\"", o);
	esc(o, rcode);
	fputs("\" data-dir=\"", o);
	esc(o, dir);
	fputs("\" data-call=\"", o);
	esc(o, str(s, "call"));
	fputs("\" data-pattern=\"", o);
	esc(o, str(s, "pattern"));
	fputs("\" data-file=\"", o);
	esc(o, file);
	fputs("\" data-search=\"", o);
	esc(o, rel);
	fputc(' ', o);
	esc(o, str(s, "function"));
	fputc(' ', o);
	esc(o, str(s, "call"));
	fputc(' ', o);
	esc(o, rcode);
	fputc(' ', o);
	esc(o, str(s, "pattern"));
	fputc(' ', o);
	esc(o, reason ? str(reason, "text") : str(s, "replacement"));
	fputs("\">\n<h4><span class=\"loc\">", o);
	esc(o, file);
	fprintf(o, ":%u:%lld</span> ", line, json_integer_value(json_object_get(s, "column")));
	fputs("<a class=\"src\" href=\"", o);
	if (href) {
		esc(o, pg->root_uri);
		esc(o, href);
	} else {
		json_t *u = report_file_uri(file);

		esc(o, json_string_value(u));
		json_decref(u);
	}
	fputs("\">", o);
	esc(o, rel);
	fprintf(o, ":%u</a> ", line);
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
	fputs(" <a class=\"anchor\" href=\"#site-", o);
	anchor_part(o, rel);
	fputc('-', o);
	anchor_part(o, *str(s, "function") ? str(s, "function") : "file-scope");
	fputc('-', o);
	anchor_part(o, str(s, "call"));
	fprintf(o, "-%u\">#</a></h4>\n<dl>\n", occ);
	if (reason && json_is_object(reason)) {
		fputs("<dt>reason</dt><dd class=\"reason\"><code>", o);
		esc(o, rcode);
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
	if (*str(s, "parse_errors")) {
		fputs("<dt>parse errors</dt><dd class=\"parse-errors\">", o);
		esc(o, str(s, "parse_errors"));
		fputs("</dd>\n", o);
	}
	if (!manual && *str(s, "replacement")) {
		fputs("<dt>new call</dt><dd><code>", o);
		esc(o, str(s, "replacement"));
		fputs("</code></dd>\n", o);
	}
	fputs("</dl>\n<div class=\"codes\">\n", o);
	fputs("<div class=\"code context\"><div class=\"code-title\">context</div><pre>", o);
	if (text)
		numbered(o, text, len, first > 3 ? first - 3 : 1, first + (nb ? nb - 1 : 0) + 3,
			 first, first + (nb ? nb - 1 : 0));
	else
		esc(o, str(s, "before"));
	fputs("</pre></div>\n", o);
	/* every converted site shows its diff; the folded call of a pair is in its
	 * partner's */
	if (!manual && *str(s, "before") && strncmp(str(s, "replacement"), "(folded into", 12))
		diff_block(o, str(s, "before"), str(s, "after"), first);
	fputs("</div>\n</section>\n", o);
	free(rel);
	free(dir);
	free(href);
}

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.5em}table{border-collapse:collapse;margin:.3em 0 1em}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}td.num{text-align:right}"
    "tr[data-filter]{cursor:pointer}tr[data-filter]:hover{background:#eef}"
    "tr.active{background:#cde;font-weight:bold}"
    ".totals td{font-weight:bold}.groups{display:flex;flex-wrap:wrap;gap:2em}"
    ".groups>div{max-height:28em;overflow:auto}"
    "svg text{font:12px sans-serif}.bar-auto{fill:#3a9d5d}.bar-manual{fill:#e8863a}"
    ".site{border:1px solid #ccc;border-left:6px solid #3a9d5d;margin:1em 0;padding:.4em 1em}"
    ".site.manual{border-left-color:#e8863a}.site h4{margin:.3em 0}"
    ".badge{font-size:.8em;border-radius:3px;padding:1px 5px;background:#eee}"
    ".site.manual .verdict{background:#e8863a;color:#fff}"
    ".site.auto .verdict{background:#3a9d5d;color:#fff}a.anchor{color:#999;text-decoration:none}"
    ".codes{display:flex;gap:1em;flex-wrap:wrap}.code{flex:1;min-width:30em}"
    ".code pre{tab-size:8;background:#f6f6f6;padding:.5em;overflow:auto;margin:0}"
    ".ln{color:#999}.ln.mark{color:#000;background:#fe8}.del{background:#fdd;display:block}"
    ".add{background:#dfd;display:block}.hunk{color:#66a}"
    ".code-title{font-size:.8em;color:#666}dl{margin:.3em 0}dt{float:left;width:6em;color:#666}"
    "dd{margin-left:6.5em}ul.evidence{margin:0;padding-left:1.2em}"
    "#filter{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #ddd;"
    "z-index:1}#filter select,#filter input{margin-right:.6em}";

/* Filters: verdict, reason, dir (a prefix: drivers/ide also shows drivers/ide/legacy),
 * call, search text; kept in location.hash as key=value&... ("#manual" = verdict=manual). */
static const char script[] =
    "(function(){var F=['verdict','reason','dir','call'],st={q:''};"
    "var box=document.getElementById('manual-only'),q=document.getElementById('search');"
    "function sel(k){return document.getElementById('f-'+k);}"
    "function match(s){if(st.verdict&&s.dataset.verdict!==st.verdict)return false;"
    "if(st.reason&&s.dataset.reason!==st.reason)return false;"
    "if(st.call&&s.dataset.call!==st.call)return false;"
    "if(st.dir&&st.dir!=='.'&&s.dataset.dir!==st.dir&&s.dataset.dir.indexOf(st.dir+'/')!==0)"
    "return false;if(st.dir==='.'&&s.dataset.dir!=='.')return false;"
    "if(st.q){var t=st.q.toLowerCase().split(/\\s+/),h=s.dataset.search.toLowerCase();"
    "for(var i=0;i<t.length;i++)if(t[i]&&h.indexOf(t[i])<0)return false;}return true;}"
    "function apply(push){var n=0;document.querySelectorAll('section.site').forEach(function(s){"
    "if(match(s)){s.removeAttribute('hidden');n++;}else s.setAttribute('hidden','');});"
    "document.getElementById('shown-count').textContent=String(n);"
    "box.checked=st.verdict==='manual';"
    "F.forEach(function(k){var e=sel(k);if(e)e.value=st[k]||'';});"
    "document.querySelectorAll('tr[data-filter]').forEach(function(r){"
    "r.classList.toggle('active',st[r.dataset.filter]===r.dataset.value);});"
    "document.body.classList.toggle('manual-only',st.verdict==='manual');"
    "if(push){var p=[];F.forEach(function(k){if(st[k])p.push(k+'='+encodeURIComponent(st[k]));});"
    "if(st.q)p.push('q='+encodeURIComponent(st.q));"
    "history.replaceState(null,'',p.length?'#'+p.join('&'):location.pathname);}}"
    "function set(k,v){st[k]=st[k]===v?'':v;apply(true);}"
    "document.querySelectorAll('tr[data-filter]').forEach(function(r){"
    "r.addEventListener('click',function(){var k=r.dataset.filter,v=r.dataset.value;"
    "if(k==='verdict'){st.verdict=st.verdict===v?'':v;}else set(k,v);apply(true);});"
    "r.addEventListener('keydown',function(e){if(e.key==='Enter')r.click();});});"
    "F.forEach(function(k){var e=sel(k);if(e)e.addEventListener('change',function(){"
    "st[k]=e.value;apply(true);});});"
    "box.addEventListener('change',function(){st.verdict=box.checked?'manual':'';apply(true);});"
    "q.addEventListener('input',function(){st.q=q.value;apply(true);});"
    "document.getElementById('clear').addEventListener('click',function(){"
    "F.forEach(function(k){st[k]='';});st.q='';q.value='';apply(true);});"
    "var h=location.hash.slice(1);if(h==='manual')st.verdict='manual';"
    "else if(h.indexOf('site-')!==0)h.split('&').forEach(function(kv){var i=kv.indexOf('=');"
    "if(i>0){var k=kv.slice(0,i),v=decodeURIComponent(kv.slice(i+1));"
    "if(k==='q'){st.q=v;q.value=v;}else if(F.indexOf(k)>=0)st[k]=v;}});apply(false);})();";

static void options(FILE *o, const char *id, const char *label, const struct tally *t)
{
	fprintf(o, "<label>%s <select id=\"f-%s\"><option value=\"\">all</option>", label, id);
	for (size_t i = 0; i < t->n; i++) {
		fputs("<option value=\"", o);
		esc(o, t->names[i]);
		fputs("\">", o);
		esc(o, t->names[i]);
		fprintf(o, " (%ld)</option>", t->autos[i] + t->manuals[i]);
	}
	fputs("</select></label>\n", o);
}

/* sort a tally by name (directories read best in tree order) */
static void tally_sort(struct tally *t)
{
	for (size_t a = 1; a < t->n; a++)
		for (size_t b = a; b > 0 && strcmp(t->names[b], t->names[b - 1]) < 0; b--) {
			char *n = t->names[b];
			long x = t->autos[b], y = t->manuals[b];

			t->names[b] = t->names[b - 1];
			t->autos[b] = t->autos[b - 1];
			t->manuals[b] = t->manuals[b - 1];
			t->names[b - 1] = n;
			t->autos[b - 1] = x;
			t->manuals[b - 1] = y;
		}
}

int html_report_write(FILE *o, json_t *report)
{
	return html_report_write_from(o, report, NULL);
}

int html_report_write_from(FILE *o, json_t *report, const struct html_sources *src)
{
	json_t *sites = json_object_get(report, "sites"), *files = json_object_get(report, "files");
	json_t *findings = json_object_get(report, "findings"), *s, *tool;
	struct tally by_verdict = {0}, by_pattern = {0}, by_reason = {0}, by_dir = {0},
		     by_call = {0};
	struct page pg = {0};
	long autos = 0, manuals = 0, files_with_sites = 0, skipped = 0;
	size_t i;
	unsigned *occ;
	char *ru;

	pg.src = src;
	pg.root = report_root(src ? src->root : NULL);
	ru = xasprintf("%s/", pg.root);
	{
		json_t *u = report_file_uri(ru);

		pg.root_uri = xstrdup(json_string_value(u));
		json_decref(u);
	}
	free(ru);
	json_array_foreach(sites, i, s)
	{
		int manual = strcmp(str(s, "verdict"), "manual") == 0;
		char *rel = rel_of(&pg, str(s, "file")), *dir = dir_part(rel);

		manual ? manuals++ : autos++;
		tally_add(&by_verdict, manual ? "manual" : "auto", manual);
		tally_add(&by_pattern, *str(s, "pattern") ? str(s, "pattern") : "(none)", manual);
		tally_add(&by_call, str(s, "call"), manual);
		/* every level: drivers, drivers/ide, drivers/ide/legacy */
		for (char *p = dir; p;) {
			char *slash = strchr(p, '/');
			char *prefix = xstrndup(dir, slash ? (size_t)(slash - dir) : strlen(dir));

			tally_add(&by_dir, prefix, manual);
			free(prefix);
			p = slash ? slash + 1 : NULL;
		}
		if (manual)
			tally_add(&by_reason,
				  *str(json_object_get(s, "reason"), "code")
				      ? str(json_object_get(s, "reason"), "code")
				      : "(none)",
				  1);
		free(dir);
		free(rel);
	}
	tally_sort(&by_dir);
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
	fputs("</code>, files relative to <code>", o);
	esc(o, pg.root);
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
	{
		long left = 0, bad = 0;

		json_array_foreach(files, i, s)
		{
			const char *st = str(json_object_get(s, "parse"), "status");

			left +=
			    !strcmp(str(json_object_get(s, "outcome"), "status"), "left_untouched");
			bad += !strcmp(st, "partial") || !strcmp(st, "failed");
		}
		fprintf(o,
			"<tr><th>files not fully parsed</th><td data-key=\"files_not_parsed\">%ld"
			"</td></tr>\n<tr><th>files left untouched</th>"
			"<td data-key=\"files_left_untouched\">%ld</td></tr>\n",
			bad, left);
	}
	fputs("</tbody></table>\n<h2>Sites by pattern</h2>\n", o);
	chart(o, &by_pattern);
	fputs("<p class=\"hint\">Click a row of a table to show only its sites; click it again "
	      "to drop that filter.</p>\n<div class=\"groups\">\n<div>",
	      o);
	table(o, "by-verdict", "By verdict", "verdict", "verdict", &by_verdict);
	fputs("</div><div>", o);
	table(o, "by-reason", "Manual, by reason", "reason", "reason", &by_reason);
	fputs("</div><div>", o);
	table(o, "by-directory", "By directory", "directory", "dir", &by_dir);
	fputs("</div><div>", o);
	table(o, "by-call", "By call", "call", "call", &by_call);
	fputs("</div><div>", o);
	table(o, "by-pattern", "By pattern", "pattern", "pattern", &by_pattern);
	fputs("</div>\n</div>\n", o);

	/* Files that did not parse cleanly: a reviewer must know what was not seen. Files
	 * skipped for having no legacy token are only counted (a tree has thousands). */
	fputs("<h2>Files not fully parsed</h2>\n<table id=\"files\"><thead><tr><th>file</th>"
	      "<th>status</th><th>errors</th><th>reason and first errors</th></tr></thead>"
	      "<tbody>\n",
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
		json_t *p = json_object_get(s, "parse"), *d;
		const char *st = str(p, "status");
		size_t k;

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
		json_array_foreach(json_object_get(p, "diagnostics"), k, d)
		{
			fputs("<br><code>", o);
			esc(o, json_string_value(d));
			fputs("</code>", o);
		}
		fputs("</td></tr>\n", o);
	}
	fprintf(o,
		"</tbody></table>\n<p id=\"skipped\">%ld files without a legacy token were "
		"not parsed.</p>\n",
		skipped);

	fputs("<h2>Files left untouched</h2>\n<table id=\"left\"><thead><tr><th>file</th>"
	      "<th>reason</th><th>why</th></tr></thead><tbody>\n",
	      o);
	{
		long left = 0;

		json_array_foreach(files, i, s)
		{
			json_t *oc = json_object_get(s, "outcome");

			if (strcmp(str(oc, "status"), "left_untouched"))
				continue;
			left++;
			fputs("<tr><td>", o);
			esc(o, str(s, "path"));
			fputs("</td><td><code>", o);
			esc(o, str(oc, "code"));
			fputs("</code></td><td>", o);
			esc(o, str(oc, "text"));
			fputs("</td></tr>\n", o);
		}
		if (!left)
			fputs("<tr><td colspan=\"3\">none</td></tr>\n", o);
	}
	fputs("</tbody></table>\n", o);

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

	fputs("<h2>Sites</h2>\n<div id=\"filter\">", o);
	options(o, "verdict", "verdict", &by_verdict);
	options(o, "reason", "reason", &by_reason);
	options(o, "dir", "directory", &by_dir);
	options(o, "call", "call", &by_call);
	fputs("<input type=\"search\" id=\"search\" placeholder=\"search file, function, "
	      "reason...\"> <label><input type=\"checkbox\" id=\"manual-only\"> manual only"
	      "</label> <button id=\"clear\" type=\"button\">clear filters</button> "
	      "(<span id=\"shown-count\">",
	      o);
	fprintf(o, "%ld</span> shown)</div>\n", autos + manuals);
	occ = xcalloc(json_array_size(sites) + 1, sizeof(*occ));
	json_array_foreach(sites, i, s)
	{
		/* occurrence of (file, function, call), counted from 1: a stable anchor */
		unsigned n = 1;

		for (size_t k = 0; k < i; k++) {
			json_t *t = json_array_get(sites, k);

			n += !strcmp(str(t, "file"), str(s, "file")) &&
			     !strcmp(str(t, "function"), str(s, "function")) &&
			     !strcmp(str(t, "call"), str(s, "call"));
		}
		occ[i] = n;
		site(o, &pg, s, n);
	}
	free(occ);
	fputs("<script>", o);
	fputs(script, o);
	fputs("</script>\n</body></html>\n", o);

	tally_free(&by_verdict);
	tally_free(&by_pattern);
	tally_free(&by_dir);
	tally_free(&by_reason);
	tally_free(&by_call);
	if (pg.cur_owned)
		free(pg.cur_data);
	free(pg.cur_path);
	free(pg.root);
	free(pg.root_uri);
	return ferror(o) ? -1 : 0;
}
