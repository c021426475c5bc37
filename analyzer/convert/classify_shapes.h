/*
 * classify_shapes.h - what the files of the conversion catalogue share.
 *
 * Shapes outside the catalogue's straight paths, each proven in its own file and
 * rewritten by the catalogue:
 *   classify_state.c     the data completion in one state of a driver's
 *                        state machine, the final step in the next state;
 *   classify_dataonly.c  data completions whose result is ignored and whose
 *                        final step runs later (another interrupt, a label);
 *   classify_ownbios.c   a final step after the driver's own loop ended the
 *                        request's bios (cciss, cpqarray);
 *   classify_unended.c   a data completion of a request the old code never
 *                        ends (a loop over elv_next_request() that never ends).
 * The catalogue, by shape family (second half of this header):
 *   classify.c           what the shapes share: sites, housekeeping, the new
 *                        call's edits, work moved into a callback;
 *   classify_lock.c      the new call chosen by the old call's lock contract;
 *   classify_endreq.c    end_request sites;
 *   classify_pair.c      first/last pairs (classify_pair_scan.c reads the
 *                        statements between them, classify_leftover.c the
 *                        partial completions with a leftover,
 *                        classify_onearg.c the pre-2.6.16 final step);
 *   classify_lastonly.c  last-only sites;
 *   classify_func.c      the per-function driver and classify_all();
 *   classify_fallback.c  calls found by their tokens where no parse saw them.
 */
#ifndef BLKMIG_CLASSIFY_SHAPES_H
#define BLKMIG_CLASSIFY_SHAPES_H

#include "rewrite.h"

#define HANDOFF_MAX_REMOVE 16

/* What a proven state handoff removes besides the data completion's rewrite. */
struct state_handoff {
	int remove[HANDOFF_MAX_REMOVE]; /* housekeeping of the final state, and L's statement */
	int nremove;
	char *evidence; /* why the single new call is exact (for the report) */
};

/*
 * F is `if (F(...)) { ...; break; }` in one case of `switch (S)`, followed
 * by `S = K; break;`, and `case K:` holds [housekeeping] L(...).  Proves
 * that the request ended by the new call at F can be used by nothing before
 * the state machine reaches L (see classify_state.c).  Returns true and
 * fills *h, or false with *why (malloc'ed).
 */
bool state_handoff_prove(struct ctx *cx, struct func *f, int F, int L, struct state_handoff *h,
			 char **why);
void state_handoff_free(struct state_handoff *h);

/*
 * classify_dataonly.c: may the data completion F (its result unused) become
 * blk_end_request_callback() with a callback that keeps the request from
 * ending?  False with *why (malloc'ed, or NULL: not this shape).
 */
bool dataonly_applies(struct ctx *cx, struct func *f, int F, char **why);
/* insert that callback before f (once per function); returns its name */
char *dataonly_callback(struct ctx *cx, struct func *f, struct bm_site *s);
/*
 * The first node before L that ends the bios of rq itself (bio_endio, or
 * rq->bio given to anything but a bio reader, stored or assigned), or -1;
 * reading rq->bio in a test or through a member is no completion.
 */
int bios_ended_by_driver(struct tunit *t, const struct func *f, int L, const char *rq);

/*
 * classify_ownbios.c: the driver's own bio completion `own` (a node found by
 * bios_ended_by_driver) before the last-only call L of rq.  Proves that the
 * call holding it ends every bio of rq->bio whole with the error the final
 * step gives (last_error, its error_expr), that only its sector accounting,
 * housekeeping, a lock or calls that cannot touch that error lie between, and
 * fills *ob: what goes, and the evidence for the report.  False with *why
 * (malloc'ed; NULL when the shape is not this one at all).
 */
struct own_bios {
	int call_stmt;	  /* the call of the driver's loop: removed */
	int account_stmt; /* its sector accounting, removed too, or -1 */
	char *evidence;
};
bool own_bios_prove(struct ctx *cx, struct func *f, int own, int L, const char *rq,
		    const char *last_error, struct own_bios *ob, char **why);
/* remove what a proven *ob replaces (with a blank line of each paragraph) */
void own_bios_edits(struct bm_site *s, const struct tunit *t, const struct func *f,
		    const struct own_bios *ob);
void own_bios_free(struct own_bios *ob);

/*
 * classify_unended.c: the data completion F of rq, with no final step for it
 * in f, where rq is a local taken from elv_next_request() in the condition
 * of a loop around F, used nowhere else, and the queue lock is held: 2.6.24
 * never ends it (the loop never ends).  True with *evidence (malloc'ed) for
 * the preexisting_unended_request finding; false with *why (malloc'ed, or
 * NULL when the shape is not this one).
 */
bool unended_request_prove(struct ctx *cx, struct func *f, int F, const char *rq, char **evidence,
			   char **why);

/*
 * The catalogue itself, split by shape family (classify.c: what they share).
 */

/* SR_CHECK: an assertion on the kept result of the data completion (`BUG_ON(rc);`):
 * it checks the new call's result, which means the same, and stays where it is */
enum stmt_role { SR_KEEP = 0, SR_HOUSE, SR_LOCK, SR_UNLOCK, SR_LAST, SR_WORK, SR_CHECK };

struct plan {
	struct ctx *cx;
	struct func *f;
	struct tunit *t;
	size_t si, li; /* site of F and of L */
	int F, L;
	char *rq;	     /* request expression text */
	const char *variant; /* chosen new call */
	enum bm_lock_state lock;
	bool pair; /* lock taken around L only */
	int list[512];
	enum stmt_role role[512];
	bool mixed[512]; /* work: an if whose housekeeping inside goes, the rest stays */
	int Fstmt;	 /* the statement holding F: hoisted reads go before it */
	int cnt;
	int Lidx;
	bool has_work, has_post, work_in_lock;
	char *result_var;  /* `rc = F(...)`: the local that keeps F's result */
	bool result_stops; /* an assertion stops every path on which rc != 0 */
};

/* classify.c */
char *text_norm(struct tunit *t, const struct node *n);
bool is_first(const char *n);
bool is_end_request(const char *n);
size_t site_alloc(struct ctx *cx);
bool pure_test(struct tunit *t, const struct func *f, int cond);
bool stmt_is_housekeeping(struct tunit *t, const struct func *f, int st);
bool stmt_never_returns(struct tunit *t, const struct func *f, int st);
int body_stmts(const struct func *f, int body, int *out, int max);
int index_holding(const struct func *f, const int *list, int cnt, int n);
void set_new_call(struct bm_site *s, const char *variant, const char *rq, const char *err,
		  const char *bytes, const char *cb);
void fill_common(struct plan *p, struct uptodate *u, struct bytes *b);
void plan_one_call(struct plan *p, struct ctx *cx, struct func *f, size_t si, int call,
		   struct uptodate *u, struct bytes *b);
int siblings(const struct func *f, int st, int *list, int *cnt);
bool rq_mentioned(struct plan *p, int st);
int work_plan(struct plan *p, int from, int to);
char *make_callback(struct plan *p, int from, int to);

/* classify_lock.c */
const char *contract_variant(struct ctx *cx, struct func *f, size_t si, int n, size_t span_a,
			     size_t span_b);
bool choose_variant(struct plan *p, int F);

/* classify_endreq.c */
void classify_end_request(struct ctx *cx, struct func *f, int n, size_t si);

/* classify_pair_scan.c */
bool scan_region(struct plan *p, int from, int to, const char **why);
void remove_unused_flags(struct plan *p, struct bm_site *s, int lock_stmt, int gone);
void remove_roles(struct plan *p, struct bm_site *s, int from, int to, bool with_work);

/* classify_leftover.c */
int leftover_call(struct ctx *cx, struct func *f, int T, const char *rq, const char *u_expr,
		  char **why);
bool data_len_is_whole(struct ctx *cx, struct func *f, int n, const char *rq);
int leftover_of(struct ctx *cx, struct func *f, int n, const char *rq);

/* classify_onearg.c */
bool one_arg_last(struct plan *p, struct uptodate *u, struct bytes *b);

/* classify_pair.c */
size_t site_of_node(struct ctx *cx, struct func *f, int n);
int call_node_at(const struct func *f, size_t off);
void classify_pair(struct ctx *cx, struct func *f, int F, int L, size_t si, long li);

/* classify_lastonly.c */
void classify_last_only(struct ctx *cx, struct func *f, int L, size_t si, bool after_data_only);

/* classify_func.c */
bool defined_in_run(struct ctx *cx, const char *name, size_t tu);

/* classify_fallback.c */
void token_fallback(struct ctx *cx);

#endif
