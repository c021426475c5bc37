/*
 * run.c - the run object: life cycle, the common command-line options,
 * collecting a file's edits and applying edits to a buffer, exit codes.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_options.h"
#include "util.h"

void bm_run_init(struct bm_run *run, const char *command)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(run, 0, sizeof(*run));
	run->command = command;
	run->opt.jobs = n > 0 ? (int)n : 1;
	run->opt.timeout = 120;
	run->opt.parse_memory_mb = BM_PARSE_MEMORY_MB;
}

static void site_free(struct bm_site *s)
{
	free(s->file);
	free(s->function);
	free(s->call);
	strlist_free(&s->lock_evidence);
	free(s->uptodate_expr);
	free(s->error_expr);
	free(s->uptodate_origin);
	free(s->bytes_expr);
	free(s->bytes_origin);
	free(s->parse_note);
	free(s->replacement);
	free(s->before);
	free(s->after);
	free(s->reason_text);
	for (size_t i = 0; i < s->nedits; i++) {
		free(s->edits[i].file);
		free(s->edits[i].text);
	}
	free(s->edits);
}

void bm_run_free(struct bm_run *run)
{
	for (size_t i = 0; i < run->nfiles; i++) {
		free(run->files[i].path);
		free(run->files[i].reason);
		strlist_free(&run->files[i].diagnostics);
		free(run->files[i].outcome_text);
	}
	free(run->files);
	for (size_t i = 0; i < run->nsites; i++)
		site_free(&run->sites[i]);
	free(run->sites);
	for (size_t i = 0; i < run->nfindings; i++) {
		free(run->findings[i].file);
		free(run->findings[i].function);
		free(run->findings[i].message);
	}
	free(run->findings);
	free(run->facts_added);
	strlist_free(&run->opt.include_dirs);
	strlist_free(&run->opt.defines);
	free(run->opt.build_dir);
	free(run->opt.kernel_tree);
	memset(run, 0, sizeof(*run));
}

/* "-Ifoo", "-I foo", "--opt=val", "--opt val" */
static const char *opt_arg(const char *name, int argc, char **argv, int *i, int *err)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '\0') {
		if (*i + 1 >= argc) {
			fprintf(stderr, "blkmig: option %s needs an argument\n", name);
			*err = 1;
			return NULL;
		}
		*i += 2;
		return argv[*i - 1];
	}
	if (name[1] == '-' && a[n] != '=')
		return NULL;
	*i += 1;
	return a + n + (name[1] == '-');
}

int bm_options_take(struct bm_options *opt, int argc, char **argv, int *i)
{
	const char *v;
	int err = 0;

	if (!strcmp(argv[*i], "--headers")) {
		opt->headers = true;
		(*i)++;
		return 1;
	}
	if (!strcmp(argv[*i], "--follow")) {
		opt->follow = true;
		(*i)++;
		return 1;
	}
	if (!strcmp(argv[*i], "-q") || !strcmp(argv[*i], "--quiet")) {
		opt->quiet = true;
		(*i)++;
		return 1;
	}
	if ((v = opt_arg("-I", argc, argv, i, &err))) {
		strlist_push(&opt->include_dirs, v);
		return 1;
	}
	if ((v = opt_arg("-D", argc, argv, i, &err))) {
		strlist_push(&opt->defines, v);
		return 1;
	}
	if ((v = opt_arg("-p", argc, argv, i, &err))) {
		free(opt->build_dir);
		opt->build_dir = xstrdup(v);
		return 1;
	}
	if ((v = opt_arg("--kernel-tree", argc, argv, i, &err))) {
		struct stat st;

		if (stat(v, &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "blkmig: --kernel-tree %s: not a directory\n", v);
			return -1;
		}
		free(opt->kernel_tree);
		opt->kernel_tree = xstrdup(v);
		return 1;
	}
	if ((v = opt_arg("-j", argc, argv, i, &err)) ||
	    (!err && (v = opt_arg("--jobs", argc, argv, i, &err)))) {
		char *end;
		long n = strtol(v, &end, 10);

		if (*end || n < 1 || n > 256) {
			fprintf(stderr, "blkmig: -j wants a number 1..256, not '%s'\n", v);
			return -1;
		}
		opt->jobs = (int)n;
		return 1;
	}
	if ((v = opt_arg("--timeout", argc, argv, i, &err))) {
		char *end;
		long n = strtol(v, &end, 10);

		if (*end || n < 1 || n > 86400) {
			fprintf(stderr, "blkmig: --timeout wants seconds 1..86400, not '%s'\n", v);
			return -1;
		}
		opt->timeout = (unsigned)n;
		return 1;
	}
	if ((v = opt_arg("--parse-memory", argc, argv, i, &err))) {
		char *end;
		long n = strtol(v, &end, 10);

		if (*end || n < 0 || (n > 0 && n < 256) || n > 1048576) {
			fprintf(
			    stderr,
			    "blkmig: --parse-memory wants megabytes 256..1048576 (0: no limit), "
			    "not '%s'\n",
			    v);
			return -1;
		}
		opt->parse_memory_mb = (unsigned)n;
		return 1;
	}
	/* report options (analyzer/REPORT.md) */
	if (!strcmp(argv[*i], "--list-skipped")) {
		opt->list_skipped = true;
		(*i)++;
		return 1;
	}
	if ((v = opt_arg("--sarif-base-uri", argc, argv, i, &err))) {
		if (!strstr(v, "://")) {
			fprintf(stderr,
				"blkmig: --sarif-base-uri wants an absolute URI "
				"(scheme://...), not '%s'\n",
				v);
			return -1;
		}
		opt->sarif_base_uri = v;
		return 1;
	}
	if ((v = opt_arg("--source-url", argc, argv, i, &err))) {
		if (!strstr(v, "{path}")) {
			fprintf(stderr,
				"blkmig: --source-url wants a template with {path} "
				"(and {line}), not '%s'\n",
				v);
			return -1;
		}
		opt->source_url = v;
		return 1;
	}
	return err ? -1 : 0;
}

/* The value of a common option with an argument (code: its short letter or BM_OPT_*). */
static int common_value(struct bm_options *opt, int code, const char *v)
{
	char *end;
	long n;
	struct stat st;

	switch (code) {
	case 'I': strlist_push(&opt->include_dirs, v); return 0;
	case 'D': strlist_push(&opt->defines, v); return 0;
	case 'p':
		free(opt->build_dir);
		opt->build_dir = xstrdup(v);
		return 0;
	case BM_OPT_KERNEL_TREE:
		if (stat(v, &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "blkmig: --kernel-tree %s: not a directory\n", v);
			return -1;
		}
		free(opt->kernel_tree);
		opt->kernel_tree = xstrdup(v);
		return 0;
	case 'j':
		n = strtol(v, &end, 10);
		if (!*v || *end || n < 1 || n > 256) {
			fprintf(stderr, "blkmig: -j wants a number 1..256, not '%s'\n", v);
			return -1;
		}
		opt->jobs = (int)n;
		return 0;
	case BM_OPT_TIMEOUT:
		n = strtol(v, &end, 10);
		if (!*v || *end || n < 1 || n > 86400) {
			fprintf(stderr, "blkmig: --timeout wants seconds 1..86400, not '%s'\n", v);
			return -1;
		}
		opt->timeout = (unsigned)n;
		return 0;
	case BM_OPT_PARSE_MEMORY:
		n = strtol(v, &end, 10);
		if (!*v || *end || n < 0 || (n > 0 && n < 256) || n > 1048576) {
			fprintf(
			    stderr,
			    "blkmig: --parse-memory wants megabytes 256..1048576 (0: no limit), "
			    "not '%s'\n",
			    v);
			return -1;
		}
		opt->parse_memory_mb = (unsigned)n;
		return 0;
	case BM_OPT_SARIF_BASE_URI:
		if (!strstr(v, "://")) {
			fprintf(stderr,
				"blkmig: --sarif-base-uri wants an absolute URI "
				"(scheme://...), not '%s'\n",
				v);
			return -1;
		}
		opt->sarif_base_uri = v;
		return 0;
	case BM_OPT_SOURCE_URL:
		if (!strstr(v, "{path}")) {
			fprintf(stderr,
				"blkmig: --source-url wants a template with {path} "
				"(and {line}), not '%s'\n",
				v);
			return -1;
		}
		opt->source_url = v;
		return 0;
	}
	return -1;
}

static const struct option common_long[] = {
    {"headers", no_argument, NULL, BM_OPT_HEADERS},
    {"follow", no_argument, NULL, BM_OPT_FOLLOW},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"kernel-tree", required_argument, NULL, BM_OPT_KERNEL_TREE},
    {"jobs", required_argument, NULL, 'j'},
    {"timeout", required_argument, NULL, BM_OPT_TIMEOUT},
    {"parse-memory", required_argument, NULL, BM_OPT_PARSE_MEMORY},
    {"list-skipped", no_argument, NULL, BM_OPT_LIST_SKIPPED},
    {"sarif-base-uri", required_argument, NULL, BM_OPT_SARIF_BASE_URI},
    {"source-url", required_argument, NULL, BM_OPT_SOURCE_URL},
};
#define NCOMMON (sizeof(common_long) / sizeof(common_long[0]))

/* The name of the option getopt stopped at, as the user wrote it (without "=value"). */
static char *option_text(char **argv, int at, int code, const struct option *lo)
{
	const char *a = argv[at];

	if (a && a[0] == '-' && a[1] == '-') {
		size_t n = strcspn(a, "=");

		return xasprintf("%.*s", (int)n, a);
	}
	if (code > 0 && code < 0x100)
		return xasprintf("-%c", code);
	for (size_t i = 0; lo && lo[i].name; i++)
		if (lo[i].val == code)
			return xasprintf("--%s", lo[i].name);
	return xstrdup(a ? a : "?");
}

/* Did getopt stop at "--name=value" of a long option that takes no value? */
static bool takes_no_value(const char *a, int code, const struct option *lo)
{
	size_t n;

	if (!code || !a || strncmp(a, "--", 2) || !strchr(a, '='))
		return false;
	n = strcspn(a + 2, "=");
	for (size_t i = 0; lo[i].name; i++)
		if (lo[i].val == code && !strncmp(lo[i].name, a + 2, n))
			return true;
	return false;
}

int bm_parse_options(const char *cmd, int argc, char **argv, const char *own_short,
		     const struct option *own_long, bm_take_fn take, void *ctx,
		     struct bm_options *opt, char ***paths, size_t *npaths)
{
	size_t nown = 0;
	struct option *lo;
	/* '-' first: each PATH comes back as the value of option 1, so options and PATHs mix
	 * even under POSIXLY_CORRECT (which would stop at the first PATH); then ':': a missing
	 * value is reported as such */
	char *so = xasprintf("-:%sI:D:p:j:qh", own_short ? own_short : "");
	int c, rc = 0;

	while (own_long && own_long[nown].name)
		nown++;
	lo = xcalloc(nown + NCOMMON + 1, sizeof(*lo));
	if (nown)
		memcpy(lo, own_long, nown * sizeof(*lo));
	memcpy(lo + nown, common_long, sizeof(common_long));
	*paths = xcalloc((size_t)argc + 1, sizeof(char *));
	*npaths = 0;
	optind = 0; /* a full reset (glibc): every parse starts afresh */
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		char *name;

		switch (c) {
		case '?':
			if (takes_no_value(argv[optind - 1], optopt, lo)) {
				name = option_text(argv, optind - 1, optopt, lo);
				fprintf(stderr, "blkmig %s: option '%s' takes no argument\n", cmd,
					name);
			} else {
				name = optopt ? xasprintf("-%c", optopt)
					      : option_text(argv, optind - 1, 0, lo);
				fprintf(stderr,
					"blkmig %s: unknown option '%s' (try blkmig %s --help)\n",
					cmd, name, cmd);
			}
			free(name);
			rc = -1;
			break;
		case ':':
			name = option_text(argv, optind - 1, optopt, lo);
			fprintf(stderr, "blkmig %s: option '%s' needs an argument\n", cmd, name);
			free(name);
			rc = -1;
			break;
		case 1: (*paths)[(*npaths)++] = optarg; break;
		case 'h': rc = 1; break;
		case 'q': opt->quiet = true; break;
		case BM_OPT_HEADERS: opt->headers = true; break;
		case BM_OPT_FOLLOW: opt->follow = true; break;
		case BM_OPT_LIST_SKIPPED: opt->list_skipped = true; break;
		case 'I':
		case 'D':
		case 'p':
		case 'j':
		case BM_OPT_KERNEL_TREE:
		case BM_OPT_TIMEOUT:
		case BM_OPT_PARSE_MEMORY:
		case BM_OPT_SARIF_BASE_URI:
		case BM_OPT_SOURCE_URL:
			if (common_value(opt, c, optarg) < 0)
				rc = -1;
			break;
		default:
			if (!take || take(ctx, c, optarg) < 0)
				rc = -1;
			break;
		}
	}
	if (rc == 0) { /* those after "--" */
		for (int i = optind; i < argc; i++)
			(*paths)[(*npaths)++] = argv[i];
	} else {
		free(*paths);
		*paths = NULL;
		*npaths = 0;
	}
	free(lo);
	free(so);
	return rc;
}

void bm_options_usage(FILE *out)
{
	fputs("COMMON OPTIONS\n"
	      "    -p BUILD_DIR\n"
	      "        Read BUILD_DIR/compile_commands.json and parse each file with\n"
	      "        its real compiler flags (libclang compilation database).\n"
	      "    -I DIR\n"
	      "        Add DIR to the include search path.\n"
	      "    -D NAME[=VALUE]\n"
	      "        Define a preprocessor macro.\n"
	      "    --kernel-tree DIR\n"
	      "        DIR is a kernel source tree (configured or not; found by itself\n"
	      "        when the PATHs lie in one).  Each file is parsed as kbuild would\n"
	      "        for its own architecture (arch/ARCH/..., else the Kconfig entry\n"
	      "        its Makefile names, else its <asm/...> headers; default x86):\n"
	      "        include/asm-ARCH as <asm/...>, -target for ARCH, and a\n"
	      "        linux/autoconf.h generated from the ARCH defconfig that builds\n"
	      "        the file; no `make prepare` needed.  Headers still missing are\n"
	      "        replaced by empty stubs.\n"
	      "    -j N, --jobs N\n"
	      "        Parse N files at a time (default: number of CPUs).\n"
	      "    --headers\n"
	      "        When walking directories, analyse .h files too (default: .c).\n"
	      "    --follow\n"
	      "        Follow symbolic links to files outside the walked directory\n"
	      "        (default: such links are skipped with a message).\n"
	      "    --timeout SEC\n"
	      "        Give up on a file whose parse, analysis or spatch run takes\n"
	      "        longer (default 120): it is reported and left untouched.\n"
	      "    --parse-memory MB\n"
	      "        Cap the memory (address space) each file's parse adds at MB\n"
	      "        megabytes (default 8192; 0: no cap).  A file whose parse needs\n"
	      "        more is reported failed (resource_limit) and left untouched.\n"
	      "        A parse reads regular files only: a header that is a FIFO or a\n"
	      "        device (a link to /dev/zero) is an error at its #include.\n"
	      "    -q, --quiet\n"
	      "        No progress messages on stderr.\n"
	      "    --sarif-base-uri URI\n"
	      "        SARIF: the uri of SRCROOT (the --root directory), e.g.\n"
	      "        https://host/repo/blob/COMMIT/ (default: none, so the log names no\n"
	      "        path of the machine that wrote it).\n"
	      "    --source-url TEMPLATE\n"
	      "        Review page: link each site to TEMPLATE with {path} (relative to\n"
	      "        --root) and {line} replaced, e.g. https://host/tree/{path}#L{line}\n"
	      "        (default: the file itself, file://...).\n"
	      "    --list-skipped\n"
	      "        JSON: list every file without a legacy call as \"skipped\" (default:\n"
	      "        only their number, summary.files_skipped).\n"
	      "    -h, --help\n"
	      "        Show this text.\n"
	      "\n"
	      "    Without -p, -I or --kernel-tree (and outside a kernel tree), files\n"
	      "    are parsed against blkmig's own model of the 2.6.24 block API;\n"
	      "    every header that cannot be found is replaced by an empty stub,\n"
	      "    so a bare checkout scans without any setup.  Each file is parsed in a child "
	      "process: a file\n"
	      "    that crashes or hangs libclang is reported and skipped.\n",
	      out);
}

static int edit_cmp(const void *a, const void *b)
{
	const struct bm_edit *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return strcmp(x->text, y->text);
}

int bm_file_edits(const struct bm_run *run, const char *file, struct bm_edit **out, size_t *n)
{
	struct bm_edit *v = NULL;
	size_t cnt = 0, cap = 0, k = 0;

	for (size_t i = 0; i < run->nsites; i++) {
		const struct bm_site *s = &run->sites[i];

		if (s->verdict != BM_AUTO)
			continue;
		for (size_t j = 0; j < s->nedits; j++) {
			if (strcmp(s->edits[j].file, file))
				continue;
			vec_append(v, cnt, cap, s->edits[j]);
		}
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), edit_cmp);
	for (size_t i = 0; i < cnt; i++) {
		if (k && v[k - 1].start == v[i].start && v[k - 1].end == v[i].end &&
		    !strcmp(v[k - 1].text, v[i].text))
			continue;
		if (k && (v[i].start < v[k - 1].end ||
			  (v[i].start == v[k - 1].start && v[i].start == v[i].end &&
			   v[k - 1].start == v[k - 1].end))) {
			free(v);
			*out = NULL;
			*n = 0;
			return -1;
		}
		v[k++] = v[i];
	}
	*out = v;
	*n = k;
	return 0;
}

int bm_run_exit_code(const struct bm_run *run)
{
	if (run->io_errors)
		return BM_EXIT_USAGE;
	for (size_t i = 0; i < run->nsites; i++)
		if (run->sites[i].verdict == BM_MANUAL)
			return BM_EXIT_FINDINGS;
	for (size_t i = 0; i < run->nfindings; i++)
		if (bm_finding_fails(&run->findings[i]))
			return BM_EXIT_FINDINGS;
	for (size_t i = 0; i < run->nfiles; i++)
		if (run->files[i].status == BM_PARSE_FAILED && run->files[i].nsites == 0)
			return BM_EXIT_FINDINGS;
	return BM_EXIT_CLEAN;
}
