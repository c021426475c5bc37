/*
 * tree_memo_cache.h - the tree-wide pass's memo kept in the result cache
 * (tree_memo_cache.c).
 */
#ifndef BLKMIG_TREE_MEMO_CACHE_H
#define BLKMIG_TREE_MEMO_CACHE_H

#include <stdbool.h>

/* Keep and take the memo (bm_tree_memo_cache) from now on, or (false) no more.
 * BLKMIG_NO_PARSE_CACHE=1 keeps none, as it keeps no parse. */
void tree_memo_cache_enable(bool on);

#endif
