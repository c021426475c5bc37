/*
 * flow.h - the per-site analyses of facts/ that produce replacement text: what an
 * expression's text says (expr_text.c), the meaning of an uptodate argument
 * (uptodate_flow.c), byte counts (bytes_flow.c), and a queue-lock operation
 * (lockctx.c).  convert/ reads them through rewrite.h.
 */
#ifndef BLKMIG_FLOW_H
#define BLKMIG_FLOW_H

#include "analysis.h"

/* expr_text.c */
bool word_in(const char *hay, size_t len, const char *word);
char *normalize_ws(const char *s);
bool is_simple_operand(const char *s);
bool has_side_effects(const char *s);
bool has_side_effects_in(struct tunit *t, const char *s); /* also through macros */
bool macro_call_is_boolean(struct tunit *t, const char *s);

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

#endif
