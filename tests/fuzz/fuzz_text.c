/*
 * fuzz_text.c - libFuzzer target over the parts of parse -> rewrite that need no
 * libclang: the lexer's prefilter (every legacy name, call or declaration, outside
 * comments and strings), comment blanking, the edit applier and the unified-diff
 * writer.  Each input is a C file; every legacy call the lexer finds is renamed the
 * way a rewrite renames it, the edits are applied and the diff is written.  Fast
 * enough for millions of runs (fuzz_pipeline.c covers libclang and the analysis, at a
 * few runs a second).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "edit_apply.h"
#include "udiff.h"
#include "util.h"

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "blkmig-fuzz: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct bm_hit *hits = NULL;
	size_t n = bm_prefilter(s, size, &hits);
	char *clean = bm_blank_comments(s, size);
	struct text_edit *te = xcalloc(n ? n : 1, sizeof(*te));
	struct edit_result res;
	size_t ne = 0;
	FILE *devnull;

	(void)bm_looks_binary(s, size);
	for (size_t i = 0; i < n; i++) {
		check(hits[i].offset < hits[i].end && hits[i].end <= size, "hit outside the input");
		check(bm_is_legacy_name(s + hits[i].offset, hits[i].end - hits[i].offset),
		      "hit is not a legacy name");
		check(i == 0 || hits[i - 1].end <= hits[i].offset, "hits out of order");
		if (hits[i].call && !hits[i].lex_decl)
			te[ne++] = (struct text_edit){hits[i].offset, hits[i].end,
						      "__blk_end_request", (int)i};
	}
	memset(&res, 0, sizeof(res));
	check(edits_apply(s, size, te, ne, &res) == 0, "edits of distinct hits rejected");
	devnull = fopen("/dev/null", "w");
	if (devnull) {
		check(udiff_write(devnull, "x.c", s, size, res.data, res.len, 3) >= 0,
		      "udiff failed");
		fclose(devnull);
	}
	edit_result_free(&res);
	free(te);
	free(clean);
	bm_hits_free(hits, n);
	return 0;
}
