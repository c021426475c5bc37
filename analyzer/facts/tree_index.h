/*
 * tree_index.h - the tree-wide pass that picks the files the facts need
 * (tree_index.c).
 */
#ifndef BLKMIG_TREE_INDEX_H
#define BLKMIG_TREE_INDEX_H

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
 * After a round of facts: the non-static functions and the ops members
 * whose callers still matter for the lock context of a legacy call.
 */
void tree_wanted(struct ctx *cx, struct bm_strlist *names, struct bm_strlist *members);

#endif
