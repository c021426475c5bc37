/*
 * util.h - small internal helpers shared by the analyzer's files: checked
 * allocation, growable string lists and string buffers.
 */
#ifndef BLKMIG_UTIL_H
#define BLKMIG_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#include "site.h"
#include "vec.h"

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

void strlist_push(struct bm_strlist *l, const char *s);
void strlist_push_owned(struct bm_strlist *l, char *s);
void strlist_free(struct bm_strlist *l);
int strlist_has(const struct bm_strlist *l, const char *s);

/* FNV-1a of a string: the hash of the analyzer's tables keyed by names and paths. */
size_t bm_str_hash(const char *s);
/* The 1-based line of byte OFF in TEXT. */
unsigned bm_line_of(const char *text, size_t off);

struct sbuf {
	char *s;
	size_t len, cap;
};
void sbuf_add(struct sbuf *b, const char *s);
void sbuf_addn(struct sbuf *b, const char *s, size_t n);
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sbuf_take(struct sbuf *b); /* returns "" for an empty buffer */

/* Read a whole file; NULL with errno set on failure. */
char *read_file(const char *path, size_t *len);
/* Told of every file read_file() reads, and (data NULL) of every file a parse
 * includes: the inputs of a cached result (cli/cache.c); NULL when unused. */
extern void (*bm_input_hook)(const char *path, const char *data, size_t len);
/* Told of every file a parse looked for and did not find (a header that became an
 * empty stub, in each include folder searched): a cached result is void once one
 * appears (cli/cache.c); NULL when unused. */
extern void (*bm_missing_hook)(const char *path);
/* Told when a parse of PATH starts (BEGIN) and stops telling the two hooks above of its
 * includes and missing headers: whose they are (cli/guard_cache.c); NULL when unused. */
extern void (*bm_unit_hook)(const char *path, bool begin);
/* mkdir -p PATH (mode 0755): 0, or -1 with errno when PATH cannot be made. */
int mkdirs(const char *path);

#endif
