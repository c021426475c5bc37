/*
 * line_endings.c - a converted file keeps its CR LF line endings.
 *
 * The analyzer's edits and spatch's output end the lines they insert or rebuild with a
 * bare LF.  A file whose every line ended with CR LF gets CR LF on those lines too, so
 * a driver kept with DOS line endings does not come back with mixed ones.  A file whose
 * endings were mixed already keeps what the edits made: no ending is its own.
 */
#include "line_endings.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

bool text_is_crlf(const char *text, size_t len)
{
	size_t breaks = 0;

	if (!text || !len)
		return false;
	for (const char *p = text; (p = memchr(p, '\n', len - (size_t)(p - text))); p++) {
		if (p == text || p[-1] != '\r')
			return false;
		breaks++;
	}
	return breaks > 0;
}

char *crlf_restore(const char *old, size_t old_len, char *new, size_t *new_len)
{
	size_t bare = 0, len = *new_len, k = 0;
	char *out;

	if (!new || !text_is_crlf(old, old_len))
		return new;
	for (size_t i = 0; i < len; i++)
		bare += new[i] == '\n' && (i == 0 || new[i - 1] != '\r');
	if (!bare)
		return new;
	out = xmalloc(len + bare + 1);
	for (size_t i = 0; i < len; i++) {
		if (new[i] == '\n' && (i == 0 || new[i - 1] != '\r'))
			out[k++] = '\r';
		out[k++] = new[i];
	}
	out[k] = '\0';
	free(new);
	*new_len = k;
	return out;
}
