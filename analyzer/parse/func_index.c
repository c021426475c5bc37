/*
 * func_index.c - where a file's function definitions are, so that the parent finds
 * them in the saved AST without visiting every top-level declaration.
 *
 * A saved AST is read lazily.  Visiting the children of its translation unit makes
 * libclang read in every declaration of every header (~6 MiB for a kernel file, most
 * of the analysis's memory on a tree).  clang_getCursor() at a location reads only
 * the declarations of that region of the file.  The child that parsed the file has
 * every declaration in memory anyway: it lists each function definition of the main
 * file with a location at which clang_getCursor() gives that function back, and its
 * USR.  The parent asks for each and checks the USR; if one is missing or differs
 * (a macro that makes a function has no such location), it visits the whole file
 * as before, so the functions found are the same either way.
 *
 * The same holds for the references outside every function body that fnptr.c
 * follows (a function or a function-pointer variable named in a file-scope
 * initializer, perhaps through a macro): the child visits the main file's other
 * top-level declarations, as fnptr.c's whole-file visit did, and lists each
 * such reference as plain data (where, to what); the parent reads the list
 * instead of visiting the whole unit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "func_index.h"

struct index_walk {
	CXTranslationUnit tu;
	CXFile self;
	FILE *out, *refs_out;
	long n, nrefs;
};

long func_index_locator(CXTranslationUnit tu, CXFile self, CXCursor c)
{
	CXSourceLocation at = clang_getCursorLocation(c);
	unsigned offs[2];
	CXFile files[2];

	clang_getExpansionLocation(at, &files[0], NULL, NULL, &offs[0]);
	/* a name given to a macro as an argument: where it is spelled */
	clang_getFileLocation(at, &files[1], NULL, NULL, &offs[1]);
	for (int i = 0; i < 2; i++) {
		if (!files[i] || !clang_File_isEqual(files[i], self))
			continue;
		CXCursor g = clang_getCursor(tu, clang_getLocationForOffset(tu, self, offs[i]));

		if (clang_equalCursors(g, c))
			return (long)offs[i];
	}
	return -1;
}

/* A reference under a top-level declaration that fnptr.c follows: to a function,
 * or to a variable or parameter of function-pointer type. */
static enum CXChildVisitResult outside_ref_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct index_walk *w = d;
	CXCursor r;
	enum CXCursorKind rk;
	char kind;
	unsigned off;
	char *u;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	r = clang_getCursorReferenced(c);
	rk = clang_getCursorKind(r);
	if (rk == CXCursor_FunctionDecl)
		kind = 'F';
	else if ((rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl) &&
		 is_fnptr_type(clang_getCursorType(r)))
		kind = 'V';
	else
		return CXChildVisit_Recurse;
	/* where the text names it (fnptr.c's cursor_off) */
	clang_getFileLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
	u = cursor_usr(r);
	fprintf(w->refs_out, "%c %u %zu\n%s\n", kind, off, strlen(u), u);
	free(u);
	w->nrefs++;
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult index_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct index_walk *w = d;
	CXString usr;
	const char *u;

	(void)parent;
	/* the other top-level declarations of the main file: fnptr.c's top_visit */
	if (w->refs_out && clang_Location_isFromMainFile(clang_getCursorLocation(c)) &&
	    !(clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c)))
		clang_visitChildren(c, outside_ref_visit, w);
	/* the same choice as facts.c's top_visit */
	if (!is_main_file_definition(c, w->self))
		return CXChildVisit_Continue;
	usr = clang_getCursorUSR(c);
	u = clang_getCString(usr);
	fprintf(w->out, "%ld %zu\n%s\n", func_index_locator(w->tu, w->self, c), strlen(u), u);
	w->n++;
	clang_disposeString(usr);
	return CXChildVisit_Continue;
}

void func_index_write(FILE *out, CXTranslationUnit tu, CXFile self)
{
	struct index_walk w = {tu, self, NULL, NULL, 0, 0};
	char *tmp = NULL, *refs = NULL;
	size_t len = 0, refs_len = 0;
	FILE *body;

	/* the counts first: the entries are written aside */
	if (!self || !(body = open_memstream(&tmp, &len))) {
		/* no lists: the parent visits the whole file */
		fprintf(out, "-1\n-1\n");
		return;
	}
	w.out = body;
	w.refs_out = open_memstream(&refs, &refs_len);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), index_visit, &w);
	fclose(body);
	fprintf(out, "%ld\n", w.n);
	fwrite(tmp, 1, len, out);
	free(tmp);
	if (!w.refs_out) {
		fprintf(out, "-1\n");
		return;
	}
	fclose(w.refs_out);
	fprintf(out, "%ld\n", w.nrefs);
	fwrite(refs, 1, refs_len, out);
	free(refs);
}

void func_index_free(struct tunit *t)
{
	for (size_t i = 0; i < t->nfn; i++)
		free(t->fn_usr[i]);
	free(t->fn_usr);
	free(t->fn_at);
	t->fn_usr = NULL;
	t->fn_at = NULL;
	t->nfn = 0;
	t->fn_listed = false;
	for (size_t i = 0; i < t->nouter; i++)
		free(t->outer[i].usr);
	free(t->outer);
	t->outer = NULL;
	t->nouter = 0;
	t->outer_listed = false;
	func_model_free(t);
	free(t->model_file);
	t->model_file = NULL;
}

/* The references outside function bodies (outside_ref_visit), after the functions. */
static bool outer_refs_read(FILE *f, struct tunit *t)
{
	long n;

	if (fscanf(f, "%ld", &n) != 1 || n > (1L << 24))
		return false;
	if (n < 0)
		return true; /* no list: fnptr.c visits the whole file */
	t->outer = xcalloc((size_t)n + 1, sizeof(*t->outer));
	for (long i = 0; i < n; i++) {
		struct outer_ref *r = &t->outer[i];
		size_t len;
		char kind;

		if (fscanf(f, " %c %zu %zu", &kind, &r->off, &len) != 3 || fgetc(f) != '\n' ||
		    (kind != 'F' && kind != 'V') || len > (1u << 20))
			return false;
		r->var = kind == 'V';
		r->usr = xmalloc(len + 1);
		t->nouter = (size_t)i + 1;
		if (fread(r->usr, 1, len, f) != len)
			return false;
		r->usr[len] = '\0';
	}
	t->outer_listed = true;
	return true;
}

bool func_index_read(FILE *f, struct tunit *t)
{
	long n;

	if (fscanf(f, "%ld", &n) != 1 || n > (1L << 24))
		return false;
	if (n < 0)
		return outer_refs_read(f, t); /* no list: the whole file is visited */
	t->fn_at = xcalloc((size_t)n + 1, sizeof(*t->fn_at));
	t->fn_usr = xcalloc((size_t)n + 1, sizeof(*t->fn_usr));
	for (long i = 0; i < n; i++) {
		size_t len;

		if (fscanf(f, "%ld %zu", &t->fn_at[i], &len) != 2 || fgetc(f) != '\n' ||
		    len > (1u << 20))
			goto short_list;
		t->fn_usr[i] = xmalloc(len + 1);
		t->nfn = (size_t)i + 1;
		if (fread(t->fn_usr[i], 1, len, f) != len)
			goto short_list;
		t->fn_usr[i][len] = '\0';
	}
	t->fn_listed = true;
	if (outer_refs_read(f, t))
		return true;
short_list:
	func_index_free(t);
	return false;
}

CXCursor *func_index_cursors(struct tunit *t)
{
	CXCursor *cs;

	/* BLKMIG_WHOLE_FILE_VISIT: the old way, to compare (tests/analyzer) */
	if (!t->fn_listed || !t->unit || !t->unit_file || getenv("BLKMIG_WHOLE_FILE_VISIT"))
		return NULL;
	cs = xcalloc(t->nfn + 1, sizeof(*cs));
	for (size_t i = 0; i < t->nfn; i++) {
		CXCursor c;
		char *usr;
		bool same;

		if (t->fn_at[i] < 0)
			goto whole_file;
		c = clang_getCursor(t->unit, clang_getLocationForOffset(t->unit, t->unit_file,
									(unsigned)t->fn_at[i]));
		if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
			goto whole_file;
		usr = cursor_usr(c);
		same = !strcmp(usr, t->fn_usr[i]);
		free(usr);
		if (!same)
			goto whole_file;
		cs[i] = c;
	}
	return cs;
whole_file:
	free(cs);
	return NULL;
}
