/*
 * rewrite_output.c - unified-diff and in-place output of a rewrite plan.
 */
#include "rewrite_output.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write.h"
#include "udiff.h"
#include "util.h"

/* realpath of the directory part + the base name: a symlinked file keeps its name */
static char *abs_name(const char *path)
{
	char *d = xstrdup(path), *b = xstrdup(path), real[PATH_MAX], *res = NULL;

	if (realpath(dirname(d), real))
		res = xasprintf("%s/%s", strcmp(real, "/") ? real : "", basename(b));
	free(d);
	free(b);
	return res;
}

char *patch_name(const char *path, const char *root, char *err, size_t errlen)
{
	char rootabs[PATH_MAX], *abs;
	size_t n;
	char *res;

	if (!realpath(root ? root : ".", rootabs)) {
		snprintf(err, errlen, "patch root %s: %s", root ? root : ".", strerror(errno));
		return NULL;
	}
	abs = abs_name(path);
	if (!abs) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	n = strlen(rootabs);
	if (!strcmp(rootabs, "/"))
		n = 0;
	if (strncmp(abs, rootabs, n) || abs[n] != '/') {
		snprintf(err, errlen, "%s is not below the patch root %s (use --root DIR)", path,
			 root ? root : "(the current directory)");
		free(abs);
		return NULL;
	}
	res = xstrdup(abs + n + 1);
	free(abs);
	return res;
}

static const char *display_of(const struct rw_source *src, const char *p)
{
	return src && src->display ? src->display(p, src->ctx) : p;
}

int write_patch(const struct rw_plan *plan, const char *root, const struct rw_source *src,
		FILE *out)
{
	int files = 0;

	for (size_t k = 0; k < plan->n; k++) {
		const struct rw_file *f = &plan->files[k];
		const char *old = f->old, *shown = display_of(src, f->path);
		size_t old_len = f->old_len;
		char err[1024], *name;
		int h;

		if (!f->new)
			continue;
		if (src && src->old_of)
			old = src->old_of(f->path, &old_len, src->ctx);
		name = patch_name(shown, root, err, sizeof(err));
		if (!name) {
			fprintf(stderr, "blkmig: %s\n", err);
			return -1;
		}
		h = udiff_write(out, name, old, old_len, f->new, f->new_len, 3);
		free(name);
		if (h < 0) {
			fprintf(stderr, "blkmig: writing the patch failed: %s\n", strerror(errno));
			return -1;
		}
		files += h > 0;
	}
	return files;
}

int write_in_place(struct rw_plan *plan, const struct rw_source *src)
{
	int failed = 0;

	for (size_t k = 0; k < plan->n; k++) {
		struct rw_file *f = &plan->files[k];
		const char *target = display_of(src, f->path), *old = f->old;
		size_t old_len = f->old_len;
		char err[1024];

		if (!f->new)
			continue;
		if (src && src->old_of)
			old = src->old_of(f->path, &old_len, src->ctx);
		if (old_len == f->new_len && !memcmp(old, f->new, old_len))
			continue;
		if (atomic_replace(target, f->new, f->new_len, old, old_len, err, sizeof(err)) <
		    0) {
			fprintf(stderr, "blkmig: %s\n", err);
			free(f->problem);
			f->problem = xstrdup(err);
			f->problem_code = "file_not_writable";
			failed++;
		}
	}
	return failed;
}
