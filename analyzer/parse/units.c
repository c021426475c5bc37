/*
 * units.c - which parsed translation units are in memory.
 *
 * A file's unit lives on disk as the AST its parse child saved; the parent
 * loads it when the analysis asks something only libclang can answer (a
 * node's cursor, the unit itself) and lets it go again, least recently used
 * first, at the checkpoints between functions and files where no cursor is
 * held (units_trim).  The parent's memory then follows the few units in use,
 * not every file that matters: a loaded kernel unit with what the queries
 * read in is 5-10 MiB.  Loading a unit again gives its functions' nodes their
 * cursors back in the preorder they were built in, each function when it is
 * first asked about (ast_refill_func).
 *
 * One analysis runs at a time in a process, so the state is one: the run's
 * units and index (units_begin/units_end).  BLKMIG_RESIDENT_UNITS=N keeps N
 * units past a checkpoint (0: all, as before this file); the analyzer suite
 * runs every case with 1 and compares with 0.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "cleanup.h"
#include "util.h"

/* Units kept past a checkpoint: the functions in hand and their callers' files. */
#define DEFAULT_RESIDENT 8

static struct {
	struct ctx *cx;
	CXIndex idx;
	struct parse_env *env; /* to parse again a file whose AST was not kept */
	size_t cap;	       /* 0: keep all */
	unsigned long clock;
	unsigned long loads;	/* units loaded again (BLKMIG_UNIT_STATS) */
	size_t in_memory, most; /* units of the run in memory: now, at most */
	bool loaded;		/* since the last checkpoint */
} units;

void units_begin(struct ctx *cx, CXIndex idx, struct parse_env *env)
{
	const char *e = getenv("BLKMIG_RESIDENT_UNITS");

	/* A unit is loaded again only while its file holds the text it was parsed from:
	 * nothing writes a file during a run, and a parse a run takes over from the one
	 * before (reuse.c) has the same text and headers, compared byte for byte and
	 * by inode.  libclang's own check of a saved AST's inputs goes by modification
	 * time, which migrate's private copies change when spatch rewrites a file with
	 * the same bytes: that check would refuse a unit that is still exact. */
	setenv("LIBCLANG_DISABLE_PCH_VALIDATION", "1", 1);
	units.cx = cx;
	units.idx = idx;
	units.env = env;
	units.cap = DEFAULT_RESIDENT;
	if (e && *e)
		units.cap = strtoul(e, NULL, 10);
	units.loads = 0;
	units.in_memory = units.most = 0;
}

void units_end(void)
{
	if (getenv("BLKMIG_UNIT_STATS") && units.cx)
		fprintf(stderr, "blkmig: units loaded again: %lu, at most %zu in memory\n",
			units.loads, units.most);
	units.cx = NULL;
	units.idx = NULL;
	units.env = NULL;
}

static void main_of_inclusions(CXFile file, CXSourceLocation *stack, unsigned depth,
			       CXClientData data)
{
	CXFile *main = data;

	(void)stack;
	if (depth == 0 && !*main)
		*main = file;
}

CXFile unit_find_main_file(CXTranslationUnit tu, const char *path)
{
	char abs[PATH_MAX];
	CXFile f;
	CXString mp;

	if (!realpath(path, abs))
		snprintf(abs, sizeof(abs), "%s", path);
	f = clang_getFile(tu, abs);
	if (f)
		return f;
	mp = clang_getTranslationUnitSpelling(tu);
	f = clang_getFile(tu, clang_getCString(mp));
	clang_disposeString(mp);
	/* an AST whose main file is no longer on disk (a copy in the private tree of
	 * the run that saved it, parse.c): the file its inclusions start from */
	if (!f)
		clang_getInclusions(tu, main_of_inclusions, &f);
	return f;
}

/* NAME with the folder FROM[i] it lies in made TO[i]; a copy. */
static char *renamed(const char *name, char *const from[2], char *const to[2])
{
	for (int i = 0; i < 2; i++) {
		size_t n = from[i] ? strlen(from[i]) : 0;

		if (n && !strncmp(name, from[i], n) && name[n] == '/')
			return xasprintf("%s%s", to[i], name + n);
	}
	return xstrdup(name);
}

/* The index of T among the run's units, or -1 (a unit not adopted yet). */
static long unit_index(const struct tunit *t)
{
	struct ctx *cx = units.cx;

	if (!cx || t < cx->tus || t >= cx->tus + cx->ntus)
		return -1;
	return (long)(t - cx->tus);
}

/* T's parse child kept no AST (parse.c): parse it again, as it was parsed then, or take
 * the AST an earlier run's parse of it kept (parse_again()). */
static void unit_parse_again(struct tunit *t)
{
	t->unit = units.env ? parse_again(units.env, units.idx, t) : NULL;
	if (!t->unit) {
		fprintf(stderr,
			"blkmig: %s: cannot be parsed again, as its first parse was (was it "
			"removed meanwhile?); nothing written\n",
			t->path);
		cleanup_exit(BM_EXIT_USAGE);
	}
	t->ast_deferred = false;
}

static void unit_load(struct tunit *t)
{
	bool again = !t->ast_path;

	if (again)
		unit_parse_again(t);
	else if (clang_createTranslationUnit2(units.idx, t->ast_path, &t->unit) !=
		     CXError_Success ||
		 !t->unit) {
		/* it was saved and loaded before in this run: only a saved AST removed
		 * meanwhile gets here, and no analysis of the run can go on without it */
		fprintf(stderr,
			"blkmig: %s: its saved parse %s is gone or cannot be read (was $TMPDIR "
			"cleaned while blkmig ran?); nothing written\n",
			t->path, t->ast_path);
		cleanup_exit(BM_EXIT_USAGE);
	}
	{
		/* a kept AST's copy has the name it had in its run's private tree */
		char *as_saved = renamed(t->path, t->names_now, t->names_was);

		t->unit_file = unit_find_main_file(t->unit, as_saved);
		free(as_saved);
	}
	units.loads++;
	if (getenv("BLKMIG_UNIT_TRACE"))
		fprintf(stderr, "blkmig: unit load: %s%s\n", t->path,
			!again		  ? ""
			: t->names_was[0] ? " (its AST from the cache)"
					  : " (parsed again)");
	units.loaded = true;
	units.in_memory = 0;
	for (size_t i = 0; units.cx && i < units.cx->ntus; i++)
		units.in_memory += units.cx->tus[i].unit != NULL;
	if (units.in_memory > units.most)
		units.most = units.in_memory;
	/* its functions' cursors are made again when one of them is asked for
	 * (node_cursor()): most loads ask about a few functions only */
}

CXTranslationUnit unit_tu(struct tunit *t)
{
	if (!t->unit && (t->ast_path || t->ast_deferred) && units.idx)
		unit_load(t);
	if (t->unit)
		t->used = ++units.clock;
	return t->unit;
}

CXFile unit_file(struct tunit *t)
{
	return unit_tu(t) ? t->unit_file : NULL;
}

bool unit_parsed(const struct tunit *t)
{
	return t->unit || t->ast_path || t->ast_deferred;
}

/* A parse child builds its own unit's functions (func_model.c): the run's units and
 * their clock are the parent's, and its functions have their cursors. */
void units_forget(void)
{
	units.cx = NULL;
	units.idx = NULL;
}

/* F's unit in memory and F's cursors made (ast.c), once per load. */
static void func_in_memory(const struct func *f)
{
	if (!units.cx)
		return;
	unit_tu(&units.cx->tus[f->tu]);
	if (!f->curs)
		ast_refill_func(units.cx, (struct func *)f);
}

CXCursor node_cursor(const struct func *f, int n)
{
	func_in_memory(f);
	return f->curs[n];
}

CXCursor func_cursor(const struct func *f)
{
	func_in_memory(f);
	return f->decl;
}

/* Let T's unit go; it can be loaded again from its saved AST. */
static void unit_evict(struct tunit *t)
{
	long ti = unit_index(t);

	/* its functions' cursors go with it (ast_refill_unit() makes them again) */
	for (size_t i = 0; ti >= 0 && i < units.cx->nfuncs; i++)
		if (units.cx->funcs[i].tu == (size_t)ti) {
			free(units.cx->funcs[i].curs);
			units.cx->funcs[i].curs = NULL;
		}
	clang_disposeTranslationUnit(t->unit);
	t->unit = NULL;
	t->unit_file = NULL;
}

void units_trim(void)
{
	struct ctx *cx = units.cx;
	size_t resident = 0;

	if (!cx || !units.cap || !units.loaded)
		return;
	units.loaded = false;
	for (size_t i = 0; i < cx->ntus; i++)
		resident += cx->tus[i].unit && cx->tus[i].ast_path;
	while (resident > units.cap) {
		struct tunit *oldest = NULL;

		for (size_t i = 0; i < cx->ntus; i++) {
			struct tunit *t = &cx->tus[i];

			if (t->unit && t->ast_path && (!oldest || t->used < oldest->used))
				oldest = t;
		}
		if (!oldest)
			break;
		unit_evict(oldest);
		resident--;
	}
}

void unit_let_go(struct tunit *t)
{
	if (t->ast_path && t->unit && units.cap)
		unit_evict(t);
}

static void forget_names(struct tunit *t)
{
	for (int i = 0; i < 2; i++) {
		free(t->names_was[i]);
		free(t->names_now[i]);
		t->names_was[i] = t->names_now[i] = NULL;
	}
}

void unit_files_made_in(struct tunit *t, char *const was[2], const char *const now[2])
{
	forget_names(t);
	for (int i = 0; i < 2; i++)
		if (was[i] && now[i]) {
			t->names_was[i] = xstrdup(was[i]);
			t->names_now[i] = xstrdup(now[i]);
		}
}

char *unit_file_name(const struct tunit *t, CXFile f)
{
	CXString s = clang_getFileName(f);
	const char *name = clang_getCString(s);
	char *out = renamed(name ? name : "", t->names_was, t->names_now);

	clang_disposeString(s);
	return out;
}

void unit_release(struct tunit *t)
{
	if (t->unit)
		clang_disposeTranslationUnit(t->unit);
	t->unit = NULL;
	t->unit_file = NULL;
	if (t->ast_path)
		unlink(t->ast_path);
	free(t->ast_path);
	t->ast_path = NULL;
	t->ast_deferred = false;
	forget_names(t);
	parse_key_free(t->again_key);
	t->again_key = NULL;
}
