/*
 * migrate_common.h - what cmd_fix.c and cmd_migrate.c share.
 */
#ifndef BLKMIG_MIGRATE_COMMON_H
#define BLKMIG_MIGRATE_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "site.h"

/* Print each manual site (one line each) and the closing summary on stderr. */
void fix_summary(const struct bm_run *run, const char *cmd, size_t converted, size_t files,
		 bool in_place, bool check);

/* 0 when every path exists (message for each that does not, on stderr) */
int check_paths_exist(const char *cmd, char *const *paths, size_t n);

#endif
