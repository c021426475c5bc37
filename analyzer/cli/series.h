/*
 * series.h - `blkmig migrate --series DIR`: the conversion as a `git format-patch`
 * series, one patch per driver (cli/series.c owns the rule, the mails and their text).
 */
#ifndef BLKMIG_SERIES_H
#define BLKMIG_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "site.h"

/* One file with legacy calls, as migrate leaves it. */
struct series_file {
	const char *path; /* as the analysis names it (the sites' file) */
	const char *old;  /* the original contents */
	size_t old_len;
	const char *new; /* the converted contents (== old when unchanged or left) */
	size_t new_len;
	bool changed;
};

/*
 * Write the series into @dir (created if missing; earlier NNNN-*.patch files there are
 * removed): one patch per driver that changes, numbered in order, paths a/ and b/
 * relative to @root (NULL: the current directory); @inv holds every site with its
 * final verdict and facts.  Returns the number of patches, or -1 (message printed).
 */
int series_write(const char *dir, const char *root, const struct series_file *files, size_t n,
		 const struct bm_run *inv);

#endif
