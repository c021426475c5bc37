/* analyze.c - placeholder, replaced by the real driver next */
#include "util.h"
int bm_analyze(struct bm_run *run, char *const *paths, size_t npaths)
{
	(void)run; (void)paths; (void)npaths;
	return 0;
}
int bm_verify(struct bm_run *run, char *const *paths, size_t npaths)
{
	return bm_analyze(run, paths, npaths);
}
