/*
 * tree_index.h - the tree-wide pass that picks the files the facts need
 * (tree_index.c).
 */
#ifndef BLKMIG_TREE_INDEX_H
#define BLKMIG_TREE_INDEX_H

#include <stdint.h>

#include "analysis.h"

enum {
	TREE_NAME = 1,	    /* names one of the functions asked for */
	TREE_MEMBER = 2,    /* calls through one of the members asked for */
	TREE_REGISTERS = 4, /* gives a queue to blk_init_queue(_node) */
};

/*
 * One pass over the identifiers of s: what of the above it holds.  The
 * names it mentions ("f:NAME") and the members it calls through
 * ("m:NAME") are added to found (if not NULL; given empty), each once.
 */
unsigned tree_scan(const char *s, size_t len, const struct bm_strlist *names,
		   const struct bm_strlist *members, struct bm_strlist *found);

/*
 * The identifiers of a file's code as tree_scan() reads them, each once, as 32-bit
 * hashes (those called through a member also apart, as members), made in the same
 * pass as its TREE_REGISTERS answer (returned).  A later round asks them
 * (tree_filter_may_name) before it reads the file again: a file none of whose
 * identifiers hashes like a name or member asked for names none of them, and
 * tree_scan() would find nothing in it.  The others are read and scanned as before:
 * the filter only spares work, it never decides.
 */
struct tree_idents {
	uint32_t *h;
	size_t n;
};
unsigned tree_scan_idents(const char *s, size_t len, struct tree_idents *out);

/* The names and members a round asks for: their hashes, sorted, and a bit for each
 * (a Bloom filter that spares most searches). */
#define TREE_FILTER_WORDS 4096
struct tree_filter {
	uint32_t bits[TREE_FILTER_WORDS];
	uint32_t *wanted;
	size_t nwanted;
};
void tree_filter_init(struct tree_filter *tf, const struct bm_strlist *names,
		      const struct bm_strlist *members);
bool tree_filter_may_name(const struct tree_filter *tf, const struct tree_idents *ids);
void tree_filter_free(struct tree_filter *tf);

/*
 * After a round of facts: the non-static functions and the ops members
 * whose callers still matter for the lock context of a legacy call.
 */
void tree_wanted(struct ctx *cx, struct bm_strlist *names, struct bm_strlist *members);

#endif
