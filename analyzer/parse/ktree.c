/*
 * ktree.c - parsing a file of a kernel source tree the way kbuild would,
 * without `make prepare`: the file's architecture, its <asm/...> headers
 * and a generated configuration.
 *
 * - Tree: a directory with a top Makefile that sets VERSION and PATCHLEVEL
 *   and include/linux/kernel.h; found from a scanned path or its parents.
 * - Architecture of a file: arch/ARCH/... is ARCH; otherwise the Kconfig
 *   entry of the CONFIG_ symbol its Makefile builds it with decides: a
 *   dependency defined only by one architecture's Kconfig (PPC_PS3, SPARC64,
 *   4xx) or a Kconfig file sourced only from arch/ARCH (drivers/s390);
 *   else the <asm/...> headers the file includes vote; else x86.
 * - Configuration: the architecture's defconfig that enables the file's
 *   symbol (ps3_defconfig for ps3disk.c), else its default defconfig, turned
 *   into linux/autoconf.h (y -> 1, m -> _MODULE) and force-included as
 *   kbuild does; the file's own symbol is defined in any case.
 * - <asm/...>: an overlay directory per architecture that links every entry
 *   of include/asm-ARCH, plus the links kbuild makes (asm-um/arch,
 *   asm-arm/arch-MACH, um's NAME-SUBARCH.h headers).
 * Everything generated goes into the run's temporary directory; the tree is
 * never written.  Results are cached per file: compute them in the parent
 * before forking parse children (ktree_file_args).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktree.h"

struct kt_cached {
	char *path;
	struct bm_strlist args;
	char *summary;
};

struct ktree {
	char *root; /* absolute */
	char *tmp;  /* where generated headers go */
	bool sym_indexed;
	struct bm_strlist sym, sym_arch;	     /* `config SYM` under arch/A */
	struct bm_strlist sourced, sourced_arch;     /* `source "X"` under arch/A */
	struct bm_strlist default_y, default_y_arch; /* `default y`, no dependency */
	struct bm_strlist made;			     /* generated directories */
	struct kt_cached *cache;
	size_t ncache, cap;
};

static bool exists(const char *p)
{
	struct stat st;

	return !stat(p, &st);
}

static bool is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

bool ktree_is_root(const char *dir)
{
	char *mk = xasprintf("%s/Makefile", dir);
	char *kh = xasprintf("%s/include/linux/kernel.h", dir);
	size_t len;
	char *s = exists(kh) ? read_file(mk, &len) : NULL;
	bool r = s && strstr(s, "\nPATCHLEVEL =") && !strncmp(s, "VERSION =", 9);

	free(s);
	free(mk);
	free(kh);
	return r;
}

char *ktree_find_root(const char *path)
{
	char abs[PATH_MAX];

	if (!realpath(path, abs))
		return NULL;
	if (!is_dir(abs)) {
		char *slash = strrchr(abs, '/');

		if (slash && slash != abs)
			*slash = '\0';
	}
	for (;;) {
		char *slash;

		if (ktree_is_root(abs))
			return xstrdup(abs);
		slash = strrchr(abs, '/');
		if (!slash || slash == abs)
			return NULL;
		*slash = '\0';
	}
}

struct ktree *ktree_new(const char *root, const char *tmp)
{
	struct ktree *kt = xcalloc(1, sizeof(*kt));
	char abs[PATH_MAX];

	kt->root = xstrdup(realpath(root, abs) ? abs : root);
	kt->tmp = xasprintf("%s/ktree", tmp);
	return kt;
}

void ktree_free(struct ktree *kt)
{
	if (!kt)
		return;
	for (size_t i = 0; i < kt->ncache; i++) {
		free(kt->cache[i].path);
		free(kt->cache[i].summary);
		strlist_free(&kt->cache[i].args);
	}
	free(kt->cache);
	strlist_free(&kt->sym);
	strlist_free(&kt->sym_arch);
	strlist_free(&kt->sourced);
	strlist_free(&kt->sourced_arch);
	strlist_free(&kt->default_y);
	strlist_free(&kt->default_y_arch);
	strlist_free(&kt->made);
	free(kt->root);
	free(kt->tmp);
	free(kt);
}

const char *ktree_root(const struct ktree *kt)
{
	return kt->root;
}

/* ---- small text helpers ------------------------------------------------ */

static bool is_word(int c)
{
	return isalnum(c) || c == '_';
}

/* Next line of s from *p (without the newline); false at the end. */
static bool next_line(const char *s, size_t len, size_t *p, size_t *a, size_t *b)
{
	if (*p >= len)
		return false;
	*a = *p;
	while (*p < len && s[*p] != '\n')
		(*p)++;
	*b = *p;
	if (*p < len)
		(*p)++;
	return true;
}

static void write_atomic(const char *path, const char *text)
{
	char *tmp = xasprintf("%s.%d.tmp", path, (int)getpid());
	FILE *f = fopen(tmp, "w");

	if (!f) {
		free(tmp);
		return;
	}
	fputs(text, f);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
	free(tmp);
}

/* ---- Kconfig index of the architectures -------------------------------- */

static void index_kconfig(struct ktree *kt, const char *arch, const char *path)
{
	size_t len, p = 0, a, b;
	char *s = read_file(path, &len);
	char *cur = NULL; /* the symbol of the current block */
	bool has_dep = false, def_y = false;

	if (!s)
		return;
	for (bool more = true; more;) {
		more = next_line(s, len, &p, &a, &b);
		while (more && a < b && isspace((unsigned char)s[a]))
			a++;
		bool block_end =
		    !more ||
		    (b - a > 5 &&
		     (!strncmp(s + a, "config ", 7) || !strncmp(s + a, "menuconfig ", 11) ||
		      !strncmp(s + a, "endmenu", 7) || !strncmp(s + a, "source ", 7) ||
		      !strncmp(s + a, "endif", 5) || !strncmp(s + a, "endchoice", 9) ||
		      !strncmp(s + a, "choice", 6) || !strncmp(s + a, "if ", 3) ||
		      !strncmp(s + a, "menu ", 5)));

		if (block_end && cur) {
			/* kconfig gives a new `default y` symbol to an old defconfig */
			if (def_y && !has_dep) {
				strlist_push(&kt->default_y, cur);
				strlist_push(&kt->default_y_arch, arch);
			}
			free(cur);
			cur = NULL;
		}
		if (!more)
			break;
		if (cur && !strncmp(s + a, "depends on", 10))
			has_dep = true;
		if (cur &&
		    (b - a >= 9 &&
		     (!strncmp(s + a, "default y", 9) || !strncmp(s + a, "def_bool y", 10))) &&
		    (a + 9 == b || isspace((unsigned char)s[a + 9]) || s[a + 9] == 'y'))
			def_y = true;
		if ((b - a > 7 && !strncmp(s + a, "config ", 7)) ||
		    (b - a > 11 && !strncmp(s + a, "menuconfig ", 11))) {
			size_t e = a + (s[a] == 'm' ? 11 : 7);

			while (e < b && isspace((unsigned char)s[e]))
				e++;
			size_t ws = e;

			while (e < b && is_word((unsigned char)s[e]))
				e++;
			if (e > ws) {
				strlist_push_owned(&kt->sym, xstrndup(s + ws, e - ws));
				strlist_push(&kt->sym_arch, arch);
				cur = xstrndup(s + ws, e - ws);
				has_dep = def_y = false;
			}
		} else if (b - a > 8 && !strncmp(s + a, "source ", 7)) {
			const char *q1 = memchr(s + a, '"', b - a);
			const char *q2 = q1 ? memchr(q1 + 1, '"', (size_t)(s + b - q1 - 1)) : NULL;

			if (q2) {
				strlist_push_owned(&kt->sourced,
						   xstrndup(q1 + 1, (size_t)(q2 - q1 - 1)));
				strlist_push(&kt->sourced_arch, arch);
			}
		}
	}
	free(s);
}

static void walk_kconfig(struct ktree *kt, const char *arch, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d || depth > 6) {
		if (d)
			closedir(d);
		return;
	}
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (!strncmp(e->d_name, "Kconfig", 7))
			index_kconfig(kt, arch, p);
		else if (is_dir(p))
			walk_kconfig(kt, arch, p, depth + 1);
		free(p);
	}
	closedir(d);
}

/* Kconfig files outside arch/ (arch ""): symbols every architecture has. */
static void walk_generic_kconfig(struct ktree *kt, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d || depth > 8) {
		if (d)
			closedir(d);
		return;
	}
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.' || (depth == 0 && (!strcmp(e->d_name, "arch") ||
							   !strcmp(e->d_name, "Documentation"))))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (!strncmp(e->d_name, "Kconfig", 7))
			index_kconfig(kt, "", p);
		else if (e->d_type == DT_DIR || (e->d_type == DT_UNKNOWN && is_dir(p)))
			walk_generic_kconfig(kt, p, depth + 1);
		free(p);
	}
	closedir(d);
}

static void index_arches(struct ktree *kt)
{
	walk_generic_kconfig(kt, kt->root, 0);
	char *archdir = xasprintf("%s/arch", kt->root);
	DIR *d = opendir(archdir);
	struct dirent *e;

	kt->sym_indexed = true;
	while (d && (e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", archdir, e->d_name);
		if (is_dir(p))
			walk_kconfig(kt, e->d_name, p, 0);
		free(p);
	}
	if (d)
		closedir(d);
	free(archdir);
}

/* The architectures whose Kconfig defines SYM, in list; has x86? */
static void arches_of(struct ktree *kt, const struct bm_strlist *names,
		      const struct bm_strlist *archs, const char *sym, struct bm_strlist *out)
{
	for (size_t i = 0; i < names->n; i++)
		if (!strcmp(names->v[i], sym) && !strlist_has(out, archs->v[i]))
			strlist_push(out, archs->v[i]);
	(void)kt;
}

/* Defined by some architectures only, and not by x86 or generic Kconfig. */
static bool arch_only(const struct bm_strlist *as)
{
	return as->n && !strlist_has(as, "x86") && !strlist_has(as, "");
}

/* Preference among several architectures that qualify. */
static int arch_rank(const char *a)
{
	static const char *const order[] = {"x86",  "powerpc", "sparc64", "s390", "arm",
					    "m68k", "ppc",     "sparc",	  "um",	  "mips"};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (!strcmp(order[i], a))
			return (int)i;
	return 100;
}

static const char *best_arch(const struct bm_strlist *l)
{
	const char *best = NULL;

	for (size_t i = 0; i < l->n; i++)
		if (!best || arch_rank(l->v[i]) < arch_rank(best))
			best = l->v[i];
	return best;
}

/* ---- Makefile and Kconfig of one file ----------------------------------- */

/* Join the continuation lines of a Makefile into one line each. */
static char *join_continuations(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] == '\n') {
			*w++ = ' ';
			r++;
			continue;
		}
		*w++ = *r;
	}
	*w = '\0';
	return s;
}

/* In Makefile text, the CONFIG_ symbol of the line that builds OBJ. */
static char *makefile_symbol(const char *mk, const char *obj, int depth)
{
	size_t ol = strlen(obj);

	for (const char *p = mk; (p = strstr(p, obj)); p += ol) {
		const char *ls = p, *le;
		char *r = NULL;

		if ((p > mk && is_word((unsigned char)p[-1])) || is_word((unsigned char)p[ol]))
			continue;
		while (ls > mk && ls[-1] != '\n')
			ls--;
		le = strchr(p, '\n');
		if (!le)
			le = p + strlen(p);
		const char *c = strstr(ls, "$(CONFIG_");
		const char *eq = strstr(ls, "=");

		if (!eq || eq > p)
			continue;
		if (c && c < eq) {
			const char *e = c + 9;

			while (is_word((unsigned char)*e))
				e++;
			if (*e == ')')
				return xstrndup(c + 9, (size_t)(e - c - 9));
		}
		/* composite object: NAME-objs / NAME-y += obj.o */
		const char *n = ls;

		while (n < eq && isspace((unsigned char)*n))
			n++;
		const char *ne = n;

		while (ne < eq && (is_word((unsigned char)*ne) || *ne == '-'))
			ne++;
		if (depth < 2 && ne > n &&
		    (!strncmp(ne - 5, "-objs", 5) || !strncmp(ne - 2, "-y", 2))) {
			size_t bl = (size_t)(ne - n) - (!strncmp(ne - 5, "-objs", 5) ? 5 : 2);
			char *composite = xasprintf("%.*s.o", (int)bl, n);

			if (strcmp(composite, obj) && strncmp(composite, "obj.o", 5))
				r = makefile_symbol(mk, composite, depth + 1);
			free(composite);
			if (r)
				return r;
		}
	}
	return NULL;
}

/* Kconfig block of `config SYM` in the Kconfig files of dir: its
 * dependencies (positive symbols of `depends on`).  Returns the Kconfig
 * path (relative to the tree) or NULL. */
static char *kconfig_deps(struct ktree *kt, const char *dir, const char *sym,
			  struct bm_strlist *deps)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;
	char *head = xasprintf("config %s", sym);
	size_t hl = strlen(head);

	while (!found && d && (e = readdir(d))) {
		char *p;
		size_t len, q = 0, a, b;
		char *s;
		bool in = false;

		if (strncmp(e->d_name, "Kconfig", 7))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		s = read_file(p, &len);
		while (s && next_line(s, len, &q, &a, &b)) {
			size_t t = a;

			while (t < b && isspace((unsigned char)s[t]))
				t++;
			if (!strncmp(s + t, "config ", 7) || !strncmp(s + t, "menuconfig ", 11) ||
			    !strncmp(s + t, "endmenu", 7) || !strncmp(s + t, "source ", 7) ||
			    !strncmp(s + t, "choice", 6) || !strncmp(s + t, "endif", 5) ||
			    !strncmp(s + t, "menu ", 5)) {
				const char *w = s + t + (s[t] == 'm' && s[t + 1] == 'e' ? 4 : 0);

				in = (!strncmp(s + t, head, hl) ||
				      (!strncmp(s + t, "menu", 4) && !strncmp(w, head, hl))) &&
				     (t + hl == b || !is_word((unsigned char)s[t + hl]));
				if (in && !found)
					found = xstrdup(p + strlen(kt->root) + 1);
				continue;
			}
			if (!in || strncmp(s + t, "depends on", 10))
				continue;
			for (size_t k = t + 10; k < b;) {
				if (!is_word((unsigned char)s[k])) {
					k++;
					continue;
				}
				size_t ws = k;
				bool neg = false;

				for (size_t m = ws; m > t + 10; m--) {
					if (isspace((unsigned char)s[m - 1]) || s[m - 1] == '(')
						continue;
					neg = s[m - 1] == '!';
					break;
				}
				while (k < b && is_word((unsigned char)s[k]))
					k++;
				if (!neg && k - ws > 1)
					strlist_push_owned(deps, xstrndup(s + ws, k - ws));
			}
		}
		free(s);
		free(p);
	}
	if (d)
		closedir(d);
	free(head);
	return found;
}

/* Is the Kconfig file KC (tree-relative) sourced by a Kconfig of one of
 * the directories above it (drivers/Kconfig sources drivers/block/Kconfig)? */
static bool sourced_outside_arch(struct ktree *kt, const char *kc)
{
	char *dir = xstrdup(kc), *slash;
	char *needle = xasprintf("\"%s\"", kc);
	bool found = false;

	while (!found && (slash = strrchr(dir, '/'))) {
		*slash = '\0';
		for (int k = 0; k < 2 && !found; k++) {
			char *p =
			    xasprintf("%s/%s/%s", kt->root, dir, k ? "Kconfig.debug" : "Kconfig");
			size_t len;
			char *s = read_file(p, &len);

			found = s && strstr(s, needle);
			free(s);
			free(p);
		}
	}
	if (!found) {
		char *p = xasprintf("%s/Kconfig", kt->root);
		size_t len;
		char *s = read_file(p, &len);

		found = s && strstr(s, needle);
		free(s);
		free(p);
	}
	free(dir);
	free(needle);
	return found;
}

/* ---- the architecture of a file ----------------------------------------- */

static const char *arch_from_asm_includes(struct ktree *kt, const char *src, size_t len, char *buf,
					  size_t bufsz)
{
	struct bm_strlist arches = {0};
	int *votes;
	bool x86_lacks = false;
	char *archdir = xasprintf("%s/include", kt->root);
	DIR *d = opendir(archdir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "asm-", 4) && strcmp(e->d_name, "asm-generic"))
			strlist_push(&arches, e->d_name + 4);
	if (d)
		closedir(d);
	votes = xcalloc(arches.n + 1, sizeof(int));
	for (const char *p = src; p && (p = memmem(p, len - (size_t)(p - src), "<asm/", 5));
	     p += 5) {
		const char *q = memchr(p, '>', len - (size_t)(p - src));
		const char *ls = p;

		while (ls > src && ls[-1] != '\n')
			ls--;
		if (!q || q - p > 80 || !memmem(ls, (size_t)(p - ls), "include", 7))
			continue;
		char *hdr = xstrndup(p + 5, (size_t)(q - p - 5));
		char *x86 = xasprintf("%s/asm-x86/%s", archdir, hdr);

		if (!exists(x86)) {
			x86_lacks = true;
			for (size_t i = 0; i < arches.n; i++) {
				char *h = xasprintf("%s/asm-%s/%s", archdir, arches.v[i], hdr);

				votes[i] += exists(h);
				free(h);
			}
		}
		free(x86);
		free(hdr);
	}
	const char *best = NULL;
	int bv = 0;

	for (size_t i = 0; x86_lacks && i < arches.n; i++)
		if (votes[i] > bv || (votes[i] == bv && votes[i] && best &&
				      arch_rank(arches.v[i]) < arch_rank(best))) {
			bv = votes[i];
			best = arches.v[i];
		}
	if (best)
		snprintf(buf, bufsz, "%s", best);
	strlist_free(&arches);
	free(votes);
	free(archdir);
	return best ? buf : NULL;
}

struct kt_choice {
	char arch[64];
	char *symbol;  /* CONFIG_ symbol (without CONFIG_) building the file */
	char *why;     /* how the architecture was chosen */
	char mach[64]; /* arm: arch-MACH */
};

static void choose_arch(struct ktree *kt, const char *rel, const char *src, size_t len,
			struct kt_choice *c)
{
	char *dir = xstrdup(rel), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : rel;

	if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
	/* the CONFIG_ symbol from the directory's Makefile */
	{
		char *mkp = xasprintf("%s/%s/Makefile", kt->root, dir);
		size_t ml;
		char *mk = read_file(mkp, &ml);
		char *obj = xstrdup(base);

		obj[strlen(obj) - 1] = 'o';
		if (mk)
			c->symbol = makefile_symbol(join_continuations(mk), obj, 0);
		free(obj);
		free(mk);
		free(mkp);
	}
	if (!strncmp(rel, "arch/", 5)) {
		const char *a = rel + 5, *e = strchr(a, '/');

		if (e && (size_t)(e - a) < sizeof(c->arch)) {
			snprintf(c->arch, sizeof(c->arch), "%.*s", (int)(e - a), a);
			c->why = xasprintf("file under arch/%s", c->arch);
			/* arm: arch/arm/mach-X or plat-X -> asm/arch = arch-X */
			const char *m = e + 1;

			if (!strncmp(m, "mach-", 5) || !strncmp(m, "plat-", 5)) {
				const char *me = strchr(m + 5, '/');

				if (me && (size_t)(me - m - 5) < sizeof(c->mach))
					snprintf(c->mach, sizeof(c->mach), "%.*s",
						 (int)(me - m - 5), m + 5);
			}
		}
	}
	if (!c->arch[0] && c->symbol) {
		struct bm_strlist deps = {0};
		char *abs = xasprintf("%s/%s", kt->root, dir);
		char *kc = kconfig_deps(kt, abs, c->symbol, &deps);

		if (!kc && slash) {
			/* the entry may live one directory up (drivers/ide/legacy) */
			char *up = xstrdup(abs), *s2 = strrchr(up, '/');

			if (s2 && strlen(up) > strlen(kt->root)) {
				*s2 = '\0';
				kc = kconfig_deps(kt, up, c->symbol, &deps);
			}
			free(up);
		}
		if (!kt->sym_indexed)
			index_arches(kt);
		{
			/* the entry itself lives in arch/A (arch/powerpc/platforms/ps3) */
			struct bm_strlist as = {0};

			arches_of(kt, &kt->sym, &kt->sym_arch, c->symbol, &as);
			if (arch_only(&as)) {
				snprintf(c->arch, sizeof(c->arch), "%s", best_arch(&as));
				c->why = xasprintf("CONFIG_%s is defined by arch/%s", c->symbol,
						   c->arch);
			}
			strlist_free(&as);
		}
		for (size_t i = 0; i < deps.n && !c->arch[0]; i++) {
			struct bm_strlist as = {0};

			arches_of(kt, &kt->sym, &kt->sym_arch, deps.v[i], &as);
			if (arch_only(&as)) {
				snprintf(c->arch, sizeof(c->arch), "%s", best_arch(&as));
				c->why = xasprintf("CONFIG_%s depends on %s, defined by arch/%s",
						   c->symbol, deps.v[i], c->arch);
			}
			strlist_free(&as);
		}
		if (!c->arch[0] && kc) {
			struct bm_strlist as = {0};

			arches_of(kt, &kt->sourced, &kt->sourced_arch, kc, &as);
			if (arch_only(&as) && !sourced_outside_arch(kt, kc)) {
				snprintf(c->arch, sizeof(c->arch), "%s", best_arch(&as));
				c->why = xasprintf("%s is only sourced from arch/%s", kc, c->arch);
			}
			strlist_free(&as);
		}
		free(kc);
		free(abs);
		strlist_free(&deps);
	}
	if (!c->arch[0] && arch_from_asm_includes(kt, src, len, c->arch, sizeof(c->arch)))
		c->why = xasprintf("its <asm/...> headers exist only in include/asm-%s", c->arch);
	if (!c->arch[0]) {
		snprintf(c->arch, sizeof(c->arch), "x86");
		c->why = xstrdup("default architecture");
	}
	free(dir);
}

/* ---- configuration ------------------------------------------------------ */

static bool config_sets(const char *text, const char *sym)
{
	char *k = xasprintf("\nCONFIG_%s=", sym);
	const char *p = strstr(text, k);
	bool r = p && (p[strlen(k)] == 'y' || p[strlen(k)] == 'm');

	free(k);
	return r;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The defconfig of arch (relative path) for a file built by sym. */
static char *choose_defconfig(struct ktree *kt, const struct kt_choice *c)
{
	struct bm_strlist cands = {0};
	char *dir = xasprintf("%s/arch/%s/configs", kt->root, c->arch);
	char *def = xasprintf("arch/%s/defconfig", c->arch);
	DIR *d = opendir(dir);
	struct dirent *e;
	char *pick = NULL;
	static const char *const preferred[] = {"x86_64_defconfig", "ppc64_defconfig"};

	{
		char *p = xasprintf("%s/%s", kt->root, def);

		if (exists(p))
			strlist_push(&cands, def);
		free(p);
	}
	{
		size_t first = cands.n;

		while (d && (e = readdir(d)))
			if (strstr(e->d_name, "defconfig"))
				strlist_push_owned(
				    &cands, xasprintf("arch/%s/configs/%s", c->arch, e->d_name));
		if (cands.n > first)
			qsort(cands.v + first, cands.n - first, sizeof(char *), str_cmp);
	}
	if (d)
		closedir(d);
	/* the preferred default when it builds the file */
	for (size_t k = 0; c->symbol && !pick && k < sizeof(preferred) / sizeof(preferred[0]); k++)
		for (size_t i = 0; i < cands.n && !pick; i++) {
			char *p = xasprintf("%s/%s", kt->root, cands.v[i]);
			size_t len;
			char *s = strstr(cands.v[i], preferred[k]) ? read_file(p, &len) : NULL;

			if (s && config_sets(s, c->symbol))
				pick = xstrdup(cands.v[i]);
			free(s);
			free(p);
		}
	/* one that builds the file; for arm, one of the file's machine */
	for (size_t i = 0; i < cands.n && !pick && (c->symbol || c->mach[0]); i++) {
		char *p = xasprintf("%s/%s", kt->root, cands.v[i]);
		size_t len;
		char *s = read_file(p, &len);

		if (s && (c->symbol ? config_sets(s, c->symbol)
				    : !!strstr(strrchr(cands.v[i], '/'), c->mach)))
			pick = xstrdup(cands.v[i]);
		free(s);
		free(p);
	}
	for (size_t k = 0; !pick && k < sizeof(preferred) / sizeof(preferred[0]); k++)
		for (size_t i = 0; i < cands.n && !pick; i++)
			if (strstr(cands.v[i], preferred[k]))
				pick = xstrdup(cands.v[i]);
	for (size_t i = 0; i < cands.n && !pick && c->mach[0]; i++)
		if (strstr(strrchr(cands.v[i], '/'), c->mach))
			pick = xstrdup(cands.v[i]);
	if (!pick && cands.n)
		pick = xstrdup(cands.v[0]);
	strlist_free(&cands);
	free(dir);
	free(def);
	return pick;
}

/* Generate dir/linux/autoconf.h (and um's uml-config.h) from a defconfig. */
static void gen_autoconf(struct ktree *kt, const char *defconfig, const char *arch, const char *dir)
{
	char *p = xasprintf("%s/%s", kt->root, defconfig);
	size_t len, q = 0, a, b;
	char *s = read_file(p, &len);
	struct sbuf h = {0}, um = {0};

	sbuf_printf(&h, "/* generated by blkmig from %s */\n", defconfig);
	sbuf_add(&um, "/* generated by blkmig */\n");
	while (s && next_line(s, len, &q, &a, &b)) {
		const char *eq;

		if (b - a < 8 || strncmp(s + a, "CONFIG_", 7) || !(eq = memchr(s + a, '=', b - a)))
			continue;
		int nl = (int)(eq - s - a);
		const char *v = eq + 1;
		int vl = (int)(s + b - v);

		if (vl == 1 && *v == 'y') {
			sbuf_printf(&h, "#define %.*s 1\n", nl, s + a);
			sbuf_printf(&um, "#define UML_%.*s 1\n", nl, s + a);
		} else if (vl == 1 && *v == 'm') {
			sbuf_printf(&h, "#define %.*s_MODULE 1\n", nl, s + a);
		} else if (vl > 0 && *v != 'n') {
			sbuf_printf(&h, "#define %.*s %.*s\n", nl, s + a, vl, v);
			sbuf_printf(&um, "#define UML_%.*s %.*s\n", nl, s + a, vl, v);
		}
	}
	for (size_t i = 0; s && i < kt->default_y.n; i++) {
		char *set = xasprintf("\nCONFIG_%s=", kt->default_y.v[i]);
		char *unset = xasprintf("# CONFIG_%s is not set", kt->default_y.v[i]);

		if ((!kt->default_y_arch.v[i][0] || !strcmp(kt->default_y_arch.v[i], arch)) &&
		    !strstr(s, set) && !strstr(s, unset))
			sbuf_printf(&h, "#define CONFIG_%s 1 /* default y */\n",
				    kt->default_y.v[i]);
		free(set);
		free(unset);
	}
	char *hdir = xasprintf("%s/linux", dir);
	char *hp = xasprintf("%s/autoconf.h", hdir);
	char *up = xasprintf("%s/uml-config.h", dir);

	mkdirs(hdir);
	write_atomic(hp, h.s ? h.s : "");
	write_atomic(up, um.s ? um.s : "");
	free(hdir);
	free(hp);
	free(up);
	free(h.s);
	free(um.s);
	free(s);
	free(p);
}

static void link_into(const char *target, const char *link)
{
	if (symlink(target, link) && errno != EEXIST)
		return;
}

/* dir/asm: links to every entry of include/asm-ARCH, plus kbuild's links; a link to
 * include/asm-ARCH itself where kbuild adds none (a link per header costs a new inode
 * each, every run: hundreds per architecture). */
static void gen_asm_overlay(struct ktree *kt, const struct kt_choice *c, const char *dir)
{
	char *src = xasprintf("%s/include/asm-%s", kt->root, c->arch);
	char *asmd = xasprintf("%s/asm", dir);
	char *mach = c->mach[0] ? xasprintf("%s/arch-%s", src, c->mach) : NULL;
	DIR *d;
	struct dirent *e;

	if (strcmp(c->arch, "um") && !(mach && is_dir(mach))) {
		mkdirs(dir);
		link_into(src, asmd);
		free(mach);
		free(src);
		free(asmd);
		return;
	}
	free(mach);
	d = opendir(src);
	mkdirs(asmd);
	while (d && (e = readdir(d))) {
		char *t, *l;

		if (e->d_name[0] == '.')
			continue;
		t = xasprintf("%s/%s", src, e->d_name);
		l = xasprintf("%s/%s", asmd, e->d_name);
		link_into(t, l);
		/* um: processor-x86_64.h -> processor.h */
		size_t n = strlen(e->d_name);

		if (!strcmp(c->arch, "um") && n > 9 && !strcmp(e->d_name + n - 9, "-x86_64.h")) {
			char *l2 = xasprintf("%s/%.*s.h", asmd, (int)(n - 9), e->d_name);

			link_into(t, l2);
			free(l2);
		}
		free(t);
		free(l);
	}
	if (d)
		closedir(d);
	if (!strcmp(c->arch, "um")) {
		char *t = xasprintf("%s/include/asm-x86", kt->root);
		char *l = xasprintf("%s/arch", asmd);
		char *st = xasprintf("%s/arch/um/include/sysdep-x86_64", kt->root);
		char *sl = xasprintf("%s/sysdep", dir);

		link_into(t, l);
		link_into(st, sl);
		free(t);
		free(l);
		free(st);
		free(sl);
	} else if (c->mach[0]) {
		char *t = xasprintf("%s/include/asm-%s/arch-%s", kt->root, c->arch, c->mach);
		char *l = xasprintf("%s/arch", asmd);

		if (is_dir(t))
			link_into(t, l);
		free(t);
		free(l);
	}
	free(src);
	free(asmd);
}

static const char *triple_of(const char *arch, const char *config_text)
{
	bool b64 = config_text && strstr(config_text, "\nCONFIG_64BIT=y");

	if (!strcmp(arch, "x86"))
		return config_text && strstr(config_text, "\nCONFIG_X86_32=y") ? "i386-linux-gnu"
									       : "x86_64-linux-gnu";
	if (!strcmp(arch, "um"))
		return "x86_64-linux-gnu";
	if (!strcmp(arch, "powerpc") || !strcmp(arch, "ppc"))
		return config_text && strstr(config_text, "\nCONFIG_PPC64=y")
			   ? "powerpc64-linux-gnu"
			   : "powerpc-linux-gnu";
	if (!strcmp(arch, "sparc64"))
		return "sparcv9-linux-gnu";
	if (!strcmp(arch, "sparc"))
		return "sparc-linux-gnu";
	if (!strcmp(arch, "s390"))
		return b64 ? "s390x-linux-gnu" : "s390x-linux-gnu";
	if (!strcmp(arch, "m68k"))
		return "m68k-linux-gnu";
	if (!strcmp(arch, "arm"))
		return "arm-linux-gnueabi";
	if (!strcmp(arch, "mips"))
		return "mips-linux-gnu";
	return NULL; /* parse with the host's target */
}

/* EXTRA_CFLAGS / CFLAGS_file.o of the directory's Makefile: their -I. */
static void makefile_includes(struct ktree *kt, const char *dir, const char *base,
			      struct bm_strlist *a)
{
	char *mkp = xasprintf("%s/%s/Makefile", kt->root, dir);
	size_t len, q = 0, la, lb;
	char *s = read_file(mkp, &len);
	char *own = xasprintf("CFLAGS_%.*so", (int)(strlen(base) - 1), base);

	if (s)
		join_continuations(s), len = strlen(s);
	while (s && next_line(s, len, &q, &la, &lb)) {
		if (!(memmem(s + la, lb - la, "EXTRA_CFLAGS", 12) ||
		      memmem(s + la, lb - la, "ccflags-y", 9) ||
		      memmem(s + la, lb - la, own, strlen(own))))
			continue;
		for (size_t k = la; k + 2 < lb; k++) {
			if (s[k] != '-' || s[k + 1] != 'I' ||
			    (k > la && !isspace((unsigned char)s[k - 1])))
				continue;
			size_t v = k + 2, ve = v;

			while (ve < lb && !isspace((unsigned char)s[ve]))
				ve++;
			char *val = xstrndup(s + v, ve - v);
			char *path;

			if (!strncmp(val, "$(src)", 6) || !strncmp(val, "$(obj)", 6))
				path = xasprintf("%s/%s%s", kt->root, dir, val + 6);
			else if (!strncmp(val, "$(srctree)", 10))
				path = xasprintf("%s%s", kt->root, val + 10);
			else if (val[0] != '/' && val[0] != '$')
				path = xasprintf("%s/%s", kt->root, val);
			else
				path = NULL;
			if (path && is_dir(path))
				strlist_push_owned(a, xasprintf("-I%s", path));
			free(path);
			free(val);
		}
	}
	free(own);
	free(s);
	free(mkp);
}

static void compute(struct ktree *kt, const char *path, struct kt_cached *out)
{
	char abs[PATH_MAX];
	const char *rel;
	struct kt_choice c = {0};
	size_t len = 0;
	char *src, *defconfig, *cfgdir, *asmdir, *config_text = NULL;

	if (!kt->sym_indexed)
		index_arches(kt);
	if (!realpath(path, abs))
		snprintf(abs, sizeof(abs), "%s", path);
	rel = abs;
	if (!strncmp(abs, kt->root, strlen(kt->root)) && abs[strlen(kt->root)] == '/')
		rel = abs + strlen(kt->root) + 1;
	src = read_file(abs, &len);
	choose_arch(kt, rel, src ? src : "", src ? len : 0, &c);
	free(src);
	defconfig = choose_defconfig(kt, &c);
	if (defconfig) {
		char *p = xasprintf("%s/%s", kt->root, defconfig);
		size_t l;
		char *raw = read_file(p, &l);

		config_text = raw ? xasprintf("\n%s", raw) : NULL;
		free(raw);
		free(p);
	}
	{
		char *key = xasprintf("%s", defconfig ? defconfig : c.arch);

		for (char *k = key; *k; k++)
			if (*k == '/')
				*k = '_';
		cfgdir = xasprintf("%s/config/%s", kt->tmp, key);
		free(key);
	}
	asmdir = xasprintf("%s/asm-%s%s%s", kt->tmp, c.arch, c.mach[0] ? "-" : "", c.mach);
	if (!strlist_has(&kt->made, cfgdir)) {
		mkdirs(cfgdir);
		if (defconfig)
			gen_autoconf(kt, defconfig, c.arch, cfgdir);
		strlist_push(&kt->made, cfgdir);
	}
	if (!strlist_has(&kt->made, asmdir)) {
		gen_asm_overlay(kt, &c, asmdir);
		strlist_push(&kt->made, asmdir);
	}

	struct bm_strlist *a = &out->args;
	const char *triple = triple_of(c.arch, config_text);
	char *dir = xstrdup(rel), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : rel;
	char *basename;

	if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
	if (triple) {
		strlist_push(a, "-target");
		strlist_push(a, triple);
	}
	strlist_push_owned(a, xasprintf("-I%s", asmdir));
	if (!strcmp(c.arch, "um")) {
		strlist_push_owned(a, xasprintf("-I%s/arch/um/include", kt->root));
		strlist_push_owned(a, xasprintf("-I%s/arch/um/include/skas", kt->root));
		strlist_push_owned(a, xasprintf("-I%s", cfgdir)); /* uml-config.h */
		strlist_push(a, "-D__arch_um__");
		strlist_push(a, "-DSUBARCH=\"x86_64\"");
		strlist_push(a, "-Dvmap=kernel_vmap");
	}
	if (!strcmp(c.arch, "arm"))
		strlist_push(a, "-D__LINUX_ARM_ARCH__=5");
	if (!strcmp(c.arch, "x86") && triple && !strncmp(triple, "i386", 4))
		strlist_push_owned(a, xasprintf("-I%s/include/asm-x86/mach-default", kt->root));
	strlist_push_owned(a, xasprintf("-I%s", cfgdir));
	strlist_push_owned(a, xasprintf("-I%s/include", kt->root));
	makefile_includes(kt, dir, base, a);
	{
		char *ac = xasprintf("%s/linux/autoconf.h", cfgdir);

		if (exists(ac)) {
			strlist_push(a, "-include");
			strlist_push(a, ac);
		}
		free(ac);
	}
	if (c.symbol && !(config_text && config_sets(config_text, c.symbol)))
		strlist_push_owned(a, xasprintf("-DCONFIG_%s=1", c.symbol));
	basename = xstrndup(base, strlen(base) > 2 ? strlen(base) - 2 : strlen(base));
	for (char *k = basename; *k; k++)
		if (!is_word((unsigned char)*k))
			*k = '_';
	strlist_push(a, "-DKBUILD_STR(s)=#s");
	strlist_push_owned(a, xasprintf("-DKBUILD_BASENAME=KBUILD_STR(%s)", basename));
	strlist_push_owned(a, xasprintf("-DKBUILD_MODNAME=KBUILD_STR(%s)", basename));
	out->summary =
	    xasprintf("arch %s (%s), %s%s%s", c.arch, c.why, defconfig ? defconfig : "no defconfig",
		      c.symbol ? ", CONFIG_" : "", c.symbol ? c.symbol : "");
	free(basename);
	free(dir);
	free(c.symbol);
	free(c.why);
	free(defconfig);
	free(cfgdir);
	free(asmdir);
	free(config_text);
}

static struct kt_cached *lookup(struct ktree *kt, const char *path)
{
	for (size_t i = 0; i < kt->ncache; i++)
		if (!strcmp(kt->cache[i].path, path))
			return &kt->cache[i];
	struct kt_cached *c = vec_push(kt->cache, kt->ncache, kt->cap);

	c->path = xstrdup(path);
	compute(kt, path, c);
	return c;
}

void ktree_file_args(struct ktree *kt, const char *path, struct bm_strlist *args)
{
	struct kt_cached *c = lookup(kt, path);

	for (size_t i = 0; i < c->args.n; i++)
		strlist_push(args, c->args.v[i]);
}

const char *ktree_file_summary(struct ktree *kt, const char *path)
{
	return lookup(kt, path)->summary;
}
