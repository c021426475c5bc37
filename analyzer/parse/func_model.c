/*
 * func_model.c - a file's functions as plain data: each definition's name, USR,
 * parameters and node tree (ast.c), built where the parse is in memory.
 *
 * The parse child has the whole translation unit in memory: it builds every function
 * of the main file and writes them after its function list (func_index.c), so the
 * parent reads plain data instead of loading the saved AST again only to walk it.
 * With the nodes go the declarations fnptr.c follows values into (struct
 * decl_info) and the type of each operator (node tkind), so that a file parsed
 * for the whole-tree facts alone is never loaded, and its child keeps no AST.
 * The parent loads a unit later only when an analysis asks libclang something the
 * nodes do not hold (units.c).  The functions are the same either way: the child
 * takes them in the order and with the choice facts.c's own walk makes
 * (func_model_definition), and builds each with the same code (func_model_build);
 * BLKMIG_PARENT_BUILD=1 makes the parent build them itself, and the analyzer suite
 * compares the two.  facts.c charges each function's build time, as the child
 * measured it, to the file's --timeout budget, as it charges its own builds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "func_index.h"

void (*func_model_built_hook)(struct func *f);

bool func_model_definition(struct tunit *t, CXCursor c, size_t *start, size_t *end)
{
	bool macro;

	return is_main_file_definition(c, unit_file(t)) && cursor_range(t, c, start, end, &macro);
}

void func_model_build(struct tunit *t, CXCursor c, size_t start, size_t end, struct func *f)
{
	CXString name = clang_getCursorSpelling(c);

	memset(f, 0, sizeof(*f));
	f->locator = -1;
	f->name = xstrdup(clang_getCString(name));
	clang_disposeString(name);
	f->usr = cursor_usr(c);
	f->is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static;
	f->decl = c;
	f->start = start;
	f->end = end;
	f->nparams = clang_Cursor_getNumArguments(c);
	if (f->nparams < 0)
		f->nparams = 0;
	f->param_usr = xcalloc((size_t)f->nparams + 1, sizeof(char *));
	f->param_name = xcalloc((size_t)f->nparams + 1, sizeof(char *));
	f->param_decl = xcalloc((size_t)f->nparams + 1, sizeof(*f->param_decl));
	for (int i = 0; i < f->nparams; i++) {
		CXCursor p = clang_Cursor_getArgument(c, (unsigned)i);
		CXString pn = clang_getCursorSpelling(p);

		f->param_usr[i] = cursor_usr(p);
		f->param_name[i] = xstrdup(clang_getCString(pn));
		clang_disposeString(pn);
		decl_info_of(p, unit_file(t), &f->param_decl[i]);
	}
	ast_build_func(t, c, f);
}

void func_model_free_func(struct func *f)
{
	ast_free_func(f);
	free(f->name);
	free(f->usr);
	for (int k = 0; k < f->nparams; k++) {
		free(f->param_usr[k]);
		free(f->param_name[k]);
		if (f->param_decl)
			decl_info_free(&f->param_decl[k]);
	}
	free(f->param_usr);
	free(f->param_name);
	free(f->param_decl);
	memset(f, 0, sizeof(*f));
}

void func_model_free(struct tunit *t)
{
	for (size_t i = 0; i < t->nmodel; i++)
		func_model_free_func(&t->model[i]);
	free(t->model);
	free(t->model_s);
	t->model = NULL;
	t->model_s = NULL;
	t->nmodel = 0;
	t->model_listed = false;
}

/* ---- the child's side --------------------------------------------------- */

static void put(FILE *out, const void *p, size_t n)
{
	fwrite(p, 1, n, out);
}

static void put_long(FILE *out, long v)
{
	put(out, &v, sizeof(v));
}

static void put_str(FILE *out, const char *s)
{
	/* -1: NULL, which the nodes' member and the lock memo use */
	long n = s ? (long)strlen(s) : -1;

	put_long(out, n);
	if (s)
		put(out, s, (size_t)n);
}

static void put_decl(FILE *out, const struct decl_info *d)
{
	long v[] = {(long)d->off, d->in_main, d->fnptr, d->kind, d->parent_kind, d->storage};

	put_str(out, d->usr);
	put_str(out, d->name);
	put_str(out, d->parent_usr);
	put(out, v, sizeof(v));
}

static void put_func(FILE *out, const struct func *f, double seconds)
{
	put_str(out, f->name);
	put_str(out, f->usr);
	put_long(out, f->is_static);
	put_long(out, f->locator);
	put_long(out, (long)f->start);
	put_long(out, (long)f->end);
	put_long(out, f->body);
	put(out, &seconds, sizeof(seconds));
	put_long(out, f->nparams);
	for (int k = 0; k < f->nparams; k++) {
		put_str(out, f->param_usr[k]);
		put_str(out, f->param_name[k]);
		put_decl(out, &f->param_decl[k]);
	}
	put_long(out, f->nnodes);
	for (int n = 0; n < f->nnodes; n++) {
		const struct node *nd = &f->nodes[n];
		const struct node_ref *r = nd->ref;
		long v[] = {nd->kind,	     nd->parent,    nd->first, nd->next,  nd->last,
			    (long)nd->start, (long)nd->end, nd->macro, nd->tkind, r != NULL};

		put(out, v, sizeof(v));
		if (!r)
			continue;
		put_str(out, r->name);
		put_str(out, r->usr);
		put_str(out, r->member);
		long rv[] = {r->ref_kind, r->fnptr, r->file_off, r->nargs, r->decl != NULL};

		put(out, rv, sizeof(rv));
		if (r->decl)
			put_decl(out, r->decl);
	}
	put_long(out, (long)f->nlock_ids);
	for (size_t i = 0; i < f->nlock_ids; i++) {
		put_long(out, f->lock_ids[i].node);
		put_str(out, f->lock_ids[i].id);
	}
}

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

struct model_walk {
	struct tunit *t;
	struct func *funcs;
	double *seconds; /* each one's build time */
	size_t n, cap, nsec, scap;
};

static enum CXChildVisitResult model_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct model_walk *w = d;
	struct timespec t0;
	size_t start, end;

	(void)parent;
	if (!func_model_definition(w->t, c, &start, &end))
		return CXChildVisit_Continue;
	clock_gettime(CLOCK_MONOTONIC, &t0);

	struct func *f = vec_push(w->funcs, w->n, w->cap);

	func_model_build(w->t, c, start, end, f);
	/* where a load of the unit finds it again (func_index.c, units.c) */
	f->locator = func_index_locator(w->t->unit, w->t->unit_file, c);
	if (func_model_built_hook)
		func_model_built_hook(f);
	vec_append(w->seconds, w->nsec, w->scap, since(&t0));
	return CXChildVisit_Continue;
}

void func_model_write(FILE *out, struct tunit *t)
{
	struct model_walk w = {t, NULL, NULL, 0, 0, 0, 0};
	bool located = true;

	clang_visitChildren(clang_getTranslationUnitCursor(t->unit), model_visit, &w);
	/* the parent's own build takes the locations only when it found every function
	 * at one (facts.c through func_index_cursors()) */
	for (size_t i = 0; i < w.n; i++)
		located &= w.funcs[i].locator >= 0;
	fprintf(out, "\nMODEL %zu\n", w.n);
	for (size_t i = 0; i < w.n; i++) {
		if (!located || getenv("BLKMIG_WHOLE_FILE_VISIT"))
			w.funcs[i].locator = -1;
		put_func(out, &w.funcs[i], i < w.nsec ? w.seconds[i] : 0);
		func_model_free_func(&w.funcs[i]);
	}
	put_long(out, 0x6d6f64656cL); /* the end: a short file is no model */
	free(w.funcs);
	free(w.seconds);
}

/* ---- the parent's side -------------------------------------------------- */

static bool get(FILE *in, void *p, size_t n)
{
	return fread(p, 1, n, in) == n;
}

static bool get_long(FILE *in, long *v)
{
	return get(in, v, sizeof(*v));
}

static bool get_str(FILE *in, char **s)
{
	long n;

	*s = NULL;
	if (!get_long(in, &n) || n < -1 || n > (1L << 24))
		return false;
	if (n < 0)
		return true;
	*s = xmalloc((size_t)n + 1);
	(*s)[n] = '\0';
	return get(in, *s, (size_t)n);
}

static bool get_decl(FILE *in, struct decl_info *d)
{
	long v[6];

	memset(d, 0, sizeof(*d));
	if (!get_str(in, &d->usr) || !get_str(in, &d->name) || !get_str(in, &d->parent_usr) ||
	    !d->usr || !d->name || !get(in, v, sizeof(v)))
		return false;
	d->off = (size_t)v[0];
	d->in_main = v[1] != 0;
	d->fnptr = v[2] != 0;
	d->kind = (enum CXCursorKind)v[3];
	d->parent_kind = (enum CXCursorKind)v[4];
	d->storage = (enum CX_StorageClass)v[5];
	return true;
}

/* One function as put_func() wrote it; false when the file is short or damaged. */
static bool get_func(FILE *in, struct func *f, double *seconds)
{
	long v;

	memset(f, 0, sizeof(*f));
	f->locator = -1;
	f->body = -1;
	if (!get_str(in, &f->name) || !get_str(in, &f->usr) || !f->name || !f->usr)
		return false;
	if (!get_long(in, &v))
		return false;
	f->is_static = v != 0;
	if (!get_long(in, &f->locator) || !get_long(in, &v))
		return false;
	f->start = (size_t)v;
	if (!get_long(in, &v))
		return false;
	f->end = (size_t)v;
	if (!get_long(in, &v))
		return false;
	f->body = (int)v;
	if (!get(in, seconds, sizeof(*seconds)) || !get_long(in, &v) || v < 0 || v > 4096)
		return false;
	f->param_usr = xcalloc((size_t)v + 1, sizeof(char *));
	f->param_name = xcalloc((size_t)v + 1, sizeof(char *));
	f->param_decl = xcalloc((size_t)v + 1, sizeof(*f->param_decl));
	for (long k = 0; k < v; k++) {
		f->nparams = (int)k + 1; /* freed up to here if short */
		if (!get_str(in, &f->param_usr[k]) || !get_str(in, &f->param_name[k]) ||
		    !get_decl(in, &f->param_decl[k]))
			return false;
	}
	if (!get_long(in, &v) || v < 1 || v > (1L << 26))
		return false;
	f->nodes = xcalloc((size_t)v, sizeof(*f->nodes));
	for (long n = 0; n < v; n++) {
		struct node *nd = &f->nodes[n];
		long nv[10], rv[5];

		f->nnodes = (int)n + 1;
		if (!get(in, nv, sizeof(nv)) || nv[1] < -1 || nv[1] >= v || nv[2] < -1 ||
		    nv[2] >= v || nv[3] < -1 || nv[3] >= v || nv[4] < n || nv[4] >= v)
			return false;
		nd->kind = (enum CXCursorKind)nv[0];
		nd->parent = (int)nv[1];
		nd->first = (int)nv[2];
		nd->next = (int)nv[3];
		nd->last = (int)nv[4];
		nd->start = (size_t)nv[5];
		nd->end = (size_t)nv[6];
		nd->macro = nv[7] != 0;
		nd->tkind = (unsigned char)nv[8];
		if (!nv[9])
			continue;
		struct node_ref *r = nd->ref = xcalloc(1, sizeof(*r));

		if (!get_str(in, &r->name) || !get_str(in, &r->usr) || !get_str(in, &r->member) ||
		    !get(in, rv, sizeof(rv)))
			return false;
		r->ref_kind = (enum CXCursorKind)rv[0];
		r->fnptr = rv[1] != 0;
		r->file_off = (unsigned)rv[2];
		r->nargs = (int)rv[3];
		if (rv[4]) {
			r->decl = xmalloc(sizeof(*r->decl));
			if (!get_decl(in, r->decl)) {
				decl_info_free(r->decl);
				free(r->decl);
				r->decl = NULL;
				return false;
			}
		}
	}
	if (f->body < -1 || f->body >= f->nnodes || !get_long(in, &v) || v < 0 || v > (1L << 26))
		return false;
	for (long i = 0; i < v; i++) {
		struct lock_memo *m = vec_push(f->lock_ids, f->nlock_ids, f->lock_ids_cap);
		long node;

		if (!get_long(in, &node) || node < 0 || node >= f->nnodes || !get_str(in, &m->id))
			return false;
		m->node = (int)node;
	}
	return true;
}

bool func_model_read_again(struct tunit *t)
{
	FILE *f;
	bool ok;

	if (t->model_listed || !t->model_file || !(f = fopen(t->model_file, "r")))
		return false;
	ok = !fseek(f, t->model_at, SEEK_SET) && func_model_read(f, t);
	fclose(f);
	if (ok && getenv("BLKMIG_UNIT_TRACE"))
		fprintf(stderr, "blkmig: functions read again: %s\n", t->path);
	return ok;
}

bool func_model_read(FILE *in, struct tunit *t)
{
	size_t n, cap = 0, scap = 0, nsec = 0;
	long end;

	func_model_free(t);
	if (fscanf(in, " MODEL %zu", &n) != 1 || fgetc(in) != '\n' || n > (1u << 24))
		return false;
	for (size_t i = 0; i < n; i++) {
		struct func *f = vec_push(t->model, t->nmodel, cap);
		double *s = vec_push(t->model_s, nsec, scap);

		if (!get_func(in, f, s)) {
			func_model_free(t);
			return false;
		}
	}
	if (!get_long(in, &end) || end != 0x6d6f64656cL) {
		func_model_free(t);
		return false;
	}
	t->model_listed = true;
	return true;
}
