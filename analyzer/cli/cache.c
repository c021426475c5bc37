/*
 * cache.c - the result cache of `blkmig migrate` (cache.h): keys, the record
 * of a run's inputs, validation and atomic storage of entries.
 *
 * An entry is valid for one command: the key hashes (SHA-256) the blkmig
 * binary itself, the command line, the working directory, and what the caller
 * adds (libclang's version, spatch's identity, the semantic patches).  The
 * result of the run depends on more than its own files: facts come from other
 * files of the tree (callers, queue registrations) and from the headers each
 * parse included, so the entry lists every input with its content hash:
 * every file the run read (read_file()), every file a parse included
 * (libclang's inclusions), and the entries (the names listed) of every directory
 * on the way to them inside the walked trees, so that a file added, removed
 * or renamed (a header that was missing and stubbed, a new caller) is seen
 * too; and every place a parse looked for a header in vain (each include
 * folder for a header it did not find, the folders before the one it was
 * found in for the others, inside the walked trees or not: "missing"), so
 * that the header appearing there later is seen as well.  A hit needs every input
 * unchanged.  The entry is written only when no input changed while the run
 * went on; a damaged entry (checksum of its body) is ignored.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "cache.h"
#include "cleanup.h"
#include "util.h"

#define CACHE_FORMAT "blkmig-cache 1"

struct dep {
	char *path;
	char hash[65]; /* "" until hashed (an include, hashed at store time); a folder's
			* listing (dir_listing) */
	bool is_dir;
	bool explicit; /* bm_cache_add_input(): hashed when added, checked again at store */
};

struct bm_cache {
	EVP_MD_CTX *key;
	char *dir, *entry;
	struct bm_strlist roots;
	struct dep *deps;
	size_t ndeps, deps_cap;
	long *slots; /* open addressing over deps by path */
	size_t nslots;
	struct timespec started;
	bool spoiled;
};

static struct bm_cache *recording; /* the cache that read_file reports to */
/* one more that the same reads go to (bm_cache_record_also): a part of the run's own entry */
static struct bm_cache *also;

static void hex(const unsigned char *d, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
	out[2 * n] = '\0';
}

static void sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
	hex(md, n, out);
}

/*
 * The hash of PATH's content ("missing" when it cannot be read), never an input of a
 * recording run.  Hashed once per process for a given inode, size and modification
 * time: a run checks the same headers for many entries (every file's parse includes
 * most of them).  A file changed within the clock's tick may change again unseen: not
 * kept.
 */
static void file_hash(const char *path, char out[65])
{
	static struct hashed {
		char *path;
		dev_t dev;
		ino_t ino;
		off_t size;
		struct timespec mtime;
		char hash[65];
	} * memo;
	static size_t nslots, nmemo;
	void (*hook)(const char *, const char *, size_t) = bm_input_hook;
	struct stat st;
	size_t h = 0, len = 0;
	char *s;

	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		strcpy(out, "missing");
		return;
	}
	if (nslots)
		for (h = bm_str_hash(path) % nslots; memo[h].path; h = (h + 1) % nslots)
			if (!strcmp(memo[h].path, path))
				break;
	if (nslots && memo[h].path && memo[h].dev == st.st_dev && memo[h].ino == st.st_ino &&
	    memo[h].size == st.st_size && memo[h].mtime.tv_sec == st.st_mtim.tv_sec &&
	    memo[h].mtime.tv_nsec == st.st_mtim.tv_nsec) {
		strcpy(out, memo[h].hash);
		return;
	}
	bm_input_hook = NULL;
	s = read_file(path, &len);
	bm_input_hook = hook;
	if (!s) {
		strcpy(out, "missing");
		return;
	}
	sha256_hex(s, len, out);
	free(s);
	if (time(NULL) - st.st_mtim.tv_sec <= 1)
		return;
	if (2 * (nmemo + 1) > nslots) { /* grow: open addressing, half full at most */
		struct hashed *old = memo;
		size_t n = nslots;

		nslots = nslots ? 2 * nslots : 4096;
		memo = xcalloc(nslots, sizeof(*memo));
		for (size_t i = 0; i < n; i++) {
			size_t k;

			if (!old[i].path)
				continue;
			for (k = bm_str_hash(old[i].path) % nslots; memo[k].path;
			     k = (k + 1) % nslots)
				;
			memo[k] = old[i];
		}
		free(old);
		for (h = bm_str_hash(path) % nslots; memo[h].path; h = (h + 1) % nslots)
			if (!strcmp(memo[h].path, path))
				break;
	}
	if (!memo[h].path) {
		memo[h].path = xstrdup(path);
		nmemo++;
	}
	memo[h].dev = st.st_dev;
	memo[h].ino = st.st_ino;
	memo[h].size = st.st_size;
	memo[h].mtime = st.st_mtim;
	strcpy(memo[h].hash, out);
}

void bm_cache_hash_file(const char *path, char out[65])
{
	file_hash(path, out);
}

static void key_add(struct bm_cache *c, const char *label, const void *data, size_t len)
{
	char n[32];

	/* label and length first: no two sequences of parts hash alike */
	snprintf(n, sizeof(n), "\n%zu\n", len);
	EVP_DigestUpdate(c->key, label, strlen(label));
	EVP_DigestUpdate(c->key, n, strlen(n));
	EVP_DigestUpdate(c->key, data, len);
}

void bm_cache_key_text(struct bm_cache *c, const char *label, const char *text, size_t len)
{
	if (c)
		key_add(c, label, text ? text : "", text ? len : 0);
}

void bm_cache_key_file(struct bm_cache *c, const char *path)
{
	size_t len = 0;
	char *s;

	if (!c)
		return;
	s = read_file(path, &len);
	key_add(c, "file", path, strlen(path));
	key_add(c, s ? "content" : "missing", s ? s : "", s ? len : 0);
	free(s);
}

void bm_cache_key_stat(struct bm_cache *c, const char *path)
{
	struct stat st;
	char *id;

	if (!c)
		return;
	if (stat(path, &st))
		id = xasprintf("%s missing", path);
	else
		id = xasprintf("%s %lld %lld.%09ld %llu", path, (long long)st.st_size,
			       (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
			       (unsigned long long)st.st_ino);
	key_add(c, "stat", id, strlen(id));
	free(id);
}

/*
 * An entry is written to CACHE_TMP_PREFIX "<pid>.XXXXXX" and renamed: a signal removes
 * it (cleanup_add_file), and a later store removes those of runs that are gone (SIGKILL),
 * and unmarked ones (".tmp-XXXXXX", older versions) a day old.
 */
#define CACHE_TMP_PREFIX ".tmp-"

static void remove_stale_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	time_t now = time(NULL);

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *n = e->d_name, *p = n + strlen(CACHE_TMP_PREFIX);
		char *end, *path;
		long pid;
		struct stat st;
		bool stale;

		if (strncmp(n, CACHE_TMP_PREFIX, strlen(CACHE_TMP_PREFIX)))
			continue;
		errno = 0;
		pid = *p >= '1' && *p <= '9' ? strtol(p, &end, 10) : 0;
		if (pid > 0 && !errno && *end == '.' && strlen(end + 1) == 6)
			stale = pid != (long)getpid() && kill((pid_t)pid, 0) < 0 && errno == ESRCH;
		else
			stale = false; /* unmarked: decided by its age below */
		path = xasprintf("%s/%s", dir, n);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    (stale || (pid <= 0 && strlen(p) == 6 && now - st.st_mtime > 86400)))
			unlink(path);
		free(path);
	}
	closedir(d);
}

/*
 * Entries neither written nor used for CACHE_KEEP_DAYS are removed, once per run that
 * stores one, as it exits: each edit of a file makes a new entry of its spatch result
 * (spatch_cache.c), so entries would otherwise only ever accumulate.  At exit, not at
 * the first store: an entry the run looks up later (a file's spatch result, after the
 * inventory kept its parses) is used, not removed.
 */
#define CACHE_KEEP_DAYS 30

static char *prune_dir; /* the folder to prune as the run exits */

static void prune_unused(void)
{
	const char *dir = prune_dir;
	DIR *d;
	struct dirent *e;
	time_t now = time(NULL);

	if (!dir || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct stat st;
		char *path;

		if ((n < 7 || strcmp(e->d_name + n - 6, ".entry")) &&
		    (n < 6 || strcmp(e->d_name + n - 5, ".blob")))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    now - st.st_mtime > CACHE_KEEP_DAYS * 86400L)
			unlink(path);
		free(path);
	}
	closedir(d);
	free(prune_dir);
	prune_dir = NULL;
}

static void prune_at_exit(const char *dir)
{
	if (prune_dir)
		return;
	prune_dir = xstrdup(dir);
	atexit(prune_unused);
}

static char *cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x && *x == '/')
		return xasprintf("%s/blkmig", x);
	if (home && *home)
		return xasprintf("%s/.cache/blkmig", home);
	return NULL;
}

static struct bm_cache *open_keyed(const char *command, int argc, char **argv, bool by_cwd);

struct bm_cache *bm_cache_open(const char *command, int argc, char **argv)
{
	return open_keyed(command, argc, argv, true);
}

struct bm_cache *bm_cache_open_anywhere(const char *command, int argc, char **argv)
{
	return open_keyed(command, argc, argv, false);
}

static struct bm_cache *open_keyed(const char *command, int argc, char **argv, bool by_cwd)
{
	static char self_hash[65];
	struct bm_cache *c;
	char cwd[PATH_MAX], *self, *dir;
	size_t len = 0;
	const char *env_keys[] = {"SPATCH", "BLKMIG_COCCI_DIR", "BLKMIG_FAULT_INJECT"};

	if (getenv("BLKMIG_NO_CACHE") || getenv("BLKMIG_FAULT_INJECT") ||
	    !getcwd(cwd, sizeof(cwd)) || !(dir = cache_dir()))
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->dir = dir;
	c->key = EVP_MD_CTX_new();
	EVP_DigestInit_ex(c->key, EVP_sha256(), NULL);
	key_add(c, CACHE_FORMAT, command, strlen(command));
	/* the binary, hashed once per process (a run opens an entry per file) */
	if (!self_hash[0]) {
		self = read_file("/proc/self/exe", &len);
		if (!self) {
			bm_cache_close(c);
			return NULL;
		}
		sha256_hex(self, len, self_hash);
		free(self);
	}
	key_add(c, "tool", self_hash, strlen(self_hash));
	if (by_cwd)
		key_add(c, "cwd", cwd, strlen(cwd));
	for (int i = 0; i < argc; i++)
		key_add(c, "arg", argv[i], strlen(argv[i]));
	for (size_t i = 0; i < sizeof(env_keys) / sizeof(env_keys[0]); i++) {
		const char *v = getenv(env_keys[i]);

		key_add(c, env_keys[i], v ? v : "", v ? strlen(v) : 0);
	}
	clock_gettime(CLOCK_REALTIME, &c->started);
	return c;
}

const char *bm_cache_entry_path(const struct bm_cache *c)
{
	return c ? c->entry : NULL;
}

static void finish_key(struct bm_cache *c)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	char h[65];

	if (c->entry)
		return;
	EVP_DigestFinal_ex(c->key, md, &n);
	hex(md, n, h);
	c->entry = xasprintf("%s/%s.entry", c->dir, h);
}

void bm_cache_add_root(struct bm_cache *c, const char *dir)
{
	char real[PATH_MAX];
	struct stat st;

	if (!c || stat(dir, &st) || !S_ISDIR(st.st_mode))
		return;
	strlist_push(&c->roots, dir);
	if (realpath(dir, real) && strcmp(real, dir))
		strlist_push(&c->roots, real);
}

static struct dep *dep_find(struct bm_cache *c, const char *path, bool add)
{
	size_t h;

	if (c->ndeps * 2 + 2 > c->nslots) {
		size_t n = c->nslots ? c->nslots * 2 : 4096;

		free(c->slots);
		c->slots = xmalloc(n * sizeof(long));
		c->nslots = n;
		for (size_t i = 0; i < n; i++)
			c->slots[i] = -1;
		for (size_t i = 0; i < c->ndeps; i++) {
			for (h = bm_str_hash(c->deps[i].path) % n; c->slots[h] >= 0;
			     h = (h + 1) % n)
				;
			c->slots[h] = (long)i;
		}
	}
	for (h = bm_str_hash(path) % c->nslots; c->slots[h] >= 0; h = (h + 1) % c->nslots)
		if (!strcmp(c->deps[c->slots[h]].path, path))
			return &c->deps[c->slots[h]];
	if (!add)
		return NULL;
	struct dep *d = vec_push(c->deps, c->ndeps, c->deps_cap);

	memset(d, 0, sizeof(*d));
	d->path = xstrdup(path);
	c->slots[h] = (long)(c->ndeps - 1);
	return d;
}

static bool changed_since_start(const struct bm_cache *c, const struct timespec *t)
{
	/* 50 ms of slack: file times come from a clock that lags by up to a tick */
	long long ns = (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
	long long st = (long long)c->started.tv_sec * 1000000000LL + c->started.tv_nsec;

	return ns >= st - 50000000LL;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * What a directory's entries are: the hash of its sorted names, each with its type and, for
 * a symbolic link, its target ("missing" when it cannot be listed).  Not the directory's
 * mtime: a file written by renaming a new copy over it (as editors do) leaves the entries
 * as they were, and its content is an input of its own; a file added, removed, renamed or
 * replaced by another kind, or a link pointed elsewhere, changes them.  Listed once per process for
 * a given mtime and inode (a run asks for the same folders for many entries).
 */
static void dir_listing(const char *dir, char out[65])
{
	static struct listed {
		char *path;
		struct timespec mtime;
		ino_t ino;
		char hash[65];
	} * memo;
	static size_t nmemo, memo_cap;
	struct stat st;
	struct bm_strlist names = {0};
	struct sbuf b = {0};
	struct dirent *e;
	DIR *d;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		strcpy(out, "missing");
		return;
	}
	for (size_t i = 0; i < nmemo; i++)
		if (!strcmp(memo[i].path, dir) && memo[i].ino == st.st_ino &&
		    memo[i].mtime.tv_sec == st.st_mtim.tv_sec &&
		    memo[i].mtime.tv_nsec == st.st_mtim.tv_nsec) {
			strcpy(out, memo[i].hash);
			return;
		}
	if (!(d = opendir(dir))) {
		strcpy(out, "missing");
		return;
	}
	while ((e = readdir(d))) {
		char *p, target[PATH_MAX];
		unsigned char type = e->d_type;
		ssize_t n = -1;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (type == DT_UNKNOWN) {
			struct stat ls;

			if (!lstat(p, &ls))
				type = S_ISLNK(ls.st_mode)   ? DT_LNK
				       : S_ISDIR(ls.st_mode) ? DT_DIR
							     : DT_REG;
		}
		/* a link's target is not read as an input, but reports name it (walk.c) */
		if (type == DT_LNK)
			n = readlink(p, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		strlist_push_owned(&names, xasprintf("%s/%u/%s", e->d_name, type, target));
		free(p);
	}
	closedir(d);
	qsort(names.v, names.n, sizeof(*names.v), name_cmp);
	for (size_t i = 0; i < names.n; i++) /* each name with its NUL */
		sbuf_addn(&b, names.v[i], strlen(names.v[i]) + 1);
	sha256_hex(b.s ? b.s : "", b.len, out);
	free(b.s);
	strlist_free(&names);
	/* a folder changed within the clock's tick may change again unseen: not kept */
	if (time(NULL) - st.st_mtim.tv_sec > 1) {
		struct listed *l = vec_push(memo, nmemo, memo_cap);

		l->path = xstrdup(dir);
		l->mtime = st.st_mtim;
		l->ino = st.st_ino;
		strcpy(l->hash, out);
	}
}

static void note_dir(struct bm_cache *c, const char *dir)
{
	struct stat st;
	struct dep *d;

	if (dep_find(c, dir, false))
		return;
	d = dep_find(c, dir, true);
	d->is_dir = true;
	dir_listing(dir, d->hash);
	/* the listing is taken now: one that changes during the run is not known */
	if (!stat(dir, &st) && changed_since_start(c, &st.st_mtim))
		c->spoiled = true;
}

/* The directories from PATH's own up to the walked tree that holds it (only its
 * own directory outside every tree). */
static void note_dirs_of(struct bm_cache *c, const char *path)
{
	char *d = xstrdup(path), *slash;
	size_t best = 0;

	for (size_t i = 0; i < c->roots.n; i++) {
		size_t n = strlen(c->roots.v[i]);

		if (!strncmp(path, c->roots.v[i], n) && (path[n] == '/' || !path[n]) && n > best)
			best = n;
	}
	while ((slash = strrchr(d, '/'))) {
		*slash = '\0';
		note_dir(c, *d ? d : "/");
		if (strlen(d) <= best || !best || !*d)
			break;
	}
	if (!strchr(path, '/'))
		note_dir(c, ".");
	free(d);
}

static void note_input_into(struct bm_cache *c, const char *path, const char *data, size_t len)
{
	struct dep *d;

	char real[PATH_MAX];

	if (!c || !path || !strcmp(path, "/proc/self/exe"))
		return;
	/* a run's private folder is never an input of its own: what is in it comes from
	 * the inputs */
	if (cleanup_is_private(path)) {
		/* a private link to a file of the tree (--kernel-tree's asm overlay): that
		 * file is the input; what was generated there comes from files read */
		if (!realpath(path, real) || cleanup_is_private(real))
			return;
		path = real;
		data = NULL; /* hashed from the file itself at store time */
	}
	d = dep_find(c, path, false);
	if (d && (d->hash[0] || !data))
		return;
	if (!d) {
		dep_find(c, path, true);
		/* adds the directories to c->deps, which may move it: find d again */
		note_dirs_of(c, path);
		d = dep_find(c, path, false);
	}
	if (data)
		sha256_hex(data, len, d->hash);
}

static void note_input(const char *path, const char *data, size_t len)
{
	note_input_into(recording, path, data, len);
	note_input_into(also, path, data, len);
}

void bm_cache_note_include(const char *path)
{
	note_input(path, NULL, 0);
}

void bm_cache_add_include(struct bm_cache *c, const char *path)
{
	note_input_into(c, path, NULL, 0);
}

void bm_cache_since(struct bm_cache *c, const struct timespec *t)
{
	if (c)
		c->started = *t;
}

/* A file a parse looked for and did not find (parse.c: a header in an include folder,
 * maybe outside every walked tree): recorded "missing", so that a run after it appears
 * is no hit (it was: the folder was not an input unless a header was read from it). */
static void note_missing_into(struct bm_cache *c, const char *path)
{
	struct dep *d;

	if (!c || !path || cleanup_is_private(path) || dep_find(c, path, false))
		return;
	d = dep_find(c, path, true);
	strcpy(d->hash, "missing");
}

void bm_cache_add_missing(struct bm_cache *c, const char *path)
{
	note_missing_into(c, path);
}

static void note_missing(const char *path)
{
	note_missing_into(recording, path);
	note_missing_into(also, path);
}

/* The hooks are set while one cache or the other records. */
static void set_hooks(void)
{
	bm_input_hook = recording || also ? note_input : NULL;
	bm_missing_hook = recording || also ? note_missing : NULL;
}

void bm_cache_record(struct bm_cache *c)
{
	if (!c)
		return;
	recording = c;
	set_hooks();
}

void bm_cache_record_also(struct bm_cache *c)
{
	also = c;
	set_hooks();
}

static void stop_recording(struct bm_cache *c)
{
	if (recording == c)
		recording = NULL;
	if (also == c)
		also = NULL;
	set_hooks();
}

void bm_cache_add_inputs_of(struct bm_cache *dst, const struct bm_cache *src)
{
	if (!dst || !src)
		return;
	for (size_t i = 0; i < src->ndeps; i++) {
		const struct dep *from = &src->deps[i];
		struct dep *d;
		char *path;

		if (dep_find(dst, from->path, false))
			continue;
		path = dep_find(dst, from->path, true)->path;
		d = &dst->deps[dst->ndeps - 1];
		*d = *from;
		d->path = path;
	}
	if (src->spoiled)
		dst->spoiled = true;
}

/* Whether every recorded input is as it was. */
static bool inputs_unchanged(json_t *deps)
{
	size_t i;
	json_t *d;

	json_array_foreach(deps, i, d)
	{
		const char *path = json_string_value(json_array_get(d, 0));
		const char *hash = json_string_value(json_array_get(d, 1));

		if (!path || !hash)
			return false;
		if (json_array_size(d) == 3) { /* a directory: "dir", its listing */
			const char *was = json_string_value(json_array_get(d, 2));
			char now[65];

			if (strcmp(hash, "dir") || !was)
				return false;
			dir_listing(path, now);
			if (strcmp(now, was))
				return false;
			continue;
		}
		char h[65];

		file_hash(path, h);
		if (strcmp(h, hash))
			return false;
	}
	return true;
}

json_t *bm_cache_lookup(struct bm_cache *c)
{
	size_t len = 0;
	char *s, sum[65], *nl;
	json_t *doc, *state = NULL;
	json_error_t err;

	void (*hook)(const char *, const char *, size_t) = bm_input_hook;

	if (!c)
		return NULL;
	finish_key(c);
	/* what a lookup reads (the entry, the inputs it checks) is not an input of the run
	 * that is recording, if one is (a file's spatch result looked up during a run) */
	bm_input_hook = NULL;
	s = read_file(c->entry, &len);
	if (!s) {
		bm_input_hook = hook;
		return NULL;
	}
	nl = memchr(s, '\n', len);
	/* "blkmig-cache 1 <sha256 of the body>\n<body>" */
	if (!nl || (size_t)(nl - s) != strlen(CACHE_FORMAT) + 1 + 64 ||
	    strncmp(s, CACHE_FORMAT " ", strlen(CACHE_FORMAT) + 1)) {
		free(s);
		bm_input_hook = hook;
		return NULL;
	}
	sha256_hex(nl + 1, len - (size_t)(nl + 1 - s), sum);
	if (memcmp(sum, s + strlen(CACHE_FORMAT) + 1, 64)) {
		free(s);
		bm_input_hook = hook;
		return NULL;
	}
	doc = json_loadb(nl + 1, len - (size_t)(nl + 1 - s), 0, &err);
	free(s);
	if (doc && json_is_array(json_object_get(doc, "inputs")) &&
	    json_is_object(json_object_get(doc, "state")) &&
	    inputs_unchanged(json_object_get(doc, "inputs")))
		state = json_incref(json_object_get(doc, "state"));
	json_decref(doc);
	bm_input_hook = hook;
	if (state) /* used: kept past the pruning of old entries (prune_unused) */
		utimensat(AT_FDCWD, c->entry, NULL, 0);
	return state;
}

/* The hash of PATH's content now ("missing" when it cannot be read), no run recording it. */
static void hash_now(const char *path, char out[65])
{
	file_hash(path, out);
}

void bm_cache_add_input(struct bm_cache *c, const char *path)
{
	struct dep *d;

	if (!c || dep_find(c, path, false))
		return;
	d = dep_find(c, path, true);
	d->explicit = true;
	hash_now(path, d->hash);
}

/* HEAD (if any) and BODY into PATH in DIR, through a temporary file renamed over it. */
static bool write_atomically(const char *dir, const char *path, const char *head, const char *body,
			     size_t len)
{
	char *tmp = xasprintf("%s/" CACHE_TMP_PREFIX "%ld.XXXXXX", dir, (long)getpid());
	int fd = mkstemp(tmp);
	bool ok = false;
	FILE *f;

	if (fd >= 0)
		cleanup_add_file(tmp); /* a signal during the write removes it */
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f && fd >= 0)
		close(fd);
	if (f) {
		/* fclose() closes f whatever it returns: no second close */
		bool written = (!head || fputs(head, f) >= 0) && fwrite(body, 1, len, f) == len &&
			       !fflush(f) && !fsync(fileno(f));
		ok = !fclose(f) && written;
	}
	if (!ok || rename(tmp, path)) {
		unlink(tmp);
		ok = false;
	}
	if (fd >= 0)
		cleanup_del_file(tmp, false);
	free(tmp);
	return ok;
}

void bm_cache_store(struct bm_cache *c, json_t *state)
{
	json_t *doc, *inputs;
	char *body, *head, sum[65];

	if (!c) {
		json_decref(state);
		return;
	}
	stop_recording(c);
	finish_key(c);
	inputs = json_array();
	for (size_t i = 0; i < c->ndeps && !c->spoiled; i++) {
		struct dep *d = &c->deps[i];

		json_t *item;

		if (d->is_dir) {
			item = json_pack("[s, s, s]", d->path, "dir", d->hash);
			/* a name JSON cannot hold (not UTF-8): an input we could not list */
			if (!item || json_array_append_new(inputs, item)) {
				c->spoiled = true;
				break;
			}
			continue;
		}
		if (!strcmp(d->hash, "missing") && !access(d->path, F_OK)) {
			c->spoiled = true; /* a missing header appeared during the run */
			break;
		}
		if (d->explicit) { /* hashed before the work it keys: the same after it? */
			char now[65];

			hash_now(d->path, now);
			if (strcmp(now, d->hash)) {
				c->spoiled = true;
				break;
			}
		}
		if (!d->hash[0]) { /* an include: hashed now, if it has not changed meanwhile */
			struct stat st;

			if (stat(d->path, &st) || changed_since_start(c, &st.st_mtim)) {
				c->spoiled = true;
				break;
			}
			file_hash(d->path, d->hash);
			if (!strcmp(d->hash, "missing")) {
				c->spoiled = true;
				break;
			}
		}
		item = json_pack("[s, s]", d->path, d->hash);
		if (!item || json_array_append_new(inputs, item)) {
			c->spoiled = true;
			break;
		}
	}
	if (c->spoiled) { /* an input changed during the run: its result is not kept */
		json_decref(inputs);
		json_decref(state);
		return;
	}
	doc = json_pack("{s:o, s:o}", "inputs", inputs, "state", state);
	body = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	if (!body || mkdirs(c->dir) < 0) {
		free(body);
		return;
	}
	sha256_hex(body, strlen(body), sum);
	remove_stale_tmp(c->dir);
	prune_at_exit(c->dir);
	head = xasprintf("%s %s\n", CACHE_FORMAT, sum);
	write_atomically(c->dir, c->entry, head, body, strlen(body));
	free(head);
	free(body);
}

bool bm_cache_put_blob(struct bm_cache *c, json_t *state, const char *field, const char *data,
		       size_t len)
{
	char sum[65], *path;
	bool have;

	if (!c)
		return false;
	sha256_hex(data, len, sum);
	path = xasprintf("%s/%s.blob", c->dir, sum);
	/* named by its hash: an identical blob is there already, and only touched */
	have = !access(path, F_OK) && !utimensat(AT_FDCWD, path, NULL, 0);
	if (!have && (mkdirs(c->dir) < 0 || !write_atomically(c->dir, path, NULL, data, len))) {
		free(path);
		return false;
	}
	free(path);
	json_object_set_new(state, field, json_string(sum));
	return true;
}

void bm_cache_store_blob(struct bm_cache *c, json_t *state, const char *blob, size_t len)
{
	if (bm_cache_put_blob(c, state, "blob", blob, len))
		bm_cache_store(c, state);
	else
		json_decref(state);
}

char *bm_cache_get_blob(struct bm_cache *c, json_t *state, const char *field, size_t *len)
{
	const char *want = json_string_value(json_object_get(state, field));
	void (*hook)(const char *, const char *, size_t) = bm_input_hook;
	char sum[65], *path, *s;

	if (!c || !want || strlen(want) != 64 || strchr(want, '/'))
		return NULL;
	path = xasprintf("%s/%s.blob", c->dir, want);
	bm_input_hook = NULL; /* the cache's own file: no input of a run */
	s = read_file(path, len);
	bm_input_hook = hook;
	if (s) {
		sha256_hex(s, *len, sum);
		if (strcmp(sum, want)) { /* damaged: as if gone */
			free(s);
			s = NULL;
		} else {
			utimensat(AT_FDCWD, path, NULL, 0); /* used: kept past prune_unused */
		}
	}
	free(path);
	return s;
}

bool bm_cache_blob_to(struct bm_cache *c, json_t *state, const char *field, const char *path)
{
	size_t len = 0;
	char *data = bm_cache_get_blob(c, state, field, &len), *blob;
	bool ok;
	FILE *f;

	if (!data)
		return false;
	/* checked: a second name for it (no copy of megabytes), else a copy */
	blob = xasprintf("%s/%s.blob", c->dir, json_string_value(json_object_get(state, field)));
	ok = link(blob, path) == 0;
	free(blob);
	if (!ok && (f = fopen(path, "w"))) {
		ok = fwrite(data, 1, len, f) == len;
		if (fclose(f))
			ok = false;
		if (!ok)
			unlink(path);
	}
	free(data);
	return ok;
}

char *bm_cache_blob(struct bm_cache *c, json_t *state, size_t *len)
{
	return bm_cache_get_blob(c, state, "blob", len);
}

void bm_cache_close(struct bm_cache *c)
{
	if (!c)
		return;
	stop_recording(c);
	EVP_MD_CTX_free(c->key);
	for (size_t i = 0; i < c->ndeps; i++)
		free(c->deps[i].path);
	free(c->deps);
	free(c->slots);
	strlist_free(&c->roots);
	free(c->dir);
	free(c->entry);
	free(c);
}
