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
#include <string.h>

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

/*
 * File-level lines: a file that failed to parse (error), parsed with errors
 * (warning, with its first diagnostics), or was left untouched by fix/migrate.
 */
static void file_lines(FILE *out, const struct bm_file *f, unsigned first_line)
{
	if (f->status == BM_PARSE_FAILED)
		fprintf(out, "%s:%u:1: error: not parsed: %s [unparsed]\n", f->path,
			first_line ? first_line : 1, f->reason ? f->reason : "");
	else if (f->status == BM_PARSE_PARTIAL)
		fprintf(out, "%s:%u:1: warning: parsed with %u error(s)%s [unparsed]\n", f->path,
			first_line ? first_line : 1, f->errors,
			f->used_model ? " (2.6.24 model headers)" : "");
	if (f->status == BM_PARSE_PARTIAL)
		parse_notes(out, f);
	if (f->outcome && !strcmp(f->outcome, "left_untouched"))
		fprintf(out, "%s:%u:1: warning: file left untouched: %s [%s]\n", f->path,
			first_line ? first_line : 1, f->outcome_text ? f->outcome_text : "",
			f->outcome_code ? f->outcome_code : "unparsed");
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

static void site_lines(FILE *out, const struct bm_site *s)
{
	const char *fn = s->function[0] ? s->function : "(file scope)";

	if (s->verdict == BM_AUTO)
		fprintf(out, "%s:%u:%u: note: %s in %s%s -> %s (lock %s, confidence %s%s) [%s]\n",
			s->file, s->line, s->column, s->call, fn, s->function[0] ? "()" : "",
			s->replacement, bm_lock_name(s->lock), s->confidence,
			s->typed ? "" : ", untyped", bm_pattern_name(s->pattern));
	else
		fprintf(out, "%s:%u:%u: warning: %s in %s%s left for manual review: %s [%s]\n",
			s->file, s->line, s->column, s->call, fn, s->function[0] ? "()" : "",
			s->reason_text ? s->reason_text : "", s->reason_code);
	fprintf(out, "    pattern %s%s; lock: %s", bm_pattern_name(s->pattern),
		s->typed ? "" : " (untyped: parse errors in the function)", bm_lock_name(s->lock));
	for (size_t e = 0; e < s->lock_evidence.n; e++)
		fprintf(out, "%s%s", e ? "; " : " (", s->lock_evidence.v[e]);
	fprintf(out, "%s\n", s->lock_evidence.n ? ")" : "");
	if (s->uptodate_expr[0])
		fprintf(out, "    uptodate: %s (%s) -> error %s\n", s->uptodate_expr,
			bm_uptodate_class_name(s->uptodate_class),
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
		unsigned first_line = 0;

		if (!f->nsites && f->status != BM_PARSE_FAILED)
			continue;
		files_with += f->nsites > 0;
		for (size_t k = 0; k < run->nsites && !first_line; k++)
			if (!strcmp(run->sites[k].file, f->path))
				first_line = run->sites[k].line;
		file_lines(out, f, first_line);
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
