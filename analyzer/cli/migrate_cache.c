/*
 * migrate_cache.c - the result cache of a --check or --patch run (cache.c): its key,
 * what is stored (the inventory with its verdicts, each candidate's result) and how a
 * stored result is restored.
 */

#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>

#include "atomic_write.h"
#include "ktree.h"
#include "migrate_stages.h"
#include "run_state.h"
#include "util.h"
#include "vec.h"

/* What spatch's output depends on besides the files: spatch itself (NULL: no spatch), the
 * semantic patches with their options, the macro file. */
void key_spatch_tools(struct bm_cache *c, const char *spatch, const struct bm_strlist *cocci,
		      const struct bm_strlist *copts, const char *macros)
{
	bm_cache_key_text(c, "spatch", spatch ? spatch : "", spatch ? strlen(spatch) : 0);
	if (spatch)
		bm_cache_key_stat(c, spatch);
	for (size_t i = 0; i < cocci->n; i++) {
		bm_cache_key_file(c, cocci->v[i]);
		bm_cache_key_text(c, "options", copts->v[i], strlen(copts->v[i]));
	}
	if (macros)
		bm_cache_key_file(c, macros);
}

/* What the options say of how a file is read and parsed, in one canonical form (-Ix and
 * -I x are one entry): the whole run's key and each parse check's (guard_cache.c). */
void push_parse_options(struct bm_strlist *key, const struct bm_options *o)
{
	if (o->headers)
		strlist_push(key, "--headers");
	if (o->follow)
		strlist_push(key, "--follow");
	if (o->build_dir) {
		strlist_push(key, "-p");
		strlist_push(key, o->build_dir);
	}
	if (o->kernel_tree) {
		strlist_push(key, "--kernel-tree");
		strlist_push(key, o->kernel_tree);
	}
	for (size_t i = 0; i < o->include_dirs.n; i++) {
		strlist_push(key, "-I");
		strlist_push(key, o->include_dirs.v[i]);
	}
	for (size_t i = 0; i < o->defines.n; i++) {
		strlist_push(key, "-D");
		strlist_push(key, o->defines.v[i]);
	}
}

/* What a parse depends on besides the options and the files: libclang, and with -p the
 * compile database (read with jansson, not read_file(): no recorded input). */
void key_parse_tools(struct bm_cache *c, const struct bm_options *o)
{
	CXString v = clang_getClangVersion();

	bm_cache_key_text(c, "libclang", clang_getCString(v), strlen(clang_getCString(v)));
	clang_disposeString(v);
	if (o->build_dir) {
		char *db = xasprintf("%s/compile_commands.json", o->build_dir);

		bm_cache_key_file(c, db);
		free(db);
	}
}

/*
 * The cache of a --check or --patch run (cache.c): keyed by the command line and
 * everything that shapes the result besides the files (libclang, spatch, the
 * semantic patches); the trees walked, so that a directory's entries count.
 */
struct bm_cache *open_cache(struct mig *m, const char *spatch, const struct bm_strlist *cocci,
			    const struct bm_strlist *copts, const char *macros)
{
	struct bm_cache *c;

	/* $BLKMIG_FACTS gives the patches a facts file, which the run's facts pass appends
	 * to and which may hold another run's facts: a result no key can name */
	if (m->a.no_cache || m->a.mode == MODE_IN_PLACE || getenv("BLKMIG_FACTS"))
		return NULL;
	/* the command line as parsed, in one canonical form (-Ix and -I x are one entry);
	 * where the outputs go and how reports are written, -q and -j do not change the
	 * result: not in the key; patch and series give the same result: the same entry */
	const struct bm_options *o = &m->inv.opt;
	struct bm_strlist key = {0};
	char num[32];

	strlist_push(&key, m->a.mode == MODE_CHECK ? "--check" : "--patch");
	if (m->a.no_spatch)
		strlist_push(&key, "--no-spatch");
	push_parse_options(&key, o);
	{
		const char *named[][2] = {{"--root", m->a.root},
					  {"--spatch", m->a.spatch},
					  {"--cocci-dir", m->a.cocci_dir},
					  {"--format", m->a.format}};

		for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			if (named[i][1]) {
				strlist_push(&key, named[i][0]);
				strlist_push(&key, named[i][1]);
			}
	}
	snprintf(num, sizeof(num), "%u", o->timeout);
	strlist_push(&key, "--timeout");
	strlist_push(&key, num);
	strlist_push(&key, "--");
	for (size_t i = 0; i < m->a.npaths; i++)
		strlist_push(&key, m->a.paths[i]);
	c = bm_cache_open("migrate", (int)key.n, key.v);
	strlist_free(&key);
	if (!c)
		return NULL;
	key_parse_tools(c, o);
	key_spatch_tools(c, spatch, cocci, copts, macros);
	for (size_t i = 0; i < m->a.npaths; i++) {
		char *root = ktree_find_root(m->a.paths[i]);

		bm_cache_add_root(c, m->a.paths[i]);
		if (root)
			bm_cache_add_root(c, root);
		free(root);
	}
	if (m->inv.opt.kernel_tree)
		bm_cache_add_root(c, m->inv.opt.kernel_tree);
	for (size_t i = 0; i < m->inv.opt.include_dirs.n; i++)
		bm_cache_add_root(c, m->inv.opt.include_dirs.v[i]);
	return c;
}

/* What the output step needs, for the cache: the inventory with its verdicts, and each
 * candidate's result. */
json_t *mig_state(const struct mig *m, size_t converted, size_t by_spatch)
{
	json_t *cands = json_array(), *inv = run_state_save(&m->inv);

	for (size_t i = 0; i < m->nc; i++) {
		const struct cand *c = &m->c[i];

		json_array_append_new(
		    cands,
		    json_pack(
			"{s:o, s:o, s:o, s:o, s:I, s:I}", "orig",
			run_state_bytes(c->orig, strlen(c->orig)), "final",
			changed(c) ? run_state_bytes(c->final, c->final_len) : json_null(),
			"problem",
			c->problem ? run_state_bytes(c->problem, strlen(c->problem)) : json_null(),
			"problem_code",
			c->problem_code ? json_string(c->problem_code) : json_null(), "by_spatch",
			(json_int_t)c->by_spatch, "by_analyzer", (json_int_t)c->by_analyzer));
	}
	if (!inv) {
		json_decref(cands);
		return NULL;
	}
	return json_pack("{s:o, s:o, s:I, s:I, s:b}", "inv", inv, "cands", cands, "converted",
			 (json_int_t)converted, "by_spatch", (json_int_t)by_spatch, "spatch_failed",
			 m->spatch_failed);
}

/* The state of a cached run back into M; -1 (M as it was) when it does not load. */
int mig_restore(struct mig *m, json_t *st, size_t *converted, size_t *by_spatch)
{
	json_t *cands = json_object_get(st, "cands"), *v;
	struct bm_run run;
	struct cand *c = NULL;
	size_t nc = 0, cap = 0, i;
	bool bad = !json_is_array(cands);
	char err[1024];

	bm_run_init(&run, "migrate");
	if (bad || run_state_load(json_object_get(st, "inv"), &run) < 0) {
		bm_run_free(&run);
		return -1;
	}
	json_array_foreach(cands, i, v)
	{
		struct cand *d = vec_push(c, nc, cap);
		size_t n;
		json_t *code = json_object_get(v, "problem_code");

		memset(d, 0, sizeof(*d));
		d->orig = run_state_get_bytes(json_object_get(v, "orig"), &n);
		/* the file's content is one of the inputs the cache checked */
		if (!d->orig ||
		    read_whole_file(d->orig, &d->orig_data, &d->orig_len, err, sizeof(err)) < 0) {
			bad = true;
			break;
		}
		d->tmp = xstrdup(d->orig);
		if (json_is_null(json_object_get(v, "final"))) {
			d->final = xmalloc(d->orig_len + 1);
			memcpy(d->final, d->orig_data, d->orig_len + 1);
			d->final_len = d->orig_len;
		} else if (!(d->final =
				 run_state_get_bytes(json_object_get(v, "final"), &d->final_len))) {
			bad = true;
			break;
		}
		if (!json_is_null(json_object_get(v, "problem")))
			d->problem = run_state_get_bytes(json_object_get(v, "problem"), &n);
		d->problem_code = run_state_intern(json_string_value(code));
		d->by_spatch = (size_t)json_integer_value(json_object_get(v, "by_spatch"));
		d->by_analyzer = (size_t)json_integer_value(json_object_get(v, "by_analyzer"));
	}
	if (bad) {
		for (size_t k = 0; k < nc; k++) {
			free(c[k].orig);
			free(c[k].tmp);
			free(c[k].orig_data);
			free(c[k].final);
			free(c[k].problem);
		}
		free(c);
		bm_run_free(&run);
		return -1;
	}
	m->inv.files = run.files;
	m->inv.nfiles = run.nfiles;
	m->inv.files_cap = run.files_cap;
	m->inv.sites = run.sites;
	m->inv.nsites = run.nsites;
	m->inv.sites_cap = run.sites_cap;
	m->inv.findings = run.findings;
	m->inv.nfindings = run.nfindings;
	m->inv.findings_cap = run.findings_cap;
	m->inv.io_errors = run.io_errors;
	m->inv.facts_added = run.facts_added;
	m->inv.nfacts_added = run.nfacts_added;
	m->c = c;
	m->nc = nc;
	m->spatch_failed = json_is_true(json_object_get(st, "spatch_failed"));
	*converted = (size_t)json_integer_value(json_object_get(st, "converted"));
	*by_spatch = (size_t)json_integer_value(json_object_get(st, "by_spatch"));
	return 0;
}

/* A result worth keeping: no I/O error, no spatch failure, no parse that crashed or
 * timed out (those depend on the machine's load, not on the files). */
bool cacheable(const struct mig *m)
{
	if (m->inv.io_errors || m->spatch_failed)
		return false;
	for (size_t i = 0; i < m->inv.nsites; i++) /* spatch's or the analysis' limit */
		if (m->inv.sites[i].reason_code && !strcmp(m->inv.sites[i].reason_code, "timeout"))
			return false;
	for (size_t i = 0; i < m->inv.nfiles; i++)
		if (m->inv.files[i].status == BM_PARSE_FAILED &&
		    !bm_file_is_binary(&m->inv.files[i]))
			return false;
	return true;
}
