/*
 * edit_apply.h - apply a set of text edits to one file's bytes.
 *
 * Owns: the text-edit record the rewriters hand over, and the rule that decides whether
 * a set of edits can be applied at all. Identical edits (same range, same text, whatever
 * site asked for them) are applied once; any other overlap is a conflict, and a file with
 * a conflict is not rewritten at all: the caller reports the conflicting sites for manual
 * review and leaves the file byte-for-byte as it was.
 */
#ifndef BLKMIG_EDIT_APPLY_H
#define BLKMIG_EDIT_APPLY_H

#include <stddef.h>

struct text_edit {
	size_t start;	  /* first byte replaced (offset in the original) */
	size_t end;	  /* one past the last byte replaced; == start inserts */
	const char *text; /* replacement bytes, NUL-terminated */
	int site;	  /* index of the site that asked for it (for reports) */
};

struct edit_conflict {
	int site_a, site_b; /* the two sites whose edits collide */
	size_t offset;	    /* where (byte offset in the original) */
};

struct edit_result {
	char *data; /* new contents (malloc'd, NUL-terminated) or NULL */
	size_t len;
	size_t applied;			 /* edits applied after removing duplicates */
	struct edit_conflict *conflicts; /* malloc'd, nconflicts entries */
	size_t nconflicts;
	const char *error; /* static message when the edits are malformed */
};

/*
 * Apply @n edits (in any order; the array is sorted in place) to @src[0..@len).
 * Returns 0 and fills @res->data on success; returns 1 with @res->conflicts set when
 * some edits overlap (no data produced); returns -1 with @res->error set when an edit
 * lies outside the buffer or is inverted.
 */
int edits_apply(const char *src, size_t len, struct text_edit *edits, size_t n,
		struct edit_result *res);

void edit_result_free(struct edit_result *res);

#endif
