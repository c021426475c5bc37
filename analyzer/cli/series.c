/*
 * series.c - `blkmig migrate --series DIR`: the conversion as a `git format-patch`
 * series, one patch per driver, each a mail `git am` takes.
 *
 * Owns: what a driver is, the order and names of the patches, their headers, the
 * commit message (told from the facts of the analysis, never from the converted text
 * alone), the diffstat and the diff.
 *
 * A driver is one kbuild module: the .c files of one directory that its Makefile (or
 * Kbuild) links into one composite object (`NAME-objs`, `NAME-y`, `NAME-$(CONFIG_X)`),
 * else one .c file alone; with it go the headers of its directory that one of those
 * files includes by name (#include "x.h"), and every file a single site's edits span
 * (a wrapper and its callers elsewhere), so that each patch compiles on its own.
 * Files with legacy calls that do not change (left for a human) belong to their driver
 * too: its message lists their sites.
 *
 * The subject is `PREFIX: convert to blk_end_request()`: PREFIX is `block` for block/,
 * else the module's name without a -core/_core/_mod/-mod suffix (ide-core -> ide,
 * dasd_mod -> dasd), after `ARCH: ` for arch/ARCH/.  From: is $GIT_AUTHOR_NAME
 * <$GIT_AUTHOR_EMAIL> (else "blkmig <blkmig@localhost>"), Date: $SOURCE_DATE_EPOCH or
 * now; no Signed-off-by (the sender adds theirs: `git am -s`, `git commit -s`).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json_text.h"
#include "rewrite_output.h"
#include "series.h"
#include "udiff.h"
#include "util.h"

#define WIDTH 72 /* commit message lines (checkpatch wants at most 75) */

struct sfile {
	const struct series_file *f;
	char *rel;    /* relative to --root */
	char *module; /* the kbuild module (without .o) */
	size_t group; /* union-find parent */
};

struct group {
	size_t *files; /* indexes into the sfile array, by rel name */
	size_t n;
	bool changed;
};

/* ---- small text helpers ------------------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Append @text to @b wrapped at WIDTH: the first line after @first, the rest after
 * @next (the indents); words longer than a line stay whole. */
static void wrap(struct sbuf *b, const char *text, const char *first, const char *next)
{
	size_t col = strlen(first);
	bool line_empty = true;

	sbuf_add(b, first);
	for (const char *p = text; *p;) {
		size_t n;

		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		for (n = 0; p[n] && p[n] != ' ' && p[n] != '\n' && p[n] != '\t'; n++)
			;
		if (!line_empty && col + 1 + n > WIDTH) {
			sbuf_add(b, "\n");
			sbuf_add(b, next);
			col = strlen(next);
			line_empty = true;
		}
		if (!line_empty) {
			sbuf_add(b, " ");
			col++;
		}
		sbuf_addn(b, p, n);
		col += n;
		line_empty = false;
		p += n;
	}
	sbuf_add(b, "\n");
}

/* "a(), b() and c()" */
static char *name_list(const struct bm_strlist *l, const char *suffix)
{
	struct sbuf b = {0};

	for (size_t i = 0; i < l->n; i++) {
		if (i)
			sbuf_add(&b, i + 1 == l->n ? " and " : ", ");
		sbuf_printf(&b, "%s%s", l->v[i], suffix);
	}
	return sbuf_take(&b);
}

/* @text with every analysis path prefix (@prefixes) removed where a path starts. */
static char *rel_text(const char *text, const struct bm_strlist *prefixes)
{
	struct sbuf b = {0};

	if (!text)
		return xstrdup("");
	for (const char *p = text; *p;) {
		bool done = false;

		for (size_t k = 0; k < prefixes->n && !done; k++) {
			size_t n = strlen(prefixes->v[k]);

			if (n && !strncmp(p, prefixes->v[k], n) &&
			    (p == text || strchr(" (\t'\"`,;:", p[-1]))) {
				p += n;
				done = true;
			}
		}
		if (!done)
			sbuf_addn(&b, p++, 1);
	}
	return sbuf_take(&b);
}

/* The first clause of a lock evidence: up to a "; " outside parentheses. */
static char *first_clause(const char *e)
{
	int depth = 0;
	size_t i;

	for (i = 0; e[i]; i++) {
		if (e[i] == '(')
			depth++;
		else if (e[i] == ')' && depth)
			depth--;
		else if (!depth && e[i] == ';' && e[i + 1] == ' ')
			break;
	}
	return xstrndup(e, i);
}

/* A C identifier and nothing else (a renamed parameter passed on as it is). */
static bool is_identifier(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	return !*s;
}

/* A note migrate or the analysis added to the evidence, not the lock's own evidence. */
static bool is_note(const char *e)
{
	static const char *const notes[] = {"old_lock_bug_fixed:",
					    "preexisting_lock_bug:",
					    "preexisting_unended_request:",
					    "version_guarded:",
					    "spatch ",
					    "converted by spatch"};

	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (!strncmp(e, notes[i], strlen(notes[i])))
			return true;
	return false;
}

static const char *note_of(const struct bm_site *s, const char *prefix)
{
	for (size_t e = 0; e < s->lock_evidence.n; e++)
		if (!strncmp(s->lock_evidence.v[e], prefix, strlen(prefix)))
			return s->lock_evidence.v[e] + strlen(prefix);
	return NULL;
}

/* The 2.6.25 calls the site's new text makes, "blk_end_request, ..." order of appearance. */
static void new_calls(const struct bm_site *s, struct bm_strlist *out)
{
	static const char *const api[] = {"__blk_end_request_callback", "blk_end_request_callback",
					  "__blk_end_request", "blk_end_request"};
	const char *text = s->after && *s->after ? s->after : s->replacement;

	if (!text)
		return;
	for (const char *p = text; *p; p++) {
		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		for (size_t k = 0; k < 4; k++) {
			size_t n = strlen(api[k]);

			if (!strncmp(p, api[k], n) && !isalnum((unsigned char)p[n]) &&
			    p[n] != '_') {
				if (!strlist_has(out, api[k]))
					strlist_push(out, api[k]);
				p += n - 1;
				break;
			}
		}
	}
}

/* A list of items that share one explanation: "explanation" -> names. */
struct topic {
	char *text;
	struct bm_strlist names;
};

static void topic_add(struct topic **t, size_t *n, size_t *cap, char *text, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*t)[i].text, text)) {
			free(text);
			if (!strlist_has(&(*t)[i].names, name))
				strlist_push(&(*t)[i].names, name);
			return;
		}
	vec_reserve(*t, *n, *cap, 1);
	(*t)[*n].text = text;
	memset(&(*t)[*n].names, 0, sizeof((*t)[*n].names));
	strlist_push(&(*t)[*n].names, name);
	(*n)++;
}

static void topics_free(struct topic *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].text);
		strlist_free(&t[i].names);
	}
	free(t);
}

/* ---- what a driver is ------------------------------------------------------------------- */

/* The kbuild module of @rel_dir/@base.c, from the directory's Makefile or Kbuild. */
static char *kbuild_module(const char *dir, const char *base)
{
	static const char *const not_modules[] = {
	    "obj",   "lib",  "subdir", "hostprogs", "always", "extra",	"targets", "head",
	    "clean", "core", "libs",   "drivers",   "EXTRA",  "CFLAGS", "AFLAGS"};
	char *obj = xasprintf("%s.o", base), *found = NULL;

	for (int k = 0; k < 2 && !found; k++) {
		char *path = xasprintf("%s/%s", dir, k ? "Kbuild" : "Makefile");
		FILE *f = fopen(path, "r");
		struct sbuf logical = {0};
		char line[4096];

		free(path);
		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f)) {
			size_t n = strlen(line);
			char *text, *eq, *name_end, *dash;

			while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
				line[--n] = '\0';
			if (n && line[n - 1] == '\\') {
				line[n - 1] = ' ';
				sbuf_add(&logical, line);
				continue;
			}
			sbuf_add(&logical, line);
			text = sbuf_take(&logical);
			memset(&logical, 0, sizeof(logical));
			eq = strchr(text, '=');
			if (eq && eq > text) {
				name_end = eq;
				if (name_end[-1] == ':' || name_end[-1] == '+')
					name_end--;
				while (name_end > text &&
				       (name_end[-1] == ' ' || name_end[-1] == '\t'))
					name_end--;
				*name_end = '\0';
				/* NAME-objs, NAME-y, NAME-$(CONFIG_X) */
				dash = strstr(text, "-objs");
				if (!dash && ends_with(text, "-y"))
					dash = text + strlen(text) - 2;
				if (!dash && ends_with(text, ")"))
					dash = strstr(text, "-$(");
				if (dash && dash > text) {
					char *name = text, *list = eq + 1;
					bool skip = false;

					*dash = '\0';
					while (*name == ' ' || *name == '\t')
						name++;
					for (size_t i = 0;
					     i < sizeof(not_modules) / sizeof(not_modules[0]); i++)
						skip |= !strcmp(name, not_modules[i]);
					for (const char *c = name; *c; c++)
						skip |= !(isalnum((unsigned char)*c) || *c == '_' ||
							  *c == '-');
					for (char *tok = strtok(list, " \t"); tok && !skip;
					     tok = strtok(NULL, " \t"))
						if (!strcmp(tok, obj)) {
							found = xstrdup(name);
							break;
						}
				}
			}
			free(text);
		}
		free(sbuf_take(&logical));
		fclose(f);
	}
	free(obj);
	return found ? found : xstrdup(base);
}

static size_t find_root(struct sfile *s, size_t i)
{
	while (s[i].group != i)
		i = s[i].group = s[s[i].group].group;
	return i;
}

static void unite(struct sfile *s, size_t a, size_t b)
{
	a = find_root(s, a);
	b = find_root(s, b);
	if (a != b)
		s[a > b ? a : b].group = a < b ? a : b;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Does @data include "@name" (#include "name")? */
static bool includes(const char *data, size_t len, const char *name)
{
	char *want = xasprintf("\"%s\"", name);
	bool yes = false;

	for (const char *p = data; p && p < data + len && !yes;) {
		const char *nl = memchr(p, '\n', (size_t)(data + len - p));
		const char *q = p;

		while (q < (nl ? nl : data + len) && (*q == ' ' || *q == '\t'))
			q++;
		if (*q == '#') {
			q++;
			while (*q == ' ' || *q == '\t')
				q++;
			if (!strncmp(q, "include", 7)) {
				const char *w = memmem(q, (size_t)((nl ? nl : data + len) - q),
						       want, strlen(want));

				yes = w != NULL;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	free(want);
	return yes;
}

static size_t file_of(const struct sfile *s, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].f->path, path))
			return i;
	return n;
}

static int by_rel(const void *a, const void *b, void *ctx)
{
	const struct sfile *s = ctx;

	return strcmp(s[*(const size_t *)a].rel, s[*(const size_t *)b].rel);
}

/* qsort_r is a GNU extension; a small insertion sort keeps this file portable C11 */
static void sort_indexes(size_t *v, size_t n, const struct sfile *s)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && by_rel(&v[j - 1], &v[j], (void *)s) > 0; j--) {
			size_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* ---- the mail ---------------------------------------------------------------------------- */

static char *subject_prefix(const struct sfile *s, const struct group *g)
{
	const struct sfile *primary = &s[g->files[0]];
	char *mod, *r;
	static const char *const suffixes[] = {"-core", "_core", "_mod", "-mod"};

	/* the first .c of the driver names it */
	for (size_t i = 0; i < g->n; i++)
		if (ends_with(s[g->files[i]].rel, ".c")) {
			primary = &s[g->files[i]];
			break;
		}
	if (!strncmp(primary->rel, "block/", 6))
		return xstrdup("block");
	mod = xstrdup(primary->module);
	for (size_t k = 0; k < 4; k++)
		if (ends_with(mod, suffixes[k]) && strlen(mod) > strlen(suffixes[k]))
			mod[strlen(mod) - strlen(suffixes[k])] = '\0';
	if (!strncmp(primary->rel, "arch/", 5) && strchr(primary->rel + 5, '/')) {
		const char *a = primary->rel + 5;

		r = xasprintf("%.*s: %s", (int)(strchr(a, '/') - a), a, mod);
		free(mod);
		return r;
	}
	return mod;
}

/* git format-patch's file name: the subject with runs of other characters as one '-'. */
static char *file_name(unsigned nr, const char *subject)
{
	struct sbuf b = {0};
	size_t len = 0;
	bool dash = false;

	sbuf_printf(&b, "%04u-", nr);
	for (const char *p = subject; *p && len < 52; p++) {
		if (isalnum((unsigned char)*p) || *p == '_' || *p == '.') {
			if (dash && len) {
				sbuf_add(&b, "-");
				len++;
			}
			sbuf_addn(&b, p, 1);
			len++;
			dash = false;
		} else {
			dash = true;
		}
	}
	sbuf_add(&b, ".patch");
	return sbuf_take(&b);
}

static bool site_in(const struct sfile *s, const struct group *g, const struct bm_site *site)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(s[g->files[i]].f->path, site->file))
			return true;
	return false;
}

static char *fn_name(const struct bm_site *site)
{
	return site->function && *site->function ? xasprintf("%s()", site->function)
						 : xstrdup("file scope");
}

static const char *rel_of(const struct sfile *s, size_t n, const char *path)
{
	size_t i = file_of(s, n, path);

	return i < n ? s[i].rel : path;
}

/*
 * The values the conversion saves before the new call ends the request (an added
 * "typeof(EXPR) NAME = EXPR;", spatch's hoist): "EXPR\x1fNAME" in @saved, and the added
 * statements that read NAME in @uses.
 */
static void saved_values(const struct series_file *f, struct bm_strlist *saved,
			 struct bm_strlist *uses)
{
	char *d = NULL;
	size_t len = 0;
	FILE *m;
	struct bm_strlist added = {0}, names = {0}, hoists = {0};

	if (!f->changed || !(m = open_memstream(&d, &len)))
		return;
	udiff_write(m, "x", f->old, f->old_len, f->new, f->new_len, 0);
	fclose(m);
	for (char *p = d; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (*p == '+' && strncmp(p, "+++ ", 4)) {
			char *l = xstrndup(p + 1, n - 1), *t = l;

			while (*t == ' ' || *t == '\t')
				t++;
			strlist_push(&added, t);
			free(l);
		}
		p = nl ? nl + 1 : NULL;
	}
	free(d);
	for (size_t i = 0; i < added.n; i++) {
		const char *t = added.v[i], *q;
		int depth = 0;

		/* both tools' form: `saved_NAME = EXPR;`, declared with the declarations */
		if (!strncmp(t, "saved_", 6)) {
			const char *end = t, *eq;

			while (isalnum((unsigned char)*end) || *end == '_')
				end++;
			eq = end;
			if (!strncmp(eq, " = ", 3) && eq[3] && t[strlen(t) - 1] == ';') {
				char *nm = xstrndup(t, (size_t)(end - t));

				strlist_push_owned(
				    saved,
				    xasprintf("%.*s\x1f%s", (int)(strlen(eq + 3) - 1), eq + 3, nm));
				strlist_push_owned(&names, nm);
				strlist_push(&hoists, t);
			}
			continue;
		}
		if (strncmp(t, "typeof(", 7))
			continue;
		for (q = t + 6; *q; q++) {
			depth += *q == '(';
			depth -= *q == ')';
			if (!depth)
				break;
		}
		if (*q == ')') {
			const char *name = q + 1, *end;

			while (*name == ' ')
				name++;
			for (end = name; isalnum((unsigned char)*end) || *end == '_'; end++)
				;
			if (end > name && !strncmp(end, " = ", 3)) {
				char *nm = xstrndup(name, (size_t)(end - name));

				strlist_push_owned(
				    saved, xasprintf("%.*s\x1f%s", (int)(q - t - 7), t + 7, nm));
				strlist_push_owned(&names, nm);
			}
		}
	}
	for (size_t i = 0; i < added.n; i++) {
		const char *last = strrchr(added.v[i], ' ');
		bool decl = false;

		if (!strncmp(added.v[i], "typeof(", 7) || strlist_has(&hoists, added.v[i]))
			continue;
		/* a declaration of one of them (`void *saved_NAME;`) is no use of it */
		for (size_t k = 0; k < names.n && last; k++) {
			const char *w = last + 1 + strspn(last + 1, "*");

			decl |= !strncmp(w, names.v[k], strlen(names.v[k])) &&
				!strcmp(w + strlen(names.v[k]), ";");
		}
		if (decl)
			continue;
		for (size_t k = 0; k < names.n; k++) {
			const char *h = strstr(added.v[i], names.v[k]);
			size_t nl = strlen(names.v[k]);

			if (h &&
			    (h == added.v[i] || !(isalnum((unsigned char)h[-1]) || h[-1] == '_')) &&
			    !(isalnum((unsigned char)h[nl]) || h[nl] == '_') &&
			    !strlist_has(uses, added.v[i]))
				strlist_push(uses, added.v[i]);
		}
	}
	strlist_free(&added);
	strlist_free(&names);
	strlist_free(&hoists);
}

/* Lines of @old removed by the diff to @new that mention @word. */
static bool removed_mentions(const struct series_file *f, const char *word)
{
	struct udiff_hunk *h = NULL;
	size_t nh = 0;
	bool yes = false;

	if (!f->changed || udiff_hunks(f->old, f->old_len, f->new, f->new_len, &h, &nh) < 0)
		return false;
	for (size_t k = 0; k < nh && !yes; k++) {
		const char *p = f->old;
		unsigned line = 1;

		while (p < f->old + f->old_len && line < h[k].old_first) {
			const char *nl = memchr(p, '\n', (size_t)(f->old + f->old_len - p));

			p = nl ? nl + 1 : f->old + f->old_len;
			line++;
		}
		for (unsigned c = 0; c < h[k].old_count && p < f->old + f->old_len; c++) {
			const char *nl = memchr(p, '\n', (size_t)(f->old + f->old_len - p));
			size_t len = nl ? (size_t)(nl - p) : (size_t)(f->old + f->old_len - p);

			yes |= memmem(p, len, word, strlen(word)) != NULL;
			p = nl ? nl + 1 : f->old + f->old_len;
		}
	}
	free(h);
	return yes;
}

/*
 * The arguments of the first 2.6.25 call in @text (the site's new call as the run
 * wrote it: spatch's or the analyzer's): *@n of them, at most 4, malloc'd.
 */
static size_t call_args(const char *text, char **args)
{
	static const char *const api[] = {"__blk_end_request_callback", "blk_end_request_callback",
					  "__blk_end_request", "blk_end_request"};
	const char *p = NULL, *q;
	size_t n = 0;
	int depth = 0;

	for (size_t k = 0; k < 4 && text && !p; k++)
		for (q = strstr(text, api[k]); q && !p; q = strstr(q + 1, api[k])) {
			const char *r = q + strlen(api[k]);

			if ((q == text || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')) &&
			    *r == '(')
				p = r + 1;
		}
	if (!p)
		return 0;
	for (q = p; *q && n < 4; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')' && depth)
			depth--;
		else if ((*q == ',' && !depth) || (*q == ')' && !depth)) {
			struct sbuf b = {0};
			bool space = false;

			/* one line: runs of white space as one space */
			for (const char *c = p; c < q; c++) {
				if (*c == ' ' || *c == '\t' || *c == '\n') {
					space = b.len > 0;
					continue;
				}
				if (space)
					sbuf_add(&b, " ");
				space = false;
				sbuf_addn(&b, c, 1);
			}
			args[n++] = sbuf_take(&b);
			p = q + 1;
			if (*q == ')')
				break;
		}
	}
	return n;
}

/* One function's conversions: the old calls, the new ones, and its first site. */
struct fnrec {
	char *fn;
	struct bm_strlist olds, news;
};

static void add_items(struct sbuf *b, const char *title, struct topic *t, size_t n, const char *fmt)
{
	if (!n)
		return;
	sbuf_printf(b, "\n%s\n", title);
	for (size_t i = 0; i < n; i++) {
		char *names = name_list(&t[i].names, ""), *line = xasprintf(fmt, names, t[i].text);

		wrap(b, line, "- ", "  ");
		free(line);
		free(names);
	}
}

/* "X: because ...; evidence" with the evidence after a colon */
static char *lock_why(const struct bm_site *site, const struct bm_strlist *calls,
		      const struct bm_strlist *pfx)
{
	const char *ev = NULL;
	char *cl = name_list(calls, "()"), *ev1 = NULL, *why;
	bool locked = strlist_has(calls, "__blk_end_request") ||
		      strlist_has(calls, "__blk_end_request_callback");
	bool unlocked =
	    strlist_has(calls, "blk_end_request") || strlist_has(calls, "blk_end_request_callback");

	/* the lock's own evidence; where the state is unknown, the one that names the new
	 * call (the callback's reason) or the contract spatch kept */
	for (size_t e = 0; e < site->lock_evidence.n && !ev; e++) {
		const char *v = site->lock_evidence.v[e];
		bool names = false;

		for (size_t c = 0; c < calls->n; c++)
			names |= strstr(v, calls->v[c]) != NULL;
		if (!is_note(v) &&
		    (site->lock != BM_LOCK_UNKNOWN || names || strstr(v, "contract")))
			ev = v;
	}
	for (size_t e = 0; e < site->lock_evidence.n && !ev; e++)
		if (!is_note(site->lock_evidence.v[e]))
			ev = site->lock_evidence.v[e];
	if (ev) {
		/* the first clause, but a contract whole ("X requires ...; Y keeps it") */
		char *c = strstr(ev, "contract") ? xstrdup(ev) : first_clause(ev);

		ev1 = rel_text(c, pfx);
		free(c);
	}
	if (site->lock == BM_LOCK_HELD && locked && !unlocked)
		why = xasprintf("%s, because the queue lock is held there%s%s", cl, ev1 ? ": " : "",
				ev1 ? ev1 : "");
	else if (site->lock == BM_LOCK_NOT_HELD && unlocked && !locked)
		why = xasprintf("%s, which takes the queue lock itself, because the lock is not "
				"held there%s%s",
				cl, ev1 ? ": " : "", ev1 ? ev1 : "");
	else
		why = xasprintf("%s%s%s", cl, ev1 ? ": " : "", ev1 ? ev1 : "");
	free(ev1);
	free(cl);
	return why;
}

/* "function\x1ferror\x1fbytes": one new call of one function (a static buffer) */
static const char *key_of(const char *fn, const char *error, const char *bytes)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s\x1f%s\x1f%s", fn, error, bytes ? bytes : "");
	return buf;
}

static char *body(const struct sfile *s, size_t ns, const struct group *g, const char *prefix,
		  const struct bm_run *inv, const struct bm_strlist *pfx)
{
	struct sbuf b = {0};
	struct topic *what = NULL, *lock = NULL, *err = NULL, *bytes = NULL, *old = NULL;
	size_t nwhat = 0, cwhat = 0, nlock = 0, clock = 0, nerr = 0, cerr = 0, nbytes = 0,
	       cbytes = 0, nold = 0, cold = 0, nconv = 0, nman = 0, nfn = 0, cfn = 0;
	struct fnrec *fns = NULL;
	struct bm_strlist files = {0}, seen_args = {0};
	char *t, *names;

	for (size_t i = 0; i < g->n; i++)
		if (s[g->files[i]].f->changed)
			strlist_push(&files, s[g->files[i]].rel);
	names = name_list(&files, "");
	t = xasprintf("Convert %s (%s) to the request completion API of Linux 2.6.25: "
		      "blk_end_request() and __blk_end_request() take a byte count and an errno, "
		      "and do the final step (randomness, dequeue, tag release, "
		      "end_that_request_last()) themselves.",
		      prefix, names);
	wrap(&b, t, "", "");
	free(t);
	free(names);
	strlist_free(&files);

	for (size_t i = 0; i < inv->nsites; i++) {
		const struct bm_site *site = &inv->sites[i];
		struct bm_strlist calls = {0};
		char *fn, *args[4] = {0};
		size_t nargs, k;

		if (!site_in(s, g, site))
			continue;
		if (site->verdict == BM_MANUAL) {
			nman++;
			continue;
		}
		nconv++;
		fn = fn_name(site);
		new_calls(site, &calls);
		for (k = 0; k < nfn && strcmp(fns[k].fn, fn); k++)
			;
		if (k == nfn) {
			vec_reserve(fns, nfn, cfn, 1);
			memset(&fns[nfn], 0, sizeof(fns[nfn]));
			fns[nfn++].fn = xstrdup(fn);
		}
		if (!strlist_has(&fns[k].olds, site->call))
			strlist_push(&fns[k].olds, site->call);
		for (size_t c = 0; c < calls.n; c++)
			if (!strlist_has(&fns[k].news, calls.v[c]))
				strlist_push(&fns[k].news, calls.v[c]);
		/* lock: the variant and why, once per function and variant */
		if (calls.n) {
			char *why = lock_why(site, &calls, pfx), *cl = name_list(&calls, "()");
			bool seen = false;

			for (size_t l = 0; l < nlock; l++)
				seen |= strlist_has(&lock[l].names, fn) &&
					!strncmp(lock[l].text, cl, strlen(cl));
			if (seen)
				free(why);
			else
				topic_add(&lock, &nlock, &clock, why, fn);
			free(cl);
		}
		/* errors and bytes: the arguments of the new call as written */
		nargs = call_args(site->replacement, args);
		if (!nargs)
			nargs = call_args(site->after, args);
		/* the second half of a pair shares its partner's call: told once */
		if (nargs >= 2 && !strlist_has(&seen_args, key_of(fn, args[1], args[2]))) {
			strlist_push(&seen_args, key_of(fn, args[1], args[2]));
		} else {
			for (k = 0; k < 4; k++) {
				free(args[k]);
				args[k] = NULL;
			}
			nargs = 0;
		}
		if (nargs >= 2 && site->uptodate_expr && *site->uptodate_expr) {
			const char *kind = "";

			switch (site->uptodate_class) {
			case BM_UT_BOOLEAN: kind = " (a truth value)"; break;
			case BM_UT_ERRNO: kind = " (1, 0 or a negative errno)"; break;
			case BM_UT_WRAPPER: kind = " (its callers' value)"; break;
			default: break;
			}
			/* a wrapper's parameter renamed (wrappers.c): the callers carry the
			 * conversion, the call passes the parameter on as it is */
			bool renamed = site->uptodate_class == BM_UT_WRAPPER &&
				       strcmp(args[1], site->uptodate_expr) &&
				       is_identifier(args[1]);

			topic_add(&err, &nerr, &cerr,
				  renamed
				      ? xasprintf("its parameter %s becomes %s, 0 or a negative "
						  "errno, and each caller's argument is converted "
						  "to match",
						  site->uptodate_expr, args[1])
				  : site->uptodate_origin && *site->uptodate_origin
				      ? xasprintf("uptodate = %s%s becomes error = %s (%s)",
						  site->uptodate_expr, kind, args[1],
						  site->uptodate_origin)
				      : xasprintf("uptodate = %s%s becomes error = %s",
						  site->uptodate_expr, kind, args[1]),
				  fn);
		}
		if (nargs >= 3) {
			char *o = rel_text(site->bytes_origin, pfx);
			char *want = site->bytes_expr ? xstrdup(site->bytes_expr) : xstrdup("");
			bool same = !strcmp(want, args[2]);

			/* the analysis' reason holds for its own expression only */
			topic_add(&bytes, &nbytes, &cbytes,
				  same && *o ? xasprintf("%s: %s", args[2], o) : xstrdup(args[2]),
				  fn);
			free(want);
			free(o);
		}
		for (k = 0; k < 4; k++)
			free(args[k]);
		/* old bugs */
		if (note_of(site, "old_lock_bug_fixed: "))
			topic_add(&old, &nold, &cold,
				  xasprintf("Fixes an old race in @: %s() needs the queue lock in "
					    "2.6.24 and was called there without it; "
					    "blk_end_request() takes the lock itself for the final "
					    "step.",
					    site->call),
				  fn);
		if (note_of(site, "preexisting_lock_bug: "))
			topic_add(&old, &nold, &cold,
				  xasprintf("Not fixed here: in @, %s() needs the queue lock in "
					    "2.6.24 and runs without it; __blk_end_request() keeps "
					    "that contract, so the old race stays (taking the lock "
					    "there is a separate change).",
					    site->call),
				  fn);
		if (note_of(site, "preexisting_unended_request: ")) {
			char *n = rel_text(note_of(site, "preexisting_unended_request: "), pfx);

			topic_add(&old, &nold, &cold,
				  xasprintf("In @, the old code never ended this request: %s%s", n,
					    ends_with(n, ".") ? "" : "."),
				  fn);
			free(n);
		}
		free(fn);
		strlist_free(&calls);
	}
	/* what: per function, "X() and Y() become Z()" */
	for (size_t k = 0; k < nfn; k++) {
		char *o = name_list(&fns[k].olds, "()"), *nw = name_list(&fns[k].news, "()");

		topic_add(&what, &nwhat, &cwhat,
			  fns[k].news.n ? xasprintf("%s %s %s", o,
						    fns[k].olds.n > 1 ? "become" : "becomes", nw)
					: xasprintf("%s %s folded into the call that completes the "
						    "same request",
						    o, fns[k].olds.n > 1 ? "are" : "is"),
			  fns[k].fn);
		free(o);
		free(nw);
		free(fns[k].fn);
		strlist_free(&fns[k].olds);
		strlist_free(&fns[k].news);
	}
	free(fns);
	if (nwhat) {
		sbuf_add(&b, "\n");
		for (size_t i = 0; i < nwhat; i++) {
			names = name_list(&what[i].names, "");
			t = xasprintf("In %s, %s.", names, what[i].text);
			wrap(&b, t, "", "");
			free(t);
			free(names);
		}
	}
	add_items(&b, "Locking:", lock, nlock, "%s: %s.");
	add_items(&b, "Errors (2.6.24's uptodate, 2.6.25's errno):", err, nerr, "%s: %s.");
	add_items(&b, "Byte counts, each what the old call completed:", bytes, nbytes, "%s: %s.");
	{
		/* housekeeping the new call does, removed from the driver */
		static const char *const chores[] = {"add_disk_randomness",
						     "blkdev_dequeue_request", "blk_queue_end_tag"};
		struct bm_strlist moved = {0};

		for (size_t k = 0; k < 3; k++)
			for (size_t i = 0; i < g->n; i++)
				if (removed_mentions(s[g->files[i]].f, chores[k]) &&
				    !strlist_has(&moved, chores[k]))
					strlist_push(&moved, chores[k]);
		if (moved.n) {
			names = name_list(&moved, "()");
			t = xasprintf(
			    "The calls of %s beside the old ones are gone: the 2.6.25 call "
			    "does that itself.",
			    names);
			sbuf_add(&b, "\n");
			wrap(&b, t, "", "");
			free(t);
			free(names);
		}
		strlist_free(&moved);
	}
	{
		/* values read from the request before the new call ends it */
		struct bm_strlist saved = {0}, uses = {0};

		for (size_t i = 0; i < g->n; i++)
			saved_values(s[g->files[i]].f, &saved, &uses);
		for (size_t i = 0; i < saved.n; i++) {
			char *sep = strchr(saved.v[i], '\x1f');

			*sep = '\0';
			t = xasprintf("%s is read into %s before the new call, which may end and "
				      "free the request; the statements that ran between the data "
				      "completion and the final step follow the call and read %s "
				      "instead:",
				      saved.v[i], sep + 1, sep + 1);
			sbuf_add(&b, "\n");
			wrap(&b, t, "", "");
			free(t);
		}
		for (size_t i = 0; i < uses.n && saved.n; i++)
			wrap(&b, uses.v[i], "  ", "    ");
		strlist_free(&saved);
		strlist_free(&uses);
	}
	for (size_t i = 0; i < nold; i++) {
		char *at = strchr(old[i].text, '@');

		names = name_list(&old[i].names, "");
		t = xasprintf("%.*s%s%s", (int)(at - old[i].text), old[i].text, names, at + 1);
		sbuf_add(&b, "\n");
		wrap(&b, t, "", "");
		free(t);
		free(names);
	}
	if (nman) {
		sbuf_printf(&b, "\nLeft as they are for a human (%zu call%s):\n", nman,
			    nman == 1 ? "" : "s");
		for (size_t i = 0; i < inv->nsites; i++) {
			const struct bm_site *site = &inv->sites[i];
			char *why, *fn;

			if (!site_in(s, g, site) || site->verdict != BM_MANUAL)
				continue;
			fn = fn_name(site);
			why = rel_text(site->reason_text, pfx);
			t = xasprintf("%s() in %s, %s:%u (%s): %s.", site->call, fn,
				      rel_of(s, ns, site->file), site->line,
				      site->reason_code ? site->reason_code : "manual", why);
			wrap(&b, t, "- ", "  ");
			free(t);
			free(why);
			free(fn);
		}
	}
	t = xasprintf("blkmig %s converted %zu call%s here; every rewrite is one the analysis "
		      "proves equivalent to the old code.",
		      BLKMIG_VERSION, nconv, nconv == 1 ? "" : "s");
	sbuf_add(&b, "\n");
	wrap(&b, t, "", "");
	free(t);
	strlist_free(&seen_args);
	topics_free(what, nwhat);
	topics_free(lock, nlock);
	topics_free(err, nerr);
	topics_free(bytes, nbytes);
	topics_free(old, nold);
	return sbuf_take(&b);
}

/* git's diffstat: " NAME | N ++--" per file and the totals line. */
static void diffstat(struct sbuf *b, const char **names, const char *const *diffs, size_t n)
{
	size_t w = 0, ins = 0, del = 0, maxc = 0;
	size_t *pl = xcalloc(n + 1, sizeof(size_t)), *mi = xcalloc(n + 1, sizeof(size_t));

	for (size_t i = 0; i < n; i++) {
		const char *p = diffs[i];

		if (strlen(names[i]) > w)
			w = strlen(names[i]);
		while (p && *p) {
			const char *nl = strchr(p, '\n');

			if (*p == '+' && strncmp(p, "+++ ", 4))
				pl[i]++;
			else if (*p == '-' && strncmp(p, "--- ", 4))
				mi[i]++;
			p = nl ? nl + 1 : NULL;
		}
		ins += pl[i];
		del += mi[i];
		if (pl[i] + mi[i] > maxc)
			maxc = pl[i] + mi[i];
	}
	for (size_t i = 0; i < n; i++) {
		size_t bar = 50, a = pl[i], d = mi[i];

		if (maxc > bar) { /* scaled as git does, at least one of each kind */
			a = pl[i] ? (pl[i] * bar + maxc - 1) / maxc : 0;
			d = mi[i] ? (mi[i] * bar + maxc - 1) / maxc : 0;
		}
		sbuf_printf(b, " %-*s | %zu ", (int)w, names[i], pl[i] + mi[i]);
		for (size_t k = 0; k < a; k++)
			sbuf_add(b, "+");
		for (size_t k = 0; k < d; k++)
			sbuf_add(b, "-");
		sbuf_add(b, "\n");
	}
	sbuf_printf(b, " %zu file%s changed", n, n == 1 ? "" : "s");
	if (ins)
		sbuf_printf(b, ", %zu insertion%s(+)", ins, ins == 1 ? "" : "s");
	if (del)
		sbuf_printf(b, ", %zu deletion%s(-)", del, del == 1 ? "" : "s");
	sbuf_add(b, "\n");
	free(pl);
	free(mi);
}

static char *diff_text(const struct series_file *f, const char *rel)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int r;

	if (!m)
		return NULL;
	fprintf(m, "diff --git a/%s b/%s\n", rel, rel);
	r = udiff_write(m, rel, f->old, f->old_len, f->new, f->new_len, 3);
	if (fclose(m) || r < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void remove_old_patches(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *n = e->d_name;

		if (strlen(n) > 11 && isdigit((unsigned char)n[0]) &&
		    isdigit((unsigned char)n[1]) && isdigit((unsigned char)n[2]) &&
		    isdigit((unsigned char)n[3]) && n[4] == '-' && ends_with(n, ".patch")) {
			char *p = xasprintf("%s/%s", dir, n);

			unlink(p);
			free(p);
		}
	}
	closedir(d);
}

static size_t digits(size_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static char *mail_date(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	char buf[64];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a, %-d %b %Y %H:%M:%S +0000", &tm);
	return xstrdup(buf);
}

static char *mail_from(void)
{
	const char *name = getenv("GIT_AUTHOR_NAME"), *mail = getenv("GIT_AUTHOR_EMAIL");

	return xasprintf("%s <%s>", name && *name ? name : "blkmig",
			 mail && *mail ? mail : "blkmig@localhost");
}

int series_write(const char *dir, const char *root, const struct series_file *files, size_t n,
		 const struct bm_run *inv)
{
	struct sfile *s = xcalloc(n + 1, sizeof(*s));
	struct group *g = NULL;
	size_t ng = 0, cg = 0, npatch = 0, nr = 0;
	struct bm_strlist pfx = {0};
	char err[1024], *date = NULL, *from = NULL;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		char *d;

		s[i].f = &files[i];
		s[i].group = i;
		s[i].rel = patch_name(files[i].path, root, err, sizeof(err));
		if (!s[i].rel) {
			fprintf(stderr, "blkmig migrate: --series: %s\n", err);
			rc = -1;
			goto out;
		}
		/* the analysis' names are PREFIX + rel: the messages say rel */
		if (strlen(files[i].path) > strlen(s[i].rel) &&
		    ends_with(files[i].path, s[i].rel)) {
			char *p = xstrndup(files[i].path, strlen(files[i].path) - strlen(s[i].rel));

			if (!strlist_has(&pfx, p))
				strlist_push(&pfx, p);
			free(p);
		}
		d = dir_of(files[i].path);
		if (ends_with(files[i].path, ".c")) {
			char *base =
			    xstrndup(base_of(files[i].path), strlen(base_of(files[i].path)) - 2);

			s[i].module = kbuild_module(d, base);
			free(base);
		} else {
			s[i].module = xstrdup(base_of(files[i].path));
		}
		free(d);
	}
	/* the longest prefix first: "a/b/" before "a/" */
	for (size_t i = 1; i < pfx.n; i++)
		for (size_t j = i; j > 0 && strlen(pfx.v[j - 1]) < strlen(pfx.v[j]); j--) {
			char *t = pfx.v[j];

			pfx.v[j] = pfx.v[j - 1];
			pfx.v[j - 1] = t;
		}
	/* one module of one directory; its headers; the files one site's edits span */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			char *di = dir_of(s[i].rel), *dj = dir_of(s[j].rel);

			if (!strcmp(di, dj)) {
				bool ci = ends_with(s[i].rel, ".c"), cj = ends_with(s[j].rel, ".c");

				if (ci && cj && !strcmp(s[i].module, s[j].module))
					unite(s, i, j);
				else if (ci && !cj &&
					 includes(files[i].old, files[i].old_len,
						  base_of(s[j].rel)))
					unite(s, i, j);
				else if (!ci && cj &&
					 includes(files[j].old, files[j].old_len,
						  base_of(s[i].rel)))
					unite(s, i, j);
			}
			free(di);
			free(dj);
		}
	for (size_t k = 0; k < inv->nsites; k++) {
		const struct bm_site *site = &inv->sites[k];
		size_t a = file_of(s, n, site->file);

		for (size_t e = 0; e < site->nedits && a < n; e++) {
			size_t b = file_of(s, n, site->edits[e].file);

			if (b < n)
				unite(s, a, b);
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t r = find_root(s, i), k;

		for (k = 0; k < ng; k++)
			if (find_root(s, g[k].files[0]) == r)
				break;
		if (k == ng) {
			vec_reserve(g, ng, cg, 1);
			memset(&g[ng], 0, sizeof(g[ng]));
			g[ng].files = xcalloc(n + 1, sizeof(size_t));
			ng++;
		}
		g[k].files[g[k].n++] = i;
		g[k].changed |= files[i].changed;
	}
	for (size_t k = 0; k < ng; k++) {
		sort_indexes(g[k].files, g[k].n, s);
		npatch += g[k].changed;
	}
	/* patches in the order of their first file's name */
	for (size_t i = 1; i < ng; i++)
		for (size_t j = i;
		     j > 0 && strcmp(s[g[j - 1].files[0]].rel, s[g[j].files[0]].rel) > 0; j--) {
			struct group t = g[j];

			g[j] = g[j - 1];
			g[j - 1] = t;
		}

	if (mkdirs(dir) < 0) {
		fprintf(stderr, "blkmig migrate: cannot create %s: %s\n", dir, strerror(errno));
		rc = -1;
		goto out;
	}
	remove_old_patches(dir);
	date = mail_date();
	from = mail_from();
	for (size_t k = 0; k < ng && rc == 0; k++) {
		struct sbuf m = {0};
		const char **names = xcalloc(g[k].n + 1, sizeof(char *));
		char **diffs = xcalloc(g[k].n + 1, sizeof(char *));
		size_t nd = 0;
		char *prefix, *subject, *fname, *path, *text;
		FILE *out;

		if (!g[k].changed) {
			free(names);
			free(diffs);
			continue;
		}
		nr++;
		for (size_t i = 0; i < g[k].n; i++) {
			const struct sfile *f = &s[g[k].files[i]];

			if (!f->f->changed)
				continue;
			/* the message and the diffstat are text: \xNN for a byte that is
			 * not UTF-8 (json_text.h); the diff keeps the bytes, to apply */
			names[nd] = bm_text_escape(f->rel);
			diffs[nd] = diff_text(f->f, f->rel);
			if (!diffs[nd]) {
				fprintf(stderr, "blkmig migrate: --series: cannot diff %s\n",
					f->rel);
				rc = -1;
			}
			nd++;
		}
		prefix = subject_prefix(s, &g[k]);
		subject = xasprintf("%s: convert to blk_end_request()", prefix);
		fname = file_name((unsigned)nr, subject);
		text = body(s, n, &g[k], prefix, inv, &pfx);
		{
			char *e = bm_text_escape(subject);

			free(subject);
			subject = e;
			e = bm_text_escape(text);
			free(text);
			text = e;
		}
		sbuf_add(
		    &m, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n");
		sbuf_printf(&m, "From: %s\nDate: %s\n", from, date);
		if (npatch > 1)
			sbuf_printf(&m, "Subject: [PATCH %0*zu/%zu] %s\n\n", (int)digits(npatch),
				    nr, npatch, subject);
		else
			sbuf_printf(&m, "Subject: [PATCH] %s\n\n", subject);
		sbuf_add(&m, text);
		sbuf_add(&m, "---\n");
		diffstat(&m, names, (const char *const *)diffs, nd);
		sbuf_add(&m, "\n");
		for (size_t i = 0; i < nd; i++)
			if (diffs[i])
				sbuf_add(&m, diffs[i]);
		sbuf_printf(&m, "-- \nblkmig %s\n\n", BLKMIG_VERSION);
		path = xasprintf("%s/%s", dir, fname);
		out = fopen(path, "w");
		if (!out || fwrite(m.s, 1, m.len, out) != m.len || fclose(out)) {
			fprintf(stderr, "blkmig migrate: cannot write %s: %s\n", path,
				strerror(errno));
			rc = -1;
		}
		free(path);
		free(sbuf_take(&m));
		free(text);
		free(fname);
		free(subject);
		free(prefix);
		for (size_t i = 0; i < nd; i++) {
			free(diffs[i]);
			free((char *)names[i]);
		}
		free(diffs);
		free(names);
	}
out:
	for (size_t i = 0; i < n; i++) {
		free(s[i].rel);
		free(s[i].module);
	}
	for (size_t k = 0; k < ng; k++)
		free(g[k].files);
	free(g);
	free(s);
	free(date);
	free(from);
	strlist_free(&pfx);
	return rc < 0 ? -1 : (int)nr;
}
