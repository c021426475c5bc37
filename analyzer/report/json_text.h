/*
 * json_text.h - text from the user's tree (file names, source lines, comments) as valid
 * UTF-8, for every report: JSON, SARIF, the review page, the series' messages.
 *
 * A file name or a source line may hold bytes that are not UTF-8 (a Latin-1 comment, a
 * name with a 0xff byte); JSON strings cannot (jansson refuses them, and the field or the
 * whole entry was lost).  The one form, in every report: each byte that is not part of a
 * valid UTF-8 sequence is written as the four characters \xNN (two lowercase hex
 * digits); everything else, valid UTF-8 included, is written as it is, so a report of
 * UTF-8 files does not change.  bm_text_unescape() turns \xNN back into the byte (exact
 * unless the original itself held a backslash, 'x' and two hex digits).
 */
#ifndef BLKMIG_JSON_TEXT_H
#define BLKMIG_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/* The length of the valid UTF-8 sequence that starts @s (@n bytes there), 0 if none. */
size_t bm_utf8_seq(const unsigned char *s, size_t n);

/* Whether @s[0, n) is valid UTF-8 (RFC 3629: no overlong form, no surrogate). */
bool bm_utf8_valid(const char *s, size_t n);

/* @s (NUL-terminated) with every byte that is not UTF-8 as \xNN. malloc'd; NULL for NULL. */
char *bm_text_escape(const char *s);

/* The inverse: every \xNN as its byte. malloc'd; NULL for NULL. */
char *bm_text_unescape(const char *s);

/* json_string() of bm_text_escape(@s): never NULL for a string; NULL for NULL (as
 * json_string(NULL)). */
json_t *bm_json_text(const char *s);

/* bm_json_text() of a printf-formatted text. */
json_t *bm_json_textf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
