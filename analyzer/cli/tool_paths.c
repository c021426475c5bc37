/*
 * tool_paths.c - locating spatch and the cocci files (see tool_paths.h).
 */
#include "tool_paths.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static int is_exec(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

char *find_spatch(const char *given, char *err, size_t errlen)
{
	const char *env = getenv("SPATCH"), *path = getenv("PATH");
	const char *want = given ? given : env;

	if (want && *want) {
		if (strchr(want, '/')) {
			if (is_exec(want))
				return xstrdup(want);
			snprintf(err, errlen, "spatch '%s' is not an executable file", want);
			return NULL;
		}
	} else {
		want = "spatch";
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; p && *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = xasprintf("%.*s/%s", (int)n, n ? p : ".", want);

		if (is_exec(cand))
			return cand;
		free(cand);
		p = colon ? colon + 1 : NULL;
	}
	snprintf(err, errlen,
		 "spatch (Coccinelle) not found in PATH: install the Debian package "
		 "'coccinelle' or name it with --spatch PROG");
	return NULL;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_cocci(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		found = n > 6 && !strcmp(e->d_name + n - 6, ".cocci");
	}
	closedir(d);
	return found;
}

char *find_cocci_dir(const char *given, char *err, size_t errlen)
{
	const char *env = getenv("BLKMIG_COCCI_DIR");
	char exe[PATH_MAX], *slash, *cand, *prefix;
	ssize_t n;

	if (given || (env && *env)) {
		const char *d = given ? given : env;

		if (is_dir(d) && has_cocci(d))
			return xstrdup(d);
		snprintf(err, errlen, "cocci directory '%s' holds no *.cocci file", d);
		return NULL;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(err, errlen, "cannot find the blkmig binary's own location: %s",
			 strerror(errno));
		return NULL;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	/* name the prefix without "bin/.." in messages */
	slash = strrchr(exe, '/');
	if (slash)
		prefix = xstrndup(exe, (size_t)(slash - exe));
	else
		prefix = xstrdup(".");
	/* installed: PREFIX/bin/blkmig -> PREFIX/share/blkmig/cocci (or .../blkmig) */
	cand = xasprintf("%s/share/blkmig/cocci", prefix);
	if (has_cocci(cand))
		goto found;
	free(cand);
	cand = xasprintf("%s/share/blkmig", prefix);
	if (has_cocci(cand))
		goto found;
	free(cand);
	/* a checkout: build/blkmig -> cocci/ of the source tree (generated files may
	 * live in build/cocci) */
	cand = xasprintf("%s/cocci", exe);
	if (has_cocci(cand))
		goto found;
	free(cand);
	cand = xasprintf("%s/cocci", prefix);
	if (has_cocci(cand))
		goto found;
	free(cand);
	/* a build in a folder of build/ (make SANITIZE=1: build/asan/blkmig): the
	 * checkout is one or two levels further up */
	{
		char *up = xstrdup(prefix), *cut;

		for (int level = 0; level < 2 && (cut = strrchr(up, '/')) && cut != up; level++) {
			*cut = '\0';
			cand = xasprintf("%s/cocci", up);
			if (has_cocci(cand)) {
				free(up);
				goto found;
			}
			free(cand);
		}
		free(up);
	}
	snprintf(err, errlen,
		 "no semantic patches found: looked in %s/share/blkmig/cocci, %s/cocci and "
		 "%s/cocci; install blkmig (make install) or give --cocci-dir DIR",
		 prefix, exe, prefix);
	free(prefix);
	return NULL;
found:
	free(prefix);
	return cand;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The "// Options:" line of a cocci file, or "" */
static char *options_of(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[1024];
	char *res = NULL;

	if (!f)
		return xstrdup("");
	while (!res && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "// Options:", 11)) {
			char *s = line + 11;

			s[strcspn(s, "\n")] = '\0';
			while (*s == ' ' || *s == '\t')
				s++;
			res = xstrdup(s);
		}
		if (line[0] == '@')
			break; /* the header ends at the first rule */
	}
	fclose(f);
	return res ? res : xstrdup("");
}

/*
 * Whether FILE's header says it writes facts only ("// Output: facts only"): it
 * changes no file, and without a facts file (-D facts=FILE, which migrate never
 * gives, or $BLKMIG_FACTS) it does nothing at all: migrate need not run it.
 */
bool cocci_facts_only(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[1024];
	bool yes = false;

	if (!f)
		return false;
	while (!yes && fgets(line, sizeof(line), f) && line[0] != '@')
		yes = !strncmp(line, "// Output: facts only", 21);
	fclose(f);
	return yes;
}

int cocci_files(const char *dir, struct bm_strlist *files, struct bm_strlist *options, char *err,
		size_t errlen)
{
	char *order = xasprintf("%s/ORDER", dir);
	FILE *of = fopen(order, "r");
	struct bm_strlist names = {0};

	free(order);
	if (of) {
		char line[512];

		while (fgets(line, sizeof(line), of)) {
			char *s = line;

			s[strcspn(s, "#\n")] = '\0';
			while (*s == ' ' || *s == '\t')
				s++;
			for (size_t n = strlen(s); n && (s[n - 1] == ' ' || s[n - 1] == '\t');)
				s[--n] = '\0';
			if (*s)
				strlist_push(&names, s);
		}
		fclose(of);
	} else {
		DIR *d = opendir(dir);
		struct dirent *e;

		if (!d) {
			snprintf(err, errlen, "%s: %s", dir, strerror(errno));
			return -1;
		}
		while ((e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (n > 6 && !strcmp(e->d_name + n - 6, ".cocci"))
				strlist_push(&names, e->d_name);
		}
		closedir(d);
		if (names.n)
			qsort(names.v, names.n, sizeof(char *), name_cmp);
	}
	for (size_t i = 0; i < names.n; i++) {
		char *p = xasprintf("%s/%s", dir, names.v[i]);

		if (access(p, R_OK) < 0) {
			snprintf(err, errlen, "%s: %s", p, strerror(errno));
			free(p);
			strlist_free(&names);
			return -1;
		}
		strlist_push_owned(options, options_of(p));
		strlist_push_owned(files, p);
	}
	strlist_free(&names);
	if (!files->n) {
		snprintf(err, errlen, "%s holds no semantic patch", dir);
		return -1;
	}
	return 0;
}

char *cocci_macro_file(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *best = NULL;

	if (!d)
		return NULL;
	/* the macro file that helps spatch parse legacy code: the (first) *.h there */
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 2 && !strcmp(e->d_name + n - 2, ".h") &&
		    (!best || strcmp(e->d_name, best) < 0)) {
			free(best);
			best = xstrdup(e->d_name);
		}
	}
	closedir(d);
	if (best) {
		char *p = xasprintf("%s/%s", dir, best);

		free(best);
		return p;
	}
	return NULL;
}
