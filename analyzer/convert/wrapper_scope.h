/*
 * wrapper_scope.h - whether a non-static wrapper's callers are all known
 * (wrapper_scope.c), so that wrappers.c may rename its parameter `error`.
 */
#ifndef BLKMIG_WRAPPER_SCOPE_H
#define BLKMIG_WRAPPER_SCOPE_H

#include "analysis.h"

struct wscope;

/* Read the files that could name any of @names (the candidate wrappers) once. */
struct wscope *wscope_make(struct ctx *cx, const struct bm_strlist *names);
void wscope_free(struct wscope *ws, size_t ntus);

/* "EXPORT_SYMBOL_GPL at FILE:LINE" when f's file exports it, else NULL. */
char *wscope_exported(struct ctx *cx, const struct func *f);

/*
 * NULL when every place that names f is its definition, a call the analysis saw or a
 * prototype (whose parameter pi is renamed `error` into @scratch), and *held says which
 * rule held; else why not (the first condition that failed).
 */
char *wscope_check(struct ctx *cx, struct wscope *ws, const struct func *f, int pi,
		   struct bm_site *scratch, char **held);

#endif
