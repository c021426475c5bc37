/*
 * spatch_cache.c - spatch's result for one file kept between runs (issue 24: a run after
 * editing one file of a tree pays spatch for that file only).
 *
 * spatch converts each file of migrate's private tree on its own: the passes run with
 * --no-includes and without a facts file (nothing is kept when $BLKMIG_FACTS gives the
 * patches one), so what a file becomes depends on its text, the
 * semantic patches, their options and spatch, and on the headers the patches' Python
 * reads for #define constants (cocci/src/decide.cocci, included_headers(): <x/y.h> in an
 * include/ folder above the file or in an -I folder, "x.h" beside it).  An entry of the
 * result cache (cache.c, command "spatch-file") is keyed by all but the headers, which
 * are its inputs: every place the Python could look for every name the file's text
 * includes, with the content found there or its absence.  A file whose entry is valid
 * gets the converted text and is hidden from spatch's passes as a file spatch gave up on
 * is (spatch_set_aside); the others are stored after the passes, unless spatch failed,
 * ran out of its budget, or gave up on the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_write.h"
#include "migrate_stages.h"
#include "run_state.h"
#include "util.h"

/* The names FILE's text includes, as <N> or "N": every `include`, however the line
 * starts, so that what the Python finds after blanking comments is among them. */
static void included_names(const char *s, size_t len, struct bm_strlist *out)
{
	for (const char *p = s, *end = s + len; (p = memmem(p, (size_t)(end - p), "include", 7));) {
		const char *q = p + 7, *name, *close;
		char closer;

		p = q;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= end || (*q != '<' && *q != '"'))
			continue;
		closer = *q == '<' ? '>' : '"';
		name = q + 1;
		close = memchr(name, closer, (size_t)(end - name));
		if (close && close > name)
			strlist_push_owned(out, xstrndup(name, (size_t)(close - name)));
	}
}

/* PATH as an input of E unless it lies in the run's private tree (which holds only the
 * candidates, one to a folder: nothing the Python looks for is ever there). */
static void add_place(struct mig *m, struct bm_cache *e, const char *path)
{
	size_t n = strlen(m->tmpdir);

	if (!strncmp(path, m->tmpdir, n) && (path[n] == '/' || !path[n]))
		return;
	bm_cache_add_input(e, path);
}

/* Every place decide.cocci's included_headers() may read for C: for <N>, N in include/
 * of every folder above the private copy, then in every -I folder; for "N" beside it. */
static void add_header_inputs(struct mig *m, struct cand *c, struct bm_cache *e,
			      const struct bm_strlist *incs)
{
	struct bm_strlist names = {0};
	char *dir = realpath(c->tmp, NULL);

	included_names(c->orig_data, c->orig_len, &names);
	for (size_t i = 0; dir && i < names.n; i++) {
		const char *n = names.v[i];
		char *d = xstrdup(dir), *slash, *p;

		if (n[0] == '/') { /* os.path.join() keeps an absolute name as it is */
			add_place(m, e, n);
			free(d);
			continue;
		}
		while ((slash = strrchr(d, '/'))) {
			*slash = '\0';
			p = xasprintf("%s/include/%s", d, n);
			add_place(m, e, p);
			free(p);
		}
		free(d);
		for (size_t k = 0; k + 1 < incs->n; k += 2) {
			p = xasprintf("%s/%s", incs->v[k + 1], n);
			add_place(m, e, p);
			free(p);
		}
	}
	free(dir);
	strlist_free(&names);
}

void spatch_cache_take(struct mig *m, const char *spatch, const struct bm_strlist *cocci,
		       const struct bm_strlist *copts, const char *macros)
{
	struct bm_strlist incs = {0};
	size_t hits = 0;
	char err[256];

	/* with $BLKMIG_FACTS the patches read the facts the facts pass writes of every file
	 * during the run (cocci/README.md): a file's result depends on the others then */
	if (m->a.no_cache || m->a.no_spatch || !spatch || getenv("BLKMIG_FACTS"))
		return;
	spatch_include_args(m, &incs);
	for (size_t i = 0; i < m->nc; i++) {
		struct cand *c = &m->c[i];
		char *base = strrchr(c->tmp, '/') + 1;
		struct bm_cache *e;
		json_t *st;
		size_t len;
		char *text;

		if (c->problem)
			continue;
		/* spatch runs in the private tree, on absolute -I folders: not keyed by
		 * the working directory */
		if (!(e = bm_cache_open_anywhere("spatch-file", 1, &base)))
			break; /* caching is off */
		key_spatch_tools(e, spatch, cocci, copts, macros);
		for (size_t k = 0; k < incs.n; k++)
			bm_cache_key_text(e, "include", incs.v[k], strlen(incs.v[k]));
		bm_cache_key_text(e, "source", c->orig_data, c->orig_len);
		st = bm_cache_lookup(e);
		text = st ? run_state_get_bytes(json_object_get(st, "text"), &len) : NULL;
		json_decref(st);
		bool written = text && atomic_replace_new(c->tmp, text, len, err, sizeof(err)) == 0;

		if (written) {
			/* hidden from the passes, back with spatch_restore_aside() */
			char *to = xasprintf("%s.aside", c->tmp);

			c->aside = rename(c->tmp, to) == 0;
			c->spatch_cached = c->aside;
			hits += c->aside;
			free(to);
		}
		free(text);
		if (c->spatch_cached) {
			bm_cache_close(e);
			continue;
		}
		/* the stored text was written but could not be set aside: spatch's run must
		 * see the original again */
		if (written)
			atomic_replace_new(c->tmp, c->orig_data, c->orig_len, err, sizeof(err));
		add_header_inputs(m, c, e, &incs);
		c->spatch_entry = e;
	}
	strlist_free(&incs);
	if (getenv("BLKMIG_STAGE_TIMES"))
		fprintf(stderr, "blkmig migrate: spatch's result of %zu of %zu file(s) cached\n",
			hits, m->nc);
}

size_t spatch_cache_left(const struct mig *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nc; i++)
		n += !m->c[i].spatch_cached;
	return n;
}

void spatch_cache_keep(struct mig *m)
{
	char err[256];

	for (size_t i = 0; i < m->nc; i++) {
		struct cand *c = &m->c[i];
		char *text;
		size_t len;

		if (!c->spatch_entry)
			continue;
		if (!m->spatch_failed && !m->spatch_timed_out && !c->problem &&
		    read_whole_file(c->tmp, &text, &len, err, sizeof(err)) == 0) {
			bm_cache_store(c->spatch_entry,
				       json_pack("{s:o}", "text", run_state_bytes(text, len)));
			free(text);
		}
		bm_cache_close(c->spatch_entry);
		c->spatch_entry = NULL;
	}
}
