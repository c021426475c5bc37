/*
 * classify_shapes.h - shapes outside the catalogue's straight paths, each
 * proven in its own file and rewritten by classify.c:
 *   classify_state.c     the data completion in one state of a driver's
 *                        state machine, the final step in the next state;
 *   classify_dataonly.c  data completions whose result is ignored and whose
 *                        final step runs later (another interrupt, a label).
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

#endif
