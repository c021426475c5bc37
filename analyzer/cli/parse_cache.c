/*
 * parse_cache.c - a parse child's result kept between runs (issue 24: a run after
 * editing one file of a tree parses that file again, not the files only its whole-tree
 * facts read).
 *
 * parse.c names a file's parse by a key (the file, its text, the parse's arguments,
 * libclang, blkmig) and hands over what its child wrote for a file parsed for the
 * facts alone: the result (binary, kept beside the entry of the result cache, cache.c,
 * command "parse-file"), the files it read and the places it looked for a header in
 * vain, which are the entry's inputs.  Those in the run's private folder (the model
 * headers, --kernel-tree's configuration and asm overlay) are made again by every run
 * under another name: they are kept by their name inside the folder with their content,
 * and a later run's lookup checks its own folder's files against them.
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

/* PATH inside the private folder TMP: its name there; NULL outside it. */
static const char *inside(const char *path, const char *tmp)
{
	size_t n = strlen(tmp);

	return !strncmp(path, tmp, n) && path[n] == '/' ? path + n + 1 : NULL;
}

/* Whether each file of the folder the entry names is in TMP as it was there. */
static bool private_files_unchanged(json_t *files, const char *tmp)
{
	size_t i;
	json_t *f;

	if (!json_is_array(files))
		return false;
	json_array_foreach(files, i, f)
	{
		const char *name = json_string_value(json_array_get(f, 0));
		const char *hash = json_string_value(json_array_get(f, 1));
		char *path, now[65];

		if (!name || !hash)
			return false;
		path = xasprintf("%s/%s", tmp, name);
		bm_cache_hash_file(path, now);
		free(path);
		if (strcmp(now, hash))
			return false;
	}
	return true;
}

static char *lookup(const char *key, size_t keylen, const char *tmp, char **was, size_t *len)
{
	struct bm_cache *e = entry_of(key, keylen);
	json_t *st = bm_cache_lookup(e);
	const char *from = json_string_value(json_object_get(st, "tmp"));
	char *data = NULL;

	*was = NULL;
	if (st && from && private_files_unchanged(json_object_get(st, "private"), tmp) &&
	    (data = bm_cache_blob(e, st, len)))
		*was = xstrdup(from);
	json_decref(st);
	bm_cache_close(e);
	return data;
}

/* PATH (read, or looked for in vain: MISSING) as an input of E, or of PRIVATE; false
 * when a private file changed since the parse began (SINCE). */
static bool add(struct bm_cache *e, json_t *private, const char *tmp, const char *path,
		bool missing, const struct timespec *since)
{
	const char *name = inside(path, tmp);
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
	json_array_append_new(private, json_pack("[s, s]", name, hash));
	return true;
}

static void store(const char *key, size_t keylen, const char *tmp, const struct timespec *since,
		  const char *result, size_t len, const struct bm_strlist *inputs,
		  const struct bm_strlist *missing)
{
	struct bm_cache *e = entry_of(key, keylen);
	json_t *private = json_array();
	bool ok = e != NULL;

	bm_cache_since(e, since);
	for (size_t i = 0; ok && i < inputs->n; i++)
		ok = add(e, private, tmp, inputs->v[i], false, since);
	for (size_t i = 0; ok && i < missing->n; i++)
		ok = add(e, private, tmp, missing->v[i], true, since);
	if (ok)
		bm_cache_store_blob(e, json_pack("{s:s, s:o}", "tmp", tmp, "private", private),
				    result, len);
	else
		json_decref(private);
	bm_cache_close(e);
}

static const struct parse_cache_ops ops = {lookup, store};

void parse_cache_enable(bool on)
{
	bm_parse_cache = on && !getenv("BLKMIG_NO_PARSE_CACHE") ? &ops : NULL;
}
