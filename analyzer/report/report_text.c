/*
 * report_text.c - the human-readable report in the form compilers print
 * (`FILE:LINE:COL: warning: MESSAGE [reason]`), so editors, CI annotators
 * and make users can jump to each site: one line per site (note for a
 * conversion, warning for manual review), file-level lines for parse
 * problems and files fix/migrate left untouched, each followed by indented
 * detail lines (lock evidence, uptodate, bytes, the rewrite), then a
 * summary.  For verify: one error (race, deadlock) or warning (legacy call)
 * per finding, then their count.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_write.h"
#include "report_text.h"
#include "util.h"

static void indent_block(FILE *out, const char *prefix, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		fprintf(out, "%s%.*s\n", prefix, (int)n, p);
		p += n + (e ? 1 : 0);
	}
}

/* A parse error of the file, as a note that keeps it in compiler form. */
static void parse_notes(FILE *out, const struct bm_file *f)
{
	for (size_t i = 0; i < f->diagnostics.n; i++) {
		const char *d = f->diagnostics.v[i], *e = strstr(d, ": error: ");

		if (e)
			fprintf(out, "%.*s: note: parse error: %s\n", (int)(e - d), d, e + 9);
		else
			fprintf(out, "%s: note: %s\n", f->path, d);
	}
}

static void file_left_line(FILE *out, const char *path, unsigned line, const char *text,
			   const char *code)
{
	fprintf(out, "%s:%u:1: warning: file left untouched: %s [%s]\n", path, line ? line : 1,
		text ? text : "", code);
}

/*
 * File-level lines: a file that failed to parse (error), parsed with errors
 * (warning, with its first diagnostics), or was left untouched by fix/migrate.
 */
static void file_lines(FILE *out, const struct bm_file *f, unsigned first_line)
{
	if (f->status == BM_PARSE_FAILED)
		fprintf(out, "%s:%u:1: error: not parsed: %s [%s]\n", f->path,
			first_line ? first_line : 1, f->reason ? f->reason : "",
			f->fail_code ? f->fail_code : "unparsed");
	else if (f->status == BM_PARSE_PARTIAL)
		fprintf(out, "%s:%u:1: warning: parsed with %u error(s)%s [unparsed]\n", f->path,
			first_line ? first_line : 1, f->errors,
			f->used_model ? " (2.6.24 model headers)" : "");
	if (f->status == BM_PARSE_PARTIAL)
		parse_notes(out, f);
	if (f->outcome && !strcmp(f->outcome, "left_untouched"))
		file_left_line(out, f->path, first_line, f->outcome_text,
			       f->outcome_code ? f->outcome_code : "unparsed");
}

static unsigned first_site_line(const struct bm_run *run, const char *path)
{
	for (size_t k = 0; k < run->nsites; k++)
		if (!strcmp(run->sites[k].file, path))
			return run->sites[k].line;
	return 0;
}

void bm_text_file_left(FILE *out, const struct bm_run *run, const char *path, const char *text,
		       const char *code)
{
	file_left_line(out, path, first_site_line(run, path), text, code);
}

/* A legacy call left and an old bug the conversion kept are warnings; what the conversion
 * made fails (error), as in the exit status. */
static const char *finding_level(enum bm_finding_kind k)
{
	return k == BM_FIND_LEGACY_CALL || k == BM_FIND_PREEXISTING_LOCK_BUG ||
		       k == BM_FIND_PREEXISTING_UNENDED
		   ? "warning"
		   : "error";
}

static int report_verify(const struct bm_run *run, FILE *out)
{
	size_t by_kind[BM_FIND_KIND_COUNT] = {0};

	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];

		if (f->status == BM_PARSE_FAILED || f->status == BM_PARSE_PARTIAL)
			file_lines(out, f, 1);
		for (size_t k = 0; k < run->nfindings; k++) {
			const struct bm_finding *x = &run->findings[k];

			if (strcmp(x->file, f->path))
				continue;
			fprintf(out, "%s:%u:%u: %s: %s%s%s: %s [%s]\n", x->file, x->line, x->column,
				finding_level(x->kind), x->function[0] ? "in " : "",
				x->function[0] ? x->function : "at file scope",
				x->function[0] ? "()" : "", x->message,
				bm_finding_kind_name(x->kind));
			by_kind[x->kind]++;
		}
	}
	fprintf(out,
		"\nsummary: %zu file(s), %zu finding(s): %zu legacy call(s), %zu race(s) "
		"(__blk_end_request without the lock), %zu deadlock(s) (blk_end_request* "
		"with the lock held), %zu old lock bug(s) kept (preexisting_lock_bug)\n",
		run->nfiles, run->nfindings, by_kind[BM_FIND_LEGACY_CALL],
		by_kind[BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK],
		by_kind[BM_FIND_UNLOCKED_VARIANT_WITH_LOCK], by_kind[BM_FIND_PREEXISTING_LOCK_BUG]);
	if (by_kind[BM_FIND_PREEXISTING_UNENDED])
		fprintf(out,
			"         %zu request(s) the original never ended "
			"(preexisting_unended_request), ended by the conversion\n",
			by_kind[BM_FIND_PREEXISTING_UNENDED]);
	return ferror(out) ? -1 : 0;
}

/* ---- a site left for a human: the warning and a note per located evidence ---------- */

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The text of line LINE of FILE (not NUL-terminated, length in *n), or NULL.  The last
 * file read is kept: a site's notes and the sites after it mostly name the same file. */
static const char *source_line(const char *file, unsigned line, size_t *n)
{
	static char *path, *data;
	static size_t len;
	char err[256];
	const char *p, *end;

	if (!path || strcmp(path, file)) {
		free(path);
		free(data);
		path = xstrdup(file);
		data = NULL;
		len = 0;
		if (read_whole_file(file, &data, &len, err, sizeof(err)) < 0)
			data = NULL;
	}
	if (!data || !line)
		return NULL;
	p = data;
	end = data + len;
	for (unsigned l = 1; l < line && p < end; l++) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return NULL;
		p++;
	}
	if (p >= end)
		return NULL;
	*n = strcspn(p, "\n");
	if (*n > (size_t)(end - p))
		*n = (size_t)(end - p);
	return p;
}

/* Column (1-based) of the identifier WORD in line LINE of FILE, else of the line's first
 * non-blank character, else 1. */
static unsigned note_column(const char *file, unsigned line, const char *word, size_t wlen)
{
	size_t n, i;
	const char *t = source_line(file, line, &n);

	if (!t)
		return 1;
	for (i = 0; wlen && i + wlen <= n; i++)
		if (!memcmp(t + i, word, wlen) && (i == 0 || !ident_char(t[i - 1])) &&
		    (i + wlen == n || !ident_char(t[i + wlen])))
			return (unsigned)i + 1;
	for (i = 0; i < n && (t[i] == ' ' || t[i] == '\t'); i++)
		;
	return i < n ? (unsigned)i + 1 : 1;
}

/* The name the evidence gives right before a location at AT: "blk_init_queue at x.c:9",
 * "end_that_request_last (line 38)", "pairs_kick() at x.c:9". */
static void name_before(const char *seg, const char *at, const char **word, size_t *wlen)
{
	const char *p = at;

	while (p > seg && (p[-1] == ' ' || p[-1] == '('))
		p--;
	if (p - seg >= 3 && !strncmp(p - 2, "at", 2) && !ident_char(p[-3]))
		for (p -= 2; p > seg && p[-1] == ' ';)
			p--;
	if (p - seg >= 2 && p[-1] == ')' && p[-2] == '(')
		p -= 2;
	*wlen = 0;
	while (p > seg && ident_char(p[-1])) {
		p--;
		(*wlen)++;
	}
	*word = p;
}

struct note_seen {
	char *v[64];
	size_t n;
};

/* One note per location in SEG[0..len): "PATH:LINE" (PATH with a '.' and a letter) or
 * "line N" (the site's file); the note says PREFIX and SEG. */
static void segment_notes(FILE *out, const struct bm_site *s, const char *prefix, const char *seg,
			  size_t len, struct note_seen *seen)
{
	for (size_t i = 0; i < len; i++) {
		const char *file = NULL, *at = NULL;
		size_t flen = 0;
		unsigned long line = 0;
		char *end, *key, *fname;

		if (!strncmp(seg + i, "line ", 5) && (i == 0 || !ident_char(seg[i - 1])) &&
		    i + 5 < len && isdigit((unsigned char)seg[i + 5])) {
			line = strtoul(seg + i + 5, &end, 10);
			file = s->file;
			flen = strlen(s->file);
			at = seg + i;
		} else if (seg[i] == ':' && i + 1 < len && isdigit((unsigned char)seg[i + 1]) &&
			   i && (ident_char(seg[i - 1]))) {
			size_t b = i;
			bool dot = false, alpha = false;

			while (b > 0 && (ident_char(seg[b - 1]) || strchr("./+-", seg[b - 1]))) {
				dot |= seg[b - 1] == '.';
				alpha |= isalpha((unsigned char)seg[b - 1]) != 0;
				b--;
			}
			if (!dot || !alpha)
				continue;
			line = strtoul(seg + i + 1, &end, 10);
			file = seg + b;
			flen = i - b;
			at = seg + b;
		} else {
			continue;
		}
		i = (size_t)(end - seg);
		if (!line || line > 10000000)
			continue;
		fname = xstrndup(file, flen);
		key = xasprintf("%s:%lu", fname, line);
		bool dup = (!strcmp(fname, s->file) && line == s->line);

		for (size_t k = 0; k < seen->n && !dup; k++)
			dup = !strcmp(seen->v[k], key);
		if (!dup) {
			const char *word;
			size_t wlen;

			name_before(seg, at, &word, &wlen);
			fprintf(out, "%s:%lu:%u: note: %s%.*s\n", fname, line,
				note_column(fname, (unsigned)line, word, wlen), prefix, (int)len,
				seg);
			if (seen->n < sizeof(seen->v) / sizeof(seen->v[0]))
				seen->v[seen->n++] = key;
			else
				free(key);
		} else {
			free(key);
		}
		free(fname);
	}
}

void bm_text_manual_site(FILE *out, const struct bm_site *s)
{
	const char *fn = s->function && s->function[0] ? s->function : "(file scope)";
	const char *r = s->reason_text ? s->reason_text : "";
	struct note_seen seen = {{0}, 0};
	char *prefix;

	fprintf(out, "%s:%u:%u: warning: %s in %s%s left for manual review: %s [%s]\n", s->file,
		s->line, s->column, s->call, fn, s->function && s->function[0] ? "()" : "", r,
		s->reason_code ? s->reason_code : "unknown");
	/* the lock's evidence, an item at a time */
	prefix = xasprintf("lock %s: ", bm_lock_name(s->lock));
	for (size_t e = 0; e < s->lock_evidence.n; e++)
		segment_notes(out, s, prefix, s->lock_evidence.v[e], strlen(s->lock_evidence.v[e]),
			      &seen);
	free(prefix);
	/* the reason's, a clause at a time (split at "; " and ": " outside quotes) */
	for (size_t a = 0, i = 0, q = 0;; i++) {
		bool at_end = !r[i];

		if (!at_end && (r[i] == '\'' || r[i] == '`')) {
			if (!q && (i == 0 || !ident_char(r[i - 1])))
				q = (size_t)r[i]; /* an opening quote, not an apostrophe */
			else if (q == (size_t)r[i] && !ident_char(r[i + 1]))
				q = 0;
		}
		if (at_end || (!q && (r[i] == ';' || r[i] == ':') && r[i + 1] == ' ')) {
			if (i > a)
				segment_notes(out, s, "", r + a, i - a, &seen);
			if (at_end)
				break;
			a = i + 2;
			i++;
		}
	}
	for (size_t k = 0; k < seen.n; k++)
		free(seen.v[k]);
}

static void site_lines(FILE *out, const struct bm_site *s)
{
	const char *fn = s->function[0] ? s->function : "(file scope)";

	/* a converted site is no problem: a remark, as clang says of what went well (a
	 * note belongs to the warning before it, issue 23) */
	if (s->verdict == BM_AUTO)
		fprintf(out, "%s:%u:%u: remark: %s in %s%s -> %s (lock %s, confidence %s%s) [%s]\n",
			s->file, s->line, s->column, s->call, fn, s->function[0] ? "()" : "",
			s->replacement, bm_lock_name(s->lock), s->confidence,
			s->typed ? "" : ", untyped", bm_pattern_name(s->pattern));
	else
		bm_text_manual_site(out, s);
	fprintf(out, "    pattern %s%s; lock: %s", bm_pattern_name(s->pattern),
		s->typed ? "" : " (untyped: parse errors in the function)", bm_lock_name(s->lock));
	for (size_t e = 0; e < s->lock_evidence.n; e++)
		fprintf(out, "%s%s", e ? "; " : " (", s->lock_evidence.v[e]);
	fprintf(out, "%s\n", s->lock_evidence.n ? ")" : "");
	if (s->uptodate_expr[0])
		fprintf(out, "    uptodate: %s (%s%s%s) -> error %s\n", s->uptodate_expr,
			bm_uptodate_class_name(s->uptodate_class),
			s->uptodate_origin && s->uptodate_origin[0] ? ": " : "",
			s->uptodate_origin ? s->uptodate_origin : "",
			s->error_expr[0] ? s->error_expr : "?");
	if (s->bytes_expr[0] || s->bytes_origin[0])
		fprintf(out, "    bytes: %s (%s)\n", s->bytes_expr[0] ? s->bytes_expr : "?",
			s->bytes_origin);
	if (s->parse_note)
		fprintf(out, "    parse errors: %s\n", s->parse_note);
	if (s->verdict == BM_AUTO && s->after && s->after[0] && s->before &&
	    s->replacement[0] != '(') {
		indent_block(out, "    - ", s->before);
		indent_block(out, "    + ", s->after);
	}
}

int bm_report_text(const struct bm_run *run, FILE *out)
{
	size_t nauto = 0, nmanual = 0, files_with = 0, left = 0, races_fixed = 0;
	struct {
		const char *code;
		size_t n;
	} reasons[32], fileleft[32];
	size_t nreasons = 0, nfileleft = 0;

	if (!strcmp(run->command, "verify"))
		return report_verify(run, out);
	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];

		if (!f->nsites && f->status != BM_PARSE_FAILED)
			continue;
		files_with += f->nsites > 0;
		file_lines(out, f, first_site_line(run, f->path));
		if (f->outcome && !strcmp(f->outcome, "left_untouched")) {
			const char *code = f->outcome_code ? f->outcome_code : "unparsed";
			size_t r = 0;

			left++;
			while (r < nfileleft && strcmp(fileleft[r].code, code))
				r++;
			if (r == nfileleft && nfileleft < 32) {
				fileleft[nfileleft].code = code;
				fileleft[nfileleft++].n = 0;
			}
			if (r < nfileleft)
				fileleft[r].n++;
		}
		for (size_t k = 0; k < run->nsites; k++) {
			const struct bm_site *s = &run->sites[k];

			if (strcmp(s->file, f->path))
				continue;
			site_lines(out, s);
			for (size_t e = 0; s->verdict == BM_AUTO && e < s->lock_evidence.n; e++)
				races_fixed +=
				    !strncmp(s->lock_evidence.v[e], "old_lock_bug_fixed:", 19);
			if (s->verdict == BM_AUTO) {
				nauto++;
			} else {
				size_t r = 0;

				nmanual++;
				while (r < nreasons && strcmp(reasons[r].code, s->reason_code))
					r++;
				if (r == nreasons && nreasons < 32) {
					reasons[nreasons].code = s->reason_code;
					reasons[nreasons++].n = 0;
				}
				if (r < nreasons)
					reasons[r].n++;
			}
		}
	}
	fprintf(out,
		"\nsummary: %zu file(s) scanned, %zu with sites; %zu site(s): %zu auto, %zu manual",
		run->nfiles, files_with, run->nsites, nauto, nmanual);
	for (size_t r = 0; r < nreasons; r++)
		fprintf(out, "%s%s %zu", r ? ", " : " (", reasons[r].code, reasons[r].n);
	fprintf(out, "%s", nreasons ? ")" : "");
	if (races_fixed)
		fprintf(out, "; %zu old lock race(s) fixed by blk_end_request (old_lock_bug_fixed)",
			races_fixed);
	if (left) {
		fprintf(out, "; %zu file(s) left untouched", left);
		for (size_t r = 0; r < nfileleft; r++)
			fprintf(out, "%s%s %zu", r ? ", " : " (", fileleft[r].code, fileleft[r].n);
		fputc(')', out);
	}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* One line per site (or finding), for scripts and golden tests. */
int bm_report_brief(const struct bm_run *run, FILE *out)
{
	if (!strcmp(run->command, "verify")) {
		for (size_t k = 0; k < run->nfindings; k++) {
			const struct bm_finding *x = &run->findings[k];

			fprintf(out, "%s:%u:%u %s %s\n", x->file, x->line, x->column,
				x->function[0] ? x->function : "-", bm_finding_kind_name(x->kind));
		}
		return ferror(out) ? -1 : 0;
	}
	for (size_t k = 0; k < run->nsites; k++) {
		const struct bm_site *s = &run->sites[k];

		fprintf(out, "%s:%u:%u %s %s %s %s lock=%s uptodate=%s", s->file, s->line,
			s->column, s->function[0] ? s->function : "-", s->call,
			s->verdict == BM_AUTO ? "auto" : "manual", bm_pattern_name(s->pattern),
			bm_lock_name(s->lock), bm_uptodate_class_name(s->uptodate_class));
		if (s->verdict == BM_MANUAL)
			fprintf(out, " reason=%s", s->reason_code);
		else if (s->replacement[0] && s->replacement[0] != '(')
			fprintf(out, " new=%s", s->replacement);
		fputc('\n', out);
	}
	/* scan's warnings (preexisting_lock_bug), after the sites */
	for (size_t k = 0; k < run->nfindings; k++) {
		const struct bm_finding *x = &run->findings[k];

		fprintf(out, "%s:%u:%u %s %s\n", x->file, x->line, x->column,
			x->function[0] ? x->function : "-", bm_finding_kind_name(x->kind));
	}
	return ferror(out) ? -1 : 0;
}
