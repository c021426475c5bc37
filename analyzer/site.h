/*
 * site.h - the analyzer's public model: options, per-file parse records,
 * per-site analysis results with their rewrite (a list of text edits on the
 * original file), verify findings, and the run that holds them all.
 *
 * This is the interface the other blkmig subcommands (fix, migrate, HTML
 * report) build on.  Keep it stable; changes are announced in commit
 * messages.
 */
#ifndef BLKMIG_SITE_H
#define BLKMIG_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define BLKMIG_VERSION "0.1.0"

/* Exit codes shared by every subcommand. */
enum bm_exit {
	BM_EXIT_CLEAN = 0,    /* nothing to report */
	BM_EXIT_FINDINGS = 1, /* manual sites (scan/fix) or findings (verify) */
	BM_EXIT_USAGE = 2,    /* usage or I/O error */
};

enum bm_lock_state {
	BM_LOCK_UNKNOWN = 0,
	BM_LOCK_HELD,
	BM_LOCK_NOT_HELD,
};

enum bm_verdict {
	BM_AUTO = 0,
	BM_MANUAL,
};

enum bm_uptodate_class {
	BM_UT_NONE = 0, /* the call carries no uptodate (e.g. never) */
	BM_UT_CONSTANT,
	BM_UT_BOOLEAN,
	BM_UT_ERRNO,   /* errno_capable: may be a negative errno */
	BM_UT_WRAPPER, /* a parameter of a wrapper function */
	BM_UT_UNKNOWN,
};

/* Catalogue patterns (issue 2, items 1-12; analyzer/REPORT.md). */
enum bm_pattern {
	BM_PAT_FIRST_LAST_HELD = 0, /* item 1 */
	BM_PAT_FIRST_LAST_UNLOCKED, /* item 2 */
	BM_PAT_EARLY_RETURN,	    /* item 3 */
	BM_PAT_RESULT_USED,	    /* item 4 */
	BM_PAT_CHUNK,		    /* item 5 */
	BM_PAT_WHOLE_REQUEST,	    /* item 6 */
	BM_PAT_LAST_ONLY,	    /* item 7 */
	BM_PAT_END_REQUEST,	    /* item 8 */
	BM_PAT_CALLBACK,	    /* item 9 */
	BM_PAT_WRAPPER_PARAM,	    /* across functions */
	BM_PAT_UNCLASSIFIED,	    /* a legacy call in no catalogue shape */
	BM_PAT_COUNT
};

enum bm_parse_status {
	BM_PARSE_OK = 0,
	BM_PARSE_PARTIAL, /* parsed with errors */
	BM_PARSE_FAILED,  /* libclang crashed, hung or gave no AST */
	BM_PARSE_SKIPPED, /* prefilter: no legacy token, not parsed */
};

enum bm_finding_kind {
	BM_FIND_LEGACY_CALL = 0,
	BM_FIND_UNLOCKED_VARIANT_WITH_LOCK,  /* blk_end_request* with lock held */
	BM_FIND_LOCKED_VARIANT_WITHOUT_LOCK, /* __blk_end_request without it */
	/* a warning, not a failure: the original already completed without the
	 * queue lock it needed; the conversion kept that call's contract */
	BM_FIND_PREEXISTING_LOCK_BUG,
	/* a warning too: the original never ended a request whose data it
	 * completed (its loop never ended); the 2.6.25 call ends it */
	BM_FIND_PREEXISTING_UNENDED,
	BM_FIND_KIND_COUNT
};

/*
 * One text edit on an original file: replace bytes [start, end) with text.
 * Offsets are byte offsets into the file as read from disk.  Insertions
 * have start == end.  The edits of all auto sites of one file never
 * overlap once exact duplicates are dropped (bm_file_edits()).
 */
struct bm_edit {
	char *file;
	size_t start;
	size_t end;
	char *text;
};

struct bm_strlist {
	char **v;
	size_t n;
	size_t cap;
};

struct bm_site {
	char *file;
	unsigned line, column, end_line, end_column; /* 1-based, of the call */
	size_t offset, end_offset;		     /* byte range of the call expression */
	char *function;				     /* enclosing function, or "" */
	char *call;				     /* legacy callee name */
	enum bm_pattern pattern;
	enum bm_lock_state lock;
	struct bm_strlist lock_evidence;
	char *uptodate_expr;
	enum bm_uptodate_class uptodate_class;
	char *error_expr;      /* E(uptodate) as written in the new call */
	char *uptodate_origin; /* why a value is taken as 0 or 1, or "" */
	char *bytes_expr;      /* byte count passed to the new call */
	char *bytes_origin;
	char *parse_note;  /* what the file's parse errors touch, or NULL (none) */
	char *replacement; /* the new call, or "" for a manual site */
	char *before;	   /* original source lines of the site */
	char *after;	   /* the same lines after the edits (auto only) */
	enum bm_verdict verdict;
	const char *reason_code; /* NULL for auto */
	char *reason_text;
	const char *confidence; /* "high" | "medium" | "low" */
	bool typed;		/* seen in a fully typed AST */
	struct bm_edit *edits;	/* rewrite of this site (auto only) */
	size_t nedits;
};

struct bm_file {
	char *path;
	enum bm_parse_status status;
	unsigned errors, warnings;
	bool used_model;
	bool link;    /* a symbolic link (parse/walk.c): skipped, never read or written */
	char *reason; /* why partial/failed/skipped, or NULL */
	/* failed: the reason code of the file and its sites ("resource_limit": the parse
	 * passed --parse-memory); NULL: "unparsed" */
	const char *fail_code;
	size_t nsites;
	struct bm_strlist diagnostics; /* the first parse errors, "FILE:LINE:COL: error: ..." */
	/*
	 * fix/migrate: what became of the file ("converted", "unchanged",
	 * "left_untouched"), with the reason code and text when left untouched;
	 * NULL for scan/verify.
	 */
	const char *outcome;
	const char *outcome_code;
	char *outcome_text;
};
#define BM_FILE_DIAGNOSTICS 3
#define BM_PARSE_MEMORY_MB  8192 /* --parse-memory default */

struct bm_finding {
	char *file;
	unsigned line, column;
	char *function;
	enum bm_finding_kind kind;
	char *message;
};

struct bm_options {
	struct bm_strlist include_dirs; /* -I */
	struct bm_strlist defines;	/* -D NAME[=VALUE] */
	char *build_dir;		/* -p: compile_commands.json */
	char *kernel_tree;		/* --kernel-tree */
	int jobs;			/* -j, default: number of CPUs */
	bool headers;			/* --headers: walk .h files too */
	bool follow;			/* --follow: symlinks may lead out of the tree */
	unsigned timeout;		/* per-file parse timeout, seconds */
	unsigned parse_memory_mb;	/* --parse-memory MB, a parse's memory (0: no cap) */
	bool quiet;
	/* how reports are written (analyzer/REPORT.md), not what is analysed */
	const char *sarif_base_uri; /* --sarif-base-uri: SARIF SRCROOT's uri (NULL: none) */
	const char *source_url;	    /* --source-url: review page links, {path} and {line} */
	bool list_skipped;	    /* --list-skipped: JSON lists the files with no legacy call */
};

struct bm_run {
	struct bm_options opt;
	const char *command; /* "scan", "verify", "fix", ... */
	struct bm_file *files;
	size_t nfiles, files_cap;
	struct bm_site *sites;
	size_t nsites, sites_cap;
	struct bm_finding *findings;
	size_t nfindings, findings_cap;
	unsigned io_errors; /* unreadable paths etc. (already reported) */
	const char *root;   /* --root: SARIF/HTML name files relative to it (NULL: cwd) */
	/* how many files the whole-tree facts added to the parse (analyze.c), by round:
	 * [0] those that register a queue, [k] those that name callers that matter */
	size_t *facts_added;
	size_t nfacts_added;
};

/* ---- run life cycle (run.c) ------------------------------------------ */
void bm_run_init(struct bm_run *run, const char *command);
void bm_run_free(struct bm_run *run);

/* The reason of a file read as binary data begins so (prefilter.c bm_binary_reason). */
#define BM_BINARY_REASON "binary data, not C source"
bool bm_file_is_binary(const struct bm_file *f);
/* The line on stderr that tells of a file not read as C: a symbolic link the walk
 * skipped, or a binary file.  Said by the walk and the prefilter as they come to it,
 * and by a cached run that read neither; nothing for any other file. */
void bm_say_file_notice(const struct bm_file *f);
/* The line on stderr that tells how many files round ROUND of the whole-tree facts
 * added to the parse (run->facts_added[ROUND]); nothing when none.  Said by the
 * analysis as it goes, and by a cached run that made no analysis. */
void bm_say_facts_added(size_t round, size_t n);

/*
 * Common options: -p DIR, -I DIR, -D DEF, --kernel-tree DIR, -j N,
 * --headers, --timeout SEC, -q.  Looks at argv[*i]; returns 1 and advances
 * *i past the option (and its argument) when it was a common option, 0 when
 * it is not one, -1 on a usage error (message printed).
 */
int bm_options_take(struct bm_options *opt, int argc, char **argv, int *i);
/* The usage text of the common options, for each subcommand's --help. */
void bm_options_usage(FILE *out);

/*
 * Analyse PATHS (files and directories, walked recursively) into run:
 * run->files, run->sites (classified, with edits for auto sites).
 * Returns 0, or -1 when nothing could be analysed at all (every path
 * unreadable); unreadable paths are counted in run->io_errors and
 * reported on stderr.
 */
int bm_analyze(struct bm_run *run, char *const *paths, size_t npaths);

/*
 * Verify converted code: analyse PATHS as bm_analyze() does and fill
 * run->findings.  Same return convention.
 */
int bm_verify(struct bm_run *run, char *const *paths, size_t npaths);

/*
 * Parses kept from one run to the next over the same files (convert/reuse.c):
 * bm_analyze_reusing and bm_verify_reusing take from reuse the parse of each
 * file whose text and included files have not changed since the run that
 * kept it (with the same options), and keep theirs in it at the end.
 */
struct bm_reuse;
struct bm_reuse *bm_reuse_new(void);
void bm_reuse_free(struct bm_reuse *reuse);
int bm_analyze_reusing(struct bm_run *run, char *const *paths, size_t npaths,
		       struct bm_reuse *reuse);
int bm_verify_reusing(struct bm_run *run, char *const *paths, size_t npaths,
		      struct bm_reuse *reuse);

/*
 * Tell introduced problems from old ones (verify.c): every
 * locked_variant_without_lock finding of CONVERTED_FILE in ver whose
 * function already held a preexisting_lock_bug in the analysis orig of
 * ORIGINAL_FILE (scan or migrate inventory of the original) becomes a
 * preexisting_lock_bug warning.  Returns how many were reclassified.
 */
size_t bm_verify_mark_preexisting(struct bm_run *ver, const char *converted_file,
				  const struct bm_run *orig, const char *original_file);
/* A finding that fails verify (everything but the old bugs a conversion kept). */
static inline bool bm_finding_fails(const struct bm_finding *f)
{
	return f->kind != BM_FIND_PREEXISTING_LOCK_BUG && f->kind != BM_FIND_PREEXISTING_UNENDED;
}

/*
 * The edits of every auto site of FILE, sorted by offset, exact duplicates
 * dropped.  Returns 0, or -1 if two edits overlap (then the file must be
 * left untouched).  *out is malloc'ed; the edits point into the run.
 */
int bm_file_edits(const struct bm_run *run, const char *file, struct bm_edit **out, size_t *n);

/*
 * Apply sorted, non-overlapping edits to a buffer.  Returns a malloc'ed
 * NUL-terminated result (length in *outlen) or NULL on overlap/range error.
 */
char *bm_apply_edits(const char *src, size_t len, const struct bm_edit *e, size_t n,
		     size_t *outlen);

/* Exit code for a finished scan/verify run. */
int bm_run_exit_code(const struct bm_run *run);

/* ---- names (names.c) --------------------------------------------------- */
const char *bm_pattern_name(enum bm_pattern p);
const char *bm_pattern_title(enum bm_pattern p);
const char *bm_lock_name(enum bm_lock_state l);
const char *bm_uptodate_class_name(enum bm_uptodate_class c);
const char *bm_parse_status_name(enum bm_parse_status s);
const char *bm_finding_kind_name(enum bm_finding_kind k);
const char *bm_reason_description(const char *code);
const char *bm_reason_code_at(size_t i);

/* ---- report writers (report_*.c) --------------------------------------- */
int bm_report_text(const struct bm_run *run, FILE *out);
int bm_report_json(const struct bm_run *run, FILE *out);
int bm_report_sarif(const struct bm_run *run, FILE *out);
int bm_report_brief(const struct bm_run *run, FILE *out);

#endif
