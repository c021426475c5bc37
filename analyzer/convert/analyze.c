/*
 * analyze.c - one analysis run from paths to classified sites: walk the
 * paths, read and prefilter each file, parse the candidates (parse.c),
 * collect functions and registrations (facts.c), resolve the lock context
 * across functions (lockctx.c, callgraph.c), classify and rewrite every
 * site (classify.c, wrappers.c), or check converted code (verify.c).
 */
#include <ctype.h>
#include <errno.h>
#include <malloc.h>
#include <string.h>

#include "analysis.h"
#include "func_index.h"
#include "ktree.h"
#include "progress.h"
#include "reuse.h"
#include "tree_index.h"
#include "tree_memo.h"

int walk_paths(struct bm_run *run, char *const *paths, size_t npaths);

static void ctx_free(struct ctx *cx)
{
	facts_free(cx);
	strlist_free(&cx->open_members);
	strlist_free(&cx->open_names);
	for (size_t i = 0; i < cx->ntus; i++) {
		struct tunit *t = &cx->tus[i];

		unit_release(t);
		free(t->src);
		free(t->clean);
		free(t->fields_why);
		free(t->err_offsets);
		free(t->line_starts);
		bm_hits_free(t->hits, t->nhits);
		func_index_free(t);
		strlist_free(&t->includes);
	}
	free(cx->tus);
	for (size_t i = 0; cx->lvar && i < cx->site_cap; i++)
		free(cx->lvar[i]);
	free(cx->lvar);
	free(cx->lfunc);
	free(cx->partner);
	free(cx->wfunc);
	free(cx->wparam);
}

/* Rounds of callers to look for beyond the files with legacy calls. */
#define MAX_ROUNDS 2
/* A name in more files than this has too many callers to parse them all. */
#define MAX_FILES_PER_NAME 16
/* Files one round may add (names with fewer files go first). */
#define MAX_FILES_PER_ROUND 40

/* A file read but not parsed yet, that a later round may still want. Its text is not
 * kept between rounds (the tree's sources would stay in memory all along): a round reads
 * it again (text_of). */
static bool want_more(struct bm_run *run, struct tunit *pre, const bool *taken, size_t i)
{
	return (pre[i].src || pre[i].len) && run->files[i].status == BM_PARSE_SKIPPED && !taken[i];
}

/* The text of file i for a round: kept, or read again (NULL if it cannot be). */
static const char *text_of(struct tunit *pre, size_t i, size_t *len, char **owned)
{
	*owned = NULL;
	if (pre[i].src) {
		*len = pre[i].len;
		return pre[i].src;
	}
	*owned = read_file(pre[i].path, len);
	return *owned;
}

/* Queue file i for parsing (its text read again if it was let go). */
static void take(struct tunit *pre, bool *taken, size_t *cand, size_t *ncand, size_t i)
{
	if (!pre[i].src && pre[i].len) {
		pre[i].src = read_file(pre[i].path, &pre[i].len);
		if (!pre[i].src) { /* gone meanwhile: an empty file, which has nothing to say */
			pre[i].src = xstrdup("");
			pre[i].len = 0;
		}
	}
	taken[i] = true;
	cand[(*ncand)++] = i;
}

/* Move the texts of the files just parsed (cand[from..to)) into cx->tus. */
static void adopt(struct ctx *cx, struct tunit *pre, size_t *cand, size_t from, size_t to)
{
	for (size_t k = from; k < to; k++) {
		struct tunit *t = &cx->tus[k], *p = &pre[cand[k]];

		if (!p->clean)
			p->clean = bm_blank_comments(p->src, p->len);
		t->file_index = cand[k];
		t->path = cx->run->files[cand[k]].path;
		t->src = p->src;
		t->len = p->len;
		t->clean = p->clean;
		t->hits = p->hits;
		t->nhits = p->nhits;
		p->src = p->clean = NULL;
		p->hits = NULL;
		p->nhits = 0;
	}
	cx->ntus = to;
}

/* The identifiers of each file the prefilter skipped (tree_index.c), made as it is
 * first read, so that a round reads again only the files that may name its names. */
struct file_idents {
	struct tree_idents ids;
	bool known;
};

static void idents_free(struct file_idents *idents, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(idents[i].ids.h);
	free(idents);
}

/*
 * The files not parsed yet that name a wanted function or call through a
 * wanted member are queued, names in fewer files first, up to
 * MAX_FILES_PER_ROUND files per round and MAX_FILES_PER_NAME per name.  The
 * callers of a name not followed (and all, in the last round) stay unseen
 * (open_names, open_members) and the facts say so.
 */
static void select_files(struct ctx *cx, struct tunit *pre, const struct file_idents *idents,
			 bool *taken, size_t *cand, size_t *ncand, const struct bm_strlist *names,
			 const struct bm_strlist *members, bool last)
{
	struct bm_run *run = cx->run;
	struct bm_strlist *found = xcalloc(run->nfiles + 1, sizeof(*found));
	struct bm_strlist keys = {0};
	size_t *count = NULL, ncount = 0, cap = 0;
	struct tree_filter *filter = xmalloc(sizeof(*filter));

	tree_filter_init(filter, names, members);
	for (size_t i = 0; i < run->nfiles; i++) {
		char *owned = NULL;
		size_t len = 0;
		/* a file whose identifiers name nothing asked for is not read again */
		bool may = want_more(run, pre, taken, i) &&
			   (!idents[i].known || tree_filter_may_name(filter, &idents[i].ids));
		const char *src = may ? text_of(pre, i, &len, &owned) : NULL;
		/* code only: a name in a comment or a string is no caller */
		char *code = src ? bm_blank_comments(src, len) : NULL;
		unsigned hit = code ? tree_scan(code, len, names, members, &found[i]) : 0;

		free(code);
		free(owned);
		if (!hit)
			continue;
		for (size_t k = 0; k < found[i].n; k++) {
			size_t at = 0;

			while (at < keys.n && strcmp(keys.v[at], found[i].v[k]))
				at++;
			if (at == keys.n) {
				strlist_push(&keys, found[i].v[k]);
				vec_append(count, ncount, cap, 0);
			}
			count[at]++;
		}
	}
	/* the names with the fewest files first, within the round's budget */
	bool *follow = xcalloc(keys.n + 1, sizeof(bool));
	size_t budget = MAX_FILES_PER_ROUND;

	for (size_t want = 1; want <= MAX_FILES_PER_NAME && !last; want++)
		for (size_t k = 0; k < keys.n; k++)
			if (count[k] == want && want <= budget) {
				follow[k] = true;
				budget -= want;
			}
	for (size_t k = 0; k < keys.n; k++) {
		struct bm_strlist *open = keys.v[k][0] == 'm' ? &cx->open_members : &cx->open_names;

		if (!follow[k] && !strlist_has(open, keys.v[k] + 2))
			strlist_push(open, keys.v[k] + 2);
	}
	for (size_t i = 0; i < run->nfiles; i++) {
		bool want = false;

		for (size_t k = 0; k < found[i].n && !want; k++)
			for (size_t j = 0; j < keys.n && !want; j++)
				want = follow[j] && !strcmp(keys.v[j], found[i].v[k]);
		if (want)
			take(pre, taken, cand, ncand, i);
		strlist_free(&found[i]);
	}
	free(found);
	free(count);
	free(follow);
	strlist_free(&keys);
	tree_filter_free(filter);
	free(filter);
}

/*
 * Parse the files cand[0..n) into tus[0..n): each one whose parse an earlier run kept
 * and that has not changed is taken from reuse (reuse.c), the others are parsed.
 */
static void parse_or_reuse(struct parse_env *env, CXIndex idx, struct bm_reuse *reuse,
			   struct bm_run *run, struct tunit *pre, const size_t *cand, size_t n,
			   struct tunit *tus)
{
	size_t *todo = xcalloc(n + 1, sizeof(*todo)), *files = xcalloc(n + 1, sizeof(*files));
	struct tunit *parsed = xcalloc(n + 1, sizeof(*parsed));
	size_t ntodo = 0;

	for (size_t k = 0; k < n; k++) {
		size_t fi = cand[k];

		if (reuse_take_parse(reuse, run, fi, pre[fi].src, pre[fi].len, &tus[k])) {
			tus[k].file_index = fi;
			tus[k].path = run->files[fi].path;
			continue;
		}
		todo[ntodo] = k;
		/* the text the facts will read: the parse child builds the functions */
		parsed[ntodo].src = pre[fi].src;
		parsed[ntodo].len = pre[fi].len;
		parsed[ntodo].facts_only = pre[fi].facts_only;
		files[ntodo++] = fi;
	}
	/* the progress line's file count (cli/progress.c): reused parses are done at once */
	progress_add_total(n);
	progress_step(n - ntodo);
	if (ntodo)
		parse_files(env, idx, files, ntodo, parsed);
	for (size_t j = 0; j < ntodo; j++)
		tus[todo[j]] = parsed[j];
	free(todo);
	free(files);
	free(parsed);
}

/* No -p, -I or --kernel-tree, and the paths lie in a kernel tree: use it. */
static void detect_kernel_tree(struct bm_run *run, char *const *paths, size_t npaths)
{
	char *root = NULL;

	if (run->opt.kernel_tree || run->opt.build_dir || run->opt.include_dirs.n)
		return;
	for (size_t i = 0; i < npaths; i++) {
		char *r = ktree_find_root(paths[i]);

		if (!r || (root && strcmp(root, r))) {
			free(r);
			free(root);
			return;
		}
		free(root);
		root = r;
	}
	if (!root)
		return;
	if (!run->opt.quiet)
		fprintf(stderr, "blkmig: %s is a kernel tree: parsing with its headers\n", root);
	run->opt.kernel_tree = root;
}

/*
 * What an analysis freed (its units, node trees, texts) goes back to the system before
 * the next one starts: glibc keeps freed memory for reuse, and a migrate runs up to four
 * analyses one after the other, so the peak would be what they left together
 * (issue 24: memory flat in the tree's size).
 */
static void give_back_memory(void)
{
	malloc_trim(0);
}

bool bm_parse_keep_env;
/* the fuzz target's parse environment and index, kept from one run to the next */
static struct parse_env *kept_env;
static CXIndex kept_idx;

static int run_analysis(struct bm_run *run, char *const *paths, size_t npaths, bool verify,
			struct bm_reuse *reuse)
{
	struct ctx cx = {0};
	struct parse_env *env;
	CXIndex idx;
	size_t *cand, ncand = 0;
	struct tunit *pre;
	bool *taken, *registers;
	struct file_idents *idents;

	cx.run = run;
	/* the lock identities facts_collect() asks of each new function, answered in
	 * the parse child while it has the unit (func_model.c) */
	func_model_built_hook = lock_ids_prepare;
	cx.paths = paths;
	cx.npaths = npaths;
	detect_kernel_tree(run, paths, npaths);
	walk_paths(run, paths, npaths);
	if (!run->nfiles) {
		fprintf(stderr, "blkmig: nothing to %s: no C files under the given paths\n",
			run->command);
		return -1;
	}
	/* read + prefilter (the answer for each file without legacy calls kept between
	 * runs by its content: tree_memo.c) */
	struct tree_memo *memo = tree_memo_open();

	pre = xcalloc(run->nfiles, sizeof(*pre));
	cand = xcalloc(run->nfiles, sizeof(*cand));
	taken = xcalloc(run->nfiles, sizeof(*taken));
	registers = xcalloc(run->nfiles + 1, sizeof(*registers));
	idents = xcalloc(run->nfiles + 1, sizeof(*idents));
	for (size_t i = 0; i < run->nfiles; i++) {
		struct bm_file *f = &run->files[i];
		struct tunit *t = &pre[i];

		t->path = f->path;
		t->file_index = i;
		if (f->link) /* a symbolic link, reported by the walk: never read */
			continue;
		t->src = read_file(f->path, &t->len);
		if (!t->src) {
			fprintf(stderr, "blkmig: cannot read %s: %s\n", f->path, strerror(errno));
			f->status = BM_PARSE_FAILED;
			f->reason = xasprintf("cannot read: %s", strerror(errno));
			run->io_errors++;
			continue;
		}
		unsigned char sum[32];
		bool memo_hit = false;

		/* (verify's files with a 2.6.25 call are read in full) */
		if (memo && !(verify && memmem(t->src, t->len, "blk_end_request", 15))) {
			tree_memo_sum(t->src, t->len, sum);
			memo_hit = tree_memo_take(memo, sum, &registers[i], &idents[i].ids);
		}
		if (!memo_hit && bm_looks_binary(t->src, t->len)) {
			/* a NUL byte in a C file must not hide its legacy calls: say so */
			size_t nhits;

			f->status = BM_PARSE_FAILED;
			f->reason = bm_binary_reason(t->src, t->len, &nhits);
			if (!run->opt.quiet) /* quiet: fix and migrate say it in their summary */
				bm_say_file_notice(f);
			continue;
		}
		t->nhits = memo_hit ? 0 : bm_prefilter(t->src, t->len, &t->hits);
		/* any legacy token at all: whether it is a call is the AST's call */
		bool want = t->nhits > 0;

		if (verify && memmem(t->src, t->len, "blk_end_request", 15))
			want = true;
		if (!want) {
			f->status = BM_PARSE_SKIPPED;
			f->reason = xstrdup(verify ? "no completion call (prefilter)"
						   : "no legacy completion call (prefilter)");
			if (!memo_hit) {
				char *code = bm_blank_comments(t->src, t->len);

				registers[i] = (tree_scan_idents(code, t->len, &idents[i].ids) &
						TREE_REGISTERS) != 0;
				free(code);
				if (memo)
					tree_memo_put(memo, sum, registers[i], &idents[i].ids);
			}
			idents[i].known = true;
			/* let go of the text (the rounds read it again); len > 0 says it
			 * was read, an empty file has nothing for them */
			free(t->src);
			t->src = NULL;
			continue;
		}
		t->clean = bm_blank_comments(t->src, t->len);
		take(pre, taken, cand, &ncand, i);
	}
	tree_memo_done(memo);
	idx = NULL;
	env = kept_env ? parse_env_rebind(kept_env, run) : reuse_take_env(reuse, run, &idx);
	if (!env)
		env = parse_env_new(run);
	if (!env) {
		for (size_t i = 0; i < run->nfiles; i++) {
			free(pre[i].src);
			free(pre[i].clean);
			bm_hits_free(pre[i].hits, pre[i].nhits);
		}
		free(pre);
		free(cand);
		free(taken);
		free(registers);
		idents_free(idents, run->nfiles);
		return -1;
	}
	if (!idx)
		idx = kept_env ? kept_idx : clang_createIndex(0, 0);
	cx.tus = xcalloc(run->nfiles ? run->nfiles : 1, sizeof(*cx.tus));
	units_begin(&cx, idx, env);
	/*
	 * Whole-tree facts (tree_index.c): the files that register a queue are
	 * parsed with the legacy ones; then, round by round, the files that
	 * call a function or an ops member whose callers still matter.
	 */
	size_t nlegacy = ncand;

	for (size_t i = 0; i < run->nfiles; i++)
		if (want_more(run, pre, taken, i) && registers[i])
			take(pre, taken, cand, &ncand, i);
	free(registers);
	size_t facts_cap = 0;

	free(run->facts_added); /* this analysis's rounds only */
	run->facts_added = NULL;
	run->nfacts_added = 0;
	vec_append(run->facts_added, run->nfacts_added, facts_cap, ncand - nlegacy);
	if (!run->opt.quiet)
		bm_say_facts_added(0, ncand - nlegacy);
	size_t parsed = 0;

	for (int round = 0;; round++) {
		struct bm_strlist names = {0}, members = {0};
		size_t first = ncand;

		if (round)
			vec_append(run->facts_added, run->nfacts_added, facts_cap,
				   ncand > parsed ? ncand - parsed : 0);
		if (ncand > parsed) {
			if (round && !run->opt.quiet)
				bm_say_facts_added((size_t)round, ncand - parsed);
			/* the prefilter skipped these, the whole-tree facts want them: the
			 * parse's outcome (errors, stubs) replaces this note */
			for (size_t k = parsed > nlegacy ? parsed : nlegacy; k < ncand; k++) {
				struct bm_file *file = &run->files[cand[k]];

				/* a mention of the 2.6.25 call makes it one verify wants (the
				 * analysis after this one may take this parse over, reuse.c) */
				pre[cand[k]].facts_only =
				    !pre[cand[k]].src || !memmem(pre[cand[k]].src, pre[cand[k]].len,
								 "blk_end_request", 15);
				free(file->reason);
				file->reason = xstrdup(
				    "no completion call; parsed for the whole-tree facts only");
			}
			parse_or_reuse(env, idx, reuse, run, pre, cand + parsed, ncand - parsed,
				       cx.tus + parsed);
			adopt(&cx, pre, cand, parsed, ncand);
			parsed = ncand;
		}
		facts_collect(&cx);
		callgraph_resolve(&cx);
		tree_wanted(&cx, &names, &members);
		size_t nopen = cx.open_names.n + cx.open_members.n;

		if (names.n || members.n)
			select_files(&cx, pre, idents, taken, cand, &ncand, &names, &members,
				     round >= MAX_ROUNDS);
		strlist_free(&names);
		strlist_free(&members);
		if (ncand == first && nopen == cx.open_names.n + cx.open_members.n)
			break;
		facts_forget_marks(&cx);
		if (ncand == first) {
			/* open members known now: the last facts again */
			facts_collect(&cx);
			callgraph_resolve(&cx);
			break;
		}
	}
	cx.ntus = ncand;
	for (size_t i = 0; i < run->nfiles; i++) {
		free(pre[i].src);
		free(pre[i].clean);
		bm_hits_free(pre[i].hits, pre[i].nhits);
	}
	idents_free(idents, run->nfiles);
	free(pre);
	free(cand);
	free(taken);

	classify_all(&cx);
	rewrite_end_io_error(&cx);
	note_parse_errors(&cx);
	if (verify)
		verify_all(&cx);
	for (size_t i = 0; i < run->nsites; i++)
		for (size_t k = 0; k < run->nfiles; k++)
			if (!strcmp(run->files[k].path, run->sites[i].file))
				run->files[k].nsites++;
	if (reuse && !bm_parse_keep_env) {
		reuse_put(reuse, &cx, env, idx); /* the next run's, then */
		ctx_free(&cx);
		units_end();
		give_back_memory();
		return 0;
	}
	ctx_free(&cx);
	units_end();
	give_back_memory();
	if (bm_parse_keep_env) {
		kept_env = env;
		kept_idx = idx;
		return 0;
	}
	clang_disposeIndex(idx);
	parse_env_free(env);
	return 0;
}

int bm_analyze(struct bm_run *run, char *const *paths, size_t npaths)
{
	return run_analysis(run, paths, npaths, false, NULL);
}

int bm_verify(struct bm_run *run, char *const *paths, size_t npaths)
{
	return run_analysis(run, paths, npaths, true, NULL);
}

int bm_analyze_reusing(struct bm_run *run, char *const *paths, size_t npaths,
		       struct bm_reuse *reuse)
{
	return run_analysis(run, paths, npaths, false, reuse);
}

int bm_verify_reusing(struct bm_run *run, char *const *paths, size_t npaths, struct bm_reuse *reuse)
{
	return run_analysis(run, paths, npaths, true, reuse);
}
