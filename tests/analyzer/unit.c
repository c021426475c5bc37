/*
 * unit.c - unit tests of the analyzer through its library interface
 * (site.h): edit application, the lock analysis across functions, the
 * uptodate and byte-count data flow, and each report writer (the JSON and
 * SARIF output is parsed back with jansson and checked field by field).
 * Plain harness: prints "ok NAME" or "FAIL NAME why", then
 * "N passed, N failed".  Run in a scratch directory.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "migrate_combine.h"
#include "output_guard.h"
#include "site.h"
#include "util.h"

static int passed, failed;

static void check(int cond, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (cond) {
		printf("ok %s\n", name);
		passed++;
		return;
	}
	printf("FAIL %s ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed++;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

static void analyze(struct bm_run *run, const char *path)
{
	char *paths[1] = {(char *)path};

	bm_run_init(run, "scan");
	run->opt.quiet = true;
	if (bm_analyze(run, paths, 1) < 0) {
		fprintf(stderr, "analysis of %s failed\n", path);
		exit(2);
	}
}

/* the first site in FUNCTION calling CALL (NULL: any legacy call) */
static const struct bm_site *site_in(const struct bm_run *run, const char *function,
				     const char *call)
{
	for (size_t i = 0; i < run->nsites; i++)
		if (!strcmp(run->sites[i].function, function) &&
		    (!call || !strcmp(run->sites[i].call, call)))
			return &run->sites[i];
	return NULL;
}

/* ---- migrate's byte count of a new call (migrate_combine.c) ------------- */

static void test_combine_bytes(void)
{
	static const struct {
		const char *text, *want;
	} t[] = {
	    {"__blk_end_request(req, -EIO, blk_rq_cur_bytes(req));", "blk_rq_cur_bytes(req)"},
	    {"__blk_end_request(req, 0, req->hard_cur_sectors << 9);", "req->hard_cur_sectors<<9"},
	    {"blk_end_request(rq, f(a, b), (n) << 9)", "(n)<<9"},
	    {"__blk_end_request(req, 0, x[i])", "x[i]"},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *got = combine_bytes(t[i].text), name[64];

		snprintf(name, sizeof(name), "combine-bytes-%zu", i);
		check(got && !strcmp(got, t[i].want), name, "%s: got '%s', want '%s'", t[i].text,
		      got ? got : "(null)", t[i].want);
		free(got);
	}
}

/* ---- the confinement check on a rewritten file (output_guard.c, issue 25 item 1) -- */

static void test_output_guard(void)
{
	/* line 12 holds the site, in wr_end(); wr_next() and wr_poll() call it (callers of
	 * a wrapper); wr_init() has nothing to do with it */
	static const char old[] = "#include <linux/blkdev.h>\n"			   /* 1 */
				  "\n"						   /* 2 */
				  "#define WR_FAIL(u) end_io_error(u)\n"	   /* 3 */
				  "static int wr_state;\n"			   /* 4 */
				  "static void wr_end(struct request *rq, int u);\n" /* 5 */
				  "\n"						   /* 6 */
				  "/* ends the request */\n"			   /* 7 */
				  "static void wr_end(struct request *rq, int u)\n" /* 8 */
				  "{\n"						   /* 9 */
				  "\tif (!u)\n"					   /* 10 */
				  "\t\twr_state = 1;\n"				   /* 11 */
				  "\tend_request(rq, u);\n"			   /* 12 */
				  "}\n"						   /* 13 */
				  "\n"						   /* 14 */
				  "static void wr_next(struct request *rq)\n"	   /* 15 */
				  "{\n"						   /* 16 */
				  "\twr_end(rq, 1);\n"				   /* 17 */
				  "}\n"						   /* 18 */
				  "\n"						   /* 19 */
				  "static void wr_poll(struct request *rq)\n"	   /* 20 */
				  "{\n"						   /* 21 */
				  "\twr_next(rq);\n"				   /* 22 */
				  "\tif (wr_state) /* wr_end( */\n"		   /* 23 */
				  "\t\twr_end(rq, 0);\n"			   /* 24 */
				  "}\n"						   /* 25 */
				  "\n"						   /* 26 */
				  "static int wr_init(void)\n"			   /* 27 */
				  "{\n"						   /* 28 */
				  "\treturn 0;\n"				   /* 29 */
				  "}\n";					   /* 30 */
	static const struct {
		const char *name, *from, *to; /* replace the first @from with @to */
		unsigned bad;		      /* 0: confined, else the first line outside */
	} t[] = {
	    {"site-rewritten", "\tend_request(rq, u);\n", "\t__blk_end_request(rq, u, 512);\n", 0},
	    {"param-renamed",
	     "static void wr_end(struct request *rq, int u)\n{\n\tif (!u)",
	     "static void wr_end(struct request *rq, int error)\n{\n\tif (error)", 0},
	    {"caller-argument", "\twr_end(rq, 1);\n", "\twr_end(rq, 0);\n", 0},
	    {"caller-of-caller", "\t\twr_end(rq, 0);\n", "\t\twr_end(rq, -EIO);\n", 0},
	    {"prototype", "static void wr_end(struct request *rq, int u);\n",
	     "static void wr_end(struct request *rq, int error);\n", 0},
	    {"end_io_error-macro", "end_io_error(u)", "unlikely((u) <= 0)", 0},
	    {"guard-before-function", "/* ends the request */\n",
	     "/* ends the request */\n#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)\n", 0},
	    {"callback-above-comment", "\n/* ends the request */\n",
	     "\nstatic int cb(struct request *rq)\n{\n\treturn 0;\n}\n\n/* ends the request */\n", 0},
	    {"other-function", "\treturn 0;\n", "\treturn 1;\n", 29},
	    {"file-scope-declaration", "static int wr_state;\n", "static long wr_state;\n", 4},
	    {"include-line", "#include <linux/blkdev.h>\n", "garbage ) (\n", 1},
	    {"appended-at-end", "\treturn 0;\n}\n", "\treturn 0;\n}\nint hostile;\n", 31},
	    {"truncated", NULL, "", 1},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct og_site site = {12, 12};
		char name[64], *nw;
		unsigned bad = 0;
		int r;

		if (t[i].from) {
			const char *at = strstr(old, t[i].from);

			nw = xasprintf("%.*s%s%s", (int)(at - old), old, t[i].to, at + strlen(t[i].from));
		} else {
			nw = xstrdup(t[i].to);
		}
		r = output_guard_confined(old, strlen(old), nw, strlen(nw), &site, 1, NULL, 0, &bad);
		snprintf(name, sizeof(name), "output-guard-%s", t[i].name);
		check(t[i].bad ? r == 0 && bad == t[i].bad : r == 1, name,
		      "confined %d, first line outside %u (want %s %u)", r, bad,
		      t[i].bad ? "refused at" : "confined,", t[i].bad);
		free(nw);
	}
	{
		/* a header that differs by kernel version opens a brace in each branch: only
		 * the first branch counts, so f() ends at its own '}' and g() is outside */
		static const char o3[] = "static int x;\n"
					 "#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,19)\n"
					 "static void f(struct request *rq, int a) {\n"
					 "#else\n"
					 "static void f(struct request *rq) {\n"
					 "#endif\n"
					 "\tint u = 1;\n"
					 "\tend_request(rq, u);\n"
					 "}\n"
					 "static int g(void)\n"
					 "{\n"
					 "\treturn 0;\n"
					 "}\n";
		struct og_site site = {8, 8};
		char *in_f = xstrdup(o3), *in_g = xstrdup(o3);
		unsigned bad = 0, bad2 = 0;
		int r1, r2;

		memcpy(strstr(in_f, "int u = 1;"), "int e = 0;", 10);
		memcpy(strstr(in_g, "return 0;"), "return 1;", 9);
		r1 = output_guard_confined(o3, strlen(o3), in_f, strlen(in_f), &site, 1, NULL, 0,
					   &bad);
		r2 = output_guard_confined(o3, strlen(o3), in_g, strlen(in_g), &site, 1, NULL, 0,
					   &bad2);
		check(r1 == 1 && r2 == 0 && bad2 == 12, "output-guard-braces-in-else-branch",
		      "in f(): %d (want 1); in g(): %d at line %u (want 0 at 12)", r1, r2, bad2);
		free(in_f);
		free(in_g);
	}
	{
		/* the analyzer's rewrite of a caller of a wrapper whose site is in another file */
		static const char *const names[] = {"ext_end_request"};
		static const char o2[] = "static int f(struct request *rq)\n{\n\text_end_request(rq, "
					 "1);\n\treturn 0;\n}\n";
		static const char n2[] = "static int f(struct request *rq)\n{\n\text_end_request(rq, "
					 "0);\n\treturn 0;\n}\n";
		unsigned bad = 0;

		check(output_guard_confined(o2, strlen(o2), n2, strlen(n2), NULL, 0, names, 1,
					    &bad) == 1 &&
			  output_guard_confined(o2, strlen(o2), n2, strlen(n2), NULL, 0, NULL, 0,
						&bad) == 0 &&
			  bad == 3,
		      "output-guard-caller-of-wrapper-in-another-file",
		      "a caller of a named wrapper must be confined, and refused without the name");
	}
}

/* ---- edits ------------------------------------------------------------- */
static void test_edits(void)
{
	const char *src = "abcdefghij";
	struct bm_edit e[2] = {{"f", 1, 3, "XY"}, {"f", 5, 5, "++"}};
	size_t len;
	char *out = bm_apply_edits(src, 10, e, 2, &len);

	check(out && !strcmp(out, "aXYde++fghij"), "edits-apply", "got %s", out ? out : "NULL");
	free(out);
	e[1].start = 2;
	e[1].end = 4;
	out = bm_apply_edits(src, 10, e, 2, &len);
	check(out == NULL, "edits-overlap-rejected", "overlapping edits were applied");
	free(out);

	struct bm_run run;
	struct bm_site sites[2];
	struct bm_edit e1 = {"f.c", 4, 8, "new"}, e2 = {"f.c", 4, 8, "new"};
	struct bm_edit e3 = {"f.c", 6, 9, "clash"};
	struct bm_edit *got;
	size_t n;

	memset(&run, 0, sizeof(run));
	memset(sites, 0, sizeof(sites));
	run.sites = sites;
	run.nsites = 2;
	sites[0].edits = &e1;
	sites[0].nedits = 1;
	sites[1].edits = &e2;
	sites[1].nedits = 1;
	check(bm_file_edits(&run, "f.c", &got, &n) == 0 && n == 1, "edits-duplicates-dropped",
	      "n=%zu", n);
	free(got);
	sites[1].edits = &e3;
	check(bm_file_edits(&run, "f.c", &got, &n) == -1, "edits-conflict-detected",
	      "conflicting edits of two sites were accepted");
	sites[1].verdict = BM_MANUAL;
	check(bm_file_edits(&run, "f.c", &got, &n) == 0 && n == 1, "edits-manual-ignored",
	      "edits of a manual site were collected");
	free(got);
}

/* ---- lock analysis -------------------------------------------------------- */
static const char lock_src[] =
    "#include <linux/blkdev.h>\n"
    "#include <linux/interrupt.h>\n"
    "static DEFINE_SPINLOCK(l_lock);\n"
    "static struct request_queue *l_q;\n"
    "static struct request *l_cur;\n"
    "static int l_flag;\n"
    "static void l_from_both(struct request *rq) { end_request(rq, 1); }\n"
    "static void l_from_locked(struct request *rq) { end_request(rq, 1); }\n"
    "static void l_from_unlocked(struct request *rq) { end_dequeued_request(rq, 1); }\n"
    "static void l_request(struct request_queue *q)\n"
    "{\n"
    "	struct request *rq = elv_next_request(q);\n"
    "	end_request(rq, 1);\n"
    "	l_from_both(rq);\n"
    "	l_from_locked(rq);\n"
    "	spin_unlock_irq(q->queue_lock);\n"
    "	end_queued_request(rq, 1);\n"
    "	spin_lock_irq(q->queue_lock);\n"
    "}\n"
    "static irqreturn_t l_irq(int irq, void *d)\n"
    "{\n"
    "	unsigned long flags;\n"
    "	l_from_unlocked(l_cur);\n"
    "	l_from_both(l_cur);\n"
    "	spin_lock_irqsave(&l_lock, flags);\n"
    "	l_from_locked(l_cur);\n"
    "	if (l_flag)\n"
    "		goto out;\n"
    "	spin_unlock_irqrestore(&l_lock, flags);\n"
    "	return IRQ_HANDLED;\n"
    "out:\n"
    "	end_request(l_cur, 0);\n"
    "	spin_unlock_irqrestore(&l_lock, flags);\n"
    "	return IRQ_HANDLED;\n"
    "}\n"
    "static void l_tasklet(unsigned long data)\n"
    "{\n"
    "	if (l_flag)\n"
    "		spin_lock(l_q->queue_lock);\n"
    "	end_request(l_cur, 1);\n"
    "}\n"
    "static DECLARE_TASKLET(l_t, l_tasklet, 0);\n"
    "static int l_init(void)\n"
    "{\n"
    "	l_q = blk_init_queue(l_request, &l_lock);\n"
    "	return request_irq(1, l_irq, 0, \"l\", 0);\n"
    "}\n";

static int has_evidence(const struct bm_site *s, const char *needle)
{
	for (size_t i = 0; s && i < s->lock_evidence.n; i++)
		if (strstr(s->lock_evidence.v[i], needle))
			return 1;
	return 0;
}

static void test_lock(void)
{
	struct bm_run run;
	const struct bm_site *s;

	write_file("lock.c", lock_src);
	analyze(&run, "lock.c");
	s = site_in(&run, "l_request", "end_request");
	check(s && s->lock == BM_LOCK_HELD && has_evidence(s, "request_fn registered"),
	      "lock-request-fn-holds", "lock %s", s ? bm_lock_name(s->lock) : "-");
	s = site_in(&run, "l_request", "end_queued_request");
	check(s && s->lock == BM_LOCK_NOT_HELD && has_evidence(s, "spin_unlock_irq"),
	      "lock-unlock-in-function", "lock %s", s ? bm_lock_name(s->lock) : "-");
	s = site_in(&run, "l_from_locked", NULL);
	check(s && s->lock == BM_LOCK_HELD && has_evidence(s, "all 2 caller(s)"),
	      "lock-all-callers-hold", "lock %s", s ? bm_lock_name(s->lock) : "-");
	s = site_in(&run, "l_from_unlocked", NULL);
	/* an old lock bug proven on every path: blk_end_request takes the lock, and
	 * the site says the race is fixed (issue 20) */
	check(s && s->lock == BM_LOCK_NOT_HELD && s->verdict == BM_AUTO &&
		  !strncmp(s->replacement, "blk_end_request(", 16) &&
		  has_evidence(s, "none of the 1 caller(s)") &&
		  has_evidence(s, "old_lock_bug_fixed"),
	      "lock-irq-handler-starts-unlocked", "lock %s reason %s replacement %s",
	      s ? bm_lock_name(s->lock) : "-", s && s->reason_code ? s->reason_code : "-",
	      s ? s->replacement : "-");
	{
		size_t old = 0;

		/* a fixed race is no finding: verify has nothing to warn of */
		for (size_t k = 0; k < run.nfindings; k++)
			old += run.findings[k].kind == BM_FIND_PREEXISTING_LOCK_BUG &&
			       (!strcmp(run.findings[k].function, "l_from_unlocked") ||
				!strcmp(run.findings[k].function, "l_from_both"));
		check(old == 0, "lock-old-bugs-are-not-kept", "%zu preexisting_lock_bug", old);
	}
	s = site_in(&run, "l_from_both", NULL);
	/* held from l_request, not from l_irq: no one variant, both paths named */
	check(s && s->verdict == BM_MANUAL && s->reason_code &&
		  !strcmp(s->reason_code, "lock_mixed") && s->reason_text &&
		  strstr(s->reason_text, "held when called as l_request -> l_from_both") &&
		  strstr(s->reason_text, "without it as l_irq -> l_from_both"),
	      "lock-callers-disagree", "verdict %s reason %s: %s", s ? (s->verdict == BM_AUTO ? "auto" : "manual") : "-",
	      s && s->reason_code ? s->reason_code : "-", s && s->reason_text ? s->reason_text : "-");
	s = site_in(&run, "l_irq", "end_request");
	check(s && s->lock == BM_LOCK_HELD, "lock-goto-carries-state", "lock %s",
	      s ? bm_lock_name(s->lock) : "-");
	s = site_in(&run, "l_tasklet", NULL);
	check(s && s->lock == BM_LOCK_UNKNOWN && has_evidence(s, "differs between the paths"),
	      "lock-branch-merge-unknown", "lock %s", s ? bm_lock_name(s->lock) : "-");
	bm_run_free(&run);
}

/* ---- data flow ---------------------------------------------------------- */
static const char flow_src[] =
    "#include <linux/blkdev.h>\n"
    "static DEFINE_SPINLOCK(f_lock);\n"
    "static int f_next(void);\n"
    "static void f_request(struct request_queue *q)\n"
    "{\n"
    "	struct request *rq = elv_next_request(q);\n"
    "	int ok = 1, err = 0, x = rq->errors;\n"
    "	int bytes = rq->data_len, nsect = rq->current_nr_sectors;\n"
    "	if (x > 3)\n"
    "		ok = 0;\n"
    "	if (x < 0)\n"
    "		err = -EIO;\n"
    "	end_request(rq, 1);\n"
    "	end_request(rq, 0);\n"
    "	end_request(rq, -ENOMEM);\n"
    "	end_request(rq, !x);\n"
    "	end_request(rq, x > 0 && x < 9);\n"
    "	end_request(rq, ok);\n"
    "	end_request(rq, err);\n"
    "	end_request(rq, rq->errors);\n"
    "	end_request(rq, f_next());\n"
    "	end_request(rq, x ? 1 : 0);\n"
    "	if (!end_that_request_first(rq, 1, nsect))\n"
    "		end_that_request_last(rq, 1);\n"
    "	if (!end_that_request_first(rq, 1, bytes))\n"
    "		end_that_request_last(rq, 1);\n"
    "	if (!end_that_request_chunk(rq, 1, rq->nr_sectors))\n"
    "		end_that_request_last(rq, 1);\n"
    "	if (!end_that_request_chunk(rq, 1, bytes))\n"
    "		end_that_request_last(rq, 1);\n"
    "	if (!end_that_request_first(rq, 1, rq->hard_cur_sectors))\n"
    "		end_that_request_last(rq, 1);\n"
    "}\n"
    "static int f_init(void) { blk_init_queue(f_request, &f_lock); return 0; }\n";

static void test_flow(void)
{
	struct bm_run run;
	static const struct {
		unsigned line;
		const char *cls, *err;
	} want[] = {
	    {13, "constant", "0"},
	    {14, "constant", "-EIO"},
	    {15, "constant", "-ENOMEM"},
	    {16, "boolean", "x ? -EIO : 0"},
	    {17, "boolean", "x > 0 && x < 9 ? 0 : -EIO"},
	    /* ok and err could each become error (item 10): two in one function,
	     * so neither does (they would clash; the semantic patches agree) */
	    {18, "boolean", "ok ? 0 : -EIO"},
	    {19, "errno_capable", "err > 0 ? 0 : (err ? err : -EIO)"},
	    {20, "errno_capable", "rq->errors > 0 ? 0 : (rq->errors ? rq->errors : -EIO)"},
	    {21, "unknown", ""},
	    {22, "boolean", "x ? 0 : -EIO"},
	};

	write_file("flow.c", flow_src);
	analyze(&run, "flow.c");
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		const struct bm_site *s = NULL;
		char name[64];

		for (size_t i = 0; i < run.nsites; i++)
			if (run.sites[i].line == want[k].line)
				s = &run.sites[i];
		snprintf(name, sizeof(name), "uptodate-line-%u-%s", want[k].line, want[k].cls);
		check(s && !strcmp(bm_uptodate_class_name(s->uptodate_class), want[k].cls) &&
			  !strcmp(s->error_expr, want[k].err),
		      name, "class %s error '%s'",
		      s ? bm_uptodate_class_name(s->uptodate_class) : "-", s ? s->error_expr : "-");
	}
	{
		const struct bm_site *s = NULL;

		for (size_t i = 0; i < run.nsites; i++)
			if (run.sites[i].line == 21)
				s = &run.sites[i];
		check(s && s->verdict == BM_MANUAL && !strcmp(s->reason_code, "uptodate_unknown"),
		      "uptodate-side-effects-manual", "not reported");
	}
	static const struct {
		unsigned line;
		const char *bytes, *reason;
	} bw[] = {
	    {23, "nsect << 9", NULL}, {25, "", "bytes_unknown"},	  {27, "", "bytes_unknown"},
	    {29, "bytes", NULL},      {31, "blk_rq_cur_bytes(rq)", NULL},
	};
	for (size_t k = 0; k < sizeof(bw) / sizeof(bw[0]); k++) {
		const struct bm_site *s = NULL;
		char name[64];

		for (size_t i = 0; i < run.nsites; i++)
			if (run.sites[i].line == bw[k].line)
				s = &run.sites[i];
		snprintf(name, sizeof(name), "bytes-line-%u", bw[k].line);
		if (bw[k].reason)
			check(s && s->verdict == BM_MANUAL && !strcmp(s->reason_code, bw[k].reason),
			      name, "verdict %s", s && s->reason_code ? s->reason_code : "auto");
		else
			check(s && s->verdict == BM_AUTO && !strcmp(s->bytes_expr, bw[k].bytes),
			      name, "bytes '%s' %s", s ? s->bytes_expr : "-",
			      s && s->reason_code ? s->reason_code : "");
	}
	bm_run_free(&run);
}

/* ---- report writers ----------------------------------------------------- */
static json_t *report(struct bm_run *run, int (*writer)(const struct bm_run *, FILE *),
		      const char *path)
{
	FILE *f = fopen(path, "w");
	json_error_t err;
	json_t *j;

	if (!f || writer(run, f)) {
		perror(path);
		exit(2);
	}
	fclose(f);
	j = json_load_file(path, 0, &err);
	if (!j)
		fprintf(stderr, "%s: %s at line %d\n", path, err.text, err.line);
	return j;
}

static void test_reports(const char *cases)
{
	struct bm_run run;
	char *path = xasprintf("%s/pairs.c", cases);
	char *paths[2] = {path, xasprintf("%s/manual.c", cases)};
	json_t *j, *v;
	size_t i;
	int ok;

	bm_run_init(&run, "scan");
	run.opt.quiet = true;
	bm_analyze(&run, paths, 2);

	/* JSON (analyzer/REPORT.md) */
	j = report(&run, bm_report_json, "r.json");
	check(j != NULL, "json-parses", "invalid JSON");
	check(j && json_integer_value(json_object_get(j, "schema_version")) == 2,
	      "json-schema-version", "missing");
	v = json_object_get(json_object_get(j, "summary"), "sites");
	check(v && (size_t)json_integer_value(v) == run.nsites &&
		  json_array_size(json_object_get(j, "sites")) == run.nsites,
	      "json-site-count", "summary %lld, run %zu", v ? json_integer_value(v) : -1LL,
	      run.nsites);
	ok = 1;
	json_array_foreach(json_object_get(j, "sites"), i, v)
	{
		static const char *const keys[] = {"id",	 "file",  "line",	 "column",
						   "function",	 "call",  "pattern",	 "lock",
						   "uptodate",	 "bytes", "replacement", "verdict",
						   "confidence", "typed", "edits"};

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			ok &= json_object_get(v, keys[k]) != NULL;
		if (!strcmp(json_string_value(json_object_get(v, "verdict")), "manual"))
			ok &= json_object_get(json_object_get(v, "reason"), "code") != NULL;
	}
	check(ok, "json-site-fields", "a site lacks a documented field");
	json_decref(j);

	/* SARIF 2.1.0, its SRCROOT given as the cases' file: URI (--sarif-base-uri) */
	char *abs_cases = realpath(cases, NULL), *base = xasprintf("file://%s/", abs_cases);

	run.root = abs_cases;
	run.opt.sarif_base_uri = base;
	j = report(&run, bm_report_sarif, "r.sarif");
	check(j && !strcmp(json_string_value(json_object_get(j, "version")), "2.1.0") &&
		  json_object_get(j, "$schema"),
	      "sarif-version", "version/schema");
	json_t *run0 = json_array_get(json_object_get(j, "runs"), 0);
	json_t *driver = json_object_get(json_object_get(run0, "tool"), "driver");
	json_t *rules = json_object_get(driver, "rules");

	/* one rule per reason code used, plus `convert`; each with help, a helpUri only
	 * where it is https (never a local file) */
	{
		size_t want = 1, nr = 0, helped = 0;
		json_t *rv;

		for (i = 0; i < run.nsites; i++) {
			size_t k;

			if (run.sites[i].verdict != BM_MANUAL)
				continue;
			for (k = 0; k < i; k++)
				if (run.sites[k].verdict == BM_MANUAL &&
				    !strcmp(run.sites[k].reason_code, run.sites[i].reason_code))
					break;
			want += k == i;
		}
		json_array_foreach(rules, nr, rv) helped +=
		    json_string_value(json_object_get(json_object_get(rv, "help"), "text")) &&
		    json_string_value(json_object_get(json_object_get(rv, "help"), "markdown")) &&
		    (!json_object_get(rv, "helpUri") ||
		     !strncmp(json_string_value(json_object_get(rv, "helpUri")), "https://", 8));
		check(driver && json_string_value(json_object_get(driver, "name")) &&
			  json_array_size(rules) == want && helped == want,
		      "sarif-driver-rules", "%zu rules, %zu with help, %zu wanted",
		      json_array_size(rules), helped, want);
	}
	const char *srcroot = json_string_value(json_object_get(
	    json_object_get(json_object_get(run0, "originalUriBaseIds"), "SRCROOT"), "uri"));
	ok = 1;
	size_t fixes = 0, autos = 0, applied_ok = 1;

	for (i = 0; i < run.nsites; i++)
		autos += run.sites[i].verdict == BM_AUTO && run.sites[i].nedits;
	json_array_foreach(json_object_get(run0, "results"), i, v)
	{
		const char *rid = json_string_value(json_object_get(v, "ruleId"));
		json_int_t ri = json_integer_value(json_object_get(v, "ruleIndex"));
		json_t *loc = json_object_get(json_array_get(json_object_get(v, "locations"), 0),
					      "physicalLocation");
		json_t *reg = json_object_get(loc, "region");
		json_t *fx = json_object_get(v, "fixes");

		ok &= rid && ri >= 0 && (size_t)ri < json_array_size(rules) &&
		      !strcmp(rid, json_string_value(
				       json_object_get(json_array_get(rules, (size_t)ri), "id")));
		ok &= json_string_value(json_object_get(json_object_get(v, "message"), "text")) !=
		      NULL;
		ok &= json_string_value(
			  json_object_get(json_object_get(loc, "artifactLocation"), "uri")) != NULL;
		ok &= json_integer_value(json_object_get(reg, "startLine")) >= 1 &&
		      json_integer_value(json_object_get(reg, "startColumn")) >= 1;
		if (fx) {
			json_t *ch = json_array_get(
			    json_object_get(json_array_get(fx, 0), "artifactChanges"), 0);
			json_t *reps = json_object_get(ch, "replacements");
			size_t r;
			json_t *rep;

			fixes++;
			ok &= json_object_get(json_object_get(ch, "artifactLocation"), "uri") !=
				  NULL &&
			      json_array_size(reps) > 0;
			/* applying the fix's replacements by charOffset gives the edits' result */
			const char *uri = json_string_value(
			    json_object_get(json_object_get(ch, "artifactLocation"), "uri"));
			size_t len;
			char *src, *path;

			/* relative to SRCROOT (file:///dir/) */
			path = uri && srcroot ? xasprintf("%s%s", srcroot + 7, uri) : NULL;
			src = path ? read_file(path, &len) : NULL;
			free(path);
			struct bm_edit *e = xcalloc(json_array_size(reps), sizeof(*e));

			json_array_foreach(reps, r, rep)
			{
				json_t *d = json_object_get(rep, "deletedRegion");

				e[r].start =
				    (size_t)json_integer_value(json_object_get(d, "charOffset"));
				e[r].end = e[r].start + (size_t)json_integer_value(
							    json_object_get(d, "charLength"));
				e[r].text = (char *)json_string_value(json_object_get(
				    json_object_get(rep, "insertedContent"), "text"));
				ok &= e[r].text != NULL &&
				      json_integer_value(json_object_get(d, "startLine")) >= 1;
			}
			char *out =
			    src ? bm_apply_edits(src, len, e, json_array_size(reps), NULL) : NULL;

			applied_ok &= out != NULL;
			free(out);
			free(src);
			free(e);
		}
	}
	check(ok, "sarif-result-fields", "a result lacks a required field");
	check(fixes == autos && fixes > 0, "sarif-fixes-for-auto-sites",
	      "%zu fixes, %zu auto sites", fixes, autos);
	check(applied_ok, "sarif-fixes-apply", "a fix's replacements do not apply");
	json_decref(j);

	/* text */
	{
		FILE *f = fopen("r.txt", "w");
		size_t len;
		char *txt;

		bm_report_text(&run, f);
		fclose(f);
		txt = read_file("r.txt", &len);
		check(txt && strstr(txt, "summary: 2 file(s) scanned") &&
			  strstr(txt, "manual_by_reason") == NULL &&
			  strstr(txt, "bytes_unknown 2") &&
			  strstr(txt,
				 "pairs.c:20:8: remark: end_that_request_first in pairs_request() -> "
				 "__blk_end_request(rq, 0, blk_rq_bytes(rq))"),
		      "text-summary-and-files", "%.300s", txt ? txt : "");
		free(txt);
	}
	bm_run_free(&run);
	free(abs_cases);
	free(base);
	free(paths[0]);
	free(paths[1]);
}

/* ---- cross-check with the Coccinelle conversion ------------------------------ */
struct newcall {
	char func[128];
	char variant[32];
	char *args[4];
	int nargs;
};

static char *squeeze(const char *s, size_t n)
{
	char *o = xmalloc(n + 1);
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			o[k++] = s[i];
	o[k] = '\0';
	/* "(err)" and "err" are the same value */
	while (k > 1 && o[0] == '(' && o[k - 1] == ')') {
		int depth = 0, outer = 1;

		for (size_t i = 0; i < k - 1; i++) {
			depth += o[i] == '(' ? 1 : o[i] == ')' ? -1 : 0;
			if (depth == 0)
				outer = 0;
		}
		if (!outer)
			break;
		memmove(o, o + 1, k - 2);
		k -= 2;
		o[k] = '\0';
	}
	return o;
}

/* new-API calls in TEXT, each with the function it is in */
static int new_calls(const char *text, size_t len, struct newcall *out, int max)
{
	static const char *const names[] = {"blk_end_request_callback", "__blk_end_request",
					    "blk_end_request"};
	char *clean = bm_blank_comments(text, len);
	int n = 0;

	for (size_t p = 0; p < len && n < max; p++) {
		for (size_t k = 0; k < 3; k++) {
			size_t nl = strlen(names[k]), q, a, b;

			if (strncmp(clean + p, names[k], nl) ||
			    (p && (isalnum((unsigned char)clean[p - 1]) || clean[p - 1] == '_')) ||
			    isalnum((unsigned char)clean[p + nl]) || clean[p + nl] == '_')
				continue;
			q = p + nl;
			while (q < len && isspace((unsigned char)clean[q]))
				q++;
			if (q >= len || clean[q] != '(')
				break;
			/* a definition or prototype at column 0 is not a call */
			size_t ls = p;

			while (ls > 0 && clean[ls - 1] != '\n')
				ls--;
			struct newcall *c = &out[n];

			memset(c, 0, sizeof(*c));
			snprintf(c->variant, sizeof(c->variant), "%s", names[k]);
			for (int i = 0; i < 4 && text_call_arg(clean, len, q, i, &a, &b); i++)
				c->args[c->nargs++] = squeeze(text + a, b - a);
			/* enclosing function: last column-0 line with '(' before p, not ';' */
			for (size_t l = ls; l > 0;) {
				size_t e = l - 1, st = e;

				while (st > 0 && clean[st - 1] != '\n')
					st--;
				if ((isalpha((unsigned char)clean[st]) || clean[st] == '_') &&
				    memchr(clean + st, '(', e - st) && clean[e - 1] != ';') {
					const char *paren = memchr(clean + st, '(', e - st);
					const char *id = paren;

					while (id > clean + st &&
					       (isalnum((unsigned char)id[-1]) || id[-1] == '_'))
						id--;
					snprintf(c->func, sizeof(c->func), "%.*s",
						 (int)(paren - id), id);
					break;
				}
				l = st;
			}
			n++;
			p = q;
			break;
		}
	}
	free(clean);
	return n;
}

static void newcalls_free(struct newcall *c, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < c[i].nargs; k++)
			free(c[i].args[k]);
}

/*
 * Every site both tools convert must get the same lock variant and byte
 * count, and the same error value where uptodate is a constant (wrapper
 * parameters and local variables are spelled differently by design).
 */
static void test_crosscheck(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned compared = 0;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char *res, *src;
		struct bm_run run;
		size_t len;
		struct newcall theirs[64], ours[64];
		int nt, no = 0;

		if (l < 5 || strcmp(e->d_name + l - 4, ".res"))
			continue;
		res = xasprintf("%s/%s", dir, e->d_name);
		src = xasprintf("%s/%.*s.c", dir, (int)(l - 4), e->d_name);
		char *text = read_file(res, &len);

		if (!text) {
			free(res);
			free(src);
			continue;
		}
		nt = new_calls(text, len, theirs, 64);
		free(text);
		analyze(&run, src);
		for (size_t i = 0; i < run.nsites && no < 64; i++) {
			const struct bm_site *s = &run.sites[i];

			if (s->verdict != BM_AUTO || !s->replacement[0] || s->replacement[0] == '(')
				continue;
			if (new_calls(s->replacement, strlen(s->replacement), &ours[no], 1) != 1)
				continue;
			snprintf(ours[no].func, sizeof(ours[no].func), "%s", s->function);
			/* remember the uptodate class in the 4th slot (a callback's is not compared) */
			free(ours[no].args[3]);
			ours[no].args[3] = xstrdup(s->uptodate_class == BM_UT_CONSTANT ? "c" : "");
			if (ours[no].nargs < 4)
				ours[no].nargs = 4;
			no++;
		}
		for (int i = 0; i < no; i++) {
			int rank = 0, match = -1;
			char name[256];

			for (int k = 0; k < i; k++)
				rank += !strcmp(ours[k].func, ours[i].func);
			for (int k = 0; k < nt && match < 0; k++)
				if (!strcmp(theirs[k].func, ours[i].func) && rank-- == 0)
					match = k;
			if (match < 0)
				continue; /* spatch left it; nothing to compare */
			struct newcall *t = &theirs[match], *o = &ours[i];
			bool same = !strcmp(t->variant, o->variant) && t->nargs >= 3 &&
				    !strcmp(t->args[2], o->args[2]) &&
				    (strcmp(o->args[3], "c") || !strcmp(t->args[1], o->args[1]));

			snprintf(name, sizeof(name), "crosscheck-%.*s-%.60s-%d",
				 (int)(l - 4 > 100 ? 100 : l - 4), e->d_name, o->func, i);
			check(same, name, "spatch %s(%s, %s, %s) vs blkmig %s(%s, %s, %s)",
			      t->variant, t->nargs > 0 ? t->args[0] : "",
			      t->nargs > 1 ? t->args[1] : "", t->nargs > 2 ? t->args[2] : "",
			      o->variant, o->args[0], o->args[1], o->args[2]);
			compared++;
		}
		newcalls_free(theirs, nt);
		newcalls_free(ours, no);
		bm_run_free(&run);
		free(res);
		free(src);
	}
	closedir(d);
	check(compared > 0, "crosscheck-compared-some-sites", "no site converted by both tools");
}

/* One run of a sequence sharing reuse over reuse/r.c: the file's parse errors. */
static unsigned reuse_run(struct bm_reuse *reuse, bool verify)
{
	struct bm_run run;
	char *paths[1] = {"reuse/r.c"};
	unsigned errors = 0;
	int rc;

	bm_run_init(&run, verify ? "verify" : "scan");
	run.opt.quiet = true;
	rc = verify ? bm_verify_reusing(&run, paths, 1, reuse)
		    : bm_analyze_reusing(&run, paths, 1, reuse);
	for (size_t i = 0; rc == 0 && i < run.nfiles; i++)
		errors += run.files[i].errors;
	bm_run_free(&run);
	return rc < 0 ? 1000 : errors;
}

/*
 * A kept parse is taken only while it is still true (convert/reuse.c): a header the
 * file includes, rewritten between two runs, or the file's own text changed, makes
 * the next run parse again.  Each rewrite here breaks the parse, so a parse taken
 * from the earlier run shows as a count of errors that stayed 0.
 */
static void test_reuse(void)
{
	static const char clean_h[] = "#define R_OK 1\n";
	static const char broken_h[] = "#define R_OK 1\nint r_broken = ;\n";
	static const char src[] = "#include <linux/blkdev.h>\n#include \"r.h\"\n\n"
				  "static void r_done(struct request *rq)\n{\n"
				  "\tend_request(rq, R_OK);\n}\n";
	struct bm_reuse *reuse = bm_reuse_new();
	char *broken_src = xasprintf("%sint r_also_broken = ;\n", src);

	if (mkdir("reuse", 0755) && errno != EEXIST) {
		perror("reuse");
		exit(2);
	}
	write_file("reuse/r.h", clean_h);
	write_file("reuse/r.c", src);
	check(reuse_run(reuse, false) == 0, "reuse-first-run-parses", "errors in a clean file");
	check(reuse_run(reuse, true) == 0, "reuse-unchanged-taken", "errors in a clean file");
	/* a new file, not the same file written again in place: as every editor and
	 * migrate's atomic writes do (the inode changes) */
	unlink("reuse/r.h");
	write_file("reuse/r.h", broken_h);
	check(reuse_run(reuse, true) == 1, "reuse-header-changed-parsed-again",
	      "the parse of the old header was taken");
	unlink("reuse/r.h");
	write_file("reuse/r.h", clean_h);
	check(reuse_run(reuse, true) == 0, "reuse-header-restored-parsed-again",
	      "the parse of the broken header was taken");
	write_file("reuse/r.c", broken_src);
	check(reuse_run(reuse, true) == 1, "reuse-text-changed-parsed-again",
	      "the parse of the old text was taken");
	bm_reuse_free(reuse);
	free(broken_src);
}

/* version_guard.c: the version sets of #if expressions and of a file's branches */
static bool vset_is(const struct bm_vset *s, unsigned n, const bm_ver *iv)
{
	if (s->n != n)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (s->lo[i] != iv[2 * i] || s->hi[i] != iv[2 * i + 1])
			return false;
	return true;
}

static void test_version_guard(void)
{
	static const struct {
		const char *name, *expr;
		bool lvc;
		unsigned nmust, nmay;
		bm_ver must[4], may[4];
	} ev[] = {
	    {"lt", "LINUX_VERSION_CODE < KERNEL_VERSION(2,6,25)", true, 1, 1,
	     {0, 0x020619}, {0, 0x020619}},
	    {"le-swapped", "KERNEL_VERSION(2, 6, 25) <= LINUX_VERSION_CODE", true, 1, 1,
	     {0x020619, BM_VER_END}, {0x020619, BM_VER_END}},
	    {"gt", "(LINUX_VERSION_CODE > KERNEL_VERSION(2,6,15))", true, 1, 1,
	     {0x020610, BM_VER_END}, {0x020610, BM_VER_END}},
	    {"gt-swapped", "KERNEL_VERSION(2,6,25) > LINUX_VERSION_CODE", true, 1, 1,
	     {0, 0x020619}, {0, 0x020619}},
	    {"lt-swapped", "0x020619 < LINUX_VERSION_CODE", true, 1, 1, {0x02061a, BM_VER_END},
	     {0x02061a, BM_VER_END}},
	    {"le-literal", "LINUX_VERSION_CODE <= 0x020618", true, 1, 1, {0, 0x020619},
	     {0, 0x020619}},
	    {"decimal-literal", "LINUX_VERSION_CODE >= 132633", true, 1, 1,
	     {0x020619, BM_VER_END}, {0x020619, BM_VER_END}},
	    {"eq", "LINUX_VERSION_CODE == KERNEL_VERSION(2,6,24)", true, 1, 1,
	     {0x020618, 0x020619}, {0x020618, 0x020619}},
	    {"ne", "LINUX_VERSION_CODE != KERNEL_VERSION(2,6,24)", true, 2, 2,
	     {0, 0x020618, 0x020619, BM_VER_END}, {0, 0x020618, 0x020619, BM_VER_END}},
	    {"not", "!(LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25))", true, 1, 1,
	     {0, 0x020619}, {0, 0x020619}},
	    {"and-range",
	     "LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,16) && LINUX_VERSION_CODE < "
	     "KERNEL_VERSION(2,6,25)",
	     true, 1, 1, {0x020610, 0x020619}, {0x020610, 0x020619}},
	    {"and-unknown", "defined(CONFIG_FOO) && LINUX_VERSION_CODE < KERNEL_VERSION(2,6,25)",
	     true, 0, 1, {0}, {0, 0x020619}},
	    {"or-unknown", "defined CONFIG_FOO || LINUX_VERSION_CODE < KERNEL_VERSION(2,6,25)",
	     true, 1, 1, {0, 0x020619}, {0, BM_VER_END}},
	    {"not-and-unknown",
	     "!(defined(CONFIG_FOO) && LINUX_VERSION_CODE < KERNEL_VERSION(2,6,25))", true, 1, 1,
	     {0x020619, BM_VER_END}, {0, BM_VER_END}},
	    {"or-ranges",
	     "LINUX_VERSION_CODE < KERNEL_VERSION(2,6,0) || LINUX_VERSION_CODE >= "
	     "KERNEL_VERSION(2,6,25)",
	     true, 2, 2, {0, 0x020600, 0x020619, BM_VER_END}, {0, 0x020600, 0x020619, BM_VER_END}},
	    {"driver-macro", "DRV_KERNEL_26", false, 0, 1, {0}, {0, BM_VER_END}},
	    {"zero", "0", false, 0, 0, {0}, {0}},
	    {"garbage", "LINUX_VERSION_CODE < KERNEL_VERSION(2,6,25) )", false, 0, 1, {0},
	     {0, BM_VER_END}},
	};
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		struct bm_vset must, may;
		bool lvc = bm_vg_eval(ev[i].expr, strlen(ev[i].expr), &must, &may);
		char name[80], *mt = bm_vset_text(&must), *yt = bm_vset_text(&may);

		snprintf(name, sizeof(name), "vg-eval-%s", ev[i].name);
		check(lvc == ev[i].lvc && vset_is(&must, ev[i].nmust, ev[i].must) &&
			  vset_is(&may, ev[i].nmay, ev[i].may),
		      name, "%s: lvc %d, must %s, may %s", ev[i].expr, lvc, mt, yt);
		free(mt);
		free(yt);
	}

	/* a file: ladder, nesting, a continuation, a comment in the condition, #ifdef */
	const char *src = "int a;\n"					  /* 1 */
			  "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)\n"	  /* 2 */
			  "int new25;\n"					  /* 3 */
			  "#elif LINUX_VERSION_CODE >= \\\n KERNEL_VERSION(2,6,16)\n" /* 4-5 */
			  "int mid;\n"						  /* 6 */
			  "#else /* 2.4 */\n"					  /* 7 */
			  "int old24;\n"					  /* 8 */
			  "# if LINUX_VERSION_CODE /* x */ < KERNEL_VERSION(2,4,10)\n" /* 9 */
			  "int older;\n"					  /* 10 */
			  "# endif\n"						  /* 11 */
			  "#endif\n"						  /* 12 */
			  "#ifdef CONFIG_FOO\n"					  /* 13 */
			  "int foo;\n"						  /* 14 */
			  "#else\n"						  /* 15 */
			  "int nofoo;\n"					  /* 16 */
			  "#endif\n";						  /* 17 */
	struct bm_vguard *g = bm_vguard_build(src, strlen(src));
	struct bm_vg_compat c;
	struct bm_vset v;
	const unsigned *lines;
	size_t nl = bm_vg_lvc_lines(g, &lines);
	const bm_ver all[] = {0, BM_VER_END}, mid[] = {0x020610, 0x020619}, old[] = {0, 0x020610},
		     new25[] = {0x020619, BM_VER_END}, older[] = {0, 0x02040a};
#define AT(s) ((size_t)(strstr(src, s) - src))
	bm_vg_versions_at(g, AT("int a;"), &v);
	check(vset_is(&v, 1, all) && !bm_vg_compat_at(g, AT("int a;"), &c) &&
		  bm_vg_multi_version_at(g, AT("int a;")),
	      "vg-file-outside", "n %u", v.n);
	bm_vg_versions_at(g, AT("int new25"), &v);
	check(vset_is(&v, 1, new25) && !bm_vg_compat_at(g, AT("int new25"), &c) &&
		  !bm_vg_multi_version_at(g, AT("int new25")),
	      "vg-file-new-branch", "n %u", v.n);
	bm_vg_versions_at(g, AT("int mid"), &v);
	check(vset_is(&v, 1, mid) && bm_vg_compat_at(g, AT("int mid"), &c) && c.line == 4 &&
		  c.if_line == 2 && !strcmp(c.kind, "#elif") && c.new_line == 2,
	      "vg-file-elif-continued", "line %u if %u new %u", c.line, c.if_line, c.new_line);
	bm_vg_versions_at(g, AT("int old24"), &v);
	check(vset_is(&v, 1, old) && bm_vg_compat_at(g, AT("int old24"), &c) && c.line == 7 &&
		  !strcmp(c.kind, "#else"),
	      "vg-file-else", "line %u", c.line);
	bm_vg_versions_at(g, AT("int older"), &v);
	check(vset_is(&v, 1, older) && bm_vg_compat_at(g, AT("int older"), &c) && c.line == 7,
	      "vg-file-nested", "line %u (the outer #else makes it so)", c.line);
	bm_vg_versions_at(g, AT("int nofoo"), &v);
	check(vset_is(&v, 1, all) && !bm_vg_compat_at(g, AT("int nofoo"), &c),
	      "vg-file-ifdef-unknown", "n %u", v.n);
	check(nl == 3 && lines[0] == 2 && lines[1] == 4 && lines[2] == 9, "vg-file-lvc-lines",
	      "%zu lines", nl);
	bm_vguard_free(g);

	/* no version test: nothing is multi-version; #if 0 is no compat branch */
	const char *plain = "#if 0\nint x;\n#endif\nint y;\n";

	g = bm_vguard_build(plain, strlen(plain));
	check(!bm_vg_multi_version_at(g, 20) && !bm_vg_compat_at(g, 8, &c), "vg-file-plain", "");
	bm_vguard_free(g);

	/* the function a byte lies in, from the text: braces in one branch each */
	const char *fsrc = "struct s { int a; } s1 = { 1 };\n"
			   "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,19)\n"
			   "static void f1(struct request_queue *q)\n{\n"
			   "#else\n"
			   "static void f1(request_queue_t *q)\n{\n"
			   "#endif\n"
			   "\tif (q) { g(); }\n\tHERE1;\n}\n"
			   "int f2(int x) { return x; }\n"
			   "int y = 2; HERE2\n";
	size_t at = 0;
	char *fn;

	g = bm_vguard_build(fsrc, strlen(fsrc));
	fn = bm_vg_function_at(g, (size_t)(strstr(fsrc, "HERE1") - fsrc), &at);
	check(fn && !strcmp(fn, "f1") && at == (size_t)(strstr(fsrc, "f1") - fsrc),
	      "vg-function-at-branches", "got %s", fn ? fn : "(none)");
	free(fn);
	fn = bm_vg_function_at(g, (size_t)(strstr(fsrc, "HERE2") - fsrc), &at);
	check(!fn, "vg-function-at-file-scope", "got %s", fn ? fn : "(none)");
	free(fn);
	fn = bm_vg_function_at(g, (size_t)(strstr(fsrc, "return x") - fsrc), &at);
	check(fn && !strcmp(fn, "f2"), "vg-function-at-one-line", "got %s", fn ? fn : "(none)");
	free(fn);
	bm_vguard_free(g);

	struct bm_vset t;
	char *txt;

	/* the rule on a whole analysis: a macro of a legacy name is the file's own spelling
	 * of the API (compat_branch); outside it, a file without version tests converts */
	struct bm_run run;
	const struct bm_site *ms, *cs;

	write_file("vg_macro.c", "#include <linux/blkdev.h>\n"
				 "static DEFINE_SPINLOCK(vm_lock);\n"
				 "#define end_queued_request(rq, u) \\\n"
				 "\tend_request((rq), (u))\n"
				 "static void vm_request(struct request_queue *q)\n{\n"
				 "\tstruct request *rq;\n\n"
				 "\twhile ((rq = elv_next_request(q)) != NULL)\n"
				 "\t\tend_request(rq, 1);\n}\n"
				 "static int vm_init(void)\n{\n"
				 "\treturn blk_init_queue(vm_request, &vm_lock) ? 0 : -1;\n}\n");
	analyze(&run, "vg_macro.c");
	ms = site_in(&run, "", "end_request");
	cs = site_in(&run, "vm_request", "end_request");
	check(ms && ms->reason_code && !strcmp(ms->reason_code, "compat_branch") &&
		  strstr(ms->reason_text, "own #define of end_queued_request (line 3)") && cs &&
		  cs->verdict == BM_AUTO,
	      "vg-rule-legacy-macro", "macro site %s (%s), call %s",
	      ms && ms->reason_code ? ms->reason_code : "none",
	      ms && ms->reason_text ? ms->reason_text : "",
	      cs && cs->verdict == BM_AUTO ? "auto" : "not auto");
	bm_run_free(&run);

	bm_vset_range(&t, 0x020610, 0x020619);
	txt = bm_vset_text(&t);
	check(!strcmp(txt, "2.6.16 up to before 2.6.25"), "vg-set-text", "%s", txt);
	free(txt);
#undef AT
}

int main(int argc, char **argv)
{
	const char *cases = argc > 1 ? argv[1] : "cases";

	/*
	 * Line-buffered: a sanitizer that finds a leak at exit ends the process with
	 * _exit(), and a fully buffered stdout would lose the lines not yet written
	 * (the closing "N passed" line first of all).
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);

	test_edits();
	test_lock();
	test_flow();
	test_reports(cases);
	test_reuse();
	test_version_guard();
	test_combine_bytes();
	test_output_guard();
	if (argc > 2)
		test_crosscheck(argv[2]);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
