/*
 * tree_memo_cache.c - where the tree-wide pass's memo (facts/tree_memo.c) is kept: one
 * blob of the result cache (cache.c, command "tree-memo").  Its records are keyed by
 * the content of the file each describes, and the entry by blkmig itself (as every
 * entry is), so the entry has no inputs: a record is valid wherever its bytes are.
 */
#include <stdlib.h>

#include "cache.h"
#include "tree_memo.h"
#include "tree_memo_cache.h"

static struct bm_cache *entry(void)
{
	struct bm_cache *e = bm_cache_open_anywhere("tree-memo", 0, NULL);

	bm_cache_key_text(e, "memo", "1", 1);
	return e;
}

static char *load(size_t *len)
{
	struct bm_cache *e = entry();
	json_t *st = bm_cache_lookup(e);
	char *data = st ? bm_cache_blob(e, st, len) : NULL;

	json_decref(st);
	bm_cache_close(e);
	return data;
}

static void store(const char *data, size_t len)
{
	struct bm_cache *e = entry();

	bm_cache_store_blob(e, json_object(), data, len);
	bm_cache_close(e);
}

static const struct tree_memo_ops ops = {load, store};

void tree_memo_cache_enable(bool on)
{
	bm_tree_memo_cache = on && !getenv("BLKMIG_NO_PARSE_CACHE") ? &ops : NULL;
}
