/*
 * rewrite_output.h - write a rewrite plan out: as one unified diff, or in place.
 *
 * Owns: patch paths (a/ and b/ relative to a root directory, default the current one,
 * so `git apply -p1` / `patch -p1` run in that directory take the patch) and the
 * in-place pass over the plan's files with the atomic writer.
 */
#ifndef BLKMIG_REWRITE_OUTPUT_H
#define BLKMIG_REWRITE_OUTPUT_H

#include <stdio.h>

#include "rewrite_plan.h"

/*
 * The name of @path relative to @root (NULL: the current directory), malloc'd, or NULL
 * with a message in @err when @path is not below @root.
 */
char *patch_name(const char *path, const char *root, char *err, size_t errlen);

/*
 * Write every changed file of @plan as one diff to @out. @display maps a plan path to
 * the file it stands for (NULL: itself), @old_of gives that file's original contents
 * (NULL: the plan's). Returns the number of files in the diff, or -1 (message printed).
 */
struct rw_source {
	const char *(*display)(const char *plan_path, void *ctx);
	const char *(*old_of)(const char *plan_path, size_t *len, void *ctx);
	void *ctx;
};
int write_patch(const struct rw_plan *plan, const char *root, const struct rw_source *src,
		FILE *out);

/*
 * Replace every changed file of @plan in place, atomically. A file that cannot be
 * replaced is reported on stderr and counted; the others are still written.
 * Returns the number of files that failed.
 */
int write_in_place(struct rw_plan *plan, const struct rw_source *src);

#endif
