/*
 * rewrite.h - text-edit helpers (rewrite.c) and the per-site analyses that
 * produce replacement text: uptodate meaning (uptodate_flow.c) and byte
 * counts (bytes_flow.c).
 */
#ifndef BLKMIG_REWRITE_H
#define BLKMIG_REWRITE_H

#include "analysis.h"

size_t stmt_end(const struct tunit *t, const struct func *f, int stmt);
void stmt_line_range(const struct tunit *t, size_t start, size_t end, size_t *a, size_t *b);
char *line_indent(const struct tunit *t, size_t off);
void edit_add(struct bm_site *s, const char *file, size_t start, size_t end, const char *text);
void edit_remove_stmt(struct bm_site *s, const struct tunit *t, const struct func *f, int stmt);
void edit_remove_stmt_paragraph(struct bm_site *s, const struct tunit *t, const struct func *f,
				int stmt);
void site_before_after(struct bm_site *s, const struct tunit *t);
bool word_in(const char *hay, size_t len, const char *word);
char *normalize_ws(const char *s);
bool is_simple_operand(const char *s);
bool has_side_effects(const char *s);
bool has_side_effects_in(struct tunit *t, const char *s); /* also through macros */
bool macro_call_is_boolean(struct tunit *t, const char *s);
/* one evaluation per call: the local a macro request argument is read into, or NULL */
char *rq_once_local(const struct tunit *t, const char *rq, size_t start, size_t end,
		    size_t *stmt_to);
char *rq_once_block(const struct tunit *t, size_t start, const char *local, const char *rq,
		    const char *call);

/* uptodate_flow.c */
struct uptodate {
	enum bm_uptodate_class cls;
	char *expr;	  /* as written */
	char *error_expr; /* E(u); NULL when unknown */
	int param;	  /* index of f's parameter for BM_UT_WRAPPER, else -1 */
	char *why;	  /* for unknown */
};
void uptodate_classify(struct ctx *cx, struct func *f, int n, struct uptodate *u);
void uptodate_free(struct uptodate *u);

/* bytes_flow.c */
struct bytes {
	char *expr;   /* byte count for the new call; NULL when unknown */
	char *origin; /* how it was derived */
	bool whole;   /* the whole request (blk_rq_bytes) */
	char *why;
};
void bytes_from_sectors(struct ctx *cx, struct func *f, int n, const char *rq, struct bytes *b);
void bytes_from_bytes(struct ctx *cx, struct func *f, int n, struct bytes *b);
void bytes_free(struct bytes *b);

/* lockctx.c: a queue-lock operation spelled at source offset off */
bool stmt_lock_op(struct ctx *cx, struct tunit *t, const struct func *f, int n, int *acquire);

/* wrappers.c */
void wrappers_resolve(struct ctx *cx);

#endif
