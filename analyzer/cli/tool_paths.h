/*
 * tool_paths.h - where migrate finds spatch and our semantic patches.
 *
 * Owns: the search order. spatch: --spatch PROG, $SPATCH, then $PATH. Cocci files:
 * --cocci-dir DIR, $BLKMIG_COCCI_DIR, then relative to the blkmig binary itself:
 * PREFIX/share/blkmig/cocci for an installed PREFIX/bin/blkmig, the source tree's cocci/
 * for a build/blkmig run from a checkout. In a cocci directory, ORDER (one file name a
 * line) fixes the order; otherwise every *.cocci in name order. Each file's
 * "// Options:" header line gives its spatch options, as for the kernel's coccicheck;
 * "// Output: facts only" marks one that changes no file and only writes a facts file.
 */
#ifndef BLKMIG_TOOL_PATHS_H
#define BLKMIG_TOOL_PATHS_H

#include <stdbool.h>

#include "site.h"

/* malloc'd path of an executable spatch, or NULL (message in err) */
char *find_spatch(const char *given, char *err, size_t errlen);

/* malloc'd cocci directory, or NULL (message in err) */
char *find_cocci_dir(const char *given, char *err, size_t errlen);

/* The cocci files of @dir, in order (full paths), and each one's options. */
int cocci_files(const char *dir, struct bm_strlist *files, struct bm_strlist *options, char *err,
		size_t errlen);

/* Whether a cocci file writes facts only ("// Output: facts only" in its header). */
bool cocci_facts_only(const char *file);

/* The macro file shipped beside the patches (the first header file in DIR), or NULL. malloc'd. */
char *cocci_macro_file(const char *dir);

#endif
