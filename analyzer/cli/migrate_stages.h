/*
 * migrate_stages.h - the state one `blkmig migrate` run hands from stage to stage, and
 * the stages' entry points (cmd_migrate.c runs them in order).
 *
 * cmd_migrate.c       command line, the run's order of stages, exit status
 * migrate_spatch.c    the private copies (candidates) and spatch's passes on them
 * migrate_judge.c     what of spatch's output is trusted, site by site, and the
 *                     analysis of spatch's result reconciled with the inventory
 * migrate_sites.c     each inventory site's final verdict, told on the user's file
 * migrate_output.c    in-place writes, --series, --report, the --check list
 * migrate_cache.c     the result cache of a --check or --patch run
 * spatch_cache.c      spatch's result for one file, kept between runs
 * guard_cache.c       the output check's parse verdict on one file, kept between runs
 */
#ifndef BLKMIG_MIGRATE_STAGES_H
#define BLKMIG_MIGRATE_STAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <jansson.h>

#include "cache.h"
#include "site.h"

enum mode { MODE_CHECK, MODE_PATCH, MODE_SERIES, MODE_IN_PLACE };

struct mig_args {
	enum mode mode;
	int modes_given;
	const char *patch, *series, *report, *root, *spatch, *cocci_dir;
	const char *format, *output; /* --format, -o: one report to a file or stdout */
	bool no_spatch;		     /* --no-spatch: the analyzer alone */
	bool no_cache;		     /* --no-cache: neither use nor store a cached result */
	char **paths;
	size_t npaths;
};

struct cand {
	char *orig; /* the file, as the analyzer named it */
	char *tmp;  /* its private copy */
	char *orig_data;
	size_t orig_len;
	char *spatched; /* the private copy after spatch */
	size_t spatched_len;
	char *final; /* the result (malloc'd), == orig_data contents if unchanged */
	size_t final_len;
	char *problem; /* left untouched: why */
	const char *problem_code;
	size_t by_spatch, by_analyzer;
	bool aside; /* spatch gave up on it: hidden from its later passes (spatch_set_aside) */
	bool spatch_cached;	       /* spatch's result came from the cache (spatch_cache.c) */
	struct bm_cache *spatch_entry; /* where spatch's result will be kept */
};

struct mig {
	struct mig_args a;
	struct bm_run inv;  /* inventory of the original files */
	struct bm_run post; /* analysis of spatch's result */
	struct bm_run ver;  /* verify of the final result */
	struct cand *c;
	size_t nc;
	char *tmpdir;
	bool spatch_failed;
	char *origin;	     /* per inventory site: 's' spatch, 'a' analyzer, 0 neither */
	char **notes;	     /* per inventory site: why spatch's rewrite was not taken */
	struct cand **slots; /* name -> candidate (index_cands) */
	size_t nslots;

	/* spatch's budget for all its passes (spatch_budget): seconds left, spent */
	double spatch_left;
	bool spatch_timed_out;
};

/* A candidate whose result differs from its original (and is not left untouched). */
static inline int changed(const struct cand *c)
{
	return !c->problem &&
	       (c->final_len != c->orig_len || memcmp(c->final, c->orig_data, c->orig_len));
}

/* cmd_migrate.c */
void copy_options(struct bm_options *dst, const struct bm_options *src);
double now_s(void); /* the monotonic clock, in seconds */

/* spatch_cache.c: after make_copies(), files whose spatch result is cached get it and
 * are hidden from the passes; after them, the others' results are kept */
void spatch_cache_take(struct mig *m, const char *spatch, const struct bm_strlist *cocci,
		       const struct bm_strlist *copts, const char *macros);
size_t spatch_cache_left(const struct mig *m);
void spatch_cache_keep(struct mig *m);

/* guard_cache.c: the parse check's verdict per file (migrate_judge.c guard_parse): those
 * kept are taken (TAKEN[k]), the others parsed under watch and kept */
struct og_text;
struct guard_cache;
struct guard_cache *guard_cache_take(const struct mig *m, struct og_text *t, size_t n, bool *taken);
void guard_cache_watch(struct guard_cache *g, const char *dir, const struct og_text *u,
		       const size_t *index, size_t nu);
void guard_cache_keep(struct guard_cache *g, const struct og_text *u, const size_t *index,
		      size_t nu, bool parsed_all);
void guard_cache_free(struct guard_cache *g);

/* migrate_spatch.c */
void index_cands(struct mig *m);
struct cand *cand_of(struct mig *m, const char *path);
void leave_untouched(struct cand *c, const char *code, const char *why);
int make_copies(struct mig *m);
double spatch_budget(const struct mig *m);
void spatch_include_args(const struct mig *m, struct bm_strlist *av);
int run_spatch(struct mig *m, const char *spatch, const char *cocci, const char *options,
	       const char *macros);
void spatch_timeouts(struct mig *m);
void spatch_restore_aside(struct mig *m);
void show_log_tail(const struct mig *m);
char *user_names(struct mig *m, const char *msg);
char *user_text_of(struct mig *m, const struct cand *c, const char *msg);
void mig_free(struct mig *m);

/* migrate_judge.c */
void trim_statement_end(char *r);
void fold_into_covering_site(const struct bm_run *run, struct bm_site *s);
void before_range(const struct bm_site *s, const char *data, size_t len, unsigned *first,
		  unsigned *last);
void set_manual(struct bm_site *s, const char *code, const char *text);
void guard_spatch_output(struct mig *m);
void guard_parse(struct mig *m);
void judge_spatch(struct mig *m);
bool preexisting_lock_bug(struct mig *m, const struct bm_finding *f, struct cand *c);
void reconcile(struct mig *m, bool *used_post);

/* migrate_sites.c */
void leave_partial_files(struct mig *m);
void finish_sites(struct mig *m, size_t *converted, size_t *by_spatch);
void merge_findings(struct mig *m);

/* migrate_output.c */
int precheck_target(const char *plan_path, void *ctx, char *err, size_t errlen);
int write_series(struct mig *m);
int write_reports(struct mig *m, const char *dir);
int replace_changed_files(struct mig *m);
void remove_leftovers(const struct bm_run *run);
void list_changed(const struct mig *m);

/* migrate_cache.c */
void key_spatch_tools(struct bm_cache *c, const char *spatch, const struct bm_strlist *cocci,
		      const struct bm_strlist *copts, const char *macros);
void push_parse_options(struct bm_strlist *key, const struct bm_options *o);
void key_parse_tools(struct bm_cache *c, const struct bm_options *o);
struct bm_cache *open_cache(struct mig *m, const char *spatch, const struct bm_strlist *cocci,
			    const struct bm_strlist *copts, const char *macros);
json_t *mig_state(const struct mig *m, size_t converted, size_t by_spatch);
int mig_restore(struct mig *m, json_t *st, size_t *converted, size_t *by_spatch);
bool cacheable(const struct mig *m);

#endif
