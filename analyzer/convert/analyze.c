/*
 * analyze.c - one analysis run from paths to classified sites: walk the
 * paths, read and prefilter each file, parse the candidates (parse.c),
 * collect functions and registrations (facts.c), resolve the lock context
 * across functions (lockctx.c, callgraph.c), classify and rewrite every
 * site (classify.c, wrappers.c), or check converted code (verify.c).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "analysis.h"

int walk_paths(struct bm_run *run, char *const *paths, size_t npaths);

static bool word_in_text(const char *s, size_t len, const char *w)
{
	size_t wl = strlen(w);
	const char *p = s, *end = s + len;

	while (p < end && (p = memmem(p, (size_t)(end - p), w, wl))) {
		bool l = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool r = p + wl >= end || !(isalnum((unsigned char)p[wl]) || p[wl] == '_');

		if (l && r)
			return true;
		p += wl;
	}
	return false;
}

static enum CXChildVisitResult names_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct bm_strlist *names = d;
	CXString n;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
	    clang_Cursor_getStorageClass(c) == CX_SC_Static ||
	    !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	n = clang_getCursorSpelling(c);
	if (!strlist_has(names, clang_getCString(n)) &&
	    strcmp(clang_getCString(n), "init_module") &&
	    strcmp(clang_getCString(n), "cleanup_module"))
		strlist_push(names, clang_getCString(n));
	clang_disposeString(n);
	return CXChildVisit_Continue;
}

static void global_function_names(struct tunit *t, struct bm_strlist *names)
{
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu), names_visit, names);
}

static void ctx_free(struct ctx *cx)
{
	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];

		ast_free_func(f);
		free(f->name);
		free(f->usr);
		free(f->role_evidence);
		free(f->addr_evidence);
		free(f->entry_evidence);
		for (int k = 0; k < f->nparams; k++) {
			free(f->param_usr[k]);
			free(f->param_name[k]);
		}
		free(f->param_usr);
		free(f->param_name);
	}
	free(cx->funcs);
	for (size_t i = 0; i < cx->ncalls; i++) {
		free(cx->calls[i].callee_name);
		free(cx->calls[i].callee_usr);
	}
	free(cx->calls);
	for (size_t i = 0; i < cx->ntus; i++) {
		struct tunit *t = &cx->tus[i];

		if (t->tu)
			clang_disposeTranslationUnit(t->tu);
		free(t->src);
		free(t->clean);
		free(t->err_offsets);
		free(t->line_starts);
		bm_hits_free(t->hits, t->nhits);
	}
	free(cx->tus);
	strlist_free(&cx->queue_locks);
	free(cx->by_name);
	free(cx->by_usr);
	free(cx->next_name);
	free(cx->next_usr);
	for (size_t i = 0; cx->lvar && i < cx->site_cap; i++)
		free(cx->lvar[i]);
	free(cx->lvar);
	free(cx->lfunc);
	free(cx->partner);
	free(cx->wfunc);
	free(cx->wparam);
}

static int run_analysis(struct bm_run *run, char *const *paths, size_t npaths, bool verify)
{
	struct ctx cx = {0};
	struct parse_env *env;
	CXIndex idx;
	size_t *cand, ncand = 0;
	struct tunit *pre;

	cx.run = run;
	walk_paths(run, paths, npaths);
	if (!run->nfiles) {
		fprintf(stderr, "blkmig: nothing to %s: no C files under the given paths\n",
			run->command);
		return -1;
	}
	/* read + prefilter */
	pre = xcalloc(run->nfiles, sizeof(*pre));
	cand = xcalloc(run->nfiles, sizeof(*cand));
	for (size_t i = 0; i < run->nfiles; i++) {
		struct bm_file *f = &run->files[i];
		struct tunit *t = &pre[i];

		t->path = f->path;
		t->file_index = i;
		t->src = read_file(f->path, &t->len);
		if (!t->src) {
			fprintf(stderr, "blkmig: cannot read %s: %s\n", f->path, strerror(errno));
			f->status = BM_PARSE_FAILED;
			f->reason = xasprintf("cannot read: %s", strerror(errno));
			run->io_errors++;
			continue;
		}
		if (bm_looks_binary(t->src, t->len)) {
			if (!run->opt.quiet)
				fprintf(stderr, "blkmig: %s: binary data, not C source; skipped\n",
					f->path);
			f->status = BM_PARSE_FAILED;
			f->reason = xstrdup("binary data, not C source");
			continue;
		}
		t->nhits = bm_prefilter(t->src, t->len, &t->hits);
		/* any legacy token at all: whether it is a call is the AST's call */
		bool want = t->nhits > 0;

		if (verify && memmem(t->src, t->len, "blk_end_request", 15))
			want = true;
		if (!want) {
			f->status = BM_PARSE_SKIPPED;
			f->reason = xstrdup(verify ? "no completion call (prefilter)"
						   : "no legacy completion call (prefilter)");
			continue;
		}
		t->clean = bm_blank_comments(t->src, t->len);
		cand[ncand++] = i;
	}
	env = parse_env_new(run);
	if (!env) {
		for (size_t i = 0; i < run->nfiles; i++) {
			free(pre[i].src);
			free(pre[i].clean);
			bm_hits_free(pre[i].hits, pre[i].nhits);
		}
		free(pre);
		free(cand);
		return -1;
	}
	idx = clang_createIndex(0, 0);
	cx.tus = xcalloc(run->nfiles ? run->nfiles : 1, sizeof(*cx.tus));
	cx.ntus = ncand;
	if (ncand)
		parse_files(env, idx, cand, ncand, cx.tus);
	/*
	 * Stage 2: files without legacy tokens that call a non-static function
	 * defined in a parsed file are parsed too, for their call sites only
	 * (lock context across files).  Others stay unparsed.
	 */
	{
		struct bm_strlist names = {0};
		size_t *cand2 = xcalloc(run->nfiles, sizeof(*cand2)), n2 = 0;

		for (size_t k = 0; k < ncand; k++)
			if (cx.tus[k].tu)
				global_function_names(&cx.tus[k], &names);
		for (size_t i = 0; i < run->nfiles && names.n; i++) {
			struct tunit *p = &pre[i];
			bool hit = false;

			if (!p->src || p->clean || run->files[i].status != BM_PARSE_SKIPPED)
				continue;
			p->clean = bm_blank_comments(p->src, p->len);
			for (size_t k = 0; k < names.n && !hit; k++)
				hit = word_in_text(p->clean, p->len, names.v[k]);
			if (!hit) {
				free(p->clean);
				p->clean = NULL;
				continue;
			}
			free(run->files[i].reason);
			run->files[i].reason = NULL;
			cand2[n2++] = i;
		}
		if (n2) {
			parse_files(env, idx, cand2, n2, cx.tus + ncand);
			for (size_t k = 0; k < n2; k++)
				cand[ncand + k] = cand2[k];
			ncand += n2;
			cx.ntus = ncand;
		}
		free(cand2);
		strlist_free(&names);
	}
	for (size_t k = 0; k < ncand; k++) {
		struct tunit *t = &cx.tus[k], *p = &pre[cand[k]];

		t->file_index = cand[k];
		t->path = run->files[cand[k]].path;
		t->src = p->src;
		t->len = p->len;
		t->clean = p->clean;
		t->hits = p->hits;
		t->nhits = p->nhits;
		p->src = p->clean = NULL;
		p->hits = NULL;
		p->nhits = 0;
	}
	for (size_t i = 0; i < run->nfiles; i++) {
		free(pre[i].src);
		free(pre[i].clean);
		bm_hits_free(pre[i].hits, pre[i].nhits);
	}
	free(pre);
	free(cand);

	facts_collect(&cx);
	callgraph_resolve(&cx);
	classify_all(&cx);
	if (verify)
		verify_all(&cx);
	for (size_t i = 0; i < run->nsites; i++)
		for (size_t k = 0; k < run->nfiles; k++)
			if (!strcmp(run->files[k].path, run->sites[i].file))
				run->files[k].nsites++;
	ctx_free(&cx);
	clang_disposeIndex(idx);
	parse_env_free(env);
	return 0;
}

int bm_analyze(struct bm_run *run, char *const *paths, size_t npaths)
{
	return run_analysis(run, paths, npaths, false);
}

int bm_verify(struct bm_run *run, char *const *paths, size_t npaths)
{
	return run_analysis(run, paths, npaths, true);
}
