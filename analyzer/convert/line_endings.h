/*
 * line_endings.h - a converted file keeps its CR LF line endings (line_endings.c).
 */
#ifndef BLKMIG_LINE_ENDINGS_H
#define BLKMIG_LINE_ENDINGS_H

#include <stdbool.h>
#include <stddef.h>

/* true when TEXT has at least one line break and every one of them is CR LF */
bool text_is_crlf(const char *text, size_t len);

/*
 * NEW (malloc'd, NUL-terminated, *NEW_LEN bytes) is the converted OLD.  When OLD ends
 * every line with CR LF, every bare LF of NEW becomes CR LF (NEW is freed and a new
 * buffer returned, *NEW_LEN updated); otherwise NEW is returned as it is.
 */
char *crlf_restore(const char *old, size_t old_len, char *new, size_t *new_len);

#endif
