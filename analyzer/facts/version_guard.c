/*
 * version_guard.c - LINUX_VERSION_CODE guards (issue 20 item 3).  Owns:
 * - version sets: kernel version codes (KERNEL_VERSION(a,b,c) = a << 16 | b << 8 | c)
 *   as a short sorted list of half-open intervals, and their set operations;
 * - the evaluation of a #if/#elif expression into the versions for which it is surely
 *   true (must) and those for which it may be true (may): comparisons of
 *   LINUX_VERSION_CODE with KERNEL_VERSION(a,b,c) or a number, in either order, with
 *   < <= > >= == !=, combined with ! && || and parentheses; defined(...) and every
 *   other term are unknown (no constraint);
 * - a file's conditional structure (#if/#ifdef/#ifndef/#elif/#else/#endif, line
 *   continuations, comments blanked): the versions each byte is compiled for, whether
 *   a byte lies in a branch compiled only for kernels before 2.6.25 (a compat branch)
 *   and which #if makes it so, the file's LINUX_VERSION_CODE tests, the #define whose
 *   body holds a byte, and the function a byte lies in as the text shows it (for the
 *   sites no AST saw: an inactive branch, a file that did not parse);
 * The rule that leaves sites for these guards is convert/version_guard_sites.c's.
 */
#include <ctype.h>
#include <string.h>

#include "analysis.h"

/* ---- version sets ------------------------------------------------------------- */

#define VTMP_MAX (2 * BM_VSET_MAX + 2)
struct vtmp {
	unsigned n;
	bm_ver lo[VTMP_MAX], hi[VTMP_MAX];
};

/* tmp (sorted, disjoint, non-empty intervals) into s; too many intervals: a may-set
 * (widen) merges the two closest, a must-set drops the smallest (both stay sound) */
static void vfit(struct bm_vset *s, struct vtmp *t, bool widen)
{
	while (t->n > BM_VSET_MAX) {
		unsigned best = 0;

		if (widen) {
			for (unsigned i = 1; i + 1 < t->n; i++)
				if (t->lo[i + 1] - t->hi[i] < t->lo[best + 1] - t->hi[best])
					best = i;
			t->hi[best] = t->hi[best + 1];
			best++;
		} else {
			for (unsigned i = 1; i < t->n; i++)
				if (t->hi[i] - t->lo[i] < t->hi[best] - t->lo[best])
					best = i;
		}
		memmove(&t->lo[best], &t->lo[best + 1], (t->n - best - 1) * sizeof(bm_ver));
		memmove(&t->hi[best], &t->hi[best + 1], (t->n - best - 1) * sizeof(bm_ver));
		t->n--;
	}
	s->n = t->n;
	memcpy(s->lo, t->lo, t->n * sizeof(bm_ver));
	memcpy(s->hi, t->hi, t->n * sizeof(bm_ver));
}

static void vpush(struct vtmp *t, bm_ver lo, bm_ver hi)
{
	if (lo >= hi)
		return;
	if (t->n && t->hi[t->n - 1] >= lo) { /* touching or overlapping: one interval */
		if (hi > t->hi[t->n - 1])
			t->hi[t->n - 1] = hi;
		return;
	}
	if (t->n < VTMP_MAX) {
		t->lo[t->n] = lo;
		t->hi[t->n++] = hi;
	}
}

void bm_vset_range(struct bm_vset *s, bm_ver lo, bm_ver hi)
{
	if (hi > BM_VER_END)
		hi = BM_VER_END;
	s->n = lo < hi;
	s->lo[0] = lo;
	s->hi[0] = hi;
}

void bm_vset_all(struct bm_vset *s)
{
	bm_vset_range(s, 0, BM_VER_END);
}

void bm_vset_none(struct bm_vset *s)
{
	s->n = 0;
}

void bm_vset_not(struct bm_vset *out, const struct bm_vset *a, bool widen)
{
	struct vtmp t = {0};
	bm_ver at = 0;

	for (unsigned i = 0; i < a->n; i++) {
		vpush(&t, at, a->lo[i]);
		at = a->hi[i];
	}
	vpush(&t, at, BM_VER_END);
	vfit(out, &t, widen);
}

void bm_vset_and(struct bm_vset *out, const struct bm_vset *a, const struct bm_vset *b, bool widen)
{
	struct vtmp t = {0};

	for (unsigned i = 0, j = 0; i < a->n && j < b->n;) {
		bm_ver lo = a->lo[i] > b->lo[j] ? a->lo[i] : b->lo[j];
		bm_ver hi = a->hi[i] < b->hi[j] ? a->hi[i] : b->hi[j];

		vpush(&t, lo, hi);
		if (a->hi[i] < b->hi[j])
			i++;
		else
			j++;
	}
	vfit(out, &t, widen);
}

void bm_vset_or(struct bm_vset *out, const struct bm_vset *a, const struct bm_vset *b, bool widen)
{
	struct vtmp t = {0};
	unsigned i = 0, j = 0;

	while (i < a->n || j < b->n) {
		if (j >= b->n || (i < a->n && a->lo[i] <= b->lo[j])) {
			vpush(&t, a->lo[i], a->hi[i]);
			i++;
		} else {
			vpush(&t, b->lo[j], b->hi[j]);
			j++;
		}
	}
	vfit(out, &t, widen);
}

/* every version of s lies in [lo, hi) (an empty s too) */
bool bm_vset_within(const struct bm_vset *s, bm_ver lo, bm_ver hi)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->lo[i] < lo || s->hi[i] > hi)
			return false;
	return true;
}

/* some version of s lies in [lo, hi) */
bool bm_vset_meets(const struct bm_vset *s, bm_ver lo, bm_ver hi)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->lo[i] < hi && s->hi[i] > lo)
			return true;
	return false;
}

static void ver_text(struct sbuf *b, bm_ver v)
{
	sbuf_printf(b, "%llu.%llu.%llu", (v >> 16) & 0xffff, (v >> 8) & 0xff, v & 0xff);
}

char *bm_vset_text(const struct bm_vset *s)
{
	struct sbuf b = {0};

	if (!s->n)
		return xstrdup("no kernel");
	for (unsigned i = 0; i < s->n; i++) {
		if (i)
			sbuf_add(&b, i + 1 == s->n ? " and " : ", ");
		if (s->lo[i] == 0 && s->hi[i] == BM_VER_END) {
			sbuf_add(&b, "every kernel");
		} else if (s->lo[i] == 0) {
			sbuf_add(&b, "kernels before ");
			ver_text(&b, s->hi[i]);
		} else if (s->hi[i] == BM_VER_END) {
			ver_text(&b, s->lo[i]);
			sbuf_add(&b, " and later");
		} else if (s->hi[i] == s->lo[i] + 1) {
			ver_text(&b, s->lo[i]);
		} else {
			ver_text(&b, s->lo[i]);
			sbuf_add(&b, " up to before ");
			ver_text(&b, s->hi[i]);
		}
	}
	return sbuf_take(&b);
}

/* ---- #if expressions ----------------------------------------------------------- */

enum vkind { V_UNK = 0, V_NUM, V_VER, V_COND };
struct val {
	enum vkind k;
	unsigned long long num;
	struct bm_vset must, may;
};
struct xp {
	const char *s;
	size_t i, n;
	bool lvc; /* a comparison of LINUX_VERSION_CODE with a known version */
	int depth;
};

static struct val x_cond(struct xp *p);

static void x_space(struct xp *p)
{
	while (p->i < p->n && isspace((unsigned char)p->s[p->i]))
		p->i++;
}

/* the operator op is next (and not the start of a longer one such as && for &) */
static bool x_op(struct xp *p, const char *op)
{
	size_t l = strlen(op);
	static const char *const longer[] = {"&&", "||", "<=", ">=", "<<", ">>", "==", "!="};

	x_space(p);
	if (p->n - p->i < l || memcmp(p->s + p->i, op, l))
		return false;
	for (size_t k = 0; k < sizeof(longer) / sizeof(longer[0]); k++)
		if (strlen(longer[k]) > l && p->n - p->i >= strlen(longer[k]) &&
		    !memcmp(p->s + p->i, longer[k], strlen(longer[k])))
			return false;
	p->i += l;
	return true;
}

static bool x_ident(struct xp *p, char *buf, size_t cap)
{
	size_t l = 0;

	x_space(p);
	if (p->i >= p->n || !(isalpha((unsigned char)p->s[p->i]) || p->s[p->i] == '_'))
		return false;
	while (p->i < p->n && (isalnum((unsigned char)p->s[p->i]) || p->s[p->i] == '_')) {
		if (l + 1 < cap)
			buf[l++] = p->s[p->i];
		p->i++;
	}
	buf[l] = '\0';
	return true;
}

static struct val v_unk(void)
{
	struct val v = {.k = V_UNK};

	return v;
}

static struct val v_num(unsigned long long n)
{
	struct val v = {.k = V_NUM, .num = n};

	return v;
}

static void as_cond(const struct val *v, struct bm_vset *must, struct bm_vset *may)
{
	if (v->k == V_COND) {
		*must = v->must;
		*may = v->may;
	} else if (v->k == V_NUM) {
		if (v->num)
			bm_vset_all(must);
		else
			bm_vset_none(must);
		*may = *must;
	} else { /* unknown (LINUX_VERSION_CODE alone too): no constraint */
		bm_vset_none(must);
		bm_vset_all(may);
	}
}

static struct val v_cond(const struct bm_vset *must, const struct bm_vset *may)
{
	struct val v = {.k = V_COND, .must = *must, .may = *may};

	return v;
}

/* skip a balanced (...) argument list; the '(' is next */
static void x_skip_args(struct xp *p)
{
	int d = 0;

	for (; p->i < p->n; p->i++) {
		if (p->s[p->i] == '(')
			d++;
		else if (p->s[p->i] == ')' && --d == 0) {
			p->i++;
			return;
		}
	}
}

static struct val x_unary(struct xp *p);

static struct val x_primary(struct xp *p)
{
	char id[64];

	x_space(p);
	if (p->i >= p->n)
		return v_unk();
	if (x_op(p, "(")) {
		struct val v = x_cond(p);

		if (!x_op(p, ")"))
			return v_unk();
		return v;
	}
	if (isdigit((unsigned char)p->s[p->i])) {
		char *end;
		unsigned long long n = strtoull(p->s + p->i, &end, 0);

		p->i = (size_t)(end - p->s);
		while (p->i < p->n && strchr("uUlL", p->s[p->i]))
			p->i++;
		return v_num(n);
	}
	if (!x_ident(p, id, sizeof(id))) {
		p->i++;
		return v_unk();
	}
	if (!strcmp(id, "defined")) {
		bool paren = x_op(p, "(");

		x_ident(p, id, sizeof(id));
		if (paren)
			x_op(p, ")");
		return v_unk();
	}
	if (!strcmp(id, "LINUX_VERSION_CODE")) {
		struct val v = {.k = V_VER};

		return v;
	}
	if (!strcmp(id, "KERNEL_VERSION")) {
		struct val a, b, c;

		if (!x_op(p, "("))
			return v_unk();
		a = x_cond(p);
		if (!x_op(p, ","))
			return v_unk();
		b = x_cond(p);
		if (!x_op(p, ","))
			return v_unk();
		c = x_cond(p);
		if (!x_op(p, ")") || a.k != V_NUM || b.k != V_NUM || c.k != V_NUM)
			return v_unk();
		return v_num((a.num << 16) + (b.num << 8) + c.num);
	}
	x_space(p);
	if (p->i < p->n && p->s[p->i] == '(')
		x_skip_args(p);
	return v_unk();
}

static struct val x_unary(struct xp *p)
{
	struct val v;

	if (++p->depth > 200) { /* a pathological nesting says nothing */
		p->i = p->n;
		return v_unk();
	}
	if (x_op(p, "!")) {
		v = x_unary(p);
		if (v.k == V_NUM)
			v = v_num(!v.num);
		else if (v.k == V_COND) {
			struct bm_vset must, may;

			bm_vset_not(&must, &v.may, false);
			bm_vset_not(&may, &v.must, true);
			v = v_cond(&must, &may);
		} else
			v = v_unk();
	} else if (x_op(p, "-")) {
		v = x_unary(p);
		v = v.k == V_NUM ? v_num(-v.num) : v_unk();
	} else if (x_op(p, "+")) {
		v = x_unary(p);
		v = v.k == V_NUM ? v : v_unk();
	} else if (x_op(p, "~")) {
		v = x_unary(p);
		v = v.k == V_NUM ? v_num(~v.num) : v_unk();
	} else {
		v = x_primary(p);
	}
	p->depth--;
	return v;
}

/* arithmetic on two numbers; anything else is unknown */
static struct val x_arith(struct val a, struct val b, char op)
{
	if (a.k != V_NUM || b.k != V_NUM)
		return v_unk();
	switch (op) {
	case '*': return v_num(a.num * b.num);
	case '/': return b.num ? v_num(a.num / b.num) : v_unk();
	case '%': return b.num ? v_num(a.num % b.num) : v_unk();
	case '+': return v_num(a.num + b.num);
	case '-': return v_num(a.num - b.num);
	case 'l': return b.num < 64 ? v_num(a.num << b.num) : v_unk();
	case 'r': return b.num < 64 ? v_num(a.num >> b.num) : v_unk();
	case '&': return v_num(a.num & b.num);
	case '^': return v_num(a.num ^ b.num);
	case '|': return v_num(a.num | b.num);
	default: return v_unk();
	}
}

static struct val x_mul(struct xp *p)
{
	struct val v = x_unary(p);

	for (;;) {
		char op = x_op(p, "*") ? '*' : x_op(p, "/") ? '/' : x_op(p, "%") ? '%' : 0;

		if (!op)
			return v;
		v = x_arith(v, x_unary(p), op);
	}
}

static struct val x_add(struct xp *p)
{
	struct val v = x_mul(p);

	for (;;) {
		char op = x_op(p, "+") ? '+' : x_op(p, "-") ? '-' : 0;

		if (!op)
			return v;
		v = x_arith(v, x_mul(p), op);
	}
}

static struct val x_shift(struct xp *p)
{
	struct val v = x_add(p);

	for (;;) {
		char op = x_op(p, "<<") ? 'l' : x_op(p, ">>") ? 'r' : 0;

		if (!op)
			return v;
		v = x_arith(v, x_add(p), op);
	}
}

/* LINUX_VERSION_CODE op n as a set: op one of < L(<=) > G(>=) = (==) ! (!=) */
static struct val ver_cmp(struct xp *p, char op, unsigned long long n)
{
	struct bm_vset s, t;
	bm_ver v = n >= BM_VER_END ? BM_VER_END : (bm_ver)n;

	p->lvc = true;
	switch (op) {
	case '<': bm_vset_range(&s, 0, v); break;
	case 'L': bm_vset_range(&s, 0, v + 1); break;
	case '>': bm_vset_range(&s, v + 1, BM_VER_END); break;
	case 'G': bm_vset_range(&s, v, BM_VER_END); break;
	case '=': bm_vset_range(&s, v, v + 1); break;
	default:
		bm_vset_range(&t, v, v + 1);
		bm_vset_not(&s, &t, false);
		break;
	}
	return v_cond(&s, &s);
}

/* the operator seen from the other side: a op b == b op' a */
static char mirror(char op)
{
	switch (op) {
	case '<': return '>';
	case '>': return '<';
	case 'L': return 'G';
	case 'G': return 'L';
	default: return op;
	}
}

static struct val x_compare(struct xp *p, struct val a, struct val b, char op)
{
	if (a.k == V_VER && b.k == V_NUM)
		return ver_cmp(p, op, b.num);
	if (a.k == V_NUM && b.k == V_VER)
		return ver_cmp(p, mirror(op), a.num);
	if (a.k == V_NUM && b.k == V_NUM) {
		switch (op) {
		case '<': return v_num(a.num < b.num);
		case 'L': return v_num(a.num <= b.num);
		case '>': return v_num(a.num > b.num);
		case 'G': return v_num(a.num >= b.num);
		case '=': return v_num(a.num == b.num);
		default: return v_num(a.num != b.num);
		}
	}
	return v_unk();
}

static struct val x_rel(struct xp *p)
{
	struct val v = x_shift(p);

	for (;;) {
		char op = x_op(p, "<=")	  ? 'L'
			  : x_op(p, ">=") ? 'G'
			  : x_op(p, "<")  ? '<'
			  : x_op(p, ">")  ? '>'
					  : 0;

		if (!op)
			return v;
		v = x_compare(p, v, x_shift(p), op);
	}
}

static struct val x_eq(struct xp *p)
{
	struct val v = x_rel(p);

	for (;;) {
		char op = x_op(p, "==") ? '=' : x_op(p, "!=") ? '!' : 0;

		if (!op)
			return v;
		v = x_compare(p, v, x_rel(p), op);
	}
}

static struct val x_bits(struct xp *p)
{
	struct val v = x_eq(p);

	for (;;) {
		char op = x_op(p, "&") ? '&' : x_op(p, "^") ? '^' : x_op(p, "|") ? '|' : 0;

		if (!op)
			return v;
		v = x_arith(v, x_eq(p), op);
	}
}

static struct val x_and(struct xp *p)
{
	struct val v = x_bits(p);

	while (x_op(p, "&&")) {
		struct val w = x_bits(p);
		struct bm_vset m1, y1, m2, y2, m, y;

		if (v.k == V_NUM && w.k == V_NUM) {
			v = v_num(v.num && w.num);
			continue;
		}
		as_cond(&v, &m1, &y1);
		as_cond(&w, &m2, &y2);
		bm_vset_and(&m, &m1, &m2, false);
		bm_vset_and(&y, &y1, &y2, true);
		v = v_cond(&m, &y);
	}
	return v;
}

static struct val x_or(struct xp *p)
{
	struct val v = x_and(p);

	while (x_op(p, "||")) {
		struct val w = x_and(p);
		struct bm_vset m1, y1, m2, y2, m, y;

		if (v.k == V_NUM && w.k == V_NUM) {
			v = v_num(v.num || w.num);
			continue;
		}
		as_cond(&v, &m1, &y1);
		as_cond(&w, &m2, &y2);
		bm_vset_or(&m, &m1, &m2, false);
		bm_vset_or(&y, &y1, &y2, true);
		v = v_cond(&m, &y);
	}
	return v;
}

static struct val x_cond(struct xp *p)
{
	struct val v = x_or(p);

	if (x_op(p, "?")) { /* a ? b : c: unknown, but parsed through */
		x_cond(p);
		x_op(p, ":");
		x_cond(p);
		return v_unk();
	}
	return v;
}

bool bm_vg_eval(const char *expr, size_t len, struct bm_vset *must, struct bm_vset *may)
{
	struct xp p = {.s = expr, .n = len};
	struct val v = x_cond(&p);

	x_space(&p);
	if (p.i < p.n) /* not all of it understood: no constraint */
		v = v_unk();
	as_cond(&v, must, may);
	return p.lvc && v.k != V_UNK;
}

/* ---- a file's conditional structure ------------------------------------------- */

struct vbranch {
	unsigned line;	  /* its #if/#ifdef/#ifndef/#elif/#else */
	unsigned if_line; /* the #if of its group */
	char kind[8];	  /* "#if", "#ifdef", "#ifndef", "#elif", "#else" */
	int group, parent;
	struct bm_vset own; /* versions of this branch within its group */
	struct bm_vset cum; /* ... and within every enclosing branch */
};

struct vregion {
	size_t start, end;
	int branch; /* innermost branch, -1 outside every conditional */
};

struct vdefine {
	size_t start, end;
	unsigned line;
	char *name;
};

struct bm_vguard {
	char *text; /* comments blanked */
	size_t len;
	struct vbranch *br;
	size_t nbr, br_cap;
	struct vregion *rg;
	size_t nrg, rg_cap;
	struct vdefine *df;
	size_t ndf, df_cap;
	unsigned *lvc_lines; /* lines of the conditionals that test LINUX_VERSION_CODE */
	size_t nlvc, lvc_cap;
	struct vregion *dir; /* every directive line (with its continuations) */
	size_t ndir, dir_cap;
	struct vg_scan *scan; /* bm_vg_function_at()'s last state */
};

struct vg_scan;
static void vg_scan_reset(struct vg_scan *s, int b);

struct vopen { /* a group being read */
	int group, branch, parent;
	unsigned if_line;
	struct bm_vset rest; /* versions no earlier branch surely took */
};

static void region_open(struct bm_vguard *g, size_t at, int branch)
{
	struct vregion *r;

	if (g->nrg)
		g->rg[g->nrg - 1].end = at;
	r = vec_push(g->rg, g->nrg, g->rg_cap);
	r->start = at;
	r->end = g->len;
	r->branch = branch;
}

/* the next branch of the group o: its condition is (must, may) */
static void branch_add(struct bm_vguard *g, struct vopen *o, const char *kind, unsigned line,
		       const struct bm_vset *must, const struct bm_vset *may)
{
	struct vbranch *b = vec_push(g->br, g->nbr, g->br_cap);
	struct bm_vset notmust;

	b->line = line;
	b->if_line = o->if_line;
	snprintf(b->kind, sizeof(b->kind), "%s", kind);
	b->group = o->group;
	b->parent = o->parent;
	bm_vset_and(&b->own, may, &o->rest, true);
	if (b->parent >= 0)
		bm_vset_and(&b->cum, &b->own, &g->br[b->parent].cum, true);
	else
		b->cum = b->own;
	bm_vset_not(&notmust, must, true);
	bm_vset_and(&o->rest, &o->rest, &notmust, true);
	o->branch = (int)(g->nbr - 1);
}

static bool word_at(const char *s, size_t n, size_t *i, const char *w)
{
	size_t l = strlen(w);

	if (n - *i < l || memcmp(s + *i, w, l) ||
	    (*i + l < n && (isalnum((unsigned char)s[*i + l]) || s[*i + l] == '_')))
		return false;
	*i += l;
	return true;
}

/* one directive: kw its keyword, (logical, ln) its text after the '#' */
static void directive(struct bm_vguard *g, struct vopen **stack, size_t *nstack, size_t *stack_cap,
		      int *ngroups, const char *logical, size_t ln, size_t ls, size_t next,
		      unsigned line)
{
	size_t k = 0;
	const char *kw = NULL;
	struct bm_vset must, may;

	if (word_at(logical, ln, &k, "ifdef"))
		kw = "#ifdef";
	else if (word_at(logical, ln, &k, "ifndef"))
		kw = "#ifndef";
	else if (word_at(logical, ln, &k, "if"))
		kw = "#if";
	else if (word_at(logical, ln, &k, "elif"))
		kw = "#elif";
	else if (word_at(logical, ln, &k, "else"))
		kw = "#else";
	else if (word_at(logical, ln, &k, "endif"))
		kw = "#endif";
	else if (word_at(logical, ln, &k, "define")) {
		struct vdefine *d = vec_push(g->df, g->ndf, g->df_cap);
		size_t a;

		while (k < ln && isspace((unsigned char)logical[k]))
			k++;
		for (a = k; k < ln && (isalnum((unsigned char)logical[k]) || logical[k] == '_');)
			k++;
		d->start = ls;
		d->end = next;
		d->line = line;
		d->name = xstrndup(logical + a, k - a);
		return;
	}
	if (!kw)
		return;
	if (!strcmp(kw, "#if") || !strcmp(kw, "#elif")) {
		if (bm_vg_eval(logical + k, ln - k, &must, &may))
			vec_append(g->lvc_lines, g->nlvc, g->lvc_cap, line);
	} else if (!strcmp(kw, "#else")) {
		bm_vset_all(&must);
		bm_vset_all(&may);
	} else { /* #ifdef, #ifndef: unknown */
		bm_vset_none(&must);
		bm_vset_all(&may);
	}
	if (kw[1] == 'i') { /* #if, #ifdef, #ifndef: a new group in the current branch */
		int parent = *nstack ? (*stack)[*nstack - 1].branch : -1;
		struct vopen *o = vec_push(*stack, *nstack, *stack_cap);

		o->group = (*ngroups)++;
		o->parent = parent;
		o->if_line = line;
		bm_vset_all(&o->rest);
		branch_add(g, o, kw, line, &must, &may);
		region_open(g, next, o->branch);
	} else if (!*nstack) {
		return; /* an #elif, #else or #endif without its #if */
	} else if (strcmp(kw, "#endif")) {
		struct vopen *o = &(*stack)[*nstack - 1];

		branch_add(g, o, kw, line, &must, &may);
		region_open(g, next, o->branch);
	} else {
		(*nstack)--;
		region_open(g, next, *nstack ? (*stack)[*nstack - 1].branch : -1);
	}
}

struct bm_vguard *bm_vguard_build(const char *src, size_t len)
{
	struct bm_vguard *g = xcalloc(1, sizeof(*g));
	struct vopen *stack = NULL;
	size_t nstack = 0, stack_cap = 0;
	int ngroups = 0;
	unsigned line = 1;

	g->text = bm_blank_comments(src, len);
	g->len = len;
	region_open(g, 0, -1);
	for (size_t p = 0; p < len;) {
		size_t ls = p, le, i = p, next, ln = 0;
		unsigned this_line = line;
		char *logical;

		/* the logical line: physical lines joined at a trailing backslash */
		for (le = p; le < len; le++) {
			if (g->text[le] == '\n') {
				size_t b = le;

				line++;
				while (b > ls && (g->text[b - 1] == '\r' || g->text[b - 1] == ' ' ||
						  g->text[b - 1] == '\t'))
					b--;
				if (b > ls && g->text[b - 1] == '\\')
					continue;
				break;
			}
		}
		next = le < len ? le + 1 : len;
		while (i < le && (g->text[i] == ' ' || g->text[i] == '\t'))
			i++;
		if (i >= le || g->text[i] != '#') {
			p = next;
			continue;
		}
		i++;
		while (i < le && (g->text[i] == ' ' || g->text[i] == '\t'))
			i++;
		/* every directive is remembered: it is no C for bm_vg_function_at() */
		struct vregion *d = vec_push(g->dir, g->ndir, g->dir_cap);

		d->start = ls;
		d->end = next;
		/* the directive's text, the continuations blanked */
		logical = xmalloc(le - i + 1);
		for (size_t k = i; k < le; k++)
			logical[ln++] =
			    g->text[k] == '\\' || g->text[k] == '\n' || g->text[k] == '\r'
				? ' '
				: g->text[k];
		logical[ln] = '\0';
		directive(g, &stack, &nstack, &stack_cap, &ngroups, logical, ln, ls, next,
			  this_line);
		free(logical);
		p = next;
	}
	free(stack);
	return g;
}

void bm_vguard_free(struct bm_vguard *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->ndf; i++)
		free(g->df[i].name);
	free(g->df);
	free(g->rg);
	free(g->br);
	free(g->lvc_lines);
	free(g->dir);
	free(g->text);
	if (g->scan)
		vg_scan_reset(g->scan, 0);
	free(g->scan);
	free(g);
}

/* the innermost branch holding off (-1: none) */
static int branch_at(const struct bm_vguard *g, size_t off)
{
	size_t lo = 0, hi = g->nrg;

	while (lo < hi) { /* the first region starting after off */
		size_t mid = lo + (hi - lo) / 2;

		if (g->rg[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? g->rg[lo - 1].branch : -1;
}

bool bm_vg_branch_at(const struct bm_vguard *g, size_t off, unsigned *line, unsigned *if_line)
{
	int b = branch_at(g, off);

	if (b < 0)
		return false;
	*line = g->br[b].line;
	*if_line = g->br[b].if_line;
	return true;
}

void bm_vg_versions_at(const struct bm_vguard *g, size_t off, struct bm_vset *out)
{
	int b = branch_at(g, off);

	if (b < 0)
		bm_vset_all(out);
	else
		*out = g->br[b].cum;
}

bool bm_vg_compat_at(const struct bm_vguard *g, size_t off, struct bm_vg_compat *out)
{
	int b = branch_at(g, off), chain[256], n = 0;

	if (b < 0 || !g->br[b].cum.n || !bm_vset_within(&g->br[b].cum, 0, BM_VER_2625))
		return false;
	for (int x = b; x >= 0 && n < 256; x = g->br[x].parent)
		chain[n++] = x;
	/* the outermost branch from which on the code is for old kernels only */
	for (int k = n - 1; k >= 0; k--) {
		const struct vbranch *c = &g->br[chain[k]];

		if (!bm_vset_within(&c->cum, 0, BM_VER_2625))
			continue;
		out->line = c->line;
		out->if_line = c->if_line;
		snprintf(out->kind, sizeof(out->kind), "%s", c->kind);
		out->new_line = 0;
		snprintf(out->new_kind, sizeof(out->new_kind), "%s", "");
		/* a branch of the same group for 2.6.25 and later */
		for (size_t j = 0; j < g->nbr; j++)
			if (g->br[j].group == c->group &&
			    bm_vset_meets(&g->br[j].cum, BM_VER_2625, BM_VER_END)) {
				out->new_line = g->br[j].line;
				snprintf(out->new_kind, sizeof(out->new_kind), "%s", g->br[j].kind);
				break;
			}
		return true;
	}
	return false;
}

size_t bm_vg_lvc_lines(const struct bm_vguard *g, const unsigned **lines)
{
	*lines = g->lvc_lines;
	return g->nlvc;
}

bool bm_vg_multi_version_at(const struct bm_vguard *g, size_t off)
{
	struct bm_vset s;

	if (!g->nlvc)
		return false;
	bm_vg_versions_at(g, off, &s);
	return bm_vset_meets(&s, 0, BM_VER_2625) && bm_vset_meets(&s, BM_VER_2625, BM_VER_END);
}

const char *bm_vg_define_at(const struct bm_vguard *g, size_t off, unsigned *line)
{
	for (size_t i = 0; i < g->ndf; i++)
		if (g->df[i].start <= off && off < g->df[i].end) {
			*line = g->df[i].line;
			return g->df[i].name;
		}
	return NULL;
}

/*
 * Where bm_vg_function_at() stopped, for its next call: the sites of a file come in
 * the order of their offsets, and a fresh scan from the top for each made a file with
 * thousands of sites quadratic (issue 25, item 9).  A scan resumes only for the same
 * branch chain and a later offset, where a fresh one would pass the same states.
 */
struct vg_scan {
	bool valid;
	int b;
	char *name, *pending, *last_id;
	size_t p, pending_at, id_at, name_at, r, d;
	int depth, pdepth;
	char last;
	bool counted;
};

static void vg_scan_reset(struct vg_scan *s, int b)
{
	free(s->name);
	free(s->pending);
	free(s->last_id);
	*s = (struct vg_scan){.valid = true, .b = b, .counted = true};
}

/*
 * The function whose body holds off, read from the text alone: braces are counted in
 * the branch of each conditional that holds off, else in its first branch (the
 * others repeat the same structure), outside directives.  A '{' at the top level right
 * after the ')' of NAME(...) opens NAME's body.  NULL at file scope; *at is where the
 * name is spelled.
 */
char *bm_vg_function_at(struct bm_vguard *g, size_t off, size_t *at)
{
	int b = branch_at(g, off);
	struct vg_scan *s = g->scan;

	if (!s)
		s = g->scan = xcalloc(1, sizeof(*s));
	if (!s->valid || s->b != b || s->p > off)
		vg_scan_reset(s, b);
	for (; s->p < off && s->p < g->len; s->p++) {
		char c = g->text[s->p];

		if (s->d < g->ndir && s->p >= g->dir[s->d].start) { /* a directive: no C */
			s->p = g->dir[s->d++].end - 1;
			continue;
		}
		if (s->r + 1 < g->nrg && g->rg[s->r + 1].start <= s->p) {
			while (s->r + 1 < g->nrg && g->rg[s->r + 1].start <= s->p)
				s->r++;
			/* s->counted: every branch around s->p is on off's chain or the first
			 * branch of a group off is not in */
			s->counted = true;
			for (int x = g->rg[s->r].branch; x >= 0 && s->counted;
			     x = g->br[x].parent) {
				bool on_chain = false, group_on_chain = false;

				for (int y = b; y >= 0; y = g->br[y].parent) {
					on_chain |= y == x;
					group_on_chain |= g->br[y].group == g->br[x].group;
				}
				s->counted =
				    on_chain || (!group_on_chain && g->br[x].kind[1] == 'i');
			}
		}
		if (!s->counted || isspace((unsigned char)c))
			continue;
		if (isalpha((unsigned char)c) || c == '_') {
			size_t q = s->p;

			while (q < g->len &&
			       (isalnum((unsigned char)g->text[q]) || g->text[q] == '_'))
				q++;
			if (!s->depth && !s->pdepth) {
				free(s->last_id);
				s->last_id = xstrndup(g->text + s->p, q - s->p);
				s->id_at = s->p;
			}
			s->last = 'a';
			s->p = q - 1;
			continue;
		}
		if (s->depth) {
			if (c == '{')
				s->depth++;
			else if (c == '}' && --s->depth == 0) {
				free(s->name);
				s->name = NULL;
			}
			s->last = c;
			continue;
		}
		if (c == '(') {
			if (!s->pdepth && s->last == 'a' && s->last_id) {
				free(s->pending);
				s->pending = xstrdup(s->last_id);
				s->pending_at = s->id_at;
			}
			s->pdepth++;
		} else if (c == ')') {
			if (s->pdepth)
				s->pdepth--;
		} else if (!s->pdepth && (c == ';' || c == '=' || c == ',' || c == '}')) {
			free(s->pending);
			s->pending = NULL;
		} else if (!s->pdepth && c == '{') {
			static const char *const kw[] = {"if",	   "while",  "for",
							 "switch", "sizeof", "return"};
			bool is_kw = false;

			for (size_t k = 0; s->pending && k < sizeof(kw) / sizeof(kw[0]); k++)
				is_kw |= !strcmp(s->pending, kw[k]);
			free(s->name);
			s->name =
			    s->last == ')' && s->pending && !is_kw ? xstrdup(s->pending) : NULL;
			s->name_at = s->pending_at;
			free(s->pending);
			s->pending = NULL;
			s->depth = 1;
		}
		s->last = c;
	}
	if (!s->depth)
		return NULL;
	if (s->name && at)
		*at = s->name_at;
	return s->name ? xstrdup(s->name) : NULL;
}
