/*
 * walk.c - from command-line paths to the list of files to analyse:
 * directories are walked recursively in sorted order (C files; headers with
 * --headers; hidden directories and symlinked directories are skipped),
 * unreadable paths are reported and counted as I/O errors.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"

static void add_file(struct bm_run *run, const char *path)
{
	for (size_t i = 0; i < run->nfiles; i++)
		if (!strcmp(run->files[i].path, path))
			return;
	struct bm_file *f = vec_push(run->files, run->nfiles, run->files_cap);

	f->path = xstrdup(path);
	f->status = BM_PARSE_SKIPPED;
}

static bool wanted(const struct bm_run *run, const char *name)
{
	size_t n = strlen(name);

	if (n > 2 && !strcmp(name + n - 2, ".c"))
		return true;
	return run->opt.headers && n > 2 && !strcmp(name + n - 2, ".h");
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
		} else if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) && wanted(run, name)) {
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

			if (!walk_dir(run, p, &found) && !found && !run->opt.quiet)
				fprintf(stderr, "blkmig: %s: no %s files in this directory\n", p,
					run->opt.headers ? "C or header" : "C");
		} else {
			add_file(run, p);
		}
		free(p);
	}
	return 0;
}
