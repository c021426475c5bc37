/*
 * tree_index.c - which files of the tree matter, found cheaply.
 *
 * Parsing is the cost; reading is not.  Every file of the run is read once
 * anyway (prefilter.c); this pass looks at the identifiers of the files that
 * were not parsed and picks those the facts need:
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
#include <string.h>

#include "analysis.h"
#include "tree_index.h"

struct name_set {
	const char **slot;
	unsigned char *kind; /* TREE_NAME | TREE_MEMBER */
	size_t cap;
};

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

static unsigned char set_kind(const struct name_set *set, const char *s, size_t n)
{
	size_t i = hash_n(s, n) % set->cap;

	while (set->slot[i]) {
		if (strlen(set->slot[i]) == n && !memcmp(set->slot[i], s, n))
			return set->kind[i];
		i = (i + 1) % set->cap;
	}
	return 0;
}

static bool ident(int c)
{
	return isalnum(c) || c == '_';
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
	size_t total = names->n + members->n + 2;

	set.cap = total * 2 + 1;
	set.slot = xcalloc(set.cap, sizeof(*set.slot));
	set.kind = xcalloc(set.cap, 1);
	for (size_t i = 0; i < names->n; i++)
		set_add(&set, names->v[i], TREE_NAME);
	for (size_t i = 0; i < members->n; i++)
		set_add(&set, members->v[i], TREE_MEMBER);
	set_add(&set, "blk_init_queue", TREE_REGISTERS);
	set_add(&set, "blk_init_queue_node", TREE_REGISTERS);
	for (size_t p = 0; p < len;) {
		if (!ident((unsigned char)s[p]) || isdigit((unsigned char)s[p])) {
			p++;
			continue;
		}
		size_t e = p;

		while (e < len && ident((unsigned char)s[e]))
			e++;
		unsigned char k = set_kind(&set, s + p, e - p);

		if (k & TREE_REGISTERS)
			what |= TREE_REGISTERS;
		if ((k & TREE_NAME) || ((k & TREE_MEMBER) && member_call_at(s, len, p, e))) {
			bool as_member = !(k & TREE_NAME);

			what |= as_member ? TREE_MEMBER : TREE_NAME;
			if (found) {
				char *key = xasprintf("%c:%.*s", as_member ? 'm' : 'f',
						      (int)(e - p), s + p);

				if (!strlist_has(found, key))
					strlist_push(found, key);
				free(key);
			}
		}
		p = e;
	}
	free(set.slot);
	free(set.kind);
	return what;
}

/*
 * Does function f contain a legacy call whose lock state is its entry
 * state?  A call the AST does not show (a macro, a parse error) counts.
 */
static bool entry_decides_a_hit(struct ctx *cx, const struct func *f)
{
	const struct tunit *t = &cx->tus[f->tu];

	for (size_t i = 0; i < t->nhits; i++) {
		bool seen = false, decided = false;

		if (t->hits[i].offset < f->start || t->hits[i].offset >= f->end ||
		    t->hits[i].in_define)
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
	for (size_t i = 0; i < cx->nfuncs; i++) {
		struct func *f = &cx->funcs[i];

		if (!matter[i] || f->role != ROLE_NONE)
			continue;
		if (!f->is_static && strcmp(f->name, "init_module") &&
		    strcmp(f->name, "cleanup_module") && !strlist_has(names, f->name))
			strlist_push(names, f->name);
		for (size_t k = 0; k < cx->mstore_member.n; k++)
			if (cx->mstore_func[k] == (long)i &&
			    !strlist_has(members, cx->mstore_member.v[k]))
				strlist_push(members, cx->mstore_member.v[k]);
	}
	free(matter);
}
