/*
 * parse.c - turning a C file into a libclang translation unit, robustly.
 *
 * - Compiler flags: from -p BUILD_DIR (compilation database; only the flags
 *   that shape preprocessing are kept), -I/-D, --kernel-tree, else blkmig's
 *   model of the 2.6.24 API (model/), which also stands in for any block
 *   header the tree lacks.
 * - A header that cannot be found becomes an empty stub in the run's
 *   temporary directory and the file is parsed again, so a missing include
 *   never stops a run.
 * - Isolation: every file is first parsed in a child process, at most -j at
 *   a time, with a timeout.  A child that crashes or hangs marks the file
 *   failed and the run goes on.  The child saves the AST when libclang can
 *   (no errors) and writes what the parent needs of it as plain data: its
 *   diagnostics, functions (func_index.c, func_model.c) and inclusions, so
 *   the parent loads the AST only when a question needs libclang (units.c).
 *   Otherwise the parent parses again, which is safe because the child has
 *   shown that this exact parse terminates.
 * - Bounds: a parse opens only regular files (open_guard.c: a FIFO or a link to
 *   /dev/zero as a header is an error at its #include, never read), and each child's
 *   address space is capped (--parse-memory, default BM_PARSE_MEMORY_MB): a child that
 *   runs out exits BM_CHILD_RESOURCE_LIMIT from the C++ and LLVM out-of-memory hooks,
 *   and its file is reported failed with the code resource_limit.
 * - Fault injection for the tests: BLKMIG_FAULT_INJECT=crash:SUBSTR or
 *   hang:SUBSTR makes the child crash or hang on paths containing SUBSTR;
 *   astgone:SUBSTR removes the saved AST of such a path once it is kept, as a
 *   cleaner of $TMPDIR would while the run goes on (units.c must say so).
 */
#include <clang-c/CXCompilationDatabase.h>
#include <dlfcn.h>
#include <jansson.h>
#include <link.h>
#include <errno.h>
#include <glob.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "cleanup.h"
#include "func_index.h"
#include "ktree.h"
#include "open_guard.h"
#include "progress.h"

/* A parse child's exit status when its memory ran out under --parse-memory. */
#define BM_CHILD_RESOURCE_LIMIT 5

struct bm_model_file {
	const char *name;
	const char *text;
};
extern const struct bm_model_file bm_model_files[];

struct parse_env {
	struct bm_run *run;
	char *tmp;	   /* run's temporary directory */
	char *modeldir;	   /* tmp/model */
	char *stubdir;	   /* tmp/stubs */
	struct ktree *kt;  /* --kernel-tree: per-file arch and configuration */
	char *builtin_inc; /* libclang's own <stdarg.h> (kbuild: -isystem gcc's) */
	bool model_mode;   /* no real headers given */
	/* a parse child whose AST is kept between runs: every file the parse reads goes
	 * into the AST, which then loads without the private folder that made it */
	bool embed_files;
	CXCompilationDatabase db;
};

static int write_text(const char *path, const char *text)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	char *tmp = xasprintf("%s.%d.tmp", path, (int)getpid());
	FILE *f;
	int r = 0;

	if (slash) {
		*slash = '\0';
		mkdirs(dir);
	}
	free(dir);
	f = fopen(tmp, "w");
	if (!f) {
		r = errno;
		free(tmp);
		errno = r;
		return -1;
	}
	fputs(text, f);
	if (fclose(f) || rename(tmp, path)) {
		r = errno;
		unlink(tmp);
		free(tmp);
		errno = r; /* ENOSPC: a full TMPDIR, a fault (parse_env_new) */
		return -1;
	}
	free(tmp);
	return 0;
}

/*
 * The kernel is built with -nostdinc -isystem $(gcc -print-file-name=include):
 * only the compiler's own headers (stdarg.h).  Ours are libclang's, beside
 * the library: LIBDIR/clang/VERSION/include.
 */
static int find_libclang(struct dl_phdr_info *info, size_t size, void *data)
{
	char **out = data;
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	if (base && !strncmp(base, "/libclang", 9) && !*out)
		*out = xstrdup(info->dlpi_name);
	return *out != NULL;
}

static char *clang_builtin_includes(void)
{
	char *lib = NULL, *slash, *r = NULL, real[PATH_MAX];
	glob_t g;

	dl_iterate_phdr(find_libclang, &lib);
	if (!lib)
		return NULL;
	/* /lib/<triple>/libclang-N.so -> LLVM's own lib directory */
	if (realpath(lib, real)) {
		free(lib);
		lib = xstrdup(real);
	}
	slash = strrchr(lib, '/');
	*slash = '\0';
	for (int up = 0; up < 2 && !r; up++) {
		memset(&g, 0, sizeof(g));
		char *g1 = xasprintf("%s%s/clang/*/include/stdarg.h", lib, up ? "/.." : "");

		if (!glob(g1, 0, NULL, &g) && g.gl_pathc)
			r = xstrndup(g.gl_pathv[g.gl_pathc - 1],
				     strlen(g.gl_pathv[g.gl_pathc - 1]) - strlen("/stdarg.h"));
		if (!r) {
			/* Debian: /usr/lib/<triple>/libclang -> /usr/lib/llvm-N/lib */
			free(g1);
			if (g.gl_pathc)
				globfree(&g);
			memset(&g, 0, sizeof(g));
			g1 = xasprintf("%s/../llvm-*/lib/clang/*/include/stdarg.h", lib);
			if (!glob(g1, 0, NULL, &g) && g.gl_pathc)
				r = xstrndup(g.gl_pathv[g.gl_pathc - 1],
					     strlen(g.gl_pathv[g.gl_pathc - 1]) -
						 strlen("/stdarg.h"));
		}
		if (g.gl_pathc)
			globfree(&g);
		free(g1);
	}
	free(lib);
	return r;
}

/*
 * DIR/compile_commands.json is bad input unless it is a JSON array of objects, each with
 * "directory", "file" and "command" or "arguments": libclang takes a truncated file
 * with a YAML error on stderr and no entries, and the run went on without the flags.
 * Said with the file's name, line and column; the caller exits 2.
 */
static bool compile_db_valid(const char *dir)
{
	char *path = xasprintf("%s/compile_commands.json", dir);
	json_error_t jerr;
	json_t *db, *e;
	struct stat st;
	size_t i;
	bool ok = false;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "blkmig: -p %s: %s: %s\n", dir, path, strerror(errno));
		free(path);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "blkmig: -p %s: %s: not a regular file\n", dir, path);
		free(path);
		return false;
	}
	db = json_load_file(path, 0, &jerr);
	if (!db) {
		fprintf(stderr,
			"blkmig: %s: not a valid compilation database: line %d, column %d: %s\n",
			path, jerr.line, jerr.column, jerr.text);
		free(path);
		return false;
	}
	if (!json_is_array(db)) {
		fprintf(stderr, "blkmig: %s: not a valid compilation database: not a JSON array\n",
			path);
		goto out;
	}
	json_array_foreach(db, i, e)
	{
		if (!json_is_object(e) || !json_is_string(json_object_get(e, "directory")) ||
		    !json_is_string(json_object_get(e, "file")) ||
		    !(json_is_string(json_object_get(e, "command")) ||
		      json_is_array(json_object_get(e, "arguments")))) {
			fprintf(stderr,
				"blkmig: %s: not a valid compilation database: entry %zu lacks "
				"\"directory\", \"file\" or \"command\"/\"arguments\"\n",
				path, i + 1);
			goto out;
		}
	}
	ok = true;
out:
	json_decref(db);
	free(path);
	return ok;
}

struct parse_env *parse_env_new(struct bm_run *run)
{
	struct parse_env *env = xcalloc(1, sizeof(*env));
	char *tmpl;
	int werr = 0;

	env->run = run;
	cleanup_stale_private_dirs();
	tmpl = cleanup_make_dir();
	if (!tmpl) {
		fprintf(stderr, "blkmig: cannot create a temporary directory: %s\n",
			strerror(errno));
		free(env);
		return NULL;
	}
	env->tmp = tmpl;
	env->modeldir = xasprintf("%s/model", tmpl);
	env->stubdir = xasprintf("%s/stubs", tmpl);
	mkdirs(env->stubdir);
	env->model_mode = !run->opt.kernel_tree && !run->opt.build_dir && !run->opt.include_dirs.n;

	/* the model header, and every kernel header name it stands in for */
	for (const struct bm_model_file *m = bm_model_files; m->name; m++) {
		if (!strcmp(m->name, "headers.list")) {
			char *list = xstrdup(m->text), *save = NULL;

			for (char *h = strtok_r(list, " \t\n", &save); h;
			     h = strtok_r(NULL, " \t\n", &save)) {
				char *p = xasprintf("%s/%s", env->modeldir, h);

				if (write_text(
					p, "/* blkmig model */\n#include <blkmig_model.h>\n") < 0 &&
				    !werr)
					werr = errno ? errno : EIO;
				free(p);
			}
			free(list);
		} else {
			char *p = xasprintf("%s/%s", env->modeldir, m->name);

			if (write_text(p, m->text) < 0 && !werr)
				werr = errno ? errno : EIO;
			free(p);
		}
	}
	if (werr) {
		/* a fault of the machine, not of the user's C: no file is reported unparsed */
		if (werr == ENOSPC)
			fprintf(stderr, "blkmig: no space left on device: TMPDIR %s (writing %s)\n",
				cleanup_tmpdir(), env->modeldir);
		else
			fprintf(stderr, "blkmig: cannot write %s: %s\n", env->modeldir,
				strerror(werr));
		parse_env_free(env);
		return NULL;
	}

	if (run->opt.kernel_tree) {
		env->kt = ktree_new(run->opt.kernel_tree, tmpl);
		env->builtin_inc = clang_builtin_includes();
	}
	if (run->opt.build_dir && !compile_db_valid(run->opt.build_dir)) {
		parse_env_free(env);
		return NULL;
	}
	if (run->opt.build_dir) {
		CXCompilationDatabase_Error err;

		env->db = clang_CompilationDatabase_fromDirectory(run->opt.build_dir, &err);
		if (err != CXCompilationDatabase_NoError) {
			fprintf(stderr, "blkmig: no usable compile_commands.json in %s\n",
				run->opt.build_dir);
			env->db = NULL;
			parse_env_free(env);
			return NULL;
		}
	}
	return env;
}

/* The fuzz target's kept environment serves RUN now (same options as the first run). */
struct parse_env *parse_env_rebind(struct parse_env *env, struct bm_run *run)
{
	env->run = run;
	return env;
}

void parse_env_free(struct parse_env *env)
{
	if (!env)
		return;
	if (env->db)
		clang_CompilationDatabase_dispose(env->db);
	if (env->tmp && !getenv("BLKMIG_KEEP_TMP"))
		cleanup_remove_dir(env->tmp);
	else if (env->tmp)
		cleanup_del_dir(env->tmp);
	free(env->tmp);
	free(env->modeldir);
	free(env->stubdir);
	ktree_free(env->kt);
	free(env->builtin_inc);
	free(env);
}

/* Flags of a compile command that shape what the parser sees. */
static void db_args(struct parse_env *env, const char *path, struct bm_strlist *a, char **cwd)
{
	char abs[PATH_MAX];
	CXCompileCommands cmds;

	if (!env->db || !realpath(path, abs))
		return;
	cmds = clang_CompilationDatabase_getCompileCommands(env->db, abs);
	if (!cmds)
		return;
	if (clang_CompileCommands_getSize(cmds) > 0) {
		CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
		unsigned n = clang_CompileCommand_getNumArgs(cmd);
		CXString dir = clang_CompileCommand_getDirectory(cmd);

		*cwd = xstrdup(clang_getCString(dir));
		clang_disposeString(dir);
		for (unsigned i = 1; i < n; i++) {
			CXString s = clang_CompileCommand_getArg(cmd, i);
			const char *v = clang_getCString(s);
			static const char *const with_arg[] = {
			    "-I", "-D", "-U", "-include", "-isystem", "-idirafter", "-iquote"};
			bool took = false;

			for (size_t k = 0; k < sizeof(with_arg) / sizeof(with_arg[0]); k++) {
				size_t l = strlen(with_arg[k]);

				if (strncmp(v, with_arg[k], l))
					continue;
				if (v[l] == '\0' && i + 1 < n) {
					CXString s2 = clang_CompileCommand_getArg(cmd, ++i);

					strlist_push(a, with_arg[k]);
					strlist_push(a, clang_getCString(s2));
					clang_disposeString(s2);
				} else if (l == 2) {
					strlist_push(a, v);
				}
				took = true;
				break;
			}
			if (!took && (!strcmp(v, "-nostdinc") || !strncmp(v, "-std=", 5)))
				strlist_push(a, v);
			clang_disposeString(s);
		}
	}
	clang_CompileCommands_dispose(cmds);
}

static void build_args(struct parse_env *env, const char *path, struct bm_strlist *a, char **cwd)
{
	struct bm_options *o = &env->run->opt;

	strlist_push(a, "-x");
	strlist_push(a, "c");
	strlist_push(a, "-std=gnu89");
	strlist_push(a, "-ferror-limit=0");
	if (bm_parse_pch) {
		strlist_push(a, "-include-pch");
		strlist_push(a, bm_parse_pch);
	}
	strlist_push(a, "-nostdinc");
	strlist_push(a, "-D__KERNEL__");
	for (size_t i = 0; i < o->defines.n; i++)
		strlist_push_owned(a, xasprintf("-D%s", o->defines.v[i]));
	for (size_t i = 0; i < o->include_dirs.n; i++)
		strlist_push_owned(a, xasprintf("-I%s", o->include_dirs.v[i]));
	db_args(env, path, a, cwd);
	if (env->kt) {
		ktree_file_args(env->kt, path, a);
		if (env->builtin_inc) {
			strlist_push(a, "-isystem");
			strlist_push(a, env->builtin_inc);
		}
	}
	if (env->model_mode)
		strlist_push_owned(a, xasprintf("-I%s", env->modeldir));
	else
		strlist_push_owned(a, xasprintf("-idirafter%s", env->modeldir));
	strlist_push_owned(a, xasprintf("-idirafter%s", env->stubdir));
}

/* "'linux/foo.h' file not found" -> "linux/foo.h" */
static char *missing_header(CXDiagnostic d)
{
	CXString s = clang_getDiagnosticSpelling(d);
	const char *m = clang_getCString(s), *q1, *q2;
	char *r = NULL;

	if (strstr(m, "file not found") && (q1 = strchr(m, '\'')) && (q2 = strchr(q1 + 1, '\'')) &&
	    q2 > q1 + 1)
		r = xstrndup(q1 + 1, (size_t)(q2 - q1 - 1));
	clang_disposeString(s);
	return r;
}

/* Whether a parse included PATH (or, with prefix, a file under the folder PATH/). */
struct include_probe {
	const char *path;
	bool prefix;
	bool found;
};

static void find_include(CXFile inc, CXSourceLocation *stack, unsigned n, CXClientData data)
{
	struct include_probe *ip = data;
	CXString name = clang_getFileName(inc);
	const char *s = clang_getCString(name);
	size_t len = strlen(ip->path);

	(void)stack;
	(void)n;
	if (!ip->found && s &&
	    (ip->prefix ? !strncmp(s, ip->path, len) && s[len] == '/' : !strcmp(s, ip->path)))
		ip->found = true;
	clang_disposeString(name);
}

/* Make the empty stub for missing header H unless one exists (the run's parse
 * children share the folder); false for a path that leaves the folder. */
static bool make_stub(struct parse_env *env, const char *h)
{
	char *p;
	struct stat st;

	if (strstr(h, "..") || h[0] == '/')
		return false;
	p = xasprintf("%s/%s", env->stubdir, h);
	if (stat(p, &st))
		write_text(p, "/* blkmig: empty stub for a missing header */\n");
	free(p);
	return true;
}

/*
 * BLKMIG_FAULT_INJECT=stubrace:SUBSTR: for a matching path, make the stubs its parse
 * is missing right after that parse, as another parse child of the run would.
 */
static void stub_race_inject(struct parse_env *env, const char *path, CXTranslationUnit tu)
{
	const char *f = getenv("BLKMIG_FAULT_INJECT");

	if (!f || strncmp(f, "stubrace:", 9) || !strstr(path, f + 9))
		return;
	for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		char *h = missing_header(d);

		clang_disposeDiagnostic(d);
		if (h)
			make_stub(env, h);
		free(h);
	}
}

/*
 * Parse PATH; replace missing headers by stubs and retry.  Returns the TU
 * or NULL.
 */
static CXTranslationUnit parse_one(struct parse_env *env, CXIndex idx, const char *path,
				   bool *stubbed)
{
	struct bm_strlist a = {0};
	char *cwd = NULL, oldcwd[PATH_MAX];
	char abspath[PATH_MAX];
	CXTranslationUnit tu = NULL;
	bool chdired = false;

	if (!realpath(path, abspath))
		snprintf(abspath, sizeof(abspath), "%s", path);
	build_args(env, path, &a, &cwd);
	if (env->embed_files) {
		strlist_push(&a, "-Xclang");
		strlist_push(&a, "-fmodules-embed-all-files");
	}
	if (getenv("BLKMIG_KTREE_TRACE")) {
		fprintf(stderr, "blkmig: parse %s:", abspath);
		for (size_t i = 0; i < a.n; i++)
			fprintf(stderr, " '%s'", a.v[i]);
		fputc('\n', stderr);
	}
	if (cwd && getcwd(oldcwd, sizeof(oldcwd)) && !chdir(cwd))
		chdired = true;
	/*
	 * Parse again while the parse names a missing header it has not been given a
	 * stub for yet.  The stub folder is shared by the run's parse children: another
	 * one may have made the stub since this parse began, and that parse still needs
	 * doing again (it was once left with "file not found").
	 */
	struct bm_strlist retried = {0};

	for (int round = 0; round < 64; round++) {
		enum CXErrorCode e;
		bool again = false;

		open_guard_parse(true); /* regular files only: no FIFO, no device */
		e = clang_parseTranslationUnit2(idx, abspath, (const char *const *)a.v, (int)a.n,
						NULL, 0, CXTranslationUnit_KeepGoing, &tu);
		open_guard_parse(false);
		if (e != CXError_Success) {
			tu = NULL;
			break;
		}
		stub_race_inject(env, path, tu);
		for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
			CXDiagnostic d = clang_getDiagnostic(tu, i);
			char *h = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error
				      ? missing_header(d)
				      : NULL;

			clang_disposeDiagnostic(d);
			if (!h)
				continue;
			if (!strlist_has(&retried, h) && make_stub(env, h)) {
				strlist_push(&retried, h);
				again = true;
			}
			free(h);
		}
		if (!again)
			break;
		clang_disposeTranslationUnit(tu);
		tu = NULL;
	}
	if (tu) {
		/* a stub stood in, whichever parse made it */
		struct include_probe sp = {env->stubdir, true, false};

		clang_getInclusions(tu, find_include, &sp);
		*stubbed = sp.found;
	}
	if (chdired && chdir(oldcwd))
		perror("blkmig: chdir");
	free(cwd);
	strlist_free(&a);
	strlist_free(&retried);
	return tu;
}

static void fault_inject(const char *path)
{
	const char *f = getenv("BLKMIG_FAULT_INJECT");

	if (!f)
		return;
	if (!strncmp(f, "crash:", 6) && strstr(path, f + 6)) {
		signal(SIGSEGV, SIG_DFL); /* a plain crash, not a sanitizer's report */
		raise(SIGSEGV);
	}
	if (!strncmp(f, "hang:", 5) && strstr(path, f + 5))
		for (;;)
			pause();
}

/* A file's parse outcome replaces any earlier one (the prefilter's "skipped" for a file
 * the tree index takes later). */
static void file_reason(struct bm_file *file, char *reason)
{
	free(file->reason);
	file->reason = reason;
}

/* Errors and warnings of a parse; offsets of the errors in the main file. */
static void count_diagnostics(CXTranslationUnit tu, CXFile mainf, unsigned *errors,
			      unsigned *warnings, size_t **offs, size_t *noffs, size_t *cap)
{

	for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		CXFile df;
		size_t off;

		if (sev >= CXDiagnostic_Error) {
			(*errors)++;
			off = loc_offset(clang_getDiagnosticLocation(d), &df);
			if (df && mainf && clang_File_isEqual(df, mainf)) {
				vec_append(*offs, *noffs, *cap, off);
			}
		} else if (sev == CXDiagnostic_Warning) {
			(*warnings)++;
		}
		clang_disposeDiagnostic(d);
	}
}

static char *diagnostic_text(CXDiagnostic d, CXFile self, const char *path);

/* The child's memory ran out (operator new, or LLVM's safe_malloc): its file is
 * reported resource_limit, not as a crash. */
static void out_of_memory(void)
{
	static const char m[] = "blkmig: a parse ran out of memory (--parse-memory)\n";
	ssize_t r = write(2, m, sizeof(m) - 1);

	(void)r;
	_exit(BM_CHILD_RESOURCE_LIMIT);
}

static void llvm_bad_alloc(void *data, const char *reason, bool gen_crash_diag)
{
	(void)data;
	(void)reason;
	(void)gen_crash_diag;
	out_of_memory();
}

/* The address space this process has mapped now (bytes; 0 if unknown). */
static unsigned long long mapped_now(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

/*
 * Cap what the child's parse adds to its address space at MB megabytes (0: no cap):
 * the limit is what the child inherited from the parent (a migrate parent holding a
 * big file's parse maps gigabytes of it) plus MB, so the same parse passes or fails
 * whatever the parent holds.  An allocation that fails under it becomes exit
 * BM_CHILD_RESOURCE_LIMIT.  The hooks are C++ and LLVM functions, found by their
 * symbols in the libraries libclang loaded.  Not under AddressSanitizer, whose shadow
 * memory needs terabytes of address space.
 */
static void limit_memory(unsigned mb)
{
	typedef void (*new_handler_fn)(void);
	typedef void (*bad_alloc_fn)(void *, const char *, bool);
	new_handler_fn (*set_new_handler)(new_handler_fn);
	void (*install_bad_alloc)(bad_alloc_fn, void *);
	struct rlimit rl;

#if defined(__SANITIZE_ADDRESS__)
	return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return;
#endif
#endif
	if (!mb)
		return;
	*(void **)&set_new_handler = dlsym(RTLD_DEFAULT, "_ZSt15set_new_handlerPFvvE");
	*(void **)&install_bad_alloc =
	    dlsym(RTLD_DEFAULT, "_ZN4llvm31install_bad_alloc_error_handlerEPFvPvPKcbES0_");
	if (set_new_handler)
		set_new_handler(out_of_memory);
	if (install_bad_alloc)
		install_bad_alloc(llvm_bad_alloc, NULL);
	rl.rlim_cur = rl.rlim_max = (rlim_t)mapped_now() + ((rlim_t)mb << 20);
	setrlimit(RLIMIT_AS, &rl);
}

/*
 * Child: parse, write "stubbed saved errors warnings nerr ndiag", the offsets of the
 * errors in the main file, the first errors' texts (length, text) and the AST.
 * A saved AST comes back without its diagnostics: what the parent needs of them
 * travels here, so that a parse with errors is not done again in the parent.
 */
/* A string in the child's result: its length, a newline, its bytes. */
static void write_counted(FILE *f, const char *s)
{
	fprintf(f, "%zu\n%s\n", strlen(s), s);
}

/* ... read back, at most MAX bytes; NULL when the result is short or damaged. */
static char *read_counted(FILE *f, size_t max)
{
	size_t n;
	char *s;

	if (fscanf(f, "%zu", &n) != 1 || fgetc(f) != '\n' || n > max)
		return NULL;
	s = xmalloc(n + 1);
	if (fread(s, 1, n, f) != n) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	return s;
}

static void write_inclusions(FILE *f, struct parse_env *env, const char *path,
			     CXTranslationUnit tu);

/* A result kept by an earlier run (bm_parse_cache) names that run's private folders
 * FROM (its parse environment's, and the one holding the file if it was a copy) where
 * this run's are TO: read here, its paths name this run's.  FROM NULL: none. */
struct relocation {
	const char *from[2], *to[2];
};

/* S (taken) with every FROM of R made TO. */
static char *relocated(char *s, const struct relocation *r)
{
	for (int i = 0; s && r && i < 2; i++) {
		struct sbuf b = {0};
		const char *p, *q;
		size_t n;

		if (!r->from[i] || !r->to[i] || !strstr(s, r->from[i]))
			continue;
		n = strlen(r->from[i]);
		for (p = s; (q = strstr(p, r->from[i])); p = q + n) {
			sbuf_addn(&b, p, (size_t)(q - p));
			sbuf_add(&b, r->to[i]);
		}
		sbuf_add(&b, p);
		free(s);
		s = sbuf_take(&b);
	}
	return s;
}

/* The functions of the child's unit as plain data (func_model.c), when the run gave
 * it the text the parent's facts read (T->src). */
static void child_model(FILE *f, CXTranslationUnit tu, CXFile self, const char *path,
			const struct tunit *t)
{
	struct tunit ct = {0};

	if (!self || !t || !t->src || getenv("BLKMIG_PARENT_BUILD"))
		return;
	ct.path = path;
	ct.src = t->src;
	ct.len = t->len;
	ct.unit = tu;
	ct.unit_file = self;
	units_forget();
	func_model_write(f, &ct);
}

static void child_parse(struct parse_env *env, const char *path, const char *res, const char *ast,
			const struct tunit *t, bool kept_with_ast)
{
	CXIndex idx = clang_createIndex(0, 0);
	bool stubbed = false;
	CXTranslationUnit tu;
	FILE *f;
	int saved = 0;
	unsigned errors = 0, warnings = 0;
	size_t *offs = NULL, noffs = 0, cap = 0;

	limit_memory(env->run->opt.parse_memory_mb);
	fault_inject(path);
	env->embed_files = kept_with_ast;
	tu = parse_one(env, idx, path, &stubbed);
	if (!tu)
		_exit(3);
	CXFile self = unit_find_main_file(tu, path);
	struct bm_strlist texts = {0};

	bool fatal = false;

	count_diagnostics(tu, self, &errors, &warnings, &offs, &noffs, &cap);
	for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);

		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error &&
		    texts.n < BM_FILE_DIAGNOSTICS)
			strlist_push_owned(&texts, diagnostic_text(d, self, path));
		fatal |= clang_getDiagnosticSeverity(d) == CXDiagnostic_Fatal;
		clang_disposeDiagnostic(d);
	}
	/* saving costs about two thirds of a kernel file's parse: a file parsed for the
	 * whole-tree facts alone is read from the plain data below, and parsed again in the
	 * parent only if a question needs libclang (units.c); 2 says so.  A parse with a
	 * fatal error cannot be saved: the parent parses it itself, as before. */
	if (!fatal && t && (t->facts_only || getenv("BLKMIG_DEFER_EVERY_AST")) &&
	    !getenv("BLKMIG_SAVE_EVERY_AST"))
		saved = 2;
	else
		saved = clang_saveTranslationUnit(tu, ast, clang_defaultSaveOptions(tu)) ==
			CXSaveError_None;
	f = fopen(res, "w");
	if (!f)
		_exit(4);
	fprintf(f, "%d %d %u %u %zu %zu\n", stubbed, saved, errors, warnings, noffs, texts.n);
	for (size_t i = 0; i < noffs; i++)
		fprintf(f, "%zu\n", offs[i]);
	for (size_t i = 0; i < texts.n; i++)
		write_counted(f, texts.v[i]);
	func_index_write(f, tu, self);
	write_inclusions(f, env, path, tu);
	child_model(f, tu, self, path, t);
	if (fclose(f))
		_exit(4);
	_exit(0);
}

struct job {
	pid_t pid;
	size_t k; /* index into files[] */
	struct timespec started;
};

static double elapsed(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/*
 * A header as the user can open it after the run: the private asm overlay of a
 * kernel tree (--kernel-tree) holds links into the tree, resolved here while they
 * exist; below the current directory, relative to it like the user's own paths.
 */
static char *header_path(const char *name)
{
	char real[PATH_MAX], cwd[PATH_MAX];
	size_t n;

	if (!realpath(name, real))
		return xstrdup(name);
	if (getcwd(cwd, sizeof(cwd)) && (n = strlen(cwd)) > 1 && !strncmp(real, cwd, n) &&
	    real[n] == '/')
		return xstrdup(real + n + 1);
	return xstrdup(real);
}

/* "FILE:LINE:COL: error: MESSAGE"; the parsed file keeps the user's name. */
static char *diagnostic_text(CXDiagnostic d, CXFile self, const char *path)
{
	CXString msg = clang_getDiagnosticSpelling(d), fname;
	CXFile df;
	unsigned line, col;
	char *r;

	clang_getSpellingLocation(clang_getDiagnosticLocation(d), &df, &line, &col, NULL);
	fname = clang_getFileName(df);
	if (!df || !clang_getCString(fname))
		r = xasprintf("%s: error: %s", path, clang_getCString(msg));
	else if (self && clang_File_isEqual(df, self))
		r = xasprintf("%s:%u:%u: error: %s", path, line, col, clang_getCString(msg));
	else {
		char *h = header_path(clang_getCString(fname));

		r = xasprintf("%s:%u:%u: error: %s", h, line, col, clang_getCString(msg));
		free(h);
	}
	clang_disposeString(fname);
	clang_disposeString(msg);
	return r;
}

static void note_inclusion(CXFile inc, CXSourceLocation *stack, unsigned n, CXClientData data)
{
	CXString name = clang_getFileName(inc);

	(void)stack;
	(void)n;
	if (clang_getCString(name))
		strlist_push(data, clang_getCString(name));
	clang_disposeString(name);
}

/*
 * The include folders PATH's parse searched, in the order clang searches them (-iquote,
 * -I, -isystem, -idirafter, each in command-line order), without the run's own model
 * and stub folders: as spelled in SPELT, and in DIRS absolute (relative ones from the
 * compile command's directory, else the current one).
 */
static void search_dirs(struct parse_env *env, const char *path, struct bm_strlist *spelt,
			struct bm_strlist *dirs)
{
	static const char *const opts[] = {"-iquote", "-I", "-isystem", "-idirafter"};
	static const char *const seps[] = {"-iquote", "-I",	     "-isystem", "-idirafter",
					   "-D",      "-U",	     "-x",	 "-include",
					   "-target", "-include-pch"};
	struct bm_strlist a = {0};
	char *cwd = NULL, here[PATH_MAX];

	build_args(env, path, &a, &cwd);
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		size_t l = strlen(opts[k]);

		for (size_t i = 0; i < a.n; i++) {
			const char *v = a.v[i], *d = NULL;
			bool sep = false; /* an option whose argument is the next one */

			for (size_t e = 0; e < sizeof(seps) / sizeof(seps[0]); e++)
				sep |= !strcmp(v, seps[e]);
			if (!strcmp(v, opts[k]))
				d = i + 1 < a.n ? a.v[i + 1] : NULL;
			else if (!strncmp(v, opts[k], l))
				d = v + l;
			if (sep)
				i++;
			if (!d || !*d || !strcmp(d, env->modeldir) || !strcmp(d, env->stubdir))
				continue;
			strlist_push(spelt, d);
			if (d[0] != '/' && (cwd || getcwd(here, sizeof(here))))
				strlist_push_owned(dirs, xasprintf("%s/%s", cwd ? cwd : here, d));
			else
				strlist_push(dirs, d);
		}
	}
	free(cwd);
	strlist_free(&a);
}

struct miss_probe {
	struct parse_env *env;
	const char *path;
	struct bm_strlist spelt, dirs;
	bool have_dirs;
	struct bm_strlist *missing; /* the places, in order */
};

static void note_miss_in(struct miss_probe *mp, const char *dir, const char *h)
{
	strlist_push_owned(mp->missing, xasprintf("%s/%s", dir, h));
}

/*
 * Where a header was looked for in vain is an input of a cached result too, so that the
 * header appearing there later (an -I folder outside the walked tree) is seen
 * (cli/cache.c; issue 25, item 8): a header the parse did not find stood in as an empty
 * stub, looked for in every include folder and in the including file's folder (for
 * "..."); a header found in one include folder was looked for in those before it.
 */
static void note_miss(CXFile inc, CXSourceLocation *stack, unsigned n, CXClientData data)
{
	struct miss_probe *mp = data;
	CXString name = clang_getFileName(inc);
	const char *s = clang_getCString(name);
	size_t sl = strlen(mp->env->stubdir), ml = strlen(mp->env->modeldir);
	bool stub = s && !strncmp(s, mp->env->stubdir, sl) && s[sl] == '/' && s[sl + 1];
	/* the model's folder comes after every other: a header found there is one the
	 * others lack, as for a stub */
	bool model = s && !strncmp(s, mp->env->modeldir, ml) && s[ml] == '/' && s[ml + 1];

	if (!s || !n) { /* the main file */
		clang_disposeString(name);
		return;
	}
	if (!mp->have_dirs) {
		search_dirs(mp->env, mp->path, &mp->spelt, &mp->dirs);
		mp->have_dirs = true;
	}
	if (stub || model) {
		const char *h = s + (stub ? sl : ml) + 1;
		CXFile from = NULL;

		for (size_t i = 0; i < mp->dirs.n; i++)
			note_miss_in(mp, mp->dirs.v[i], h);
		clang_getSpellingLocation(stack[0], &from, NULL, NULL, NULL);
		if (from) {
			CXString fn = clang_getFileName(from);
			const char *f = clang_getCString(fn), *slash = f ? strrchr(f, '/') : NULL;

			if (f && strncmp(f, mp->env->stubdir, sl) &&
			    strncmp(f, mp->env->modeldir, ml)) {
				char *d = slash ? xstrndup(f, (size_t)(slash - f)) : xstrdup(".");

				note_miss_in(mp, *d ? d : "/", h);
				free(d);
			}
			clang_disposeString(fn);
		}
	} else {
		for (size_t k = 0; k < mp->spelt.n; k++) {
			/* clang names it as the folder was spelled, or made absolute */
			size_t l = strlen(mp->spelt.v[k]), la = strlen(mp->dirs.v[k]);
			const char *h = NULL;

			if (!strncmp(s, mp->spelt.v[k], l) && s[l] == '/')
				h = s + l;
			else if (!strncmp(s, mp->dirs.v[k], la) && s[la] == '/')
				h = s + la;
			if (!h)
				continue;
			while (*h == '/')
				h++;
			for (size_t j = 0; j < k; j++)
				if (strcmp(mp->dirs.v[j], mp->dirs.v[k]))
					note_miss_in(mp, mp->dirs.v[j], h);
			break;
		}
	}
	clang_disposeString(name);
}

static void list_inclusion(CXFile inc, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	CXString name;

	(void)stack;
	if (depth == 0) /* the file itself */
		return;
	name = clang_getFileName(inc);
	strlist_push(data, clang_getCString(name) ? clang_getCString(name) : "");
	clang_disposeString(name);
}

/*
 * What a parse tells of its file besides the functions: whether the model was used,
 * the files it included, and for a cached result's inputs (cli/cache.c) every file
 * it read and every place a missing header was looked for.  Made where the unit is in
 * memory (the parse child, or the parent parsing in process) and handed to the
 * hooks in the parent (apply_inclusions), so the parent need not load the unit.
 */
struct inclusions {
	bool used_model;
	struct bm_strlist includes; /* not the main file */
	struct bm_strlist inputs;   /* bm_input_hook's, the main file first */
	struct bm_strlist missing;  /* bm_missing_hook's */
};

static void inclusions_free(struct inclusions *in)
{
	strlist_free(&in->includes);
	strlist_free(&in->inputs);
	strlist_free(&in->missing);
}

static void inclusions_of(struct parse_env *env, const char *path, CXTranslationUnit tu,
			  struct inclusions *in)
{
	char mpath[PATH_MAX];
	struct include_probe mp = {mpath, false, false};

	memset(in, 0, sizeof(*in));
	snprintf(mpath, sizeof(mpath), "%s/blkmig_model.h", env->modeldir);
	/* clang_getFile() would stat the model on disk and find it whether the parse
	 * included it or not: ask which files the parse really included */
	if (!env->model_mode)
		clang_getInclusions(tu, find_include, &mp);
	in->used_model = env->model_mode || mp.found;
	clang_getInclusions(tu, list_inclusion, &in->includes);
	/* every header is an input of a cached result (cli/cache.c), and of a kept parse */
	if (bm_input_hook || bm_parse_cache)
		clang_getInclusions(tu, note_inclusion, &in->inputs);
	if (bm_missing_hook ||
	    bm_parse_cache) { /* and every place a missing header was looked for */
		struct miss_probe mp = {env, path, {0}, {0}, false, &in->missing};

		clang_getInclusions(tu, note_miss, &mp);
		strlist_free(&mp.spelt);
		strlist_free(&mp.dirs);
	}
}

/* IN, made of FILE's parse, taken into FILE and T (IN is emptied). */
static void apply_inclusions(struct bm_file *file, struct tunit *t, struct inclusions *in)
{
	file->used_model = in->used_model;
	strlist_free(&t->includes);
	t->includes = in->includes;
	memset(&in->includes, 0, sizeof(in->includes));
	t->includes_listed = true;
	if (bm_unit_hook)
		bm_unit_hook(file->path, true);
	for (size_t i = 0; bm_input_hook && i < in->inputs.n; i++)
		bm_input_hook(in->inputs.v[i], NULL, 0);
	for (size_t i = 0; bm_missing_hook && i < in->missing.n; i++)
		bm_missing_hook(in->missing.v[i]);
	if (bm_unit_hook)
		bm_unit_hook(file->path, false);
	inclusions_free(in);
}

static void write_strlist(FILE *f, const struct bm_strlist *l)
{
	fprintf(f, "%zu\n", l->n);
	for (size_t i = 0; i < l->n; i++)
		write_counted(f, l->v[i]);
}

static bool read_strlist(FILE *f, struct bm_strlist *l, const struct relocation *r)
{
	size_t n;

	if (fscanf(f, "%zu", &n) != 1 || n > (1u << 20))
		return false;
	for (size_t i = 0; i < n; i++) {
		char *s = relocated(read_counted(f, 1u << 16), r);

		if (!s)
			return false;
		strlist_push_owned(l, s);
	}
	return true;
}

/* The child's side: its inclusions after its function list (func_index.c). */
static void write_inclusions(FILE *f, struct parse_env *env, const char *path, CXTranslationUnit tu)
{
	struct inclusions in;

	inclusions_of(env, path, tu, &in);
	fprintf(f, "\nINCLUSIONS %d\n", in.used_model);
	write_strlist(f, &in.includes);
	write_strlist(f, &in.inputs);
	write_strlist(f, &in.missing);
	inclusions_free(&in);
}

static bool read_inclusions(FILE *f, struct inclusions *in, const struct relocation *r)
{
	int used;

	memset(in, 0, sizeof(*in));
	if (fscanf(f, " INCLUSIONS %d", &used) != 1 || !read_strlist(f, &in->includes, r) ||
	    !read_strlist(f, &in->inputs, r) || !read_strlist(f, &in->missing, r)) {
		inclusions_free(in);
		return false;
	}
	in->used_model = used != 0;
	return true;
}

/* What every T->tu parsed or loaded here gives: its main file, and its inclusions. */
static void load_tu_facts(struct parse_env *env, struct bm_file *file, struct tunit *t)
{
	struct inclusions in;

	t->unit_file = unit_find_main_file(t->unit, file->path);
	inclusions_of(env, file->path, t->unit, &in);
	apply_inclusions(file, t, &in);
}

static void set_status(struct bm_file *file, int stubbed)
{
	file->status = file->errors ? BM_PARSE_PARTIAL : BM_PARSE_OK;
	if (file->errors)
		file_reason(file, xasprintf("%u error(s) while parsing%s", file->errors,
					    stubbed ? "; missing headers replaced by stubs" : ""));
	else if (stubbed)
		file_reason(file, xstrdup("missing headers replaced by empty stubs"));
}

/* The file's status and error offsets, from the diagnostics of its parsed T->tu. */
static void load_diagnostics(struct parse_env *env, struct bm_file *file, struct tunit *t,
			     int stubbed)
{
	load_tu_facts(env, file, t);
	for (unsigned i = 0, n = clang_getNumDiagnostics(t->unit); i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(t->unit, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		CXFile df;
		size_t off;

		if (sev >= CXDiagnostic_Error) {
			file->errors++;
			if (file->diagnostics.n < BM_FILE_DIAGNOSTICS)
				strlist_push_owned(&file->diagnostics,
						   diagnostic_text(d, t->unit_file, file->path));
			off = loc_offset(clang_getDiagnosticLocation(d), &df);
			if (df && t->unit_file && clang_File_isEqual(df, t->unit_file)) {
				size_t *slot = vec_push(t->err_offsets, t->nerr, t->err_cap);

				*slot = off;
			}
		} else if (sev == CXDiagnostic_Warning) {
			file->warnings++;
		}
		clang_disposeDiagnostic(d);
	}
	set_status(file, stubbed);
}

/* The child's account of its diagnostics (child_parse) for the AST it saved; false
 * when the result file is short. */
static bool read_child_diagnostics(FILE *f, struct bm_file *file, struct tunit *t, size_t noffs,
				   size_t ntexts, struct inclusions *in, const struct relocation *r,
				   long *model_at)
{
	for (size_t i = 0; i < noffs; i++) {
		size_t off;

		if (fscanf(f, "%zu", &off) != 1)
			return false;
		*(size_t *)vec_push(t->err_offsets, t->nerr, t->err_cap) = off;
	}
	for (size_t i = 0; i < ntexts; i++) {
		char *s = relocated(read_counted(f, 1u << 20), r);

		if (!s)
			return false;
		strlist_push_owned(&file->diagnostics, s);
	}
	if (!func_index_read(f, t))
		return false;
	if (!read_inclusions(f, in, r)) {
		func_index_free(t);
		return false;
	}
	*model_at = ftell(f);
	func_model_read(f, t); /* none: facts.c builds the functions from the unit */
	return true;
}

/*
 * The saved AST stays on disk under a name of its own (the next parse reuses the
 * child's): units.c loads the unit from it when the analysis asks, and lets it go
 * in between.  The unit is let go now: the facts load it when they get to it.
 */
static char *kept_ast_name(struct parse_env *env)
{
	static unsigned long kept;

	return xasprintf("%s/unit.%lu.ast", env->tmp, kept++);
}

static void keep_saved_ast(struct parse_env *env, struct tunit *t, char *ast)
{
	char *name = kept_ast_name(env);

	if (rename(ast, name)) {
		unlink(ast);
		free(name);
	} else {
		const char *f = getenv("BLKMIG_FAULT_INJECT");

		t->ast_path = name;
		unit_let_go(t);
		if (f && !strncmp(f, "astgone:", 8) && strstr(t->path, f + 8))
			unlink(name);
	}
	free(ast);
}

/*
 * Results kept between runs (bm_parse_cache): a file parsed for the whole-tree facts
 * alone is read from its child's result, which a run that parses the same text in the
 * same way would make again; so is a file the analysis asks libclang about, or a copy
 * of one in migrate's private tree, with the AST its child saved.  That child parses
 * with every file it reads embedded in the AST (-fmodules-embed-all-files): the AST
 * then loads in a later run, whose private folders have other names and in which the
 * old ones are gone.  KEY names that parse: the file, its text, the working folder,
 * the parse's arguments with this run's private folder as "\1" and a copy's as "\2"
 * (each run's have their own names: the model, the stubs and --kernel-tree's overlay
 * are in the first), libclang, the switches that shape what the child writes, and
 * whether the AST is kept.  Its inputs are the cache's (cli/parse_cache.c).
 */
const struct parse_cache_ops *bm_parse_cache;

static void key_part(struct sbuf *b, const char *s, size_t n)
{
	char len[32];

	snprintf(len, sizeof(len), "%zu:", n);
	sbuf_add(b, len);
	sbuf_addn(b, s, n);
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/';
}

static char *kept_result_key(struct parse_env *env, const char *path, const struct tunit *t,
			     size_t *len, char **copies, bool *with_ast)
{
	static const char *const switches[] = {"BLKMIG_PARENT_BUILD", "BLKMIG_DEFER_EVERY_AST",
					       "BLKMIG_SAVE_EVERY_AST"};
	struct relocation mine = {{env->tmp, NULL}, {"\1", "\2"}};
	char abspath[PATH_MAX], cwd[PATH_MAX], *dir = NULL, *p;
	struct bm_strlist a = {0};
	struct sbuf b = {0};
	size_t root;
	CXString v;

	*copies = NULL;
	*with_ast = false;
	if (!bm_parse_cache || !t->src || getenv("BLKMIG_FAULT_INJECT") || bm_parse_in_process ||
	    !realpath(path, abspath) || under(abspath, env->tmp) || !getcwd(cwd, sizeof(cwd)))
		return NULL;
	/* a copy of this run (migrate's private tree): its folder as another token */
	root = cleanup_private_root(abspath);
	if (root)
		mine.from[1] = *copies = xstrndup(abspath, root);
	else if (!t->facts_only && getenv("BLKMIG_DEFER_EVERY_AST"))
		return NULL; /* no AST to keep */
	*with_ast = !t->facts_only && !getenv("BLKMIG_DEFER_EVERY_AST");
	key_part(&b, *with_ast ? "ast" : "", *with_ast ? 3 : 0);
	p = relocated(xstrdup(path), &mine);
	key_part(&b, p, strlen(p));
	free(p);
	p = relocated(xstrdup(cwd), &mine);
	key_part(&b, p, strlen(p));
	free(p);
	key_part(&b, t->src, t->len);
	build_args(env, path, &a, &dir);
	for (size_t i = 0; i < a.n; i++) {
		char *arg = relocated(xstrdup(a.v[i]), &mine);

		key_part(&b, arg, strlen(arg));
		free(arg);
	}
	v = clang_getClangVersion();
	key_part(&b, clang_getCString(v), strlen(clang_getCString(v)));
	clang_disposeString(v);
	for (size_t i = 0; i < sizeof(switches) / sizeof(switches[0]); i++) {
		const char *e = getenv(switches[i]);

		key_part(&b, e ? e : "", e ? strlen(e) : 0);
	}
	if (dir) {
		p = relocated(dir, &mine);
		key_part(&b, p, strlen(p));
		free(p);
	}
	strlist_free(&a);
	*len = b.len;
	return sbuf_take(&b);
}

/* One file's kept result: the key of its parse (NULL: nothing kept of it), this run's
 * folder of the copy parsed (NULL: not a copy), when its parse began (CLOCK_REALTIME),
 * and for a result taken from the cache, the folders of the run that made it. */
struct kept_key {
	char *key;
	size_t keylen;
	char *copies;
	struct timespec since;
	char *was[2];
	bool with_ast;	/* kept with the AST the child saves */
	bool ast_taken; /* ... and taken from the cache so */
};

/* The result kept for KEY, written to RES as its child would have, and its AST to AST
 * when not NULL; WAS its run's folders (COPIES: this run's folder of the copy parsed, or
 * NULL). */
static bool take_kept_result(struct parse_env *env, const char *key, size_t keylen,
			     const char *copies, const char *res, const char *ast, char *was[2])
{
	const char *now[2] = {env->tmp, copies};
	size_t len = 0;
	char *data = bm_parse_cache->lookup(key, keylen, now, was, &len, ast);
	FILE *f;
	bool ok;

	if (!data)
		return false;
	f = fopen(res, "w");
	ok = f && fwrite(data, 1, len, f) == len;
	if (f && fclose(f))
		ok = false;
	free(data);
	if (!ok) {
		free(was[0]);
		free(was[1]);
		was[0] = was[1] = NULL;
		if (ast)
			unlink(ast);
	}
	return ok;
}

/* Keep DATA (LEN bytes) and the AST at AST (or NULL) for the parse KEY names (COPIES: the
 * folder of the copy parsed, or NULL), begun at SINCE, with what IN says it read. */
static void store_kept(struct parse_env *env, const char *key, size_t keylen, const char *copies,
		       const struct timespec *since, const char *data, size_t len,
		       const struct inclusions *in, const char *ast)
{
	const char *dirs[2] = {env->tmp, copies};
	struct bm_strlist inputs = {0};

	/* a stub is not an input: the places the header was looked for in vain make it */
	for (size_t i = 0; i < in->inputs.n; i++)
		if (!under(in->inputs.v[i], env->stubdir))
			strlist_push(&inputs, in->inputs.v[i]);
	bm_parse_cache->store(key, keylen, dirs, since, data, len, &inputs, &in->missing, ast);
	strlist_free(&inputs);
}

/* Keep the child's result RES of the parse KEY names, with what IN says it read, and the
 * AST it saved at AST (or NULL). */
static void keep_result(struct parse_env *env, const char *key, size_t keylen, const char *copies,
			const struct timespec *since, const char *res, const struct inclusions *in,
			const char *ast)
{
	void (*hook)(const char *, const char *, size_t) = bm_input_hook;
	size_t len = 0;
	char *data;

	bm_input_hook = NULL; /* the run's own file: no input */
	data = read_file(res, &len);
	bm_input_hook = hook;
	if (!data)
		return;
	store_kept(env, key, keylen, copies, since, data, len, in, ast);
	free(data);
}

/* The key under which a unit's AST is kept once a question needs it (parse_again): its
 * parse's key, marked as that of the AST alone. */
struct parse_key {
	char *key;
	size_t keylen;
	char *copies;
};

static struct parse_key *parse_key_new(const struct kept_key *kk)
{
	struct parse_key *k = xcalloc(1, sizeof(*k));
	struct sbuf b = {0};

	sbuf_addn(&b, kk->key, kk->keylen);
	key_part(&b, "again", 5);
	k->keylen = b.len;
	k->key = sbuf_take(&b);
	k->copies = kk->copies ? xstrdup(kk->copies) : NULL;
	return k;
}

void parse_key_free(struct parse_key *k)
{
	if (!k)
		return;
	free(k->key);
	free(k->copies);
	free(k);
}

/* The AST kept for T's key (T->again_key) from an earlier run's parse_again(), as
 * T->ast_path; false when none is. */
static bool take_again_ast(struct parse_env *env, struct tunit *t)
{
	const struct parse_key *pk = t->again_key;
	const char *now[2] = {env->tmp, pk->copies};
	char *was[2] = {NULL, NULL}, *ast = kept_ast_name(env), *data;
	size_t len = 0;

	data = bm_parse_cache ? bm_parse_cache->lookup(pk->key, pk->keylen, now, was, &len, ast)
			      : NULL;
	if (!data) {
		free(ast);
		return false;
	}
	free(data);
	t->ast_path = ast;
	unit_files_made_in(t, was, now);
	free(was[0]);
	free(was[1]);
	return true;
}

/* T's AST, saved at AST by a parse_again() begun at SINCE, kept for its key. */
static void keep_again_ast(struct parse_env *env, struct tunit *t, CXTranslationUnit tu,
			   const struct timespec *since, const char *ast)
{
	const struct parse_key *pk = t->again_key;
	struct inclusions in;

	inclusions_of(env, t->path, tu, &in);
	store_kept(env, pk->key, pk->keylen, pk->copies, since, "AST\n", 4, &in, ast);
	inclusions_free(&in);
}

CXTranslationUnit parse_again(struct parse_env *env, CXIndex idx, struct tunit *t)
{
	bool stubbed = false, keep = t->again_key && bm_parse_cache;
	struct timespec since;
	CXTranslationUnit tu = NULL;

	t->ast_path = NULL;
	if (keep && take_again_ast(env, t)) {
		if (getenv("BLKMIG_UNIT_TRACE"))
			fprintf(stderr, "blkmig: AST kept: %s\n", t->path);
		if (clang_createTranslationUnit2(idx, t->ast_path, &tu) == CXError_Success && tu)
			return tu;
		unlink(t->ast_path);
		free(t->ast_path);
		t->ast_path = NULL;
		unit_files_made_in(t, (char *[2]){NULL, NULL}, (const char *[2]){NULL, NULL});
	}
	clock_gettime(CLOCK_REALTIME, &since);
	/* the parse child showed that this exact parse ends (as for a result it could
	 * not save, finish_file()); one kept between runs holds the files it read */
	env->embed_files = keep;
	tu = parse_one(env, idx, t->path, &stubbed);
	env->embed_files = false;
	if (!tu)
		return NULL;
	/* saved, so that units.c can let it go and load it again like the others; and
	 * loaded from there now: a unit read back from its AST holds a fraction of the
	 * memory of the parse that made it (libclang reads it as asked) */
	t->ast_path = kept_ast_name(env);
	if (clang_saveTranslationUnit(tu, t->ast_path, clang_defaultSaveOptions(tu)) !=
	    CXSaveError_None) {
		unlink(t->ast_path);
		free(t->ast_path);
		t->ast_path = NULL;
	} else {
		CXTranslationUnit loaded = NULL;

		if (keep)
			keep_again_ast(env, t, tu, &since, t->ast_path);
		if (clang_createTranslationUnit2(idx, t->ast_path, &loaded) == CXError_Success &&
		    loaded) {
			clang_disposeTranslationUnit(tu);
			tu = loaded;
		}
	}
	return tu;
}

/* Finish one file in the parent after its child exited with STATUS. */
static bool finish_file(struct parse_env *env, CXIndex idx, size_t fi, int status, bool timed_out,
			size_t k, struct tunit *t, const struct kept_key *kk)
{
	char *const *was = kk->was;
	struct relocation r = {{was[0], was[1]}, {env->tmp, kk->copies}};
	struct bm_file *file = &env->run->files[fi];
	char *res = xasprintf("%s/res.%zu", env->tmp, k);
	char *ast = xasprintf("%s/ast.%zu", env->tmp, k);
	int stubbed = 0, saved = 0;
	bool ok = false;
	FILE *f;

	if (timed_out) {
		file->status = BM_PARSE_FAILED;
		file_reason(file, xasprintf("libclang did not finish within %u s; file skipped",
					    env->run->opt.timeout));
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == BM_CHILD_RESOURCE_LIMIT) {
		file->status = BM_PARSE_FAILED;
		file->fail_code = "resource_limit";
		file_reason(file, xasprintf("the parse needed more than --parse-memory %u MB of "
					    "memory; file skipped",
					    env->run->opt.parse_memory_mb));
	} else if (WIFSIGNALED(status)) {
		file->status = BM_PARSE_FAILED;
		file_reason(file, xasprintf("libclang crashed (signal %d); file skipped",
					    WTERMSIG(status)));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		file->status = BM_PARSE_FAILED;
		file_reason(file, xstrdup("libclang could not parse the file"));
	} else if ((f = fopen(res, "r"))) {
		unsigned errors = 0, warnings = 0;
		size_t noffs = 0, ntexts = 0;
		bool from_child = false;

		if (fscanf(f, "%d %d %u %u %zu %zu", &stubbed, &saved, &errors, &warnings, &noffs,
			   &ntexts) != 6)
			stubbed = saved = 0;
		t->unit = NULL;
		if (saved) {
			struct inclusions in;

			/* the child's parse: its diagnostics, inclusions and functions come
			 * from it; the parent loads the saved AST only when the analysis
			 * asks libclang (units.c) */
			file->warnings = warnings;
			file->errors = errors;
			long model_at = -1;

			from_child =
			    read_child_diagnostics(f, file, t, noffs, ntexts, &in, &r, &model_at);
			if (from_child) {
				fclose(f);
				/* the stubs the kept parse had: this run's parses make them too */
				for (size_t i = 0; was[0] && i < in.includes.n; i++)
					if (under(in.includes.v[i], env->stubdir))
						make_stub(env, in.includes.v[i] +
								   strlen(env->stubdir) + 1);
				/* (a kept AST is one the child saved) */
				if (kk->key && !was[0] && (!kk->with_ast || saved == 1))
					keep_result(env, kk->key, kk->keylen, kk->copies,
						    &kk->since, res, &in,
						    kk->with_ast ? ast : NULL);
				apply_inclusions(file, t, &in);
				set_status(file, stubbed);
				/* a kept result without its AST is parsed again if a question
				 * needs it.  A copy's result stays in the run's folder under a
				 * name of its own: a later analysis that takes the unit over
				 * reads its functions there again (no walk of its AST) */
				if (was[0] && !t->facts_only && t->model_listed && model_at >= 0) {
					static unsigned long nkept_models;
					char *name =
					    xasprintf("%s/model.%lu.res", env->tmp, nkept_models++);

					if (!rename(res, name)) {
						t->model_file = name;
						t->model_at = model_at;
					} else {
						free(name);
					}
				}
				unlink(res);
				free(res);
				if (saved == 2 || (was[0] && !kk->ast_taken)) {
					t->ast_deferred = true;
					if (kk->key)
						t->again_key = parse_key_new(kk);
					free(ast);
				} else {
					/* a kept AST names the files of its run's folders */
					const char *now[2] = {env->tmp, kk->copies};

					if (kk->ast_taken)
						unit_files_made_in(t, was, now);
					keep_saved_ast(env, t, ast);
				}
				return true;
			}
			/* short result: parse here, as without an AST */
			file->warnings = file->errors = 0;
			strlist_free(&file->diagnostics);
			t->nerr = 0;
		}
		bool st = false;

		t->unit = parse_one(env, idx, file->path, &st);
		fclose(f);
		if (t->unit) {
			ok = true;
		} else {
			file->status = BM_PARSE_FAILED;
			file_reason(file, xstrdup("libclang could not parse the file"));
		}
	}
	if (ok)
		load_diagnostics(env, file, t, stubbed);
	unlink(res);
	unlink(ast);
	free(res);
	free(ast);
	return ok;
}

/* Load the translation units of the children that have exited. */
/* Per file of a parse_files(): how it ended. */
struct parse_jobs {
	int *exit_status;
	bool *exit_timed_out;
	char *finished; /* 1 exited, 2 loaded */
	struct kept_key *kept;
};

static void flush_finished(struct parse_env *env, CXIndex idx, size_t *files, size_t nfiles,
			   struct tunit *tus, struct parse_jobs *pj, size_t *nok)
{
	const int *exit_status = pj->exit_status;
	const bool *exit_timed_out = pj->exit_timed_out;
	char *finished = pj->finished;

	for (size_t k = 0; k < nfiles; k++) {
		struct tunit *t = &tus[k];

		if (finished[k] != 1)
			continue;
		finished[k] = 2;
		if (exit_status[k] == -1)
			continue; /* never started (fork failed) */
		if (finish_file(env, idx, files[k], exit_status[k], exit_timed_out[k], k, t,
				&pj->kept[k]))
			(*nok)++;
		if (!env->run->opt.quiet && env->run->files[files[k]].status == BM_PARSE_FAILED)
			fprintf(stderr, "blkmig: %s: %s\n", t->path,
				env->run->files[files[k]].reason);
	}
}

bool bm_parse_in_process;
const char *bm_parse_pch;

/* The fuzz target's way: every file parsed here, one after the other. */
static size_t parse_files_in_process(struct parse_env *env, CXIndex idx, size_t *files,
				     size_t nfiles, struct tunit *tus)
{
	size_t nok = 0;

	for (size_t k = 0; k < nfiles; k++) {
		struct bm_file *file = &env->run->files[files[k]];
		struct tunit *t = &tus[k];
		bool stubbed = false;

		t->file_index = files[k];
		t->path = file->path;
		t->unit = parse_one(env, idx, file->path, &stubbed);
		if (!t->unit) {
			file->status = BM_PARSE_FAILED;
			file_reason(file, xstrdup("libclang could not parse the file"));
			continue;
		}
		load_diagnostics(env, file, t, stubbed);
		nok++;
	}
	return nok;
}

size_t parse_files(struct parse_env *env, CXIndex idx, size_t *files, size_t nfiles,
		   struct tunit *tus)
{
	if (bm_parse_in_process)
		return parse_files_in_process(env, idx, files, nfiles, tus);
	int jobs = env->run->opt.jobs > 0 ? env->run->opt.jobs : 1;
	struct job *running = xcalloc((size_t)jobs, sizeof(*running));
	struct parse_jobs pj = {
	    .exit_status = xcalloc(nfiles + 1, sizeof(int)),
	    .exit_timed_out = xcalloc(nfiles + 1, sizeof(bool)),
	    .finished = xcalloc(nfiles + 1, 1),
	    .kept = xcalloc(nfiles + 1, sizeof(struct kept_key)),
	};
	int *exit_status = pj.exit_status;
	bool *exit_timed_out = pj.exit_timed_out;
	char *finished = pj.finished;
	size_t pending = 0;

	size_t next = 0, done = 0, nok = 0, nkept = 0, nkeyed = 0;
	int nrun = 0;

	for (int j = 0; j < jobs; j++)
		running[j].pid = 0;
	while (done < nfiles) {
		for (int j = 0; j < jobs && next < nfiles; j++) {
			if (running[j].pid)
				continue;
			size_t k = next++;
			const char *fpath = env->run->files[files[k]].path;

			if (env->kt) {
				/* computed here, once: the children inherit the cache */
				struct bm_strlist none = {0};

				ktree_file_args(env->kt, fpath, &none);
				strlist_free(&none);
				if (getenv("BLKMIG_KTREE_TRACE"))
					fprintf(stderr, "blkmig: %s: %s\n", fpath,
						ktree_file_summary(env->kt, fpath));
			}
			char *res = xasprintf("%s/res.%zu", env->tmp, k);
			char *ast = xasprintf("%s/ast.%zu", env->tmp, k);
			pid_t pid;

			struct kept_key *kk = &pj.kept[k];

			clock_gettime(CLOCK_REALTIME, &kk->since);
			kk->key = kept_result_key(env, fpath, &tus[k], &kk->keylen, &kk->copies,
						  &kk->with_ast);
			nkeyed += kk->key != NULL;
			if (kk->key && take_kept_result(env, kk->key, kk->keylen, kk->copies, res,
							kk->with_ast ? ast : NULL, kk->was)) {
				kk->ast_taken = kk->with_ast;
				/* as if its child had written it and exited */
				tus[k].file_index = files[k];
				tus[k].path = fpath;
				finished[k] = 1;
				pending++;
				done++;
				nkept++;
				if (getenv("BLKMIG_UNIT_TRACE"))
					fprintf(stderr, "blkmig: parse kept: %s%s\n", fpath,
						kk->ast_taken ? " (with its AST)" : "");
				progress_step(1);
				free(res);
				free(ast);
				j--; /* slot j is still free */
				continue;
			}
			if (kk->key && getenv("BLKMIG_UNIT_TRACE"))
				fprintf(stderr, "blkmig: parse not kept: %s\n", fpath);
			fflush(NULL);
			pid = fork();
			if (pid == 0) {
				cleanup_in_child(false);
				child_parse(env, fpath, res, ast, &tus[k], kk->key && kk->with_ast);
			}
			if (pid > 0)
				cleanup_add_child(pid, false);
			free(res);
			free(ast);
			if (pid < 0) {
				struct bm_file *file = &env->run->files[files[k]];

				file->status = BM_PARSE_FAILED;
				file_reason(file, xasprintf("cannot fork: %s", strerror(errno)));
				exit_status[k] = -1;
				finished[k] = 1;
				done++;
				continue;
			}
			running[j].pid = pid;
			running[j].k = k;
			clock_gettime(CLOCK_MONOTONIC, &running[j].started);
			nrun++;
		}
		bool progressed = false;

		for (int j = 0; j < jobs; j++) {
			int status = 0;
			bool timed_out = false;
			pid_t r;

			if (!running[j].pid)
				continue;
			r = waitpid(running[j].pid, &status, WNOHANG);
			if (r == 0 && elapsed(&running[j].started) > env->run->opt.timeout) {
				kill(running[j].pid, SIGKILL);
				waitpid(running[j].pid, &status, 0);
				timed_out = true;
				r = running[j].pid;
			}
			if (r != running[j].pid)
				continue;
			cleanup_del_child(r);
			size_t k = running[j].k;
			struct tunit *t = &tus[k];

			t->file_index = files[k];
			t->path = env->run->files[files[k]].path;
			/* loaded after every child is done: forking a parent that
			 * already holds many translation units is slow */
			exit_status[k] = status;
			exit_timed_out[k] = timed_out;
			finished[k] = 1;
			pending++;
			running[j].pid = 0;
			nrun--;
			done++;
			progress_step(1); /* the progress line's file count (cli/progress.c) */
			progressed = true;
		}
		/* bounded: at most 128 saved ASTs wait on disk */
		if (pending >= 128) {
			flush_finished(env, idx, files, nfiles, tus, &pj, &nok);
			pending = 0;
		}
		if (!progressed && nrun > 0) {
			struct timespec ts = {0, 5 * 1000 * 1000};

			nanosleep(&ts, NULL);
		}
	}
	free(running);
	flush_finished(env, idx, files, nfiles, tus, &pj, &nok);
	if (nkeyed && getenv("BLKMIG_STAGE_TIMES"))
		fprintf(stderr,
			"blkmig: the parse of %zu of %zu file(s) kept from an earlier run\n", nkept,
			nkeyed);
	for (size_t k = 0; k < nfiles; k++) {
		free(pj.kept[k].key);
		free(pj.kept[k].copies);
		free(pj.kept[k].was[0]);
		free(pj.kept[k].was[1]);
	}
	free(pj.kept);
	free(finished);
	free(exit_status);
	free(exit_timed_out);
	return nok;
}
