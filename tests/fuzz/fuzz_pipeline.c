/*
 * fuzz_pipeline.c - libFuzzer target over blkmig's parse -> classify -> rewrite path.
 *
 * Each input is one C file: the prefilter, libclang (in this process, see
 * bm_parse_in_process), the facts, the classification and the rewrite run on it as
 * `blkmig scan` would, then every auto site's edits are applied to the input the way
 * `fix` applies them.  A crash, a sanitizer report, an edit outside the file or an
 * inverted one is a finding; overlapping edits are not (fix reports those).
 *
 * Speed: the parse environment (the model headers written to a temporary folder, the
 * stub folder) and the libclang index are made once and kept (bm_parse_keep_env);
 * made per run they cost a fork+exec of rm and ~80 file creations each time, which
 * held the target to a few runs per second.  Everything lives under one private
 * TMPDIR removed at exit.  libFuzzer leaves an interrupted run with _Exit(), past
 * atexit: the folder is named and marked as blkmig's own private folders are
 * (cli/cleanup.c), so the next run removes those whose owner is gone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "cleanup.h"
#include "edit_apply.h"
#include "util.h"

enum { MAX_INPUT = 64 * 1024 };

/*
 * libclang 14 crashes on some inputs; in this process its own recovery catches the
 * crash and leaks what the parse had built (blkmig parses in a child, which takes
 * that with it).  Those leaks are C++ allocations (operator new) and LLVM's: the
 * analyzer is C and allocates with malloc alone, so these two suppressions cannot
 * hide a leak of ours.  (__lsan_disable() cannot: libclang parses on a thread of
 * its own.)  Kept input: crashes/libclang-crash-recovery-leak.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libstdc++.so\nleak:libLLVM-\n";
}

static char *dir;
static char *path;

static void cleanup(void)
{
	cleanup_remove_dir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cleanup_stale_private_dirs();
	dir = cleanup_make_dir(); /* its owner in its name */
	if (!dir) {
		perror("blkmig-fuzz: cannot create a temporary directory");
		exit(2);
	}
	path = xasprintf("%s/input.c", dir);
	atexit(cleanup);
	setenv("TMPDIR", dir, 1); /* the kept parse environment's folder */
	bm_parse_in_process = true;
	bm_parse_keep_env = true;
	return 0;
}

static void apply_edits(const struct bm_run *run, const uint8_t *data, size_t size)
{
	struct bm_edit *e = NULL;
	struct text_edit *te;
	struct edit_result res;
	size_t n = 0;

	if (bm_file_edits(run, path, &e, &n) || !n) {
		free(e);
		return;
	}
	te = xcalloc(n, sizeof(*te));
	for (size_t i = 0; i < n; i++)
		te[i] = (struct text_edit){e[i].start, e[i].end, e[i].text, (int)i};
	memset(&res, 0, sizeof(res));
	if (edits_apply((const char *)data, size, te, n, &res) < 0) {
		fprintf(stderr, "blkmig-fuzz: malformed edit: %s\n", res.error);
		abort();
	}
	edit_result_free(&res);
	free(te);
	free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bm_run run;
	char *paths[1] = {path};
	FILE *f;

	if (size > MAX_INPUT)
		return -1;
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
		perror("blkmig-fuzz: write input");
		abort();
	}
	bm_run_init(&run, "scan");
	run.opt.quiet = true;
	run.opt.jobs = 1;
	if (bm_analyze(&run, paths, 1) == 0)
		apply_edits(&run, data, size);
	bm_run_free(&run);
	return 0;
}
