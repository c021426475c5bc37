/*
 * util.c - checked allocation, string lists and buffers, file reading, mkdir -p.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* the test drivers build it without -D_GNU_SOURCE */
#endif
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void oom(void)
{
	fputs("blkmig: out of memory\n", stderr);
	exit(BM_EXIT_USAGE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list again;
	char *p;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, again);
	va_end(again);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void strlist_push_owned(struct bm_strlist *l, char *s)
{
	vec_append(l->v, l->n, l->cap, s);
}

void strlist_push(struct bm_strlist *l, const char *s)
{
	strlist_push_owned(l, xstrdup(s));
}

void strlist_free(struct bm_strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

int strlist_has(const struct bm_strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

size_t bm_str_hash(const char *s)
{
	size_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

unsigned bm_line_of(const char *text, size_t off)
{
	unsigned line = 1;

	for (size_t i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

void sbuf_addn(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sbuf_add(struct sbuf *b, const char *s)
{
	sbuf_addn(b, s, strlen(s));
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sbuf_addn(b, p, (size_t)n);
	free(p);
}

char *sbuf_take(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void (*bm_input_hook)(const char *path, const char *data, size_t len);
void (*bm_missing_hook)(const char *path);
void (*bm_unit_hook)(const char *path, bool begin);

char *read_file(const char *path, size_t *len)
{
	/* never blocks: a FIFO or a device is refused, not read */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct sbuf b = {0};
	char chunk[65536];
	struct stat st;
	size_t n;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sbuf_addn(&b, chunk, n);
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(b.s);
		errno = e ? e : EIO;
		return NULL;
	}
	fclose(f);
	if (len)
		*len = b.len;
	if (bm_input_hook)
		bm_input_hook(path, b.s ? b.s : "", b.len);
	return sbuf_take(&b);
}

int mkdirs(const char *path)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755); /* an existing parent is fine; the last mkdir says */
		*s = '/';
	}
	int r = mkdir(p, 0755);

	free(p);
	return r && errno != EEXIST ? -1 : 0;
}
