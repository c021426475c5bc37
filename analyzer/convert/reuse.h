/*
 * reuse.h - parses one analysis run hands to the next over the same files
 * (reuse.c; migrate: the analysis of spatch's output, then verify).
 */
#ifndef BLKMIG_REUSE_H
#define BLKMIG_REUSE_H

#include "analysis.h"
#include "site.h"

/*
 * The parse environment (its stubs, its kernel configuration) of the run
 * that made the kept parses, when run's options give the same parse
 * arguments; else NULL, and what was kept is let go.  Taken: the run frees
 * it or puts it back.
 */
struct parse_env *reuse_take_env(struct bm_reuse *r, struct bm_run *run, CXIndex *idx);

/*
 * The kept parse of file fi of run into t (the translation unit, its
 * diagnostics, its function list) and run->files[fi], when the file's text
 * is SRC[0..len) as it was then and no file the parse included has changed
 * on disk since.  False: parse it.
 */
bool reuse_take_parse(struct bm_reuse *r, struct bm_run *run, size_t fi, const char *src,
		      size_t len, struct tunit *t);

/*
 * At the end of a run: what was not taken is let go; every parsed unit of cx
 * (taken out of cx: ctx_free no longer disposes of it), and env and idx, are
 * kept for the next run.
 */
void reuse_put(struct bm_reuse *r, struct ctx *cx, struct parse_env *env, CXIndex idx);

#endif
