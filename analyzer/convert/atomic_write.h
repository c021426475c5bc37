/*
 * atomic_write.h - replace a file's contents in place, all or nothing.
 *
 * Owns: the in-place write of --in-place. The new bytes go to a temporary file in the
 * same directory, which gets the original's mode (and owner, where permitted), is
 * fsync'ed and then renamed over the original; the directory is fsync'ed after. Any
 * problem - a read-only file (even for root), a file that changed since it was read, a
 * hard-linked file, a full disk - leaves the original byte-for-byte as it was and says
 * why.
 */
#ifndef BLKMIG_ATOMIC_WRITE_H
#define BLKMIG_ATOMIC_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Replace @path with @data[0..@len). @expect (may be NULL) is what the caller read and
 * rewrote: if the file no longer holds exactly those @expect_len bytes it is left alone.
 * Checked before the temporary file is written and again right before the rename (the
 * bytes, and the inode, size and mtime seen at the first check).
 * Returns 0 on success, -1 with a message in @err on failure.
 */
int atomic_replace(const char *path, const char *data, size_t len, const char *expect,
		   size_t expect_len, char *err, size_t errlen);

/*
 * The checks atomic_replace() makes before writing: @path resolves to a writable regular
 * file with one link. Returns 0 (and the resolved path in @real, its stat in @st when not
 * NULL) or -1 with a message in @err. Lets a caller refuse a whole change set up front.
 */
struct stat;
int atomic_precheck(const char *path, char *real, size_t real_len, struct stat *st, char *err,
		    size_t errlen);

/* Write a new private file (or overwrite one blkmig owns): plain write, 0 or -1. */
int atomic_replace_new(const char *path, const char *data, size_t len, char *err, size_t errlen);

/*
 * An output file the user named (--patch FILE, -o FILE): written to a temporary file
 * beside it (with the owner mark, CLEANUP_TMP_PREFIX) and renamed over it only once
 * every byte is written, flushed and fsync'ed, so a failed write (a full disk) leaves
 * FILE as it was, never empty or cut; "-" is standard output, and a FILE that exists
 * and is not a regular file (/dev/null, a FIFO) is written directly.  out_open() gives
 * the stream, or NULL with "FILE: strerror" in @err; out_close() returns 0, or -1 with
 * "FILE: strerror" in @err (the temporary file removed).  @ok false: the caller's own
 * write failed (it says why); the temporary file is removed and FILE kept (@err may be
 * NULL).
 */
struct out_file {
	FILE *f;
	char *path; /* the file written at the end (a symbolic link resolved) */
	char *tmp;  /* the temporary file beside it, or NULL (written directly) */
};
FILE *out_open(struct out_file *o, const char *path, char *err, size_t errlen);
int out_close(struct out_file *o, bool ok, char *err, size_t errlen);

/* Read a whole file into a malloc'd NUL-terminated buffer; -1 with @err on failure. */
int read_whole_file(const char *path, char **data, size_t *len, char *err, size_t errlen);

#endif
