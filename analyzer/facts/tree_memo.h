/*
 * tree_memo.h - the tree-wide pass's answer for each file without legacy calls, kept
 * between runs by the file's content (tree_memo.c).
 */
#ifndef BLKMIG_TREE_MEMO_H
#define BLKMIG_TREE_MEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "tree_index.h"

/* Where the memo is kept (cli/tree_memo_cache.c); NULL: nowhere, the memo is off. */
struct tree_memo_ops {
	char *(*load)(size_t *len);		     /* the memo kept, or NULL */
	void (*store)(const char *data, size_t len); /* keep this one instead */
};
extern const struct tree_memo_ops *bm_tree_memo_cache;

struct tree_memo;
/* The kept memo, read once per process (written again as it exits), or NULL when it
 * is off. */
struct tree_memo *tree_memo_open(void);
/* The SHA-256 of a file's bytes, the memo's key. */
void tree_memo_sum(const char *text, size_t len, unsigned char sum[32]);
/* A text file without a legacy call token whose bytes hash to SUM: whether it gives a
 * queue to blk_init_queue(_node), and its identifiers (as tree_scan_idents() makes
 * them; the caller owns ids->h).  False when the memo holds no such file. */
bool tree_memo_take(struct tree_memo *m, const unsigned char sum[32], bool *registers,
		    struct tree_idents *ids);
/* ... the answer for such a file, as the pass found it. */
void tree_memo_put(struct tree_memo *m, const unsigned char sum[32], bool registers,
		   const struct tree_idents *ids);
/* An analysis is done with it (BLKMIG_STAGE_TIMES=1: of how many of the files without
 * legacy calls it held the answer). */
void tree_memo_done(struct tree_memo *m);

#endif
