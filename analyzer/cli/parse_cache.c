/*
 * parse_cache.c - a parse child's result kept between runs (issue 24: a run after
 * editing one file of a tree parses that file again, and no other: not the files its
 * whole-tree facts read, not the files with legacy calls, not migrate's copies of the
 * files spatch's result leaves as they were).
 *
 * parse.c names a file's parse by a key (the file, its text, the parse's arguments,
 * libclang, blkmig) and hands over what its child wrote: the result (binary, kept
 * beside the entry of the result cache, cache.c, command "parse-file"), the AST it
 * saved for a file the analysis asks libclang about (a second blob; the parse embeds
 * every file it read in it), the files it read and the places it looked for a header
 * in vain, which are the entry's inputs.  Those in the run's private folders (its
 * parse environment's: the model headers, --kernel-tree's configuration and asm
 * overlay; migrate's private tree, for a copy) are made again by every run under other
 * names: they are kept by their name inside the folder with their content, and a later
 * run's lookup checks its own folders' files against them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "cache.h"
#include "parse_cache.h"
#include "util.h"

static struct bm_cache *entry_of(const char *key, size_t keylen)
{
	struct bm_cache *e = bm_cache_open_anywhere("parse-file", 0, NULL);

	bm_cache_key_text(e, "parse", key, keylen);
	return e;
}

/* PATH inside one of the private folders DIRS: its name there, *WHICH the folder; NULL
 * outside them. */
static const char *inside(const char *path, const char *const dirs[2], int *which)
{
	for (int i = 0; i < 2; i++) {
		size_t n = dirs[i] ? strlen(dirs[i]) : 0;

		if (n && !strncmp(path, dirs[i], n) && path[n] == '/') {
			*which = i;
			return path + n + 1;
		}
	}
	return NULL;
}

/* Whether each file of the folders the entry names is in NOW's as it was there. */
static bool private_files_unchanged(json_t *files, const char *const now[2])
{
	size_t i;
	json_t *f;

	if (!json_is_array(files))
		return false;
	json_array_foreach(files, i, f)
	{
		const char *name = json_string_value(json_array_get(f, 0));
		const char *hash = json_string_value(json_array_get(f, 1));
		json_int_t which = json_integer_value(json_array_get(f, 2));
		char *path, h[65];

		if (!name || !hash || which < 0 || which > 1 || !now[which])
			return false;
		path = xasprintf("%s/%s", now[which], name);
		bm_cache_hash_file(path, h);
		free(path);
		if (strcmp(h, hash))
			return false;
	}
	return true;
}

static char *lookup(const char *key, size_t keylen, const char *const now[2], char *was[2],
		    size_t *len, const char *ast)
{
	struct bm_cache *e = entry_of(key, keylen);
	json_t *st = bm_cache_lookup(e), *dirs = json_object_get(st, "dirs");
	const char *from = json_string_value(json_array_get(dirs, 0));
	const char *copies = json_string_value(json_array_get(dirs, 1));
	char *data = NULL;

	was[0] = was[1] = NULL;
	/* a copy's entry is one for a copy */
	if (st && from && !copies == !now[1] &&
	    private_files_unchanged(json_object_get(st, "private"), now) &&
	    (data = bm_cache_blob(e, st, len))) {
		if (ast && !bm_cache_blob_to(e, st, "ast", ast)) {
			free(data);
			data = NULL;
		} else {
			was[0] = xstrdup(from);
			was[1] = copies ? xstrdup(copies) : NULL;
		}
	}
	json_decref(st);
	bm_cache_close(e);
	return data;
}

/* PATH (read, or looked for in vain: MISSING) as an input of E, or of PRIVATE; false
 * when a private file changed since the parse began (SINCE). */
static bool add(struct bm_cache *e, json_t *private, const char *const dirs[2], const char *path,
		bool missing, const struct timespec *since)
{
	int which = 0;
	const char *name = inside(path, dirs, &which);
	struct stat st;
	char hash[65];

	if (!name) {
		if (missing)
			bm_cache_add_missing(e, path);
		else
			bm_cache_add_include(e, path); /* hashed when stored */
		return true;
	}
	if (!stat(path, &st) &&
	    (st.st_mtim.tv_sec > since->tv_sec ||
	     (st.st_mtim.tv_sec == since->tv_sec && st.st_mtim.tv_nsec >= since->tv_nsec)))
		return missing; /* made since: a stub of another parse, else not what it read */
	bm_cache_hash_file(path, hash);
	json_array_append_new(private, json_pack("[s, s, i]", name, hash, which));
	return true;
}

static void store(const char *key, size_t keylen, const char *const dirs[2],
		  const struct timespec *since, const char *result, size_t len,
		  const struct bm_strlist *inputs, const struct bm_strlist *missing,
		  const char *ast)
{
	struct bm_cache *e = entry_of(key, keylen);
	json_t *private = json_array(), *st;
	bool ok = e != NULL;

	bm_cache_since(e, since);
	for (size_t i = 0; ok && i < inputs->n; i++)
		ok = add(e, private, dirs, inputs->v[i], false, since);
	for (size_t i = 0; ok && i < missing->n; i++)
		ok = add(e, private, dirs, missing->v[i], true, since);
	if (!ok) {
		json_decref(private);
		bm_cache_close(e);
		return;
	}
	st = json_pack("{s:[s, s?], s:o}", "dirs", dirs[0], dirs[1], "private", private);
	if (ast) {
		void (*hook)(const char *, const char *, size_t) = bm_input_hook;
		size_t n = 0;
		char *data;

		bm_input_hook = NULL; /* the run's own file: no input */
		data = read_file(ast, &n);
		bm_input_hook = hook;
		ok = data && bm_cache_put_blob(e, st, "ast", data, n);
		free(data);
	}
	if (ok)
		bm_cache_store_blob(e, st, result, len);
	else
		json_decref(st);
	bm_cache_close(e);
}

static const struct parse_cache_ops ops = {lookup, store};

bool parse_cache_enable(bool on)
{
	bool was = bm_parse_cache != NULL;

	bm_parse_cache = on && !getenv("BLKMIG_NO_PARSE_CACHE") ? &ops : NULL;
	return was;
}
