/*
 * func_index.h - the list of a file's function definitions that a parse child
 * hands to the parent (func_index.c).
 */
#ifndef BLKMIG_FUNC_INDEX_H
#define BLKMIG_FUNC_INDEX_H

#include <stdio.h>

#include "analysis.h"

/* Child: the main file's function definitions, in visit order, to OUT. */
void func_index_write(FILE *out, CXTranslationUnit tu, CXFile self);
/* Parent: read that list into T; false when it is short. */
bool func_index_read(FILE *f, struct tunit *t);
void func_index_free(struct tunit *t);
/* The cursors of T's listed functions, or NULL: visit the whole file. */
CXCursor *func_index_cursors(struct tunit *t);

#endif
