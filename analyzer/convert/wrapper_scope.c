/*
 * wrapper_scope.c - may a non-static wrapper's `uptodate` parameter become
 * `error`?  Only when the set of its callers is provably closed, so that no
 * caller anywhere keeps passing an uptodate value to the renamed parameter
 * (the 2.6.25 conversion of drivers whose wrapper several of their files
 * share).  wrappers.c asks; this file owns the rule:
 * - the function is not exported (EXPORT_SYMBOL, _GPL, _GPL_FUTURE of it in
 *   its file): a module anywhere may call it;
 * - it is never used as a value (wrappers.c checks addr_taken first);
 * - the files that could name it were all looked at, and every place one of
 *   them names it is a call the analysis saw (parsed, in a function without
 *   parse errors, not made by a macro), a prototype of it, or its definition.
 *   "The files that could name it": in a kernel tree (--kernel-tree, or
 *   found by itself) every .c and .h file of the tree, since built-in code
 *   links with any non-static symbol; outside one, the wrapper's own
 *   directory must have been walked as a whole (a directory PATH holding it;
 *   a file given alone says nothing of its neighbours: an out-of-tree module
 *   links only its own objects), and the files are every .c and .h file
 *   under the directory PATHs and every file PATH given.
 * The prototypes found (a header of the driver, an extern declaration in a
 * .c file) get their parameter renamed `error` too.  The files are read
 * once per run, and only when some group has a wrapper that is a candidate.
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rewrite.h"
#include "wrapper_scope.h"

struct wscope_file {
	char *path; /* as the edits and reports name it */
	char *real;
	struct bm_strlist names; /* the candidate names its code holds */
};

struct wscope {
	struct wscope_file *v;
	size_t n, cap;
	char **tu_real;		 /* realpath of each parsed unit's file */
	struct bm_strlist roots; /* the directories looked at, resolved */
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static char *real_of(const char *path)
{
	char buf[PATH_MAX];

	return realpath(path, buf) ? xstrdup(buf) : xstrdup(path);
}

static bool inside(const char *real, const char *root)
{
	size_t n = strlen(root);

	return !strncmp(real, root, n) && (real[n] == '/' || real[n] == '\0' || !strcmp(root, "/"));
}

/* the .c and .h files under dir (hidden and symlinked directories skipped), sorted */
static void list_dir(const char *dir, struct bm_strlist *out)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *p = xasprintf("%s/%s", dir, name);
		struct stat st;

		if (name[0] != '.' && !lstat(p, &st)) {
			if (S_ISDIR(st.st_mode))
				list_dir(p, out);
			else if (S_ISREG(st.st_mode) &&
				 (ends_with(name, ".c") || ends_with(name, ".h")))
				strlist_push(out, p);
		}
		free(p);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

/* A set of strings by hash: a kernel tree lists ~19,000 files, some twice (walked too). */
struct str_set {
	char **slot;
	size_t cap;
};

/* Add s (taken); false when it was there already (then s is freed). */
static bool str_set_add(struct str_set *set, char *s)
{
	size_t i = bm_str_hash(s) % set->cap;

	while (set->slot[i]) {
		if (!strcmp(set->slot[i], s)) {
			free(s);
			return false;
		}
		i = (i + 1) % set->cap;
	}
	set->slot[i] = s;
	return true;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* the next place at or after *from where code names `name` as a whole identifier */
static bool next_name(const char *code, size_t len, const char *name, size_t *from)
{
	size_t n = strlen(name);

	for (const char *p = code + *from; p + n <= code + len;) {
		const char *q = memmem(p, (size_t)(code + len - p), name, n);

		if (!q)
			return false;
		if ((q == code || !ident_char(q[-1])) &&
		    (q + n == code + len || !ident_char(q[n]))) {
			*from = (size_t)(q - code);
			return true;
		}
		p = q + 1;
	}
	return false;
}

struct wscope *wscope_make(struct ctx *cx, const struct bm_strlist *names)
{
	struct wscope *ws = xcalloc(1, sizeof(*ws));
	struct bm_strlist files = {0};
	struct str_set seen = {0};

	if (cx->run->opt.kernel_tree)
		strlist_push_owned(&ws->roots, real_of(cx->run->opt.kernel_tree));
	for (size_t i = 0; i < cx->npaths; i++) {
		struct stat st;

		if (!stat(cx->paths[i], &st) && S_ISDIR(st.st_mode))
			strlist_push_owned(&ws->roots, real_of(cx->paths[i]));
	}
	/* the walked files first: a file named both ways keeps the name the run gave it */
	for (size_t i = 0; i < cx->run->nfiles; i++)
		if (!cx->run->files[i].link)
			strlist_push(&files, cx->run->files[i].path);
	for (size_t i = 0; i < cx->npaths; i++) {
		struct stat st;

		if (!stat(cx->paths[i], &st) && S_ISDIR(st.st_mode))
			list_dir(cx->paths[i], &files);
	}
	if (cx->run->opt.kernel_tree)
		list_dir(cx->run->opt.kernel_tree, &files);
	ws->tu_real = xcalloc(cx->ntus + 1, sizeof(char *));
	for (size_t k = 0; k < cx->ntus; k++)
		ws->tu_real[k] = real_of(cx->tus[k].path);
	seen.cap = 2 * files.n + 1;
	seen.slot = xcalloc(seen.cap, sizeof(*seen.slot));
	for (size_t j = 0; j < files.n; j++) {
		char *real = real_of(files.v[j]);
		size_t len;
		char *src;
		bool any = false;

		if (!str_set_add(&seen, real))
			continue;
		src = read_file(files.v[j], &len);
		for (size_t k = 0; src && k < names->n && !any; k++)
			any = memmem(src, len, names->v[k], strlen(names->v[k])) != NULL;
		if (any) {
			char *code = bm_blank_comments(src, len);
			struct wscope_file *wf = vec_push(ws->v, ws->n, ws->cap);

			memset(wf, 0, sizeof(*wf));
			wf->path = xstrdup(files.v[j]);
			wf->real = xstrdup(real);
			for (size_t k = 0; k < names->n; k++) {
				size_t at = 0;

				if (next_name(code, len, names->v[k], &at))
					strlist_push(&wf->names, names->v[k]);
			}
			free(code);
		}
		free(src);
	}
	strlist_free(&files);
	for (size_t i = 0; i < seen.cap; i++)
		free(seen.slot[i]);
	free(seen.slot);
	return ws;
}

void wscope_free(struct wscope *ws, size_t ntus)
{
	if (!ws)
		return;
	for (size_t i = 0; i < ws->n; i++) {
		free(ws->v[i].path);
		free(ws->v[i].real);
		strlist_free(&ws->v[i].names);
	}
	free(ws->v);
	for (size_t k = 0; k < ntus; k++)
		free(ws->tu_real[k]);
	free(ws->tu_real);
	strlist_free(&ws->roots);
	free(ws);
}

char *wscope_exported(struct ctx *cx, const struct func *f)
{
	static const char *const macros[] = {"EXPORT_SYMBOL_GPL_FUTURE", "EXPORT_SYMBOL_GPL",
					     "EXPORT_SYMBOL"};
	struct tunit *t = &cx->tus[f->tu];
	const char *code = t->clean ? t->clean : t->src;

	for (size_t m = 0; m < sizeof(macros) / sizeof(*macros); m++)
		for (size_t at = 0; next_name(code, t->len, macros[m], &at); at++) {
			size_t p = at + strlen(macros[m]), n = strlen(f->name);

			while (p < t->len && (code[p] == ' ' || code[p] == '\t' || code[p] == '\n'))
				p++;
			if (p >= t->len || code[p] != '(')
				continue;
			p++;
			while (p < t->len && (code[p] == ' ' || code[p] == '\t' || code[p] == '\n'))
				p++;
			if (p + n <= t->len && !strncmp(code + p, f->name, n) &&
			    !ident_char(code[p + n]))
				return xasprintf("%s at %s:%u", macros[m], t->path,
						 offset_line(t, at, NULL));
		}
	return NULL;
}

struct inclusion_hunt {
	const char *real;
	CXFile found;
	const struct tunit *t;
};

static void find_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, void *ctx)
{
	struct inclusion_hunt *h = ctx;
	char *name, *real;

	(void)stack;
	if (h->found || !depth)
		return;
	name = unit_file_name(h->t, file);
	real = real_of(name);
	if (!strcmp(real, h->real))
		h->found = file;
	free(real);
	free(name);
}

/* The unit whose main file is wf, or the first that includes it; *file its handle.
 * (clang_getFile() is no proof of inclusion: it finds any file on disk.) */
static long unit_of(struct ctx *cx, struct wscope *ws, const struct wscope_file *wf, CXFile *file,
		    bool *main)
{
	for (size_t k = 0; k < cx->ntus; k++)
		if (unit_parsed(&cx->tus[k]) && !strcmp(ws->tu_real[k], wf->real)) {
			*file = unit_file(&cx->tus[k]);
			*main = true;
			return (long)k;
		}
	*main = false;
	if (!ends_with(wf->path, ".h"))
		return -1;
	for (size_t k = 0; k < cx->ntus; k++) {
		struct inclusion_hunt h = {wf->real, NULL, &cx->tus[k]};
		/* a unit not in memory holds no cursor of the caller's: it may go again */
		bool was_loaded = cx->tus[k].unit != NULL;

		if (!unit_tu(&cx->tus[k]))
			continue;
		clang_getInclusions(cx->tus[k].unit, find_inclusion, &h);
		if (!h.found && !was_loaded)
			unit_let_go(&cx->tus[k]);
		if (h.found) {
			*file = h.found;
			return (long)k;
		}
	}
	return -1;
}

/* Rename the prototype's parameter pi `error` (NULL), or say why it cannot be. */
static char *rename_in_prototype(CXCursor proto, const struct func *f, int pi, const char *path,
				 const char *src, size_t len, struct bm_site *scratch,
				 unsigned line)
{
	int n = clang_Cursor_getNumArguments(proto);
	char *why = NULL;

	if (n != f->nparams)
		return xasprintf("%s:%u declares %s() with %d parameter(s), its definition has %d",
				 path, line, f->name, n, f->nparams);
	for (int i = 0; i < n && !why; i++) {
		CXCursor pc = clang_Cursor_getArgument(proto, (unsigned)i);
		CXString s = clang_getCursorSpelling(pc);
		const char *name = clang_getCString(s);
		CXFile file;
		size_t off = loc_offset(clang_getCursorLocation(pc), &file);

		if (i != pi && !strcmp(name, "error"))
			why = xasprintf("the prototype of %s() at %s:%u already names a parameter "
					"'error'",
					f->name, path, line);
		else if (i == pi && name[0] && strcmp(name, "error")) {
			if (off + strlen(name) > len || strncmp(src + off, name, strlen(name)))
				why = xasprintf("cannot locate the parameter '%s' of the prototype "
						"of %s() at %s:%u",
						name, f->name, path, line);
			else
				edit_add(scratch, path, off, off + strlen(name), "error");
		}
		clang_disposeString(s);
	}
	return why;
}

/* Is the place at `off` of unit k's main file a call of f the analysis saw? */
static char *call_here(struct ctx *cx, const struct func *f, size_t k, size_t off, bool *hit)
{
	size_t fi = (size_t)(f - cx->funcs);

	*hit = false;
	for (size_t c = 0; c < cx->ncalls; c++) {
		const struct call *cl = &cx->calls[c];
		const struct func *caller = &cx->funcs[cl->func];

		if (cl->callee != (long)fi || caller->tu != k ||
		    caller->nodes[cl->node].start != off)
			continue;
		*hit = true;
		if (caller->has_errors)
			return xasprintf(
			    "the call of %s() at %s:%u is in %s(), which did not parse "
			    "without errors",
			    f->name, cx->tus[k].path, offset_line(&cx->tus[k], off, NULL),
			    caller->name);
		return NULL;
	}
	return NULL;
}

char *wscope_check(struct ctx *cx, struct wscope *ws, const struct func *f, int pi,
		   struct bm_site *scratch, char **held)
{
	struct tunit *deft = &cx->tus[f->tu];
	char *def_real = real_of(deft->path), *def_dir = xstrdup(def_real), *slash;
	bool covered = false, in_tree = false;
	size_t def_off;
	CXFile deff;
	struct sbuf seen = {0};
	unsigned nfiles = 0, nprotos = 0;

	slash = strrchr(def_dir, '/');
	if (slash)
		*slash = '\0';
	if (cx->run->opt.kernel_tree) {
		char *kt = real_of(cx->run->opt.kernel_tree);

		in_tree = inside(def_real, kt);
		free(kt);
	}
	for (size_t r = 0; r < ws->roots.n && !covered; r++)
		covered = inside(def_dir, ws->roots.v[r]);
	free(def_real);
	if (!covered) {
		const char *sl = strrchr(deft->path, '/');
		char *why = xasprintf("its directory %.*s was not walked as a whole (only files of "
				      "it were given), so files there that name it are unknown",
				      sl ? (int)(sl - deft->path) : 1, sl ? deft->path : ".");

		free(def_dir);
		return why;
	}
	def_off = loc_offset(clang_getCursorLocation(func_cursor(f)), &deff);
	for (size_t i = 0; i < ws->n; i++) {
		struct wscope_file *wf = &ws->v[i];
		CXFile file = NULL;
		bool main = false;
		long k;
		size_t len;
		char *src, *code;
		char *why = NULL;

		if (!strlist_has(&wf->names, f->name))
			continue;
		k = unit_of(cx, ws, wf, &file, &main);
		if (k < 0 || !file) {
			char *why2 =
			    xasprintf("%s names it and %s", wf->path,
				      ends_with(wf->path, ".h") ? "no analysed file includes it"
								: "was not analysed");

			free(def_dir);
			free(sbuf_take(&seen));
			return why2;
		}
		nfiles++;
		sbuf_printf(&seen, "%s%s", seen.len ? ", " : "", wf->path);
		src = main ? NULL : read_file(wf->path, &len);
		if (main) {
			len = cx->tus[k].len;
			code = bm_blank_comments(cx->tus[k].src, len);
		} else {
			code = src ? bm_blank_comments(src, len) : NULL;
		}
		for (size_t at = 0; code && !why && next_name(code, len, f->name, &at);
		     at += strlen(f->name)) {
			const char *text = main ? cx->tus[k].src : src;
			unsigned line = bm_line_of(text, at);
			bool hit = false;
			CXCursor c;

			if (main && (size_t)f->tu == (size_t)k && at == def_off)
				continue; /* the definition */
			if (main) {
				why = call_here(cx, f, (size_t)k, at, &hit);
				if (hit || why)
					continue;
			}
			c = clang_getCursor(
			    unit_tu(&cx->tus[k]),
			    clang_getLocationForOffset(unit_tu(&cx->tus[k]), file, (unsigned)at));
			if (clang_getCursorKind(c) == CXCursor_FunctionDecl &&
			    !clang_isCursorDefinition(c)) {
				CXString u = clang_getCursorUSR(c);
				CXFile pf;
				size_t poff = loc_offset(clang_getCursorLocation(c), &pf);
				bool same = !strcmp(clang_getCString(u), f->usr) && poff == at;

				clang_disposeString(u);
				if (same) {
					nprotos++;
					why = rename_in_prototype(c, f, pi, wf->path, text, len,
								  scratch, line);
					continue;
				}
			}
			why = xasprintf("%s:%u names it where the analysis saw no call or "
					"declaration of it (a macro, an inactive #if branch, code "
					"that did not parse, or a use as a value)",
					wf->path, line);
		}
		free(code);
		free(src);
		if (why) {
			free(def_dir);
			free(sbuf_take(&seen));
			return why;
		}
	}
	{
		char *list = sbuf_take(&seen);

		*held =
		    xasprintf("%s() is not static, but its callers are all known: it is not "
			      "exported, never used as a value, and every file %s that names it "
			      "was analysed, each place a call, a prototype (%u, renamed with "
			      "it) or the definition: %s",
			      f->name,
			      in_tree ? "of the kernel tree"
			      : cx->run->opt.kernel_tree
				  ? "of the kernel tree or under the walked directories"
				  : "under the walked directories",
			      nprotos, list);
		free(list);
	}
	free(def_dir);
	return NULL;
}
