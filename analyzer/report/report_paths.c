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
	struct stat st;
	const char *slash = strrchr(path, '/');

	/* a symbolic link to a file keeps its own name (a skipped link must not be named
	 * as its target, as patches name it: rewrite_output.c); its directory is resolved */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode) &&
	    !(stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
		char *r = NULL;

		if (realpath(*dir ? dir : "/", buf))
			r = xasprintf("%s/%s", strcmp(buf, "/") ? buf : "",
				      slash ? slash + 1 : path);
		free(dir);
		if (r)
			return r;
	}
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
	const char *u = getenv("BLKMIG_DOC_URL");

	return u && !strncmp(u, "https://", 8) && !strchr(u, '#') ? xstrdup(u) : NULL;
}

char *report_rel_plain(const char *root, const char *path)
{
	char *abs = absolute(path), *r = NULL;
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		r = xstrdup(abs + 1);
	else if (!strncmp(abs, root, n) && abs[n] == '/')
		r = xstrdup(abs + n + 1);
	free(abs);
	return r;
}

char *report_name(const char *root, const char *path)
{
	char *r = report_rel_plain(root, path);

	return r ? r : absolute(path);
}

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("_./+~-", c);
}

struct report_ref *report_text_refs(const char *text, size_t *n)
{
	struct report_ref *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (const char *p = text ? strchr(text, ':') : NULL; p; p = strchr(p + 1, ':')) {
		const char *a = p, *e = p + 1;
		struct stat st;
		char *file;

		while (a > text && path_char(a[-1]))
			a--;
		while (*e >= '0' && *e <= '9')
			e++;
		/* FILE:LINE, FILE with an extension, not a part of a longer word or a URL */
		if (a == p || e == p + 1 || !memchr(a, '.', (size_t)(p - a)) || *a == '.' ||
		    (*e >= 'a' && *e <= 'z') || *e == '/')
			continue;
		file = xstrndup(a, (size_t)(p - a));
		if (stat(file, &st) || !S_ISREG(st.st_mode)) {
			free(file);
			continue;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				abort();
		}
		v[(*n)++] = (struct report_ref){(size_t)(a - text), (size_t)(e - text), file,
						(unsigned)strtoul(p + 1, NULL, 10)};
	}
	return v;
}

void report_refs_free(struct report_ref *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(r[i].file);
	free(r);
}

char *report_rel_text(const char *root, const char *text)
{
	size_t n, at = 0;
	struct report_ref *r;
	struct sbuf b = {0};

	if (!text)
		return NULL;
	r = report_text_refs(text, &n);
	for (size_t i = 0; i < n; i++) {
		char *name = report_rel_plain(root, r[i].file), *chunk;

		/* a file outside the root keeps the name the analysis gave it */
		chunk = xstrndup(text + at, r[i].start - at);
		sbuf_printf(&b, "%s%s:%u", chunk, name ? name : r[i].file, r[i].line);
		free(chunk);
		free(name);
		at = r[i].end;
	}
	sbuf_add(&b, text + at);
	report_refs_free(r, n);
	return sbuf_take(&b);
}

char *report_root_label(const struct bm_run *run, const char *abs_root)
{
	char *cwd = report_root(NULL), *r;

	if (run->root && *run->root)
		r = xstrdup(run->root);
	else if (!strcmp(cwd, abs_root))
		r = xstrdup(".");
	else
		r = xstrdup(abs_root);
	free(cwd);
	return r;
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
