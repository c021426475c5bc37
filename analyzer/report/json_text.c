/*
 * json_text.c - text that is not UTF-8 as \xNN, for the reports (see json_text.h).
 */
#include "json_text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

size_t bm_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0; /* a continuation byte, an overlong lead (c0, c1), or past U+10FFFF */
	/* the second byte's range excludes overlong forms, surrogates and past U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

bool bm_utf8_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0, k; i < n; i += k)
		if (!(k = bm_utf8_seq(u + i, n - i)))
			return false;
	return true;
}

char *bm_text_escape(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n, bad = 0, k;
	char *r, *o;

	if (!s)
		return NULL;
	n = strlen(s);
	for (size_t i = 0; i < n; i += k ? k : 1)
		bad += !(k = bm_utf8_seq(u + i, n - i));
	if (!bad)
		return xstrdup(s);
	o = r = xmalloc(n + 3 * bad + 1);
	for (size_t i = 0; i < n;) {
		k = bm_utf8_seq(u + i, n - i);
		if (k) {
			memcpy(o, s + i, k);
			o += k;
			i += k;
		} else {
			static const char hex[] = "0123456789abcdef";

			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[u[i] >> 4];
			*o++ = hex[u[i] & 15];
			i++;
		}
	}
	*o = '\0';
	return r;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *bm_text_unescape(const char *s)
{
	char *r, *o;

	if (!s)
		return NULL;
	o = r = xstrdup(s);
	for (const char *p = s; *p;) {
		if (p[0] == '\\' && p[1] == 'x' && hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
			*o++ = (char)(hexval(p[2]) << 4 | hexval(p[3]));
			p += 4;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return r;
}

json_t *bm_json_text(const char *s)
{
	char *e;
	json_t *j;

	if (!s)
		return NULL;
	if (bm_utf8_valid(s, strlen(s)))
		return json_string(s);
	e = bm_text_escape(s);
	j = json_string(e);
	free(e);
	return j;
}

json_t *bm_json_textf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	json_t *j;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	j = bm_json_text(s);
	free(s);
	return j;
}
