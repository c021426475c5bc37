/*
 * origin_map.h - say things about the user's ORIGINAL files when the analysis ran on a
 * private copy (migrate's spatch tree).
 *
 * Owns: rewriting "COPY:LINE" (and a bare COPY) in a message to "ORIG:LINE'", where
 * LINE' is the line of the original that stands where the copy's line stands (a line
 * diff of the two versions; a changed line maps to the first original line of its
 * change), and the file-level outcome of a fix/migrate run in the report model.
 */
#ifndef BLKMIG_ORIGIN_MAP_H
#define BLKMIG_ORIGIN_MAP_H

#include <stddef.h>

#include "site.h"

/* One private copy and the original it stands for. */
struct origin_copy {
	const char *copy; /* path of the private copy (its current contents are read) */
	const char *orig; /* the user's path */
	const char *orig_data;
	size_t orig_len;
};

/*
 * The line of @orig_data that stands where line @line of @copy_data stands (1-based).
 * The whole line map of the last pair is kept; between origin_trust_begin() and
 * origin_trust_end() the caller promises that a buffer it asks about again still holds
 * the same text, so the same buffers are the same pair without a file-sized compare.
 */
void origin_trust_begin(void);
void origin_trust_end(void);
unsigned origin_line(const char *copy_data, size_t copy_len, const char *orig_data, size_t orig_len,
		     unsigned line);

/*
 * @msg with every "COPY:N" of the copies replaced by "ORIG:N'" and every other mention
 * of COPY by ORIG. Reads each mentioned copy from disk as it is now. malloc'd.
 */
char *origin_text(const struct origin_copy *copies, size_t n, const char *msg);

/*
 * @msg, known to be about the copy @oc (a reason of a site in it): also every
 * "line N" is told as the original's line, then the paths as origin_text(). malloc'd.
 */
char *origin_text_of(const struct origin_copy *oc, const char *msg);

/*
 * Record what became of @path in @run's file list: "converted", "unchanged", or
 * "left_untouched" with @code and @text (copied).
 */
void origin_file_outcome(struct bm_run *run, const char *path, const char *outcome,
			 const char *code, const char *text);

/*
 * Would converting @path mix the old and the new API? True (a malloc'd explanation)
 * when a legacy call of the file lies in code that could not be parsed (reason
 * `unparsed`) of a file with parse errors while another site of it is to be
 * converted; NULL otherwise.  Sites
 * whose @gone entry (indexed like run->sites; may be NULL) is 's' were converted by
 * spatch: they count as converted.
 */
char *origin_mixed_api(const struct bm_run *run, const char *path, const char *gone);

/* Free @s's edits. */
void origin_drop_edits(struct bm_site *s);

/*
 * A site another tool (spatch) rewrote: its edits become one replacement of its
 * "before" lines in the original (@orig_data) by its "after" lines, unless that overlaps
 * an edit of another site of @run in the same file (the pair's other call), when it
 * gets none.
 */
void origin_line_edit(const struct bm_run *run, struct bm_site *s, const char *orig_data,
		      size_t orig_len);

#endif
