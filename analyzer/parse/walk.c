/*
 * walk.c - from command-line paths to the list of files to analyse:
 * directories are walked recursively in sorted order (C files; headers with
 * --headers; hidden directories and symlinked directories are skipped),
 * unreadable paths are reported and counted as I/O errors.  A symbolic link to a
 * file is never analysed as a second copy of its target: it is listed as a skipped
 * file whose reason names the target (issue 25, item 7).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"

/*
 * The paths of run->files by hash (index + 1; 0 is a free slot): a tree of 80,000 files
 * with a walk over the list per file was quadratic (issue 25, item 9).
 */
static struct {
	size_t *slot;
	size_t nslots;
	size_t nused;
} seen;

static size_t path_hash(const char *s)
{
	size_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void seen_put(size_t idx, const char *path)
{
	size_t h = path_hash(path) % seen.nslots;

	while (seen.slot[h])
		h = (h + 1) % seen.nslots;
	seen.slot[h] = idx + 1;
	seen.nused++;
}

/* Make the set hold run->files, as it is now and with room for one more. */
static void seen_sync(const struct bm_run *run)
{
	if (seen.nslots && seen.nused == run->nfiles && 2 * (run->nfiles + 1) < seen.nslots)
		return;
	free(seen.slot);
	seen.nslots = 4 * (run->nfiles + 1) + 16;
	seen.slot = xcalloc(seen.nslots, sizeof(*seen.slot));
	seen.nused = 0;
	for (size_t i = 0; i < run->nfiles; i++)
		seen_put(i, run->files[i].path);
}

static void add_file(struct bm_run *run, const char *path)
{
	seen_sync(run);
	for (size_t h = path_hash(path) % seen.nslots; seen.slot[h]; h = (h + 1) % seen.nslots)
		if (!strcmp(run->files[seen.slot[h] - 1].path, path))
			return;
	struct bm_file *f = vec_push(run->files, run->nfiles, run->files_cap);

	f->path = xstrdup(path);
	f->status = BM_PARSE_SKIPPED;
	seen_put(run->nfiles - 1, f->path);
}

static bool wanted(const struct bm_run *run, const char *name)
{
	size_t n = strlen(name);

	if (n > 2 && !strcmp(name + n - 2, ".c"))
		return true;
	return run->opt.headers && n > 2 && !strcmp(name + n - 2, ".h");
}

static char walk_root[PATH_MAX]; /* the directory PATH being walked, resolved */

/* A symbolic link in the walked tree: a skipped entry of its own, never read or written
 * (run_analysis() passes over it), its reason naming the target. */
static void add_link(struct bm_run *run, const char *path, char *reason)
{
	seen_sync(run);
	struct bm_file *f = vec_push(run->files, run->nfiles, run->files_cap);

	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->status = BM_PARSE_SKIPPED;
	f->link = true;
	f->reason = reason;
	seen_put(run->nfiles - 1, f->path);
	bm_say_file_notice(f);
}

/*
 * A walked file is read only when it is a regular file (a FIFO or device named x.c
 * would block or never end) and is not a symbolic link.  A link to a file inside the
 * walked directory is skipped and reported: the file is analysed (and converted)
 * under its own name, once, and a link is never written through (it was analysed
 * twice, and migrate --patch wrote a patch git apply rejects).  A link out of the
 * directory is skipped and reported too, unless --follow: then it is analysed as the
 * file it leads to.  Anything else is skipped with a message.
 */
static bool regular_inside(struct bm_run *run, const char *p, bool link)
{
	char real[PATH_MAX];
	size_t rl = strlen(walk_root);
	struct stat st;

	if (stat(p, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "blkmig: %s: not a regular file; skipped\n", p);
		return false;
	}
	if (!link)
		return true;
	if (!realpath(p, real)) {
		add_link(run, p,
			 xasprintf("a symbolic link that cannot be resolved (%s); skipped",
				   strerror(errno)));
		return false;
	}
	if (!strncmp(real, walk_root, rl) && (real[rl] == '/' || !strcmp(walk_root, "/"))) {
		add_link(run, p,
			 xasprintf("a symbolic link to %s, inside %s; skipped (not followed: a "
				   "file is analysed under its own name only)",
				   real, walk_root));
		return false;
	}
	if (run->opt.follow)
		return true;
	add_link(run, p,
		 xasprintf("a symbolic link to %s, outside %s; skipped (--follow follows it)", real,
			   walk_root));
	return false;
}

static int walk_dir(struct bm_run *run, const char *dir, unsigned *found)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);

	if (n < 0) {
		fprintf(stderr, "blkmig: cannot read directory %s: %s\n", dir, strerror(errno));
		run->io_errors++;
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *p;
		struct stat st;

		if (name[0] == '.') {
			free(ents[i]);
			continue;
		}
		p = strcmp(dir, "/") ? xasprintf("%s/%s", dir, name) : xasprintf("/%s", name);
		if (lstat(p, &st)) {
			fprintf(stderr, "blkmig: cannot read %s: %s\n", p, strerror(errno));
			run->io_errors++;
		} else if (S_ISDIR(st.st_mode)) {
			walk_dir(run, p, found);
		} else if (wanted(run, name) && regular_inside(run, p, S_ISLNK(st.st_mode))) {
			add_file(run, p);
			(*found)++;
		}
		free(p);
		free(ents[i]);
	}
	free(ents);
	return 0;
}

int walk_paths(struct bm_run *run, char *const *paths, size_t npaths)
{
	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		char *p = xstrdup(paths[i]);
		size_t l = strlen(p);

		while (l > 1 && p[l - 1] == '/')
			p[--l] = '\0';
		if (stat(p, &st)) {
			fprintf(stderr, "blkmig: cannot read %s: %s\n", p, strerror(errno));
			run->io_errors++;
		} else if (S_ISDIR(st.st_mode)) {
			unsigned found = 0;

			if (!realpath(p, walk_root))
				snprintf(walk_root, sizeof(walk_root), "%s", p);
			if (!walk_dir(run, p, &found) && !found && !run->opt.quiet)
				fprintf(stderr, "blkmig: %s: no %s files in this directory\n", p,
					run->opt.headers ? "C or header" : "C");
		} else if (!S_ISREG(st.st_mode)) {
			fprintf(stderr, "blkmig: %s: not a regular file\n", p);
			run->io_errors++;
		} else {
			add_file(run, p);
		}
		free(p);
	}
	free(seen.slot);
	memset(&seen, 0, sizeof(seen));
	return 0;
}
