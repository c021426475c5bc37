/*
 * rewrite.h - text-edit helpers (rewrite.c) and the wrappers' conversion
 * (wrappers.c); the per-site analyses that produce replacement text (uptodate
 * meaning, byte counts) are facts/, declared in flow.h.
 */
#ifndef BLKMIG_REWRITE_H
#define BLKMIG_REWRITE_H

#include "analysis.h"
#include "flow.h"

size_t stmt_end(const struct tunit *t, const struct func *f, int stmt);
void stmt_line_range(const struct tunit *t, size_t start, size_t end, size_t *a, size_t *b);
char *line_indent(const struct tunit *t, size_t off);
void edit_add(struct bm_site *s, const char *file, size_t start, size_t end, const char *text);
void edit_remove_stmt(struct bm_site *s, const struct tunit *t, const struct func *f, int stmt);
void edit_remove_stmt_paragraph(struct bm_site *s, const struct tunit *t, const struct func *f,
				int stmt);
void site_before_after(struct bm_site *s, const struct tunit *t);
/* one evaluation per call: the local a macro request argument is read into, or NULL */
char *rq_once_local(const struct tunit *t, const char *rq, size_t start, size_t end,
		    size_t *stmt_to);
char *rq_once_block(const struct tunit *t, size_t start, const char *local, const char *rq,
		    const char *call);

/* wrappers.c */
void wrappers_resolve(struct ctx *cx);

#endif
