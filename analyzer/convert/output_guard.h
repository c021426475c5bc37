/*
 * output_guard.h - a rewritten file may differ from its original only where a
 * conversion of its sites can reach (issue 25, item 1): spatch's output is not
 * trusted, and neither is the analyzer's own rewrite.  See output_guard.c.
 */
#ifndef BLKMIG_OUTPUT_GUARD_H
#define BLKMIG_OUTPUT_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "site.h"

/* One site of the file being converted: its lines in the original (1-based). */
struct og_site {
	unsigned first, last;
};

/*
 * Is @orig -> @new confined to what a conversion of @sites may touch?  Returns 1 when
 * it is, 0 when it is not (*@bad_line: the first original line changed outside, or the
 * line an insertion outside stands before; nlines + 1 for the end of the file), -1 on a
 * memory error.  The allowed regions (output_guard.c): the sites' own lines; the
 * top-level definitions (functions) that hold a site, and those that call one of @names
 * (functions with sites in other files: a wrapper whose callers are here); every function
 * that calls one of those, transitively (the callers of a converted wrapper); the lines that use
 * end_io_error; the file-scope #define bodies and declarations that name a legacy call,
 * end_io_error or one of those functions (declarations: or one of @names, a wrapper's
 * prototype in a header); insertions next to an allowed region (a
 * version guard around a function, a callback inserted before it).
 */
int output_guard_confined(const char *orig, size_t orig_len, const char *new, size_t new_len,
			  const struct og_site *sites, size_t n, const char *const *names,
			  size_t nnames, unsigned *bad_line);

/*
 * A message naming what @who wrote outside: "line N (`TEXT`)" with the original line's
 * text (trimmed, at most 60 characters), or that the output is empty.  malloc'd.
 */
char *output_guard_message(const char *who, const char *orig, size_t orig_len, size_t new_len,
			   unsigned bad_line);

/* One file for the parse half of the check: its old and new text. */
struct og_text {
	const char *name; /* base name, for the private copies */
	const char *old, *new;
	size_t old_len, new_len;
	unsigned old_errors, new_errors; /* out: parse errors of each */
	bool new_known;			 /* in: new_errors is known, parse the old text only */
	bool parsed;			 /* out: both were parsed */
	bool failed; /* out: a parse failed outright (crash, timeout, memory): not the text's */
};

/*
 * The parse half: parse the old and the new text of each of @t in the same context,
 * @old_run's and @new_run's options (the caller gives both the same), each text in a
 * private copy under @dir (old/K/NAME, new/K/NAME; the new one not with @new_known), so that
 * neither the compile database, nor a kernel tree, nor a quoted #include tells them apart; a
 * comment naming the 2.6.25 call is appended to both so that verify's prefilter parses
 * them (a text whose only call was replaced by garbage has no completion call left).
 * Returns 0, or -1 when the copies could not be written or nothing could be parsed.
 */
int output_guard_parse(struct bm_run *old_run, struct bm_run *new_run, const char *dir,
		       struct og_text *t, size_t n);

#endif
