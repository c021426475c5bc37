/*
 * guard_cache.c - the parse check's verdict on one file kept between runs (issue 24: a run
 * after editing one file parses that file's texts again, not every changed file's).
 *
 * The parse half of the output check (migrate_judge.c guard_parse, output_guard_parse.c)
 * parses the old and the new text of a changed file, each in a private copy outside the
 * tree, with the run's options, and keeps their error counts.  Those depend on the two
 * texts, the options (the -I folders, -D, the kernel tree, the compile database), libclang
 * and blkmig, which key an entry of the result cache (cache.c, command "guard-parse"), and
 * on the headers the two parses read or looked for in vain, which are its inputs: the
 * reads of each file's own parse (parse.c tells bm_unit_hook whose includes it reports)
 * and every read of the check outside a parse (the kernel tree's configuration), which
 * any file's parse may have used.  A parse that failed outright (a crash, the time or
 * memory limit) is not the text's doing: nothing is kept of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate_stages.h"
#include "output_guard.h"
#include "util.h"

struct guard_cache {
	struct bm_cache **entry; /* per text: where its verdict goes (NULL: taken, or off) */
	size_t n;
	struct bm_cache *common; /* what the check read outside any file's parse */
	/* the private copies of the texts being parsed, and the text each is */
	struct bm_strlist copies;
	size_t *copy_of;
};

/* the check whose parses bm_unit_hook reports now */
static struct guard_cache *watching;

struct guard_cache *guard_cache_take(const struct mig *m, struct og_text *t, size_t n, bool *taken)
{
	struct guard_cache *g = xcalloc(1, sizeof(*g));
	size_t hits = 0;

	g->entry = xcalloc(n + 1, sizeof(*g->entry));
	g->n = n;
	for (size_t k = 0; k < n && !m->a.no_cache; k++) {
		struct bm_strlist key = {0};
		struct bm_cache *e;
		char num[32];
		json_t *st;

		strlist_push(&key, t[k].name);
		push_parse_options(&key, &m->post.opt);
		e = bm_cache_open("guard-parse", (int)key.n, key.v);
		strlist_free(&key);
		if (!e)
			break; /* caching is off */
		key_parse_tools(e, &m->post.opt);
		bm_cache_key_text(e, "old", t[k].old, t[k].old_len);
		if (t[k].new_known) {
			snprintf(num, sizeof(num), "%u", t[k].new_errors);
			bm_cache_key_text(e, "new errors", num, strlen(num));
		} else {
			bm_cache_key_text(e, "new", t[k].new, t[k].new_len);
		}
		st = bm_cache_lookup(e);
		if (st && json_is_boolean(json_object_get(st, "parsed")) &&
		    json_is_integer(json_object_get(st, "old_errors")) &&
		    json_is_integer(json_object_get(st, "new_errors"))) {
			t[k].parsed = json_is_true(json_object_get(st, "parsed"));
			t[k].old_errors =
			    (unsigned)json_integer_value(json_object_get(st, "old_errors"));
			if (!t[k].new_known)
				t[k].new_errors =
				    (unsigned)json_integer_value(json_object_get(st, "new_errors"));
			taken[k] = true;
			hits++;
			bm_cache_close(e);
		} else {
			g->entry[k] = e;
		}
		json_decref(st);
	}
	if (getenv("BLKMIG_STAGE_TIMES"))
		fprintf(stderr, "blkmig migrate: the parse check of %zu of %zu file(s) cached\n",
			hits, n);
	return g;
}

static void unit_hook(const char *path, bool begin)
{
	struct guard_cache *g = watching;
	struct bm_cache *to = g->common;

	for (size_t j = 0; begin && j < g->copies.n; j++)
		if (!strcmp(path, g->copies.v[j]))
			to = g->entry[g->copy_of[j]];
	bm_cache_record_also(to);
}

void guard_cache_watch(struct guard_cache *g, const char *dir, const struct og_text *u,
		       const size_t *index, size_t nu)
{
	bool any = false;

	for (size_t j = 0; j < nu; j++)
		any |= g->entry[index[j]] != NULL;
	if (!any)
		return;
	g->common = bm_cache_open("guard-parse-reads", 0, NULL);
	if (!g->common)
		return;
	g->copy_of = xcalloc(2 * nu + 1, sizeof(*g->copy_of));
	/* output_guard_parse's names: DIR/old/J/NAME, DIR/new/J/NAME */
	for (size_t j = 0; j < nu; j++) {
		for (int side = 0; side < 2; side++) {
			if (side && u[j].new_known)
				continue;
			g->copy_of[g->copies.n] = index[j];
			strlist_push_owned(
			    &g->copies,
			    xasprintf("%s/%s/%zu/%s", dir, side ? "new" : "old", j, u[j].name));
		}
	}
	watching = g;
	bm_unit_hook = unit_hook;
	bm_cache_record_also(g->common);
}

void guard_cache_keep(struct guard_cache *g, const struct og_text *u, const size_t *index,
		      size_t nu, bool parsed_all)
{
	if (watching == g) {
		bm_unit_hook = NULL;
		watching = NULL;
		bm_cache_record_also(NULL);
	}
	for (size_t j = 0; j < nu && parsed_all && g->common; j++) {
		struct bm_cache *e = g->entry[index[j]];

		if (!e || u[j].failed)
			continue;
		bm_cache_add_inputs_of(e, g->common);
		bm_cache_store(e, json_pack("{s:b, s:I, s:I}", "parsed", u[j].parsed, "old_errors",
					    (json_int_t)u[j].old_errors, "new_errors",
					    (json_int_t)u[j].new_errors));
	}
}

void guard_cache_free(struct guard_cache *g)
{
	if (!g)
		return;
	for (size_t k = 0; k < g->n; k++)
		bm_cache_close(g->entry[k]);
	bm_cache_close(g->common);
	strlist_free(&g->copies);
	free(g->copy_of);
	free(g->entry);
	free(g);
}
