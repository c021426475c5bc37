/*
 * rewrite_plan.h - turn the auto sites of an analysed run into new file contents.
 *
 * Owns: the all-or-nothing rule across sites and files. A site's edits may span files
 * (a wrapper and its callers). A file whose edits conflict, that cannot be read, or that
 * the caller's precheck refuses (read-only for --in-place) is left untouched, and every
 * site with an edit in it becomes a manual site with the reason; its edits in other
 * files are dropped too, so no site is ever half converted. Repeats until stable.
 */
#ifndef BLKMIG_REWRITE_PLAN_H
#define BLKMIG_REWRITE_PLAN_H

#include <stddef.h>

#include "site.h"

struct rw_file {
	char *path; /* as the analyzer saw it (edit file name) */
	char *old;  /* contents read from disk (NULL if unreadable) */
	size_t old_len;
	char *new; /* new contents, NULL when the file stays as it is */
	size_t new_len;
	char *problem;		  /* why it was left untouched, or NULL */
	const char *problem_code; /* its reason code: file_not_writable, conflicting_edits */
	size_t nsites;		  /* auto sites converted in this file */
};

struct rw_plan {
	struct rw_file *files; /* sorted by path */
	size_t n;
	size_t sites_converted;
	size_t sites_failed; /* auto sites turned manual by this plan */
};

/* Extra check on a file before it is rewritten; returns 0 or -1 with a message. */
typedef int (*rw_precheck_fn)(const char *path, void *ctx, char *err, size_t errlen);

/*
 * Build the plan for @run. @precheck may be NULL. Sites that cannot be applied are set
 * to BM_MANUAL in @run with reason "conflicting_edits" or "file_not_writable".
 * Returns 0, or -1 on memory error.
 */
int rw_plan_build(struct bm_run *run, rw_precheck_fn precheck, void *ctx, struct rw_plan *plan);

void rw_plan_free(struct rw_plan *plan);

#endif
