/*
 * classify_shapes.h - shapes outside the catalogue's straight paths, each
 * proven in its own file and rewritten by classify.c:
 *   classify_state.c     the data completion in one state of a driver's
 *                        state machine, the final step in the next state;
 *   classify_dataonly.c  data completions whose result is ignored and whose
 *                        final step runs later (another interrupt, a label);
 *   classify_ownbios.c   a final step after the driver's own loop ended the
 *                        request's bios (cciss, cpqarray);
 *   classify_unended.c   a data completion of a request the old code never
 *                        ends (a loop over elv_next_request() that never ends).
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

#endif
