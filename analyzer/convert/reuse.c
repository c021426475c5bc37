/*
 * reuse.c - parses one analysis run hands to the next over the same files.
 *
 * migrate analyses spatch's output, then verifies the files it converted:
 * most of them (every file where spatch converted all and the analyzer added
 * nothing) are byte for byte what the first run parsed.  Parsing a kernel
 * file with its headers is the cost of an analysis, so the second run takes
 * the first run's translation unit instead, when that cannot change a thing:
 * the same parse arguments (options), the same text of the file, and every
 * file the parse included still the same on disk (device, inode, size and
 * modification time; a rewritten header is a new inode).  Anything else is
 * parsed again.  A header the first parse missed got a stub then (parse.c), in
 * the environment the next run takes over, so a new parse would not find a
 * header the kept one did not.  BLKMIG_NO_PARSE_REUSE=1 parses every file in
 * every run (the reference the tests compare with).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "func_index.h"
#include "reuse.h"

struct included {
	char *path;
	struct stat st;
};

struct kept {
	char *path;
	char *src;
	size_t len;
	struct tunit t;	  /* tu, cxfile, err_offsets, fn_* */
	struct bm_file f; /* status, errors, warnings, used_model, reason, diagnostics */
	struct included *inc;
	size_t ninc, inc_cap;
	bool unusable; /* an included file could not be looked at */
};

struct bm_reuse {
	char *options; /* the parse arguments' inputs, as one string */
	struct parse_env *env;
	CXIndex idx;
	struct kept *kept;
	size_t nkept, kept_cap;
};

struct bm_reuse *bm_reuse_new(void)
{
	return xcalloc(1, sizeof(struct bm_reuse));
}

static void kept_free(struct kept *k)
{
	free(k->path);
	free(k->src);
	unit_release(&k->t);
	free(k->t.err_offsets);
	func_index_free(&k->t);
	strlist_free(&k->t.includes);
	free(k->f.reason);
	strlist_free(&k->f.diagnostics);
	for (size_t i = 0; i < k->ninc; i++)
		free(k->inc[i].path);
	free(k->inc);
	memset(k, 0, sizeof(*k));
}

/* Let go of every kept parse (before the index and environment they live in). */
static void drop_kept(struct bm_reuse *r)
{
	for (size_t i = 0; i < r->nkept; i++)
		kept_free(&r->kept[i]);
	free(r->kept);
	r->kept = NULL;
	r->nkept = r->kept_cap = 0;
}

void bm_reuse_free(struct bm_reuse *r)
{
	if (!r)
		return;
	drop_kept(r);
	if (r->idx)
		clang_disposeIndex(r->idx);
	parse_env_free(r->env);
	free(r->options);
	free(r);
}

/* Everything of the options that goes into a file's parse arguments (parse.c). */
static char *options_key(const struct bm_options *o)
{
	struct bm_strlist parts = {0};
	size_t n = 0;
	char *key, *at;

	for (size_t i = 0; i < o->include_dirs.n; i++)
		strlist_push_owned(&parts, xasprintf("-I%s", o->include_dirs.v[i]));
	for (size_t i = 0; i < o->defines.n; i++)
		strlist_push_owned(&parts, xasprintf("-D%s", o->defines.v[i]));
	strlist_push_owned(&parts, xasprintf("-p%s", o->build_dir ? o->build_dir : ""));
	strlist_push_owned(&parts, xasprintf("-k%s", o->kernel_tree ? o->kernel_tree : ""));
	strlist_push_owned(&parts, xasprintf("-t%u", o->timeout));
	for (size_t i = 0; i < parts.n; i++)
		n += strlen(parts.v[i]) + 1;
	key = at = xmalloc(n + 1);
	for (size_t i = 0; i < parts.n; i++)
		at += sprintf(at, "%s%c", parts.v[i], '\n');
	*at = '\0';
	strlist_free(&parts);
	return key;
}

struct parse_env *reuse_take_env(struct bm_reuse *r, struct bm_run *run, CXIndex *idx)
{
	char *key;
	struct parse_env *env = NULL;

	if (!r)
		return NULL;
	const char *off = getenv("BLKMIG_NO_PARSE_REUSE");

	key = options_key(&run->opt);
	if (r->env && r->options && !strcmp(key, r->options) &&
	    !(off && *off && strcmp(off, "0"))) {
		env = parse_env_rebind(r->env, run);
		*idx = r->idx;
	} else {
		drop_kept(r);
		if (r->idx)
			clang_disposeIndex(r->idx);
		parse_env_free(r->env);
	}
	r->env = NULL;
	r->idx = NULL;
	free(r->options);
	r->options = key;
	return env;
}

/* What a parse made of a unit (parse.c, func_index.c), moved from one unit to another. */
static void move_parse(struct tunit *to, struct tunit *from)
{
	to->unit = from->unit;
	to->unit_file = from->unit_file;
	to->ast_path = from->ast_path;
	memcpy(to->names_was, from->names_was, sizeof(to->names_was));
	memcpy(to->names_now, from->names_now, sizeof(to->names_now));
	to->again_key = from->again_key;
	to->ast_deferred = from->ast_deferred;
	to->used = from->used;
	to->err_offsets = from->err_offsets;
	to->nerr = from->nerr;
	to->err_cap = from->err_cap;
	to->fn_at = from->fn_at;
	to->fn_usr = from->fn_usr;
	to->nfn = from->nfn;
	to->fn_listed = from->fn_listed;
	to->outer = from->outer;
	to->nouter = from->nouter;
	to->outer_listed = from->outer_listed;
	to->model = from->model;
	to->model_s = from->model_s;
	to->nmodel = from->nmodel;
	to->model_listed = from->model_listed;
	to->model_file = from->model_file;
	to->model_at = from->model_at;
	to->includes = from->includes;
	to->includes_listed = from->includes_listed;
	from->unit = NULL;
	from->unit_file = NULL;
	from->ast_path = NULL;
	memset(from->names_was, 0, sizeof(from->names_was));
	memset(from->names_now, 0, sizeof(from->names_now));
	from->again_key = NULL;
	from->ast_deferred = false;
	from->err_offsets = NULL;
	from->nerr = from->err_cap = 0;
	from->fn_at = NULL;
	from->fn_usr = NULL;
	from->nfn = 0;
	from->fn_listed = false;
	from->outer = NULL;
	from->nouter = 0;
	from->outer_listed = false;
	from->model = NULL;
	from->model_s = NULL;
	from->nmodel = 0;
	from->model_listed = false;
	from->model_file = NULL;
	memset(&from->includes, 0, sizeof(from->includes));
	from->includes_listed = false;
}

/* What a parse says of a file in the report: status, counts, reason, diagnostics. */
static void copy_file_parse(struct bm_file *to, const struct bm_file *from)
{
	to->status = from->status;
	to->errors = from->errors;
	to->warnings = from->warnings;
	to->used_model = from->used_model;
	free(to->reason);
	to->reason = from->reason ? xstrdup(from->reason) : NULL;
	strlist_free(&to->diagnostics);
	for (size_t d = 0; d < from->diagnostics.n; d++)
		strlist_push(&to->diagnostics, from->diagnostics.v[d]);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

bool reuse_take_parse(struct bm_reuse *r, struct bm_run *run, size_t fi, const char *src,
		      size_t len, struct tunit *t)
{
	struct bm_file *file = &run->files[fi];
	struct kept *k = NULL;

	if (!r)
		return false;
	for (size_t i = 0; i < r->nkept && !k; i++)
		if (unit_parsed(&r->kept[i].t) && !strcmp(r->kept[i].path, file->path))
			k = &r->kept[i];
	if (!k || k->unusable || k->len != len || memcmp(k->src, src, len))
		return false;
	for (size_t i = 0; i < k->ninc; i++) {
		struct stat st;

		if (stat(k->inc[i].path, &st) || !same_file(&st, &k->inc[i].st))
			return false;
	}
	move_parse(t, &k->t);
	copy_file_parse(file, &k->f);
	return true;
}

/* A file the kept parse included (its text is compared instead of the main file's):
 * as it is now, to be stat()ed again when the parse is taken. */
static void add_included(struct kept *k, const char *path)
{
	struct included *inc = vec_push(k->inc, k->ninc, k->inc_cap);

	inc->path = xstrdup(path);
	if (stat(inc->path, &inc->st))
		k->unusable = true;
}

static void note_included(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	struct kept *k = data;
	char *name;

	(void)stack;
	if (depth == 0)
		return;
	name = unit_file_name(&k->t, f);
	add_included(k, name);
	free(name);
}

void reuse_put(struct bm_reuse *r, struct ctx *cx, struct parse_env *env, CXIndex idx)
{
	drop_kept(r);
	for (size_t i = 0; i < cx->ntus; i++) {
		struct tunit *t = &cx->tus[i];
		struct bm_file *file = &cx->run->files[t->file_index];
		struct kept *k;

		if (!unit_parsed(t) || !t->src)
			continue;
		k = vec_push(r->kept, r->nkept, r->kept_cap);
		memset(k, 0, sizeof(*k));
		k->path = xstrdup(file->path);
		k->src = t->src;
		k->len = t->len;
		t->src = NULL;
		move_parse(&k->t, t);
		copy_file_parse(&k->f, file);
		/* listed as the parse was loaded (parse.c): no unit loaded again for it */
		if (k->t.includes_listed)
			for (size_t j = 0; j < k->t.includes.n; j++)
				add_included(k, k->t.includes.v[j]);
		else if (unit_tu(&k->t))
			clang_getInclusions(k->t.unit, note_included, k);
		/* kept on disk until the next run asks for it (units.c) */
		unit_let_go(&k->t);
	}
	r->env = env;
	r->idx = idx;
}
