/*
 * html_report.c - HTML writer for the review page (see html_report.h).
 *
 * Everything the page shows is computed here from the sites themselves (totals, groups,
 * chart), so the page agrees with the site list even if a summary field is missing.
 * All report text is HTML-escaped; the only script is the page's (filters, reviewed
 * marks in localStorage, keys).  Filtering is by
 * attributes each site section carries (data-verdict, data-reason, data-dir, data-call,
 * data-search), so the page works from file:// with no network.
 */
#include "html_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "indent_fix.h"
#include "json_text.h"
#include "report_paths.h"
#include "udiff.h"
#include "util.h"

/* @s HTML-escaped; a byte that is not UTF-8 (a Latin-1 comment) as \xNN (json_text.h) */
static void esc(FILE *o, const char *s)
{
	for (; s && *s; s++) {
		if ((unsigned char)*s >= 0x80) {
			size_t k = bm_utf8_seq((const unsigned char *)s, strnlen(s, 4));

			if (k)
				fwrite(s, 1, k, o);
			else
				fprintf(o, "\\x%02x", (unsigned char)*s);
			s += k ? k - 1 : 0;
			continue;
		}
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
	/* schema 2: the report's "root"; its paths are relative to it (NULL: version 1, the
	 * paths as the run named them) */
	const char *json_root;
	const char *source_url; /* --source-url template, or NULL */
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

/* Where the run found @path (a report path, \xNN for a byte that is not UTF-8): for a
 * schema 2 report, below its root. */
static char *disk_path(const struct page *pg, const char *path)
{
	char *raw = bm_text_unescape(path), *r;

	if (!pg->json_root || path[0] == '/' || !strcmp(pg->json_root, "."))
		return raw;
	r = xasprintf("%s/%s", pg->json_root, raw);
	free(raw);
	return r;
}

/* The path relative to the root, as written (not URI-encoded) when possible. */
static char *rel_of(struct page *pg, const char *path)
{
	char *r;

	if (pg->json_root && path[0] != '/')
		return bm_text_unescape(path);
	r = report_rel_path(pg->root, path);

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

/* The address of line @line of @file (report path; @rel relative to the root): the
 * --source-url template with {path} (URI-encoded) and {line} replaced, else the file
 * itself (file://). */
static char *source_href(const struct page *pg, const char *file, const char *rel, unsigned line)
{
	struct sbuf b = {0};
	char *enc, *u;

	if (pg->json_root && file[0] != '/') {
		char *abs = xasprintf("%s/%s", pg->root, rel);

		enc = report_rel_path(pg->root, abs);
		free(abs);
	} else {
		enc = report_rel_path(pg->root, file);
	}
	if (!pg->source_url) {
		json_t *j;

		if (enc) {
			u = xasprintf("%s%s", pg->root_uri, enc);
			free(enc);
			return u;
		}
		j = report_file_uri(file);
		u = xstrdup(json_string_value(j));
		json_decref(j);
		return u;
	}
	for (const char *t = pg->source_url; *t;) {
		if (!strncmp(t, "{path}", 6)) {
			sbuf_add(&b, enc ? enc : rel);
			t += 6;
		} else if (!strncmp(t, "{line}", 6)) {
			sbuf_printf(&b, "%u", line);
			t += 6;
		} else {
			sbuf_addn(&b, t++, 1);
		}
	}
	free(enc);
	return sbuf_take(&b);
}

/* Lines [from, to] of @text with their numbers (links to the source with --source-url);
 * lines [mark_from, mark_to] highlighted. */
static void numbered(FILE *o, const struct page *pg, const char *file, const char *rel,
		     const char *text, size_t len, unsigned from, unsigned to, unsigned mark_from,
		     unsigned mark_to)
{
	unsigned line = 1;
	size_t i = 0;

	while (i < len && line <= to) {
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		if (line >= from) {
			char *l = xstrndup(text + i, e - i);

			fprintf(o, "<span class=\"ln%s\" data-line=\"%u\">",
				line >= mark_from && line <= mark_to ? " mark" : "", line);
			if (pg->source_url) {
				char *h = source_href(pg, file, rel, line);

				fputs("<a href=\"", o);
				esc(o, h);
				fprintf(o, "\">%5u</a>", line);
				free(h);
			} else {
				fprintf(o, "%5u", line);
			}
			fputs("</span> ", o);
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

/* @s split into its lines (without '\n'); *n of them. */
static char **split_lines(const char *s, size_t *n)
{
	char **v = xcalloc(count_lines(s) + 2, sizeof(*v));

	*n = 0;
	for (const char *p = s; *p;) {
		const char *e = strchr(p, '\n');

		v[(*n)++] = xstrndup(p, e ? (size_t)(e - p) : strlen(p));
		p = e ? e + 1 : p + strlen(p);
	}
	return v;
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Does a site show a diff of its own (a converted site, not the folded half of a pair)? */
static bool shows_diff(json_t *s)
{
	return !strcmp(str(s, "verdict"), "auto") && *str(s, "before") &&
	       strncmp(str(s, "replacement"), "(folded into", 12);
}

static void diff_line(FILE *o, const char *cls, char mark, const char *text)
{
	fprintf(o, "<span class=\"%s\">%c", cls, mark);
	esc(o, text);
	fputs("</span>\n", o);
}

/* The change of a converted site, in whole lines of the original. */
struct change {
	unsigned first; /* the first line of @old in the original (0: no change) */
	size_t rs;	/* the byte where that line starts */
	bool from_edits;
	char *old, *new;
	long laid_out; /* the lines indent_fix.c added to the edits' text (broken lines) */
};

/*
 * From the site's edits in its own file when it has any (they may delete lines above the
 * call, which "before" does not show): the lines they touch, before and after them; else
 * (a rewrite spatch made) its "before" -> "after" at @before_first.
 */
static struct change site_change(const char *text, size_t len, json_t *s, unsigned before_first,
				 const char *conv, size_t conv_len)
{
	json_t *edits = json_object_get(s, "edits"), *e;
	size_t n = 0, i, rs = SIZE_MAX, re = 0, pos;
	struct change c = {0, 0, false, NULL, NULL, 0};
	struct sbuf b = {0};
	json_t **v;

	if (!shows_diff(s))
		return c;
	v = xcalloc(json_array_size(edits) + 1, sizeof(*v));
	json_array_foreach(edits, i, e)
	{
		size_t a = (size_t)json_integer_value(json_object_get(e, "start"));
		size_t z = (size_t)json_integer_value(json_object_get(e, "end"));

		if (strcmp(str(e, "file"), str(s, "file")) || a > z || z > len || !text)
			continue;
		v[n++] = e;
		rs = a < rs ? a : rs;
		re = z > re ? z : re;
	}
	if (!n) {
		free(v);
		c.first = before_first;
		for (unsigned l = 1; text && c.rs < len && l < before_first; c.rs++)
			l += text[c.rs] == '\n';
		c.old = xstrdup(str(s, "before"));
		c.new = xstrdup(str(s, "after"));
		return c;
	}
	c.from_edits = true;
	/* by start; whole lines around them */
	for (size_t x = 1; x < n; x++)
		for (size_t y = x;
		     y > 0 && json_integer_value(json_object_get(v[y], "start")) <
				  json_integer_value(json_object_get(v[y - 1], "start"));
		     y--) {
			json_t *t = v[y];

			v[y] = v[y - 1];
			v[y - 1] = t;
		}
	while (rs > 0 && text[rs - 1] != '\n')
		rs--;
	while (re < len && (re == 0 || text[re - 1] != '\n'))
		re++;
	c.first = 1;
	c.rs = rs;
	for (i = 0; i < rs; i++)
		c.first += text[i] == '\n';
	c.old = xstrndup(text + rs, re - rs);
	for (i = 0, pos = rs; i < n; i++) {
		size_t a = (size_t)json_integer_value(json_object_get(v[i], "start"));
		size_t z = (size_t)json_integer_value(json_object_get(v[i], "end"));

		if (a < pos) /* an overlapping or repeated edit: applied once */
			continue;
		sbuf_addn(&b, text + pos, a - pos);
		sbuf_add(&b, str(v[i], "text"));
		pos = z;
	}
	sbuf_addn(&b, text + pos, re - pos);
	c.new = sbuf_take(&b);
	pos = strlen(c.new);
	c.laid_out = -(long)count_lines(c.new);
	if (conv) {
		/* the converted file's lines in their place: the patch's own text, with
		 * what other sites changed in these lines and the layout (indent_fix.c) */
		unsigned from = c.first > 1 ? c.first - 1 : 1;
		char *w = udiff_new_lines(text, len, conv, conv_len, from,
					  c.first + count_lines(c.old) - 1);
		size_t pl = 0; /* the line above, kept: what is inserted before the first */

		while (from < c.first && pl < rs && text[rs - 1 - pl] != '\n')
			pl++;
		if (from < c.first && rs)
			pl++;
		if (w && (from == c.first || (rs >= pl && !strncmp(w, text + rs - pl, pl)))) {
			free(c.new);
			c.new = xstrdup(w + (from < c.first ? pl : 0));
			c.laid_out = 0;
		} else {
			conv = NULL;
		}
		free(w);
	}
	if (!conv) {
		indent_fix_text(c.old, re - rs, &c.new, &pos); /* laid out as the patch is */
		c.laid_out += (long)count_lines(c.new);
	}
	free(v);
	return c;
}

/* The first line of a site's hunk: up to three lines of context above its change. */
static unsigned hunk_first_line(unsigned first)
{
	return first > 3 ? first - 3 : 1;
}

/*
 * The site's hunk as the patch writes it: its change (site_change) as a line diff (longest
 * common subsequence: an unchanged line is context, not a '-' and a '+'), with three lines
 * of context from the original around it; @shift is the lines earlier conversions of the
 * file added (the new side's numbers).
 */
static void diff_block(FILE *o, const char *text, size_t len, json_t *s, const struct change *ch,
		       long shift)
{
	size_t nb, na, ctx_from, ctx_to, nl = 0;
	unsigned first = ch->first;
	char **b = split_lines(ch->old, &nb), **a = split_lines(ch->new, &na);
	char *whole = text ? xstrndup(text, len) : NULL;
	char **orig = whole ? split_lines(whole, &nl) : NULL;
	unsigned *lcs;
	size_t i, j;

	free(whole);

	/* context: up to 3 lines of the original on each side */
	ctx_from = hunk_first_line(first);
	ctx_to = first + nb - 1 + 3;
	if (ctx_to > nl)
		ctx_to = nl;
	if (!orig || first + nb - 1 > nl) {
		ctx_from = first;
		ctx_to = first + nb - 1;
	}
	fputs("<div class=\"code diff\"><div class=\"code-title\">diff</div><pre>", o);
	fprintf(o, "<span class=\"hunk\">@@ -%zu,%zu +%ld,%zu @@ ", ctx_from, ctx_to - ctx_from + 1,
		(long)ctx_from + shift, ctx_to - ctx_from + 1 - nb + na);
	esc(o, str(s, "function"));
	fputs("</span>\n", o);
	for (size_t l = ctx_from; l < first && orig; l++)
		diff_line(o, "ctx", ' ', orig[l - 1]);
	/* lcs[i][j]: the longest common subsequence of b[i..] and a[j..] */
	lcs = xcalloc((nb + 1) * (na + 1), sizeof(*lcs));
	for (i = nb; i-- > 0;)
		for (j = na; j-- > 0;)
			lcs[i * (na + 1) + j] =
			    !strcmp(b[i], a[j]) ? lcs[(i + 1) * (na + 1) + j + 1] + 1
			    : lcs[(i + 1) * (na + 1) + j] > lcs[i * (na + 1) + j + 1]
				? lcs[(i + 1) * (na + 1) + j]
				: lcs[i * (na + 1) + j + 1];
	for (i = 0, j = 0; i < nb || j < na;) {
		if (i < nb && j < na && !strcmp(b[i], a[j])) {
			diff_line(o, "ctx", ' ', b[i]);
			i++;
			j++;
		} else if (i < nb &&
			   (j == na || lcs[(i + 1) * (na + 1) + j] >= lcs[i * (na + 1) + j + 1])) {
			diff_line(o, "del", '-', b[i++]);
		} else {
			diff_line(o, "add", '+', a[j++]);
		}
	}
	for (size_t l = first + nb; l <= ctx_to && orig; l++)
		diff_line(o, "ctx", ' ', orig[l - 1]);
	fputs("</pre></div>\n", o);
	free(lcs);
	free_lines(b, nb);
	free_lines(a, na);
	if (orig)
		free_lines(orig, nl);
}

static void site_anchor(FILE *o, const char *rel, json_t *s, unsigned occ)
{
	fputs("site-", o);
	anchor_part(o, rel);
	fputc('-', o);
	anchor_part(o, *str(s, "function") ? str(s, "function") : "file-scope");
	fputc('-', o);
	anchor_part(o, str(s, "call"));
	fprintf(o, "-%u", occ);
}

static void site(FILE *o, struct page *pg, json_t *s, unsigned occ, unsigned first,
		 const struct change *ch, long shift)
{
	json_t *lock = json_object_get(s, "lock"), *ev = json_object_get(lock, "evidence");
	json_t *reason = json_object_get(s, "reason"), *upd = json_object_get(s, "uptodate");
	json_t *bytes = json_object_get(s, "bytes"), *e;
	const char *verdict = str(s, "verdict"), *file = str(s, "file");
	const char *rcode = reason ? str(reason, "code") : "";
	const char *rdesc = *rcode ? bm_reason_description(rcode) : "";
	bool manual = strcmp(verdict, "manual") == 0;
	unsigned line = (unsigned)json_integer_value(json_object_get(s, "line"));
	char *rel = rel_of(pg, file), *dir = dir_part(rel), *dpath = disk_path(pg, file);
	char *href = source_href(pg, file, rel, line);
	size_t i, len = 0;
	const char *text = orig_text(pg, dpath, &len);
	unsigned nb = count_lines(str(s, "before"));

	fprintf(o, "<section class=\"site %s\" id=\"", manual ? "manual" : "auto");
	site_anchor(o, rel, s, occ);
	fputs("\" data-verdict=\"", o);
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
	/* the search box finds a site by its file, function, call, pattern, reason code and
	 * the code's meaning, and the text of its reason or new call */
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
	esc(o, verdict);
	fputc(' ', o);
	esc(o, rdesc);
	fputc(' ', o);
	esc(o, reason ? str(reason, "text") : str(s, "replacement"));
	fputs("\">\n<h4><span class=\"loc\">", o);
	esc(o, file);
	fprintf(o, ":%u:%lld</span> ", line, json_integer_value(json_object_get(s, "column")));
	fputs("<a class=\"src\" href=\"", o);
	esc(o, href);
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
	if (*rcode) {
		fputs(" <a class=\"badge rcode\" href=\"#rc-", o);
		anchor_part(o, rcode);
		fputs("\" title=\"", o);
		esc(o, rdesc);
		fputs("\">", o);
		esc(o, rcode);
		fputs("</a>", o);
	}
	if (*str(s, "confidence")) {
		fputs(" <span class=\"badge confidence\">confidence ", o);
		esc(o, str(s, "confidence"));
		fputs("</span>", o);
	}
	fputs(" <label class=\"rev\" title=\"kept in this browser (r)\"><input type=\"checkbox\" "
	      "class=\"reviewed\"> reviewed</label>",
	      o);
	fputs(" <a class=\"anchor\" href=\"#", o);
	site_anchor(o, rel, s, occ);
	fputs("\">#</a></h4>\n", o);
	/* a converted site's details are folded (a tree has hundreds); a manual one's open */
	fprintf(o, "<details class=\"body\"%s><summary>%s</summary>\n<dl>\n", manual ? " open" : "",
		manual ? "why it is left, and the code" : "the conversion");
	if (reason && json_is_object(reason)) {
		fputs("<dt>reason</dt><dd class=\"reason\"><code title=\"", o);
		esc(o, rdesc);
		fputs("\">", o);
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
		numbered(o, pg, file, rel, text, len, first > 3 ? first - 3 : 1,
			 first + (nb ? nb - 1 : 0) + 3, first, first + (nb ? nb - 1 : 0));
	else
		esc(o, str(s, "before"));
	fputs("</pre></div>\n", o);
	/* every converted site shows its diff; the folded call of a pair is in its
	 * partner's */
	if (ch->first)
		diff_block(o, text, len, s, ch, shift);
	fputs("</div>\n</details>\n</section>\n", o);
	free(rel);
	free(dir);
	free(dpath);
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
    ".codes{display:flex;gap:1em;flex-wrap:wrap;clear:both}.code{flex:1;min-width:30em}"
    ".code pre{tab-size:8;background:#f6f6f6;padding:.5em;overflow:auto;margin:0}"
    ".ln{color:#999}.ln.mark{color:#000;background:#fe8}.ln a{color:inherit}"
    ".del{background:#fdd}.add{background:#dfd}.hunk{color:#66a}"
    ".site.current{outline:3px solid #58f}.site.is-reviewed{opacity:.6}"
    ".rev{font-size:.85em;color:#555}details.body>summary{cursor:pointer;color:#666;"
    "font-size:.85em}.noscript{background:#ffd;padding:.4em}.keys{color:#666;font-size:.85em}"
    "kbd{border:1px solid #aaa;border-radius:3px;padding:0 3px}a.rcode{text-decoration:none;"
    "color:inherit}"
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
    "function match(s){if(st.hide&&s.classList.contains('is-reviewed'))return false;"
    "if(st.verdict&&s.dataset.verdict!==st.verdict)return false;"
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
    /* reviewed marks, kept in this browser per page (localStorage), exported as text */
    "var KEY='blkmig-reviewed:'+location.pathname,rev={};"
    "try{rev=JSON.parse(localStorage.getItem(KEY)||'{}')||{};}catch(e){rev={};}"
    "function secs(){return Array.prototype.slice.call(document.querySelectorAll('section.site'));}"
    "function count(){var n=0;for(var k in rev)if(rev[k])n++;"
    "document.getElementById('review-count').textContent=String(n);}"
    "function mark(s,on){var c=s.querySelector('input.reviewed');c.checked=on;"
    "s.classList.toggle('is-reviewed',on);if(on)rev[s.id]=1;else delete rev[s.id];"
    "try{localStorage.setItem(KEY,JSON.stringify(rev));}catch(e){}count();}"
    "secs().forEach(function(s){var c=s.querySelector('input.reviewed');"
    "if(rev[s.id]){c.checked=true;s.classList.add('is-reviewed');}"
    "c.addEventListener('change',function(){mark(s,c.checked);if(st.hide)apply(false);});});"
    "count();"
    "window.blkmigReviewed=function(){return secs().filter(function(s){return rev[s.id];})"
    ".map(function(s){return s.id+'\\t'+s.querySelector('.loc').textContent+'\\t'+"
    "s.dataset.verdict+(s.dataset.reason?' '+s.dataset.reason:'');}).join('\\n');};"
    "document.getElementById('export').addEventListener('click',function(){"
    "var a=document.createElement('a');a.download='blkmig-reviewed.txt';"
    "a.href=URL.createObjectURL(new Blob([window.blkmigReviewed()+'\\n'],{type:'text/plain'}));"
    "document.body.appendChild(a);a.click();a.remove();});"
    "var hr=document.getElementById('hide-reviewed');hr.addEventListener('change',function(){"
    "st.hide=hr.checked;apply(false);});"
    /* open/fold, next/previous keys */
    "function fold(open){secs().forEach(function(s){if(!s.hasAttribute('hidden'))"
    "s.querySelector('details.body').open=open;});}"
    "document.getElementById('expand').addEventListener('click',function(){fold(true);});"
    "document.getElementById('collapse').addEventListener('click',function(){fold(false);});"
    "var cur=null;function go(d){var v=secs().filter(function(s){return "
    "!s.hasAttribute('hidden');});"
    "if(!v.length)return;var "
    "i=v.indexOf(cur);i=i<0?(d>0?0:v.length-1):Math.min(v.length-1,Math.max(0,i+d));"
    "if(cur)cur.classList.remove('current');cur=v[i];cur.classList.add('current');"
    "if(cur.scrollIntoView)cur.scrollIntoView({block:'start'});}"
    "document.addEventListener('keydown',function(e){var t=e.target&&e.target.tagName;"
    "if(t==='INPUT'||t==='SELECT'||t==='TEXTAREA'||e.ctrlKey||e.metaKey||e.altKey)return;"
    "if(e.key==='j')go(1);else if(e.key==='k')go(-1);"
    "else if(e.key==='o'&&cur){var b=cur.querySelector('details.body');b.open=!b.open;}"
    "else if(e.key==='r'&&cur)mark(cur,!rev[cur.id]);else return;e.preventDefault();});"
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

/*
 * Where the converted file is known (migrate), the new side of each site's hunk is
 * numbered from the whole file's diff: the lines every change block above the hunk adds,
 * spatch's own insertions outside any site's change among them.  The counts from the
 * sites' edits (above) stay where it is not known.
 */
static void exact_new_side_shifts(struct page *pg, json_t *sites, const struct change *changes,
				  long *shifts)
{
	char *path = NULL;
	struct udiff_hunk *hunks = NULL;
	size_t nhunks = 0, i;
	bool known = false;
	json_t *s;

	if (!pg->src || !pg->src->converted)
		return;
	json_array_foreach(sites, i, s)
	{
		unsigned from;
		long shift = 0;

		if (!changes[i].first)
			continue;
		if (!path || strcmp(path, str(s, "file"))) {
			char *dp = disk_path(pg, str(s, "file"));
			size_t olen = 0, nlen = 0;
			const char *orig = orig_text(pg, dp, &olen);
			const char *conv = pg->src->converted(dp, &nlen, pg->src->ctx);

			free(path);
			path = xstrdup(str(s, "file"));
			free(hunks);
			hunks = NULL;
			nhunks = 0;
			known = orig && conv &&
				udiff_hunks(orig, olen, conv, nlen, &hunks, &nhunks) == 0;
			free(dp);
		}
		if (!known)
			continue;
		from = hunk_first_line(changes[i].first);
		for (size_t h = 0; h < nhunks; h++) {
			const struct udiff_hunk *k = &hunks[h];

			/* a block wholly above the hunk's first line (an insertion right before
			 * it included) */
			if (k->old_count ? k->old_first + k->old_count <= from
					 : k->old_first <= from)
				shift += (long)k->new_count - (long)k->old_count;
		}
		shifts[i] = shift;
	}
	free(hunks);
	free(path);
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
	json_t *summary = json_object_get(report, "summary");
	json_t *nscanned = json_object_get(summary, "files_scanned");
	json_t *nskipped = json_object_get(summary, "files_skipped");
	size_t i;
	unsigned *occ, *firsts;
	struct change *changes;
	long *shifts;
	char *ru;

	pg.src = src;
	pg.json_root = json_string_value(json_object_get(report, "root"));
	pg.source_url = src ? src->source_url : NULL;
	pg.root = report_root(src && src->root ? src->root : pg.json_root);
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
	esc(o, pg.json_root ? pg.json_root : pg.root);
	fputs("</code></p>\n<noscript><p class=\"noscript\">This page works without JavaScript as "
	      "a plain list of every site; the filters, the j/k keys and the reviewed marks "
	      "need it.</p></noscript>\n",
	      o);

	fputs("<h2>Totals</h2>\n<table id=\"totals\" class=\"totals\"><tbody>\n", o);
	/* schema 2 lists the files without a legacy call only with --list-skipped */
	fprintf(o, "<tr><th>files scanned</th><td data-key=\"files\">%lld</td></tr>\n",
		json_is_integer(nscanned) ? json_integer_value(nscanned)
					  : (long long)json_array_size(files));
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
			skipped += !json_is_integer(nskipped);
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
	if (json_is_integer(nskipped))
		skipped = (long)json_integer_value(nskipped);
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

	/* what each reason code of the page means; a row is a filter like the tables' */
	if (by_reason.n) {
		fputs("<h2>Reason codes</h2>\n<table id=\"reason-codes\"><thead><tr><th>code</th>"
		      "<th>meaning</th><th>sites</th></tr></thead><tbody>\n",
		      o);
		for (i = 0; i < by_reason.n; i++) {
			fputs("<tr id=\"rc-", o);
			anchor_part(o, by_reason.names[i]);
			fputs("\" data-filter=\"reason\" data-value=\"", o);
			esc(o, by_reason.names[i]);
			fputs("\" tabindex=\"0\" title=\"show only these sites\"><td><code>", o);
			esc(o, by_reason.names[i]);
			fputs("</code></td><td>", o);
			esc(o, bm_reason_description(by_reason.names[i]));
			fprintf(o, "</td><td class=\"num\">%ld</td></tr>\n", by_reason.manuals[i]);
		}
		fputs("</tbody></table>\n", o);
	}

	fputs("<h2>Sites</h2>\n<div id=\"filter\">", o);
	options(o, "verdict", "verdict", &by_verdict);
	options(o, "reason", "reason", &by_reason);
	options(o, "dir", "directory", &by_dir);
	options(o, "call", "call", &by_call);
	fputs("<input type=\"search\" id=\"search\" placeholder=\"search file, function, "
	      "reason code or words...\"> <label><input type=\"checkbox\" id=\"manual-only\"> "
	      "manual only</label> <label><input type=\"checkbox\" id=\"hide-reviewed\"> hide "
	      "reviewed</label> <button id=\"clear\" type=\"button\">clear filters</button> "
	      "(<span id=\"shown-count\">",
	      o);
	fprintf(o,
		"%ld</span> shown)<br><span id=\"review-count\">0</span> of %ld reviewed "
		"<button id=\"export\" type=\"button\" title=\"the reviewed sites, one anchor a "
		"line\">export reviewed</button> <button id=\"expand\" type=\"button\">open "
		"all</button> <button id=\"collapse\" type=\"button\">fold all</button> "
		"<span class=\"keys\">keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous site, "
		"<kbd>o</kbd> open or fold it, <kbd>r</kbd> mark it reviewed</span></div>\n",
		autos + manuals, autos + manuals);
	occ = xcalloc(json_array_size(sites) + 1, sizeof(*occ));
	firsts = xcalloc(json_array_size(sites) + 1, sizeof(*firsts));
	shifts = xcalloc(json_array_size(sites) + 1, sizeof(*shifts));
	/* each site's first line in the original, and how many lines the conversions above
	 * it in its file add (the new side's line numbers of its hunk) */
	changes = xcalloc(json_array_size(sites) + 1, sizeof(*changes));
	json_array_foreach(sites, i, s)
	{
		char *dp = disk_path(&pg, str(s, "file"));
		size_t len = 0;
		const char *t = orig_text(&pg, dp, &len);

		size_t clen = 0;
		const char *conv = pg.src && pg.src->converted && t
				       ? pg.src->converted(dp, &clen, pg.src->ctx)
				       : NULL;

		firsts[i] = before_line(t, len, s);
		changes[i] = site_change(t, len, s, firsts[i], conv, clen);
		free(dp);
	}
	/* the lines the conversions above a site's change add: every edit above it counted
	 * once (sites share edits: a callback two sites insert), a rewrite without edits
	 * (spatch's) by its lines */
	json_array_foreach(sites, i, s)
	{
		json_t **seen = NULL;
		size_t nseen = 0, len = 0;
		char *dp;
		const char *text;

		if (!changes[i].first)
			continue;
		dp = disk_path(&pg, str(s, "file"));
		text = orig_text(&pg, dp, &len);
		free(dp);
		for (size_t k = 0; k < json_array_size(sites); k++) {
			json_t *t = json_array_get(sites, k), *e;
			size_t x;

			/* every converted site's edits, the folded half of a pair's too */
			if (k == i || strcmp(str(t, "file"), str(s, "file")) ||
			    strcmp(str(t, "verdict"), "auto"))
				continue;
			if (changes[k].first && !changes[k].from_edits &&
			    changes[k].rs < changes[i].rs)
				shifts[i] += (long)count_lines(changes[k].new) -
					     (long)count_lines(changes[k].old);
			/* the lines the layout added above (once for sites with one change) */
			if (changes[k].first && changes[k].from_edits && changes[k].laid_out &&
			    changes[k].rs < changes[i].rs) {
				bool again = false;

				for (size_t y = 0; y < k && !again; y++)
					again = changes[y].first && changes[y].from_edits &&
						changes[y].rs == changes[k].rs &&
						!strcmp(str(json_array_get(sites, y), "file"),
							str(s, "file"));
				if (!again)
					shifts[i] += changes[k].laid_out;
			}
			json_array_foreach(json_object_get(t, "edits"), x, e)
			{
				size_t a = (size_t)json_integer_value(json_object_get(e, "start"));
				size_t z = (size_t)json_integer_value(json_object_get(e, "end"));
				bool dup = false;

				/* above the change: an insertion where it starts is in it */
				if (strcmp(str(e, "file"), str(s, "file")) || a > z || z > len ||
				    z > changes[i].rs || a >= changes[i].rs)
					continue;
				for (size_t y = 0; y < nseen && !dup; y++)
					dup = json_equal(seen[y], e);
				if (dup)
					continue;
				seen = realloc(seen, (nseen + 1) * sizeof(*seen));
				if (!seen)
					abort();
				seen[nseen++] = e;
				shifts[i] += (long)count_lines(str(e, "text"));
				for (size_t b = a; b < z; b++)
					shifts[i] -= text[b] == '\n';
			}
		}
		free(seen);
	}
	exact_new_side_shifts(&pg, sites, changes, shifts);
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
		site(o, &pg, s, n, firsts[i], &changes[i], shifts[i]);
	}
	free(occ);
	json_array_foreach(sites, i, s)
	{
		free(changes[i].old);
		free(changes[i].new);
	}
	free(changes);
	free(firsts);
	free(shifts);
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
