/*
 * ktree.h - a kernel source tree as a parse configuration (ktree.c): the
 * compiler arguments that parse one of its files for the file's own
 * architecture and a generated configuration.
 */
#ifndef BLKMIG_KTREE_H
#define BLKMIG_KTREE_H

#include <stdbool.h>

#include "util.h"

struct ktree;

/* DIR is the top of a kernel source tree. */
bool ktree_is_root(const char *dir);
/* The kernel tree PATH lies in (PATH itself or a parent), or NULL. */
char *ktree_find_root(const char *path);

/* Generated headers go under TMP (the run's temporary directory). */
struct ktree *ktree_new(const char *root, const char *tmp);
void ktree_free(struct ktree *kt);
const char *ktree_root(const struct ktree *kt);

/* Append the arguments for PATH (cached; compute in the parent first). */
void ktree_file_args(struct ktree *kt, const char *path, struct bm_strlist *args);
/* "arch powerpc (why), arch/powerpc/configs/ps3_defconfig, CONFIG_PS3_DISK" */
const char *ktree_file_summary(struct ktree *kt, const char *path);

#endif
