/*
 * budget_charge.c - the per-file time limit of the analysis (--timeout; the parse
 * has its own, parse.c kills its child).  The time the analysis spends on a
 * file (building its functions, classifying its calls) is charged to it,
 * checked between functions and between calls: a file over the limit is
 * not analysed further, every site in it is left for a human with reason
 * "timeout", and the functions it names in other files get "callers
 * unseen", since the calls it makes were not all collected.
 *
 * This file owns the clock: the time charged to each file, and the callers
 * a file over its limit leaves unseen.  The sites of such a file are left
 * by convert/budget.c (budget_apply).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "tree_index.h"

void budget_start(struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
}

/*
 * Fault injection for the tests (tests/harden): BLKMIG_FAULT_SLOW_ANALYSIS=TEXT makes
 * every charged step on a file whose path contains TEXT last 20 ms longer, so a test
 * can put one file of a run over --timeout whatever the machine's speed.
 */
static void injected_delay(const char *path)
{
	const char *slow = getenv("BLKMIG_FAULT_SLOW_ANALYSIS");
	struct timespec ts = {0, 20 * 1000 * 1000};

	if (slow && *slow && strstr(path, slow))
		nanosleep(&ts, NULL);
}

bool budget_charge_seconds(struct ctx *cx, size_t ti, double seconds)
{
	struct tunit *t = &cx->tus[ti];
	struct timespec before, after;

	clock_gettime(CLOCK_MONOTONIC, &before);
	injected_delay(t->path);
	clock_gettime(CLOCK_MONOTONIC, &after);
	seconds +=
	    (double)(after.tv_sec - before.tv_sec) + (double)(after.tv_nsec - before.tv_nsec) / 1e9;
	t->analysis_s += seconds;
	if (!t->over_time && t->analysis_s > (double)cx->run->opt.timeout)
		t->over_time = true;
	return t->over_time;
}

bool budget_charge(struct ctx *cx, size_t ti, const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return budget_charge_seconds(cx, ti,
				     (double)(now.tv_sec - since->tv_sec) +
					 (double)(now.tv_nsec - since->tv_nsec) / 1e9);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* After facts_collect: the functions a file over its limit names may have callers in
 * it that were never collected. */
void budget_unseen_callers(struct ctx *cx)
{
	struct bm_strlist names = {0}, none = {0};
	bool listed = false;

	for (size_t ti = 0; ti < cx->ntus; ti++) {
		struct tunit *t = &cx->tus[ti];
		struct bm_strlist found = {0};

		if (!t->over_time || !t->src)
			continue;
		if (!listed) /* (duplicates are harmless to tree_scan) */
			for (size_t fi = 0; fi < cx->nfuncs; fi++)
				if (!cx->funcs[fi].is_static &&
				    !cx->tus[cx->funcs[fi].tu].over_time)
					strlist_push(&names, cx->funcs[fi].name);
		listed = true;
		tree_scan(t->clean ? t->clean : t->src, t->len, &names, &none, &found);
		if (found.n)
			qsort(found.v, found.n, sizeof(*found.v), str_cmp);
		for (size_t fi = 0; fi < cx->nfuncs && found.n; fi++) {
			struct func *f = &cx->funcs[fi];
			char *key;

			if (f->is_static || cx->tus[f->tu].over_time)
				continue;
			key = xasprintf("f:%s", f->name);
			if (bsearch(&key, found.v, found.n, sizeof(*found.v), str_cmp))
				func_callers_unseen(
				    f, xasprintf("it is named in %s, whose analysis passed "
						 "the --timeout of %u s",
						 t->path, cx->run->opt.timeout));
			free(key);
		}
		strlist_free(&found);
	}
	strlist_free(&names);
}
