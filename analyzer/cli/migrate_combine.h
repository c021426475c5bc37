/*
 * migrate_combine.h - migrate's choice, site by site, between spatch's rewrite and the
 * analyzer's (issue "combine the two tools by proof, not by unanimity").
 */
#ifndef BLKMIG_MIGRATE_COMBINE_H
#define BLKMIG_MIGRATE_COMBINE_H

#include <stdbool.h>
#include <stddef.h>

/* One inventory site of a file as the combination sees it. */
struct combine_site {
	unsigned first, last; /* lines of the site in the original file (1-based) */
	char *reject;	      /* in: why spatch's rewrite of it is not accepted, or NULL */
	bool touched;	      /* out: a spatch change block overlaps its lines */
	bool reverted;	      /* out: spatch's change blocks on it were undone */
};

/*
 * Which sites spatch changed: sets @sites[i].touched for every site a change block of
 * @orig -> @spatched overlaps. Returns 0, or -1 on a memory error.
 */
int combine_mark_touched(const char *orig, size_t orig_len, const char *spatched,
			 size_t spatched_len, struct combine_site *sites, size_t n);

/*
 * Undo spatch's change blocks on every touched site with a reject reason (and on any
 * other site such a block also covers, whose reverted flag is then set too). The result
 * is @orig with the remaining blocks of @spatched, in *@out (malloc'd).
 * A block that covers no site's lines but lies in the definition (header and body) of a
 * function with sites belongs to those sites (a renamed local, a removed declaration);
 * with @strict (a rejected site is a wrapper whose callers spatch may have changed
 * elsewhere) it does not.
 * Returns 1 when something was undone, 0 when nothing needed it, -1 when the blocks
 * cannot be separated by site: a block covers no site at all (e.g. a wrapper's callers
 * in a function without sites), so undoing only some could leave the file inconsistent;
 * the caller then treats the file as a whole.
 */
int combine_revert(const char *orig, size_t orig_len, const char *spatched, size_t spatched_len,
		   struct combine_site *sites, size_t n, bool strict, char **out, size_t *out_len);

/*
 * The 2.6.25 completion function @text calls first (`__blk_end_request`,
 * `blk_end_request`, `blk_end_request_callback`), or NULL: the lock contract a rewrite
 * chose, to compare spatch's with the analyzer's.
 */
const char *combine_variant(const char *text);
/* The byte count (third argument) of that first call, blanks dropped; NULL if none. */
char *combine_bytes(const char *text);

/*
 * Does @call (a legacy name) require the queue lock in 2.6.24 (end_request,
 * end_queued_request, end_dequeued_request, end_that_request_last)?
 */
bool combine_call_needs_lock(const char *call);

#endif
