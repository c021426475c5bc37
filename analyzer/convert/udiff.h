/*
 * udiff.h - unified diff between two versions of one file.
 *
 * Owns: the line diff (Myers' O(ND) algorithm after trimming the common head and tail)
 * and the unified format `git apply -p1` and `patch -p1` accept, including the
 * "\ No newline at end of file" marker.
 */
#ifndef BLKMIG_UDIFF_H
#define BLKMIG_UDIFF_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write the diff of @old -> @new to @out with @context lines of context, under the
 * headers "--- a/@path" and "+++ b/@path". Writes nothing when the two are equal.
 * Returns the number of hunks written, or -1 on an output or memory error.
 */
int udiff_write(FILE *out, const char *path, const char *old, size_t old_len, const char *new,
		size_t new_len, int context);

/*
 * The lines of @new that stand where old lines [@first, @last] (1-based) stood,
 * including lines inserted right after them; "" when they were deleted, NULL on error.
 * malloc'd. Used to show a site's code after a rewrite made by another tool.
 */
char *udiff_new_lines(const char *old, size_t old_len, const char *new, size_t new_len,
		      unsigned first, unsigned last);

/*
 * udiff_new_lines() keeps the diff of the last pair it was asked about, with copies of
 * both texts, and compares them with each new question's.  Between udiff_trust_begin()
 * and udiff_trust_end() the caller promises that a buffer it asks about again still holds
 * the same text (none is changed or freed and reallocated meanwhile): the same buffers
 * are then the same pair without comparing, so a loop over a file's thousands of sites
 * costs no file-sized compare per site (issue 25, item 9).
 */
void udiff_trust_begin(void);
void udiff_trust_end(void);

/* One change block of a diff without context lines. */
struct udiff_hunk {
	unsigned old_first, old_count; /* 1-based; with old_count 0, inserted before old_first */
	unsigned new_first, new_count;
};

/*
 * The change blocks of @old -> @new, in order, into *@out (malloc'd, *@n of them).
 * Returns 0, or -1 on a memory error.
 */
int udiff_hunks(const char *old, size_t old_len, const char *new, size_t new_len,
		struct udiff_hunk **out, size_t *n);

#endif
