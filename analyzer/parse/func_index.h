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
void func_index_free(struct tunit *t); /* with the functions' model */
/* A main-file offset at which clang_getCursor() gives c back, or -1. */
long func_index_locator(CXTranslationUnit tu, CXFile self, CXCursor c);

/* ---- func_model.c: the functions themselves, as plain data ---------------- */
/* c is a definition of T's main file with a range in it (facts.c's choice) */
bool func_model_definition(struct tunit *t, CXCursor c, size_t *start, size_t *end);
/* F: c's name, USR, parameters and node tree (ast_build_func()) */
void func_model_build(struct tunit *t, CXCursor c, size_t start, size_t end, struct func *f);
/* run on each function the child builds: answers the facts memoize (lock identities) */
extern void (*func_model_built_hook)(struct func *f);
/* Child: every function of T's unit (in memory), after func_index_write(). */
void func_model_write(FILE *out, struct tunit *t);
/* Parent: those functions into T->model; false (and none) when absent or short. */
bool func_model_read(FILE *in, struct tunit *t);
/* T's functions read again from T->model_file, when T has none; false when it has no
 * such file or it cannot be read. */
bool func_model_read_again(struct tunit *t);
void func_model_free(struct tunit *t);
void func_model_free_func(struct func *f);
/* The cursors of T's listed functions, or NULL: visit the whole file. */
CXCursor *func_index_cursors(struct tunit *t);

#endif
