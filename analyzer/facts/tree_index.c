/*
 * tree_index.c - which files of the tree matter, found cheaply.
 *
 * Parsing is the cost; reading is not.  Every file of the run is read once
 * anyway (prefilter.c); this pass looks at the identifiers in the code of the
 * files that were not parsed (comments and strings blanked: a name there is no
 * caller) and picks those the facts need:
 * - files that give a queue to blk_init_queue / blk_init_queue_node: the
 *   request_fn and the queue lock they register (IDE gives ide_lock in
 *   ide-probe.c, the completions are in ide-io.c);
 * - files that name a non-static function whose lock context on entry
 *   still matters (it contains a legacy call, or calls such a function
 *   while its own entry state decides): its callers;
 * - files that call through a struct member a function that matters was
 *   stored in (`.end_request = f`, `mq->issue_fn(...)`): ops-table callers.
 * One linear scan per unparsed file and round with a hash set of names, so
 * the cost grows with the files that matter, not with the names or the tree.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "tree_index.h"

struct name_set {
	const char **slot;
	unsigned char *kind; /* TREE_NAME | TREE_MEMBER, and in tree_scan FOUND_* */
	size_t cap;
};

/* tree_scan: the name was found already as a name, as a member */
enum { FOUND_NAME = 8, FOUND_MEMBER = 16 };

static size_t hash_n(const char *s, size_t n)
{
	size_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static void set_add(struct name_set *set, const char *name, unsigned char kind)
{
	size_t n = strlen(name), i = hash_n(name, n) % set->cap;

	while (set->slot[i] && strcmp(set->slot[i], name))
		i = (i + 1) % set->cap;
	set->slot[i] = name;
	set->kind[i] |= kind;
}

/* A set of the names (TREE_NAME) and members (TREE_MEMBER), with room for `more`. */
static void set_init(struct name_set *set, const struct bm_strlist *names,
		     const struct bm_strlist *members, size_t more)
{
	set->cap = (names->n + members->n + more) * 2 + 1;
	set->slot = xcalloc(set->cap, sizeof(*set->slot));
	set->kind = xcalloc(set->cap, 1);
	for (size_t i = 0; i < names->n; i++)
		set_add(set, names->v[i], TREE_NAME);
	for (size_t i = 0; i < members->n; i++)
		set_add(set, members->v[i], TREE_MEMBER);
}

/* The kind of s[0..n) in the set, 0 if absent; *at: its slot. */
static unsigned char set_find(const struct name_set *set, const char *s, size_t n, size_t *at)
{
	size_t i = hash_n(s, n) % set->cap;

	while (set->slot[i]) {
		if (strlen(set->slot[i]) == n && !memcmp(set->slot[i], s, n)) {
			*at = i;
			return set->kind[i];
		}
		i = (i + 1) % set->cap;
	}
	return 0;
}

static unsigned char set_kind(const struct name_set *set, const char *s, size_t n)
{
	size_t at;

	return set_find(set, s, n, &at);
}

/* isalnum() or '_' in the C locale (blkmig never sets another), without a call */
static bool ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* The next identifier of s from *p on, as the scans read them: [*p, *e); false at the
 * end (a run of identifier characters starting with a digit is a number's tail). */
static bool next_ident(const char *s, size_t len, size_t *p, size_t *e)
{
	while (*p < len && (!ident((unsigned char)s[*p]) || isdigit((unsigned char)s[*p])))
		(*p)++;
	if (*p >= len)
		return false;
	for (*e = *p; *e < len && ident((unsigned char)s[*e]);)
		(*e)++;
	return true;
}

/* Is the identifier at [p, e) called through a member: `->m(`, `.m(`, `->m)(`? */
static bool member_call_at(const char *s, size_t len, size_t p, size_t e)
{
	size_t b = p;

	while (b > 0 && isspace((unsigned char)s[b - 1]))
		b--;
	if (!(b >= 1 && s[b - 1] == '.') && !(b >= 2 && s[b - 1] == '>' && s[b - 2] == '-'))
		return false;
	while (e < len && isspace((unsigned char)s[e]))
		e++;
	if (e < len && s[e] == ')') { /* (*x->m)(...) */
		e++;
		while (e < len && isspace((unsigned char)s[e]))
			e++;
	}
	return e < len && s[e] == '(';
}

unsigned tree_scan(const char *s, size_t len, const struct bm_strlist *names,
		   const struct bm_strlist *members, struct bm_strlist *found)
{
	struct name_set set;
	unsigned what = 0;

	set_init(&set, names, members, 2);
	set_add(&set, "blk_init_queue", TREE_REGISTERS);
	set_add(&set, "blk_init_queue_node", TREE_REGISTERS);
	for (size_t p = 0, e = 0; next_ident(s, len, &p, &e); p = e) {
		size_t at = 0;
		unsigned char k = set_find(&set, s + p, e - p, &at);

		if (k & TREE_REGISTERS)
			what |= TREE_REGISTERS;
		if ((k & TREE_NAME) || ((k & TREE_MEMBER) && member_call_at(s, len, p, e))) {
			bool as_member = !(k & TREE_NAME);

			what |= as_member ? TREE_MEMBER : TREE_NAME;
			/* each key once, in the order first met (a bit in the set, not a
			 * search of the list: a file may name thousands) */
			unsigned char once = as_member ? FOUND_MEMBER : FOUND_NAME;

			if (found && !(set.kind[at] & once)) {
				set.kind[at] |= once;
				strlist_push_owned(found,
						   xasprintf("%c:%.*s", as_member ? 'm' : 'f',
							     (int)(e - p), s + p));
			}
		}
	}
	free(set.slot);
	free(set.kind);
	return what;
}

/* The 32 bits of an identifier's hash that tree_idents keeps (never 0); one called
 * through a member (member_call_at) is kept apart, as its hash with MEMBER_SALT. */
#define MEMBER_SALT 0x9e3779b9u
static uint32_t ident_hash(const char *s, size_t n, bool member)
{
	size_t h = hash_n(s, n);

	return ((uint32_t)(h ^ (h >> 32)) ^ (member ? MEMBER_SALT : 0)) | 1;
}

struct ident_table {
	uint32_t *slot; /* 0: free */
	size_t cap, used;
	size_t ncap;
};

/* Add h to OUT unless it is there (T: the hashes seen, open addressing). */
static void idents_add(struct ident_table *t, struct tree_idents *out, uint32_t h)
{
	size_t i = h & (t->cap - 1);

	while (t->slot[i] && t->slot[i] != h)
		i = (i + 1) & (t->cap - 1);
	if (t->slot[i])
		return;
	t->slot[i] = h;
	vec_append(out->h, out->n, t->ncap, h);
	if (++t->used * 2 <= t->cap)
		return;
	/* grow: insert them all again */
	free(t->slot);
	t->cap *= 2;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	for (size_t k = 0; k < out->n; k++) {
		size_t j = out->h[k] & (t->cap - 1);

		while (t->slot[j])
			j = (j + 1) & (t->cap - 1);
		t->slot[j] = out->h[k];
	}
}

unsigned tree_scan_idents(const char *s, size_t len, struct tree_idents *out)
{
	struct ident_table t = {xcalloc(1024, sizeof(uint32_t)), 1024, 0, 0};
	unsigned what = 0;

	out->h = NULL;
	out->n = 0;
	for (size_t p = 0, e = 0; next_ident(s, len, &p, &e); p = e) {
		/* tree_scan()'s registrations, with no names or members asked for */
		if ((e - p == 14 && !memcmp(s + p, "blk_init_queue", 14)) ||
		    (e - p == 19 && !memcmp(s + p, "blk_init_queue_node", 19)))
			what |= TREE_REGISTERS;
		idents_add(&t, out, ident_hash(s + p, e - p, false));
		if (member_call_at(s, len, p, e))
			idents_add(&t, out, ident_hash(s + p, e - p, true));
	}
	free(t.slot);
	/* kept for the whole run: no room to grow */
	if (out->n)
		out->h = xrealloc(out->h, out->n * sizeof(*out->h));
	return what;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void tree_filter_init(struct tree_filter *tf, const struct bm_strlist *names,
		      const struct bm_strlist *members)
{
	size_t cap = 0;

	memset(tf, 0, sizeof(*tf));
	for (size_t k = 0; k < names->n + members->n; k++) {
		bool member = k >= names->n;
		const char *v = member ? members->v[k - names->n] : names->v[k];
		uint32_t h = ident_hash(v, strlen(v), member);

		tf->bits[(h >> 5) % TREE_FILTER_WORDS] |= 1u << (h & 31);
		vec_append(tf->wanted, tf->nwanted, cap, h);
	}
	if (tf->nwanted)
		qsort(tf->wanted, tf->nwanted, sizeof(*tf->wanted), u32_cmp);
}

void tree_filter_free(struct tree_filter *tf)
{
	free(tf->wanted);
	tf->wanted = NULL;
	tf->nwanted = 0;
}

bool tree_filter_may_name(const struct tree_filter *tf, const struct tree_idents *ids)
{
	for (size_t k = 0; k < ids->n; k++) {
		uint32_t h = ids->h[k];

		if ((tf->bits[(h >> 5) % TREE_FILTER_WORDS] & (1u << (h & 31))) &&
		    bsearch(&h, tf->wanted, tf->nwanted, sizeof(h), u32_cmp))
			return true;
	}
	return false;
}

/*
 * Does function f contain a legacy call whose lock state is its entry
 * state?  A call the AST does not show (a macro, a parse error) counts.
 */
static bool entry_decides_a_hit(struct ctx *cx, const struct func *f)
{
	const struct tunit *t = &cx->tus[f->tu];
	size_t lo = 0, hi = t->nhits;

	/* the hits are in text order (prefilter.c scans forward): the function's first
	 * by bisection, not a walk over the file's hits for each function */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->hits[mid].offset < f->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < t->nhits && t->hits[i].offset < f->end; i++) {
		bool seen = false, decided = false;

		if (t->hits[i].offset < f->start || t->hits[i].in_define)
			continue;
		for (int n = 0; n < f->nnodes && !seen; n++) {
			if (f->nodes[n].kind != CXCursor_CallExpr ||
			    f->nodes[n].start != t->hits[i].offset)
				continue;
			seen = true;
			decided = f->nodes[n].lock == LK_HELD || f->nodes[n].lock == LK_NOT;
		}
		if (!decided)
			return true;
	}
	return false;
}

void tree_wanted(struct ctx *cx, struct bm_strlist *names, struct bm_strlist *members)
{
	bool *matter = xcalloc(cx->nfuncs + 1, sizeof(bool));
	bool changed = true;

	for (size_t i = 0; i < cx->nfuncs; i++)
		matter[i] = entry_decides_a_hit(cx, &cx->funcs[i]);
	/* a caller matters when its state at the call is its own entry state */
	while (changed) {
		changed = false;
		for (size_t k = 0; k < cx->ncalls + cx->nmcalls; k++) {
			struct call *c =
			    k < cx->ncalls ? &cx->calls[k] : &cx->mcalls[k - cx->ncalls];
			enum lk v;

			if (c->callee < 0 || !matter[c->callee] || matter[c->func])
				continue;
			v = cx->funcs[c->func].nodes[c->node].lock;
			if (v == LK_HELD || v == LK_NOT)
				continue;
			matter[c->func] = true;
			changed = true;
		}
	}
	/* what is in each list already, by hash (a list may grow to every function) */
	struct name_set have;

	set_init(&have, names, members, cx->nfuncs + cx->mstore_member.n);
	/* the stores of each function: mstore_func is in store order, not by function */
	long *store_head = xmalloc((cx->nfuncs + 1) * sizeof(long));
	long *store_next = xmalloc((cx->mstore_member.n + 1) * sizeof(long));

	for (size_t i = 0; i < cx->nfuncs; i++)
		store_head[i] = -1;
	for (size_t k = cx->mstore_member.n; k-- > 0;) {
		store_next[k] = -1;
		if (cx->mstore_func[k] >= 0) {
			store_next[k] = store_head[cx->mstore_func[k]];
			store_head[cx->mstore_func[k]] = (long)k;
		}
	}
	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];

		if (!matter[i] || f->role != ROLE_NONE)
			continue;
		if (!f->is_static && strcmp(f->name, "init_module") &&
		    strcmp(f->name, "cleanup_module") &&
		    !(set_kind(&have, f->name, strlen(f->name)) & TREE_NAME)) {
			strlist_push(names, f->name);
			set_add(&have, names->v[names->n - 1], TREE_NAME);
		}
		for (long k = store_head[i]; k >= 0; k = store_next[k]) {
			const char *m = cx->mstore_member.v[k];

			if (set_kind(&have, m, strlen(m)) & TREE_MEMBER)
				continue;
			strlist_push(members, m);
			set_add(&have, members->v[members->n - 1], TREE_MEMBER);
		}
	}
	free(have.slot);
	free(have.kind);
	free(store_head);
	free(store_next);
	free(matter);
}
