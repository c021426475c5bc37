/*
 * analysis.h - internal data of one analysis run: the parsed translation
 * units, every function definition as a flat node tree (libclang has no
 * parent links for statements), the calls between functions, and the lock
 * states the analyses compute.  Not part of the public interface (site.h).
 */
#ifndef BLKMIG_ANALYSIS_H
#define BLKMIG_ANALYSIS_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "util.h"

/* A legacy name found by the lexer (prefilter.c). */
struct bm_hit {
	size_t offset, end;
	unsigned line, column;
	char *name;
	int call;      /* followed by '(' and not a member: a call or a declaration */
	int lex_decl;  /* the lexer's guess (fallback only): a declaration */
	int in_define; /* inside a preprocessor directive (macro body) */
};

int bm_is_legacy_name(const char *s, size_t n);
size_t bm_prefilter(const char *s, size_t len, struct bm_hit **out);
void bm_hits_free(struct bm_hit *h, size_t n);
int bm_looks_binary(const char *s, size_t len);
/* What the analysis says of a file bm_looks_binary() finds binary: BM_BINARY_REASON,
 * with where and how many legacy call names the lexer still finds in it (they must not
 * go unsaid).  *NHITS: how many. */
char *bm_binary_reason(const char *s, size_t len, size_t *nhits);
char *bm_blank_comments(const char *s, size_t len);

/* Lock state at a program point.  ENTRY: whatever holds on function entry. */
enum lk { LK_BOTTOM = 0, LK_HELD, LK_NOT, LK_ENTRY, LK_UNKNOWN };
enum { LK_MAY_HELD = 1, LK_MAY_NOT = 2, LK_MAY_UNKNOWN = 4 };

/* A reference outside every function body, as the parse child lists it (func_index.c). */
struct outer_ref {
	size_t off; /* where the text names it */
	bool var;   /* a function-pointer variable, else a function */
	char *usr;  /* what it refers to */
};

struct tunit {
	size_t file_index; /* into run->files */
	const char *path;
	/* the parse, in memory only while units.c keeps it: read through unit_tu(),
	 * unit_file(); ast_path is its saved AST, loaded again on demand */
	CXTranslationUnit unit;
	CXFile unit_file;
	char *ast_path;
	/* an AST another run saved (parse.c, kept between runs): the names of its files in
	 * that run's private folders (names_was: its parse environment's, and the copy's
	 * for a copy in migrate's private tree) as in this run's (names_now) */
	char *names_was[2], *names_now[2];
	/* taken from the cache without its AST: the key its AST is kept under once a
	 * question needs it (parse_again) */
	struct parse_key *again_key;
	/* parsed, and no AST kept: the parse child of a file parsed for the whole-tree
	 * facts alone (facts_only) writes what the analysis reads of it as plain data;
	 * units.c parses it again if a question needs libclang after all */
	bool ast_deferred;
	bool facts_only;
	unsigned long used; /* units.c: when it was last asked for */
	char *src;
	size_t len;
	size_t *err_offsets;
	size_t nerr, err_cap;
	struct bm_hit *hits;
	size_t nhits;
	char *clean;	     /* src with comments and literals blanked (same offsets) */
	size_t *line_starts; /* offset of each line (offset_line(), built on first use) */
	size_t nlines, lines_cap;
	signed char has_lvc; /* version_guard.c: mentions LINUX_VERSION_CODE (0 unknown, 1, -1) */
	/* the main file's function definitions as the parse child listed them
	 * (func_index.c): where clang_getCursor() finds each (-1: nowhere), its USR */
	long *fn_at;
	char **fn_usr;
	size_t nfn;
	bool fn_listed;
	/* ... and the references to functions and function-pointer variables in its
	 * other top-level declarations (fnptr.c), as plain data */
	struct outer_ref *outer;
	size_t nouter;
	bool outer_listed;
	/* ... and its functions, built by the child (func_model.c), until facts.c takes
	 * them into the run's funcs; with each one's build time */
	struct func *model;
	double *model_s;
	size_t nmodel;
	bool model_listed;
	/* where they can be read again (a kept parse result in the run's folder, and its
	 * MODEL section; NULL: nowhere): an analysis that takes the unit over (reuse.c)
	 * without an AST reads them there rather than parse the file again */
	char *model_file;
	long model_at;
	/* fnptr.c: what the unit's function pointers came to, for the candidates of the
	 * round that asked (facts rounds ask again, mostly of the same candidates) */
	struct fnptr_memo *fnptr;
	/* the files the parse included (not the main file), read as the parse is loaded
	 * (parse.c): what reuse.c checks before another analysis takes the parse over */
	struct bm_strlist includes;
	bool includes_listed;
	/* rq_fields.c: the byte-count helpers read what the old calls used */
	bool fields_known, fields_intact;
	char *fields_why;  /* why not, when not */
	double analysis_s; /* analysis time charged to the file (budget.c) */
	bool over_time;	   /* ... past --timeout: analysed no further */
};

/* A variable or parameter as fnptr.c's slots see it (decl_info_of()), as plain data:
 * kept for those of function-pointer type and for every parameter, the ones a value
 * of a function may flow into. */
struct decl_info {
	char *usr;	  /* its identity */
	char *name;	  /* its spelling */
	char *parent_usr; /* the function it is local to (parent_kind FunctionDecl), or NULL */
	size_t off;	  /* where the text names it (clang_getFileLocation()) */
	bool in_main;	  /* ... in the unit's main file */
	bool fnptr;	  /* of function-pointer type */
	enum CXCursorKind kind, parent_kind;
	enum CX_StorageClass storage;
};

/* What the facts ask of calls, names and labels every round, as plain data: read
 * once when the node tree is built, so that a round needs no unit in memory for
 * it (units.c). */
struct node_ref {
	char *name;   /* CallExpr: its spelling, the callee's name; GotoStmt, LabelStmt:
		       * the label */
	char *usr;    /* CallExpr, DeclRefExpr: what it refers to ("" for nothing) */
	char *member; /* CallExpr: the member called through (`x->ops->done()`), or NULL */
	enum CXCursorKind ref_kind; /* DeclRefExpr: the kind of what it names */
	bool fnptr;		    /* ... a variable or parameter of function pointer type */
	unsigned file_off;	    /* ... where it is, as clang_getFileLocation() says */
	int nargs;		    /* CallExpr */
	/* DeclRefExpr naming a variable or parameter of function-pointer type: that
	 * declaration; a VarDecl node of that type (its only ref field): itself */
	struct decl_info *decl;
};

/* What a unary or binary operator's type says of it (fnptr.c), 0 when not known. */
enum node_tkind { TK_UNKNOWN = 0, TK_OTHER, TK_INT, TK_FN, TK_FNPTR };

/* lock_identity_ast()'s answers for one function's nodes (id NULL: none) */
struct lock_memo {
	int node;
	char *id;
};

struct node {
	enum CXCursorKind kind;
	struct node_ref *ref;	 /* CallExpr, DeclRefExpr, GotoStmt, LabelStmt */
	int parent, first, next; /* node indices, -1 for none */
	int last;		 /* preorder: the subtree is [this node, last] */
	size_t start, end;	 /* byte range in the main file */
	bool macro;		 /* comes from a macro expansion */
	unsigned char tkind;	 /* enum node_tkind: UnaryOperator, BinaryOperator */
	/* lock analysis results for calls */
	enum lk lock;
	size_t lock_ev_offset; /* where the state was set (0 = entry) */
	const char *lock_ev_call;
};

enum role { ROLE_NONE = 0, ROLE_REQUEST_FN, ROLE_ASYNC };

struct func {
	size_t tu;
	char *name, *usr;
	bool is_static;
	CXCursor decl; /* func_cursor() */
	long locator;  /* an offset where clang_getCursor() gives it back, or -1 */
	size_t start, end;
	struct node *nodes;
	int nnodes;
	/* each node's cursor while the unit is in memory, else NULL (units.c): read
	 * through node_cursor() */
	CXCursor *curs;
	/* lock_identity_ast() of its nodes asked so far: the same each round */
	struct lock_memo *lock_ids;
	size_t nlock_ids, lock_ids_cap;
	int body;
	bool has_errors;
	enum role role;
	char *role_evidence;
	bool addr_taken; /* used as a value we cannot follow */
	char *addr_evidence;
	enum lk entry;
	char *entry_evidence;
	/* the entry states some chain of callers brings (callgraph.c): LK_MAY_* bits,
	 * and the caller each of held / not held first came from (-1: the role) */
	unsigned may_entry;
	long held_via, not_via;
	int nparams;
	char **param_usr;
	char **param_name;
	struct decl_info *param_decl; /* each parameter's (fnptr.c), or NULL */
	/* values stored only into struct members (ops tables): their calls
	 * through those members are its callers (facts.c) */
	unsigned member_stores, other_uses;
	bool via_members;
	/* its values go only to function pointers of its file that are only called
	 * (fnptr.c): the calls through them are among the mcalls; what it found */
	bool via_pointers;
	char *pointer_evidence;
};

struct call {
	size_t func; /* caller */
	int node;
	char *callee_usr;
	char *callee_name;
	long callee; /* index into funcs, -1 outside the run (facts.c) */
};

struct ctx {
	struct bm_run *run;
	char *const *paths; /* the run's PATHs as given (wrapper_scope.c) */
	size_t npaths;
	struct tunit *tus;
	size_t ntus;
	struct func *funcs;
	size_t nfuncs, funcs_cap;
	struct call *calls;
	size_t ncalls, calls_cap;
	struct bm_strlist queue_locks; /* lock identities given to blk_init_queue */
	/* calls through a struct member to a function stored in it (ops tables):
	 * callers for the lock context only, never rewritten (facts.c) */
	struct call *mcalls;
	size_t nmcalls, mcalls_cap;
	struct bm_strlist mstore_member; /* member NAME = function ... */
	long *mstore_func;		 /* ... of each store */
	size_t nmstore_func, mstore_cap;
	/* the calls (then mcalls, numbered on) of each function in order: the first's
	 * index by callee, then the next's by call, -1 at the end (callgraph.c) */
	long *callee_head, *callee_next;
	struct bm_strlist open_members; /* members called in files not parsed */
	struct bm_strlist open_names;	/* functions named in files not parsed */
	/* name and USR indexes over funcs (facts.c): bucket heads, chains */
	long *by_name, *by_usr, *next_name, *next_usr;
	size_t nbuckets;
	/* the units [0, nbuilt_tus) have their functions in funcs: a round of whole-tree
	 * facts builds only the units it parsed (facts.c) */
	size_t nbuilt_tus;
	/* per site (index into run->sites): partner site of a first/last pair
	 * (-1 none) and, for wrapper sites, the wrapper function and parameter */
	long *partner;
	long *wfunc;
	int *wparam;
	char **lvar; /* USR of a local variable passed as uptodate (localvar.c) */
	long *lfunc; /* its function */
	size_t site_cap;
};

/* classify.c: append a site for call node n of f; returns its index */
size_t site_new(struct ctx *cx, struct func *f, int n, const char *callee);
void site_manual(struct ctx *cx, size_t si, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- units.c: translation units in memory on demand ------------------------ */
struct parse_env;
void units_begin(struct ctx *cx, CXIndex idx, struct parse_env *env);
void units_end(void);
void units_forget(void);		    /* in a parse child: no run's units */
CXTranslationUnit unit_tu(struct tunit *t); /* loaded if it was let go; NULL: no parse */
CXFile unit_file(struct tunit *t);	    /* the main file in unit_tu(t) */
bool unit_parsed(const struct tunit *t);
CXCursor node_cursor(const struct func *f, int n);
CXCursor func_cursor(const struct func *f);
/* a checkpoint where no cursor is held: units past the limit are let go */
void units_trim(void);
void unit_let_go(struct tunit *t);  /* now, if it can be loaded again */
void unit_release(struct tunit *t); /* for good, with its saved AST */
/* T's AST was saved by another run whose private folders were WAS: NOW are this run's. */
void unit_files_made_in(struct tunit *t, char *const was[2], const char *const now[2]);
/* The name of file F of T's unit, as this run's parse would give it. */
char *unit_file_name(const struct tunit *t, CXFile f);
CXFile unit_find_main_file(CXTranslationUnit tu, const char *path);

/* ---- ast.c: node trees and source helpers -------------------------------- */
void ast_build_func(struct tunit *t, CXCursor fn, struct func *f);
void ast_refill_unit(struct ctx *cx, size_t ti);
void ast_refill_func(struct ctx *cx, struct func *f);
void ast_free_func(struct func *f);
size_t loc_offset(CXSourceLocation loc, CXFile *file);
/* c is a function definition whose (expansion) location is in the file main */
bool is_main_file_definition(CXCursor c, CXFile main);
/* t is a pointer to a function (with or without a prototype) */
bool is_fnptr_type(CXType t);
/* decl (a variable or parameter) as plain data; main: the unit's main file */
void decl_info_of(CXCursor decl, CXFile main, struct decl_info *d);
void decl_info_free(struct decl_info *d);
enum node_tkind cursor_tkind(CXCursor c);
bool cursor_range(struct tunit *t, CXCursor c, size_t *start, size_t *end, bool *macro);
char *node_text(struct tunit *t, const struct node *n);
char *range_text(struct tunit *t, size_t start, size_t end);
int node_child(const struct func *f, int n, int k); /* k-th child or -1 */
int node_nchildren(const struct func *f, int n);
int node_up(const struct func *f, int n);	   /* parent, through parens/implicit */
int node_strip(const struct func *f, int n);	   /* through parens/implicit */
int node_strip_casts(const struct func *f, int n); /* also explicit casts */
char *node_callee(const struct func *f, int n);	   /* callee name of a call */
int call_arg(const struct func *f, int call, int k);
int call_nargs(const struct func *f, int call);
char *unary_op(struct tunit *t, const struct func *f, int n);
char *binary_op(struct tunit *t, const struct func *f, int n);
char *cursor_usr(CXCursor c);
char *ref_usr(const struct func *f, int n); /* USR of what a DeclRefExpr names */
/* What node n does to the local whose USR is usr; *rhs is the value stored. */
enum store_kind { STORE_NONE, STORE_SET, STORE_COMPOUND };
enum store_kind node_store(struct tunit *t, const struct func *f, int n, const char *usr, int *rhs);
char *lock_identity(struct tunit *t, const struct func *f, int n);
char *lock_identity_text(const char *s);
/* "field:NAME@STRUCT-USR" for a lock that is a struct member found under node n */
char *lock_identity_refined(const struct func *f, int n, const char *plain);
bool is_queue_lock(struct ctx *cx, const char *plain, const char *refined);
char *lock_identity_ast(const struct func *f, int n);
unsigned offset_line(const struct tunit *t, size_t off, unsigned *col);
bool node_within(const struct func *f, int n, int ancestor);
int enclosing_stmt(const struct func *f, int n); /* the statement holding n */
bool is_stmt_kind(enum CXCursorKind k);
bool range_has_error(const struct tunit *t, size_t start, size_t end);
char *text_function_at(const char *clean, size_t len, size_t off);
char *macro_body(struct tunit *t, const char *name); /* #define NAME(...) body */

/* ---- rq_fields.c: request fields the driver leaves alone ----------------- */
/* true when no code of unit tu can have changed the request fields that
 * blk_rq_cur_bytes()/blk_rq_bytes() read; else *why says where (owned by t) */
bool rq_fields_intact(struct ctx *cx, size_t tu, const char **why);
/* where unit tu writes the request field named field ("data_len"), or NULL (owned) */
char *rq_field_written(struct ctx *cx, size_t tu, const char *field);
/* why unit tu may see packet requests (it makes or passes them), or NULL (owned) */
char *rq_packet_marker(struct ctx *cx, size_t tu);

/* ---- facts.c: functions, calls, registrations ---------------------------- */
void facts_collect(struct ctx *cx);
/* between rounds: drop the facts that depend on the other files, keep the functions */
void facts_forget_marks(struct ctx *cx);
void facts_free(struct ctx *cx); /* what facts_collect/callgraph_resolve made */
/* callee member of a call through a struct member ("issue_fn"), or NULL */
char *member_callee(const struct func *f, int call); /* the member, or NULL */
struct func *func_by_usr(struct ctx *cx, const char *usr);
struct func *func_by_name(struct ctx *cx, const char *name, size_t tu);
/* fnptr.c: calls through the file's own function-pointer variables */
void fnptr_callers(struct ctx *cx);
/* Drop what fnptr_callers() kept of each unit: the run's function indices change. */
void fnptr_forget(struct ctx *cx);
/* f has callers blkmig cannot see; evidence (owned) says why, kept if f had one */
void func_callers_unseen(struct func *f, char *evidence);
/* split the argument list of the call whose '(' is at open: arg k range */
bool text_call_arg(const char *s, size_t len, size_t open, int k, size_t *a, size_t *b);

/* ---- lockctx.c / callgraph.c --------------------------------------------- */
void lockctx_func(struct ctx *cx, struct func *f);
/* The lock identities the facts ask of F's lock calls and blk_init_queue() calls
 * (lock_identity_ast), made while F's unit is in memory, as the unit is built: asked
 * later, each would load the unit again (units.c). */
void lock_ids_prepare(struct func *f);
void callgraph_resolve(struct ctx *cx);
/* state at node n of f, with ENTRY resolved; evidence into *ev */
enum bm_lock_state lock_at(struct ctx *cx, struct func *f, int n, struct bm_strlist *ev);
/* callers of f without the queue lock (named in *where), -1 if unknown */
/* "do_fd_request -> start_request -> f": a chain of callers that brings f the lock held
 * (held != 0) or not held, from the function whose role decides it (owned) */
char *lock_entry_path(struct ctx *cx, struct func *f, bool held);
int lock_callers_not_held(struct ctx *cx, struct func *f, struct bm_strlist *where,
			  struct bm_strlist *held);
/* the first lock call of any lock spelled in [a, b) of f, or NULL */
char *lock_call_between(struct ctx *cx, const struct func *f, size_t a, size_t b);

/* ---- classify.c / verify.c ----------------------------------------------- */
void classify_all(struct ctx *cx);
/* end_io_error.c: the removed end_io_error() spelled out in files blkmig converts */
void rewrite_end_io_error(struct ctx *cx);
/* parse_scope.c: each site of a file with parse errors says what they touch */
void note_parse_errors(struct ctx *cx);
void verify_all(struct ctx *cx);
/* append a finding of f at source offset off of file (msg is taken) */
void finding_add(struct ctx *cx, struct func *f, size_t off, const char *file,
		 enum bm_finding_kind kind, char *msg);

/* ---- budget: the per-file time limit of the analysis (facts/budget_charge.c the
 * clock, convert/budget.c budget_apply) ------------------------------------ */
void budget_start(struct timespec *t);
/* charge the time since *since to file ti; true if it is over --timeout now */
bool budget_charge(struct ctx *cx, size_t ti, const struct timespec *since);
/* ... SECONDS spent elsewhere (the parse child's build of a function) */
bool budget_charge_seconds(struct ctx *cx, size_t ti, double seconds);
void budget_unseen_callers(struct ctx *cx);
void budget_apply(struct ctx *cx);

/* ---- convert/localvar.c: local uptodate variables become `error` ----------- */
void locals_rename(struct ctx *cx);

/* ---- parse.c ------------------------------------------------------------- */
struct parse_env;
struct parse_env *parse_env_new(struct bm_run *run);
void parse_env_free(struct parse_env *env);
/*
 * For the fuzz target (tests/fuzz/) only: parse in this process, without a child per
 * file (so without crash isolation or --timeout), and with a precompiled header given
 * to every parse.  Off (false, NULL) for every command.
 */
extern bool bm_parse_in_process;
extern const char *bm_parse_pch;
/*
 * For the fuzz target only: keep the parse environment (model headers, stubs) and the
 * libclang index from one bm_analyze() to the next instead of making them per run.
 */
extern bool bm_parse_keep_env;
struct parse_env *parse_env_rebind(struct parse_env *env, struct bm_run *run);
/* T, whose parse child kept no AST (tunit.ast_deferred), parsed again here, or its AST
 * taken from the cache (T->again_key); the AST saved, T->ast_path its name (NULL if it
 * could not be saved).  NULL: no parse. */
CXTranslationUnit parse_again(struct parse_env *env, CXIndex idx, struct tunit *t);
void parse_key_free(struct parse_key *k);
/*
 * A parse child's result kept between runs (cli/parse_cache.c), for a file parsed for the
 * whole-tree facts alone (tunit.facts_only: all the analysis reads of it is that result),
 * or a file the analysis asks libclang about, in the tree or in migrate's private tree,
 * with its AST (saved with every file it read inside: the AST loads whatever became of
 * the private folders that made it).  NULL, keeping none, unless the command keeps its
 * results (migrate).
 */
struct parse_cache_ops {
	/* The result (LEN bytes) kept for the parse KEY names, or NULL.  WAS: the private
	 * folders of the run that made it (its parse environment's, and the copy's or
	 * NULL), for the paths in them to be read as NOW's.  Valid when every file it
	 * read, and each file in those folders as in NOW's, is as it was, and every place
	 * it looked for a header in vain still holds none.  AST (or NULL): where the
	 * parse's saved AST goes; NULL is returned when none was kept with it. */
	char *(*lookup)(const char *key, size_t keylen, const char *const now[2], char *was[2],
			size_t *len, const char *ast);
	/* Keep RESULT (LEN bytes) for KEY: a parse begun at SINCE (CLOCK_REALTIME) with the
	 * private folders DIRS (as for lookup) that read INPUTS and looked for MISSING in
	 * vain (either may lie in DIRS), and the AST it saved at AST (or NULL).  Nothing
	 * is kept when an input changed since. */
	void (*store)(const char *key, size_t keylen, const char *const dirs[2],
		      const struct timespec *since, const char *result, size_t len,
		      const struct bm_strlist *inputs, const struct bm_strlist *missing,
		      const char *ast);
};
extern const struct parse_cache_ops *bm_parse_cache;
/* Parse files[] (indices into run->files) into tus; failed files get status. */
size_t parse_files(struct parse_env *env, CXIndex idx, size_t *files, size_t nfiles,
		   struct tunit *tus);

/* ---- guard_rewrite.c: a proven rewrite under the file's own version guard - */
/* put site si's edits (all inside f) under #if LINUX_VERSION_CODE >= 2.6.25 with the
 * old lines in #else; false (nothing changed) when they do not fit one guard */
bool guard_rewrite(struct ctx *cx, struct func *f, size_t si);
bool site_guarded(const struct bm_site *s);

/* ---- version_guard.c: LINUX_VERSION_CODE guards, compat code ------------- */
/* a set of kernel version codes (KERNEL_VERSION(a,b,c) = a << 16 | b << 8 | c):
 * sorted, disjoint half-open intervals [lo, hi) */
typedef unsigned long long bm_ver;
#define BM_VSET_MAX 12
#define BM_VER_END  (1ULL << 32)
#define BM_VER_2625 0x020619ULL /* KERNEL_VERSION(2,6,25) */
struct bm_vset {
	unsigned n;
	bm_ver lo[BM_VSET_MAX], hi[BM_VSET_MAX];
};
void bm_vset_all(struct bm_vset *s);
void bm_vset_none(struct bm_vset *s);
void bm_vset_range(struct bm_vset *s, bm_ver lo, bm_ver hi);
/* widen: a may-set (too many intervals: grown), else a must-set (shrunk) */
void bm_vset_not(struct bm_vset *out, const struct bm_vset *a, bool widen);
void bm_vset_and(struct bm_vset *out, const struct bm_vset *a, const struct bm_vset *b, bool widen);
void bm_vset_or(struct bm_vset *out, const struct bm_vset *a, const struct bm_vset *b, bool widen);
bool bm_vset_within(const struct bm_vset *s, bm_ver lo, bm_ver hi); /* s in [lo, hi) */
bool bm_vset_meets(const struct bm_vset *s, bm_ver lo, bm_ver hi);  /* s meets [lo, hi) */
char *bm_vset_text(const struct bm_vset *s);			    /* "kernels before 2.6.25" */
/* a #if/#elif expression: the versions where it is surely true (must) and where it may
 * be (may); true when it compares LINUX_VERSION_CODE with a known version */
bool bm_vg_eval(const char *expr, size_t len, struct bm_vset *must, struct bm_vset *may);
/* a file's conditionals (built from its raw text) */
struct bm_vguard;
struct bm_vguard *bm_vguard_build(const char *src, size_t len);
void bm_vguard_free(struct bm_vguard *g);
/* the versions the byte at off is compiled for (every one outside version tests) */
void bm_vg_versions_at(const struct bm_vguard *g, size_t off, struct bm_vset *out);
/* (a) off is compiled only for kernels before 2.6.25: the branch that makes it so
 * (kind, line; the line of its #if) and the group's branch for 2.6.25 and later (0 none) */
struct bm_vg_compat {
	unsigned line, if_line, new_line;
	char kind[8], new_kind[8];
};
bool bm_vg_compat_at(const struct bm_vguard *g, size_t off, struct bm_vg_compat *out);
/* (b) the file tests LINUX_VERSION_CODE (the lines) ... */
size_t bm_vg_lvc_lines(const struct bm_vguard *g, const unsigned **lines);
/* ... and off is compiled for kernels both before 2.6.25 and from it on */
bool bm_vg_multi_version_at(const struct bm_vguard *g, size_t off);
/* the #define whose body holds off (its name and line), or NULL */
const char *bm_vg_define_at(const struct bm_vguard *g, size_t off, unsigned *line);
/* the innermost conditional branch holding off: the line of its directive and of its
 * group's #if; false outside every conditional */
bool bm_vg_branch_at(const struct bm_vguard *g, size_t off, unsigned *line, unsigned *if_line);
/* the function whose body holds off as the text shows it (owned), or NULL; *at: its name */
char *bm_vg_function_at(struct bm_vguard *g, size_t off, size_t *at);
/* the rule (convert/version_guard_sites.c): the sites of f (sites[i] < 0: none) in
 * compat code or multi-version code are left (compat_branch, multi_version) before
 * wrapper groups form (classify_func) ... */
void version_guard_func(struct ctx *cx, struct func *f, const long *sites, size_t n);
/* ... and every site of the run at the end (those no AST saw too) (classify_all) */
void version_guard_sites(struct ctx *cx);

#endif
