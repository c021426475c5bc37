/*
 * cache.h - the result cache of `blkmig migrate` under $XDG_CACHE_HOME/blkmig
 * (default ~/.cache/blkmig): one entry per command (tool, arguments, working
 * directory, spatch and semantic patches), valid only while every file the run
 * read or included has the same content, every directory on the way to them
 * the same entries, and every header a parse looked for in vain is still
 * missing.  Safe to delete at any time; a damaged entry is ignored.
 */
#ifndef BLKMIG_CACHE_H
#define BLKMIG_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <jansson.h>

struct bm_cache;

/* A cache for this command line, or NULL when caching is off (BLKMIG_NO_CACHE set,
 * no usable cache directory).  ARGV: the command's own arguments. */
struct bm_cache *bm_cache_open(const char *command, int argc, char **argv);
/* The same for a result that does not depend on the working directory. */
struct bm_cache *bm_cache_open_anywhere(const char *command, int argc, char **argv);
/* More key material: a tool's identity, a text (e.g. the semantic patches). */
void bm_cache_key_text(struct bm_cache *c, const char *label, const char *text, size_t len);
/* A file's content into the key; its absence too. */
void bm_cache_key_file(struct bm_cache *c, const char *path);
/* A file's identity (path, size, mtime, inode) into the key: for large tools (spatch). */
void bm_cache_key_stat(struct bm_cache *c, const char *path);
/* A tree the run walks: directories under it on the way to a file read are recorded. */
void bm_cache_add_root(struct bm_cache *c, const char *dir);
/* The stored state of an identical earlier run, checked against every recorded
 * input; NULL on a miss (the caller owns the result). */
json_t *bm_cache_lookup(struct bm_cache *c);
/* From now on, every file read (util.c's read_file) and every file a parse includes
 * is an input of the result. */
void bm_cache_record(struct bm_cache *c);
/* Every read and include also goes to C from now on (NULL: to none), whatever the run
 * records: the inputs of a part of the run kept in its own entry. */
void bm_cache_record_also(struct bm_cache *c);
/* SRC's recorded inputs become DST's too. */
void bm_cache_add_inputs_of(struct bm_cache *dst, const struct bm_cache *src);
/* Store STATE (taken) with the recorded inputs, atomically.  Nothing is stored when
 * an input changed while the run was going on. */
void bm_cache_store(struct bm_cache *c, json_t *state);
/* PATH as an input of C's entry, outside any recording: its content hash now, or its
 * absence; checked again when the entry is stored. */
void bm_cache_add_input(struct bm_cache *c, const char *path);
/* The same with BLOB (LEN bytes, binary) kept beside the entry; STATE gets "blob". */
void bm_cache_store_blob(struct bm_cache *c, json_t *state, const char *blob, size_t len);
/* The blob of a STATE bm_cache_lookup() gave, as stored; NULL when it is gone or damaged. */
char *bm_cache_blob(struct bm_cache *c, json_t *state, size_t *len);
/* DATA (LEN bytes) kept beside C's entries under its hash, STATE[FIELD] naming it; false
 * when it cannot be written (STATE unchanged). */
bool bm_cache_put_blob(struct bm_cache *c, json_t *state, const char *field, const char *data,
		       size_t len);
/* The blob STATE[FIELD] names, checked against its hash; NULL when gone or damaged. */
char *bm_cache_get_blob(struct bm_cache *c, json_t *state, const char *field, size_t *len);
/* The same blob at PATH (a new file: a second link to it where the file system allows). */
bool bm_cache_blob_to(struct bm_cache *c, json_t *state, const char *field, const char *path);
/* PATH, looked for in vain, as an input of C's entry: void once it appears. */
void bm_cache_add_missing(struct bm_cache *c, const char *path);
/* The SHA-256 of PATH's content in hex, "missing" when it cannot be read; no input of
 * any run. */
void bm_cache_hash_file(const char *path, char out[65]);
/* A file a parse included (content hashed at store time). */
void bm_cache_note_include(const char *path);
/* ... as an input of C alone. */
void bm_cache_add_include(struct bm_cache *c, const char *path);
/* The work C keys began at T (not when C was opened): an include changed since then
 * keeps the entry from being stored. */
void bm_cache_since(struct bm_cache *c, const struct timespec *t);
void bm_cache_close(struct bm_cache *c);
/* Where the entries live (for messages and tests); NULL when off. */
const char *bm_cache_entry_path(const struct bm_cache *c);

#endif
