/*
 * indent_fix.h - the layout of the lines a conversion adds (issue 22: checkpatch-clean).
 *
 * Owns: two rules applied to the lines of a converted text that its diff against the
 * original adds, and to no other line:
 *  - indentation: a line whose leading whitespace has a space before a tab, or that
 *    starts a statement with tabs then 1-7 spaces, is indented with tabs (visual column
 *    / 8, tabs of 8; a continuation line keeps its exact column, as tabs then spaces,
 *    moved with its statement's first line).  Lines indented with spaces only keep them.
 *  - width: a line of 80 columns or more, wider than the lines it replaces, is broken
 *    after an argument's comma, the continuation aligned with the open parenthesis, as
 *    spatch --max-width 80 breaks the lines it writes (greedy: an argument and its comma
 *    stay on the line while it is at most 78 columns wide, the last one with the rest of
 *    the statement while at most 79).
 *  - spacing: a declaration the conversion adds at the top of a block (a hoisted read's
 *    local), right before a statement, is followed by a blank line.
 * Used on the analyzer's rewrite (rewrite_plan.c) and on migrate's result after spatch
 * (cmd_migrate.c), so both tools' lines get the same layout.
 */
#ifndef BLKMIG_INDENT_FIX_H
#define BLKMIG_INDENT_FIX_H

#include <stddef.h>

/*
 * Applies the rules to the lines *@new (*@new_len bytes, malloc'd, NUL-terminated) adds
 * to @old; when a line changes, *@new is replaced by a new malloc'd text and the old one
 * freed.  On a memory or diff error *@new is left as it is.
 */
void indent_fix_text(const char *old, size_t old_len, char **new, size_t *new_len);

#endif
