/*
 * report_paths.c - file names in reports: relative to --root, file: URIs, the docs' URI
 * (report_paths.h).  Paths are made absolute with realpath() where the file exists, so a
 * root given as "linux" and files given as "linux/drivers/..." or "./linux/..." agree.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_paths.h"
#include "util.h"

static char *absolute(const char *path)
{
	char buf[PATH_MAX], cwd[PATH_MAX];

	if (realpath(path, buf))
		return xstrdup(buf);
	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

char *report_root(const char *root)
{
	char *r = absolute(root && *root ? root : ".");
	size_t n = strlen(r);

	while (n > 1 && r[n - 1] == '/')
		r[--n] = '\0';
	return r;
}

/* RFC 3986: keep unreserved characters and '/', encode the rest */
static char *encode(const char *s)
{
	struct sbuf b = {0};

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
			char c[2] = {(char)*p, 0};

			sbuf_add(&b, c);
		} else {
			sbuf_printf(&b, "%%%02X", *p);
		}
	}
	return sbuf_take(&b);
}

char *report_rel_path(const char *root, const char *path)
{
	char *abs = absolute(path), *r = NULL;
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		r = encode(abs + 1);
	else if (!strncmp(abs, root, n) && abs[n] == '/')
		r = encode(abs + n + 1);
	free(abs);
	return r;
}

json_t *report_file_uri(const char *path)
{
	char *abs = absolute(path), *e = encode(abs);
	size_t n = strlen(path);
	json_t *j;

	/* keep a directory's trailing slash (a uriBaseId must end in '/') */
	j = json_sprintf("file://%s%s", e,
			 n && path[n - 1] == '/' && e[strlen(e) - 1] != '/' ? "/" : "");
	free(abs);
	free(e);
	return j;
}

char *report_help_base(void)
{
	char exe[PATH_MAX], *slash, *cand, *r;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	/* installed; a checkout's build/blkmig; its sanitizer build, build/asan/blkmig */
	static const char *const rel[] = {"/../share/doc/blkmig/REPORT.md",
					  "/../analyzer/REPORT.md", "/../../analyzer/REPORT.md"};
	struct stat st;

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			cand = xasprintf("%s%s", exe, rel[i]);
			if (stat(cand, &st) == 0) {
				char *e;

				r = absolute(cand);
				e = encode(r);
				free(r);
				r = xasprintf("file://%s", e);
				free(e);
				free(cand);
				return r;
			}
			free(cand);
		}
	}
	return xstrdup("file:///usr/local/share/doc/blkmig/REPORT.md");
}

char *report_run_root(const struct bm_run *run)
{
	char *root = report_root(run->root), *common = NULL;
	bool outside = false;

	if (run->root)
		return root;
	for (size_t i = 0; i < run->nfiles && !outside; i++) {
		char *r = report_rel_path(root, run->files[i].path);

		outside = !r;
		free(r);
	}
	if (!outside)
		return root;
	/* files outside the current directory: their longest common directory */
	for (size_t i = 0; i < run->nfiles; i++) {
		char *abs = absolute(run->files[i].path), *slash = strrchr(abs, '/');

		if (slash)
			*slash = '\0';
		if (!common) {
			common = abs;
			continue;
		}
		size_t n = 0;

		while (common[n] && common[n] == abs[n])
			n++;
		if (common[n] || (abs[n] && abs[n] != '/'))
			while (n > 0 && common[n] != '/')
				n--;
		common[n] = '\0';
		free(abs);
	}
	free(root);
	return common && *common ? common : (free(common), xstrdup("/"));
}
