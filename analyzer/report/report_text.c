/*
 * report_text.c - the human-readable report: sites grouped by file (with
 * how well each file parsed), then a summary: sites, auto, manual by
 * reason.  For verify: the findings, then their count.
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

static void file_header(FILE *out, const struct bm_file *f)
{
	fprintf(out, "%s: parse %s, %u error(s), %u warning(s)%s%s%s\n", f->path,
		bm_parse_status_name(f->status), f->errors, f->warnings,
		f->used_model ? ", 2.6.24 model headers" : "", f->reason ? "; " : "",
		f->reason ? f->reason : "");
}

static int report_verify(const struct bm_run *run, FILE *out)
{
	size_t by_kind[3] = {0};

	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];
		bool any = false;

		for (size_t k = 0; k < run->nfindings; k++)
			any |= !strcmp(run->findings[k].file, f->path);
		if (!any && f->status != BM_PARSE_FAILED)
			continue;
		file_header(out, f);
		for (size_t k = 0; k < run->nfindings; k++) {
			const struct bm_finding *x = &run->findings[k];

			if (strcmp(x->file, f->path))
				continue;
			fprintf(out, "  %s:%u:%u: %s: [%s] %s\n", x->file, x->line, x->column,
				x->function[0] ? x->function : "(file scope)",
				bm_finding_kind_name(x->kind), x->message);
			by_kind[x->kind]++;
		}
	}
	fprintf(out,
		"\nsummary: %zu file(s), %zu finding(s): %zu legacy call(s), %zu race(s) "
		"(__blk_end_request without the lock), %zu deadlock(s) (blk_end_request* "
		"with the lock held)\n",
		run->nfiles, run->nfindings, by_kind[BM_FIND_LEGACY_CALL],
		by_kind[BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK],
		by_kind[BM_FIND_UNLOCKED_VARIANT_WITH_LOCK]);
	return ferror(out) ? -1 : 0;
}

int bm_report_text(const struct bm_run *run, FILE *out)
{
	size_t nauto = 0, nmanual = 0, files_with = 0;
	struct {
		const char *code;
		size_t n;
	} reasons[32];
	size_t nreasons = 0;

	if (!strcmp(run->command, "verify"))
		return report_verify(run, out);
	for (size_t i = 0; i < run->nfiles; i++) {
		const struct bm_file *f = &run->files[i];

		if (!f->nsites && f->status != BM_PARSE_FAILED)
			continue;
		files_with += f->nsites > 0;
		file_header(out, f);
		for (size_t k = 0; k < run->nsites; k++) {
			const struct bm_site *s = &run->sites[k];

			if (strcmp(s->file, f->path))
				continue;
			fprintf(out, "  %s:%u:%u: %s() %s: %s %s [%s]", s->file, s->line, s->column,
				s->function[0] ? s->function : "(file scope)", s->call,
				s->verdict == BM_AUTO ? "auto" : "MANUAL",
				bm_pattern_name(s->pattern), s->typed ? "typed" : "untyped");
			if (s->verdict == BM_MANUAL)
				fprintf(out, " reason %s: %s", s->reason_code, s->reason_text);
			fputc('\n', out);
			fprintf(out, "    lock: %s", bm_lock_name(s->lock));
			for (size_t e = 0; e < s->lock_evidence.n; e++)
				fprintf(out, "%s%s", e ? "; " : " (", s->lock_evidence.v[e]);
			fprintf(out, "%s\n", s->lock_evidence.n ? ")" : "");
			if (s->uptodate_expr[0])
				fprintf(out, "    uptodate: %s (%s) -> error %s\n",
					s->uptodate_expr, bm_uptodate_class_name(s->uptodate_class),
					s->error_expr[0] ? s->error_expr : "?");
			if (s->bytes_expr[0] || s->bytes_origin[0])
				fprintf(out, "    bytes: %s (%s)\n",
					s->bytes_expr[0] ? s->bytes_expr : "?", s->bytes_origin);
			if (s->verdict == BM_AUTO && s->replacement[0]) {
				fprintf(out, "    replacement: %s (confidence %s)\n",
					s->replacement, s->confidence);
				if (s->nedits) {
					indent_block(out, "    - ", s->before);
					indent_block(out, "    + ", s->after);
				}
			}
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
	fprintf(out, "%s\n", nreasons ? ")" : "");
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
	return ferror(out) ? -1 : 0;
}
