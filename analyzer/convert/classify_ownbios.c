/*
 * classify_ownbios.c - a final step after the driver has ended the
 * request's bios itself (cciss, cpqarray in 2.6.24):
 *
 *         complete_buffers(rq->bio, ok);          // bio_endio on each bio
 *         if (blk_fs_request(rq)) {
 *                 const int rw = rq_data_dir(rq);
 *                 disk_stat_add(rq->rq_disk, sectors[rw], rq->nr_sectors);
 *         }
 *         add_disk_randomness(rq->rq_disk);
 *         end_that_request_last(rq, ok ? 1 : -EIO);
 *
 * The driver bypassed end_that_request_first: its own loop ends every bio
 * of the chain whole, with one error, and it adds the sectors that the
 * data part would have added.  rq->bio still points at the ended bios, so
 * no 2.6.25 call may follow as it stands.  But 2.6.25's data part does
 * exactly what the loop and the accounting do when it is given every byte
 * and the same error; so the loop's call and the accounting go and the
 * final step becomes one call for blk_rq_bytes(rq).  That holds only when
 * it is proven from the code: the helper's body is such a loop (matched
 * token for token), it is given rq->bio, its error is the final step's, and
 * nothing between it and the final step can change that error or branch.
 */
#include <ctype.h>
#include <string.h>

#include "classify_shapes.h"

/* ---- a C token list (comments and blanks dropped) ------------------------ */

struct toks {
	char **v;
	int n, cap;
};

static void toks_push(struct toks *tk, const char *s, size_t len)
{
	if (tk->n == tk->cap) {
		tk->cap = tk->cap ? tk->cap * 2 : 64;
		tk->v = xrealloc(tk->v, (size_t)tk->cap * sizeof(*tk->v));
	}
	tk->v[tk->n++] = xstrndup(s, len);
}

static void toks_free(struct toks *tk)
{
	for (int i = 0; i < tk->n; i++)
		free(tk->v[i]);
	free(tk->v);
	memset(tk, 0, sizeof(*tk));
}

static void toks_of(const char *s, size_t len, struct toks *tk)
{
	static const char *const two[] = {"->", "==", "!=", "&&", "||", "<<", ">>", "++",
					  "--", "<=", ">=", "+=", "-=", "|=", "&="};
	size_t i = 0;

	while (i < len) {
		size_t b = i;

		if (isspace((unsigned char)s[i])) {
			i++;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			const char *e = i + 2 < len ? strstr(s + i + 2, "*/") : NULL;

			i = e && (size_t)(e - s) + 2 <= len ? (size_t)(e - s) + 2 : len;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (isalnum((unsigned char)s[i]) || s[i] == '_') {
			while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_'))
				i++;
			toks_push(tk, s + b, i - b);
		} else if (s[i] == '"' || s[i] == '\'') {
			char q = s[i++];

			while (i < len && s[i] != q)
				i += s[i] == '\\' ? 2 : 1;
			i = i < len ? i + 1 : len;
			toks_push(tk, s + b, i - b);
		} else {
			size_t w = 1;

			for (size_t k = 0; k < sizeof(two) / sizeof(two[0]) && i + 1 < len; k++)
				if (s[i] == two[k][0] && s[i + 1] == two[k][1])
					w = 2;
			toks_push(tk, s + i, w);
			i += w;
		}
	}
}

static void toks_of_str(const char *s, struct toks *tk)
{
	toks_of(s, strlen(s), tk);
}

static bool is_ident(const char *s)
{
	return isalpha((unsigned char)s[0]) || s[0] == '_';
}

static bool toks_has(const struct toks *tk, const char *word)
{
	for (int i = 0; i < tk->n; i++)
		if (!strcmp(tk->v[i], word))
			return true;
	return false;
}

/* the tokens joined for a reader: blanks between them, none inside (), -EIO */
static char *toks_show(char **v, int n)
{
	size_t len = 1;
	char *r;

	for (int i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	r = xmalloc(len);
	r[0] = '\0';
	for (int i = 0; i < n; i++) {
		bool tight =
		    i == 0 || !strcmp(v[i - 1], "(") || !strcmp(v[i], ")") || !strcmp(v[i], ",") ||
		    !strcmp(v[i], "->") || !strcmp(v[i - 1], "->") ||
		    (!strcmp(v[i - 1], "-") && (i < 2 || !strcmp(v[i - 2], ":") ||
						!strcmp(v[i - 2], "(") || !strcmp(v[i - 2], "?")));

		if (!tight)
			strcat(r, " ");
		strcat(r, v[i]);
	}
	return r;
}

/* the tokens joined, one pair of parentheses around the whole dropped */
static char *toks_canon(char **v, int n)
{
	size_t len = 1;
	char *r;

	if (n >= 2 && !strcmp(v[0], "(") && !strcmp(v[n - 1], ")")) {
		int depth = 0, i;

		for (i = 0; i < n - 1; i++) {
			depth += !strcmp(v[i], "(") - !strcmp(v[i], ")");
			if (depth == 0)
				break;
		}
		if (i == n - 1) {
			v++;
			n -= 2;
		}
	}
	for (int i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	r = xmalloc(len);
	r[0] = '\0';
	for (int i = 0; i < n; i++) {
		/* a blank only between two words keeps the canon unambiguous */
		if (i && is_ident(v[i]) && isalnum((unsigned char)v[i - 1][strlen(v[i - 1]) - 1]))
			strcat(r, " ");
		strcat(r, v[i]);
	}
	return r;
}

/*
 * Match tokens against a pattern of blank-separated tokens.  $X is a
 * placeholder: already bound, it must repeat its tokens; $E captures a
 * balanced run up to the pattern's next token; any other binds one
 * identifier.
 */
struct tbind {
	char **v;
	int n;
	bool bound;
};

static bool tmatch(const struct toks *in, const char *pattern, struct tbind *b)
{
	struct toks pat = {0};
	int i = 0, j;
	bool ok = true;

	for (const char *p = pattern; *p;) {
		const char *e = strchr(p, ' ');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l)
			toks_push(&pat, p, l);
		p += l + (e != NULL);
	}
	for (j = 0; j < pat.n && ok; j++) {
		const char *p = pat.v[j];
		struct tbind *x =
		    p[0] == '$' && isupper((unsigned char)p[1]) ? &b[p[1] - 'A'] : NULL;

		if (!x) {
			ok = i < in->n && !strcmp(in->v[i++], p);
		} else if (x->bound) {
			for (int k = 0; k < x->n && ok; k++, i++)
				ok = i < in->n && !strcmp(in->v[i], x->v[k]);
		} else if (p[1] == 'E') {
			const char *stop = j + 1 < pat.n ? pat.v[j + 1] : NULL;
			int depth = 0, s = i;

			while (i < in->n && ok &&
			       !(depth == 0 && stop && !strcmp(in->v[i], stop))) {
				depth += strchr("([{", in->v[i][0]) && !in->v[i][1];
				depth -= strchr(")]}", in->v[i][0]) && !in->v[i][1];
				ok = depth >= 0;
				i++;
			}
			ok = ok && i > s && (!stop || i < in->n);
			x->v = in->v + s;
			x->n = i - s;
			x->bound = ok;
		} else {
			ok = i < in->n && is_ident(in->v[i]);
			x->v = in->v + i++;
			x->n = 1;
			x->bound = ok;
		}
	}
	toks_free(&pat);
	return ok && i == in->n;
}

static void tbind_reset(struct tbind *b, const char *keep)
{
	for (int k = 0; k < 26; k++)
		if (!strchr(keep, 'A' + k))
			b[k].bound = false;
}

/* ---- the proof ------------------------------------------------------------ */

/* whole-chain bio completion loops, B the bio parameter, E the error */
static const char *const bio_loops[] = {
    "{ while ( $B ) { struct bio * $N = $B -> bi_next ; $B -> bi_next = NULL ; "
    "bio_endio ( $B , $E ) ; $B = $N ; } }",
    "{ struct bio * $N ; while ( $B ) { $N = $B -> bi_next ; $B -> bi_next = NULL ; "
    "bio_endio ( $B , $E ) ; $B = $N ; } }",
    "{ while ( $B ) { struct bio * $N = $B -> bi_next ; bio_endio ( $B , $E ) ; "
    "$B = $N ; } }",
    "{ struct bio * $N ; while ( $B ) { $N = $B -> bi_next ; bio_endio ( $B , $E ) ; "
    "$B = $N ; } }",
};

/* the sector accounting the data part does itself, R the request */
static const char *const accountings[] = {
    "if ( blk_fs_request ( $R ) ) { const int $W = rq_data_dir ( $R ) ; "
    "disk_stat_add ( $R -> rq_disk , sectors [ $W ] , $R -> nr_sectors ) ; }",
    "if ( blk_fs_request ( $R ) ) { int $W = rq_data_dir ( $R ) ; "
    "disk_stat_add ( $R -> rq_disk , sectors [ $W ] , $R -> nr_sectors ) ; }",
    "if ( blk_fs_request ( $R ) ) disk_stat_add ( $R -> rq_disk , "
    "sectors [ rq_data_dir ( $R ) ] , $R -> nr_sectors ) ;",
};

static void stmt_toks(struct tunit *t, const struct func *f, int st, struct toks *tk)
{
	size_t e = stmt_end(t, f, st);

	toks_of(t->src + f->nodes[st].start, e - f->nodes[st].start, tk);
}

static bool matches_any(const struct toks *tk, const char *const *pats, size_t npats,
			struct tbind *b, const char *keep)
{
	for (size_t i = 0; i < npats; i++) {
		tbind_reset(b, keep);
		if (tmatch(tk, pats[i], b))
			return true;
	}
	return false;
}

/* no call, assignment, increment or jump in st as compiled */
static bool stmt_inert(struct tunit *t, const struct func *f, int st)
{
	for (int n = st; st >= 0 && n <= f->nodes[st].last; n++) {
		enum CXCursorKind k = f->nodes[n].kind;

		if (k == CXCursor_CallExpr || k == CXCursor_CompoundAssignOperator ||
		    k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_BreakStmt ||
		    k == CXCursor_ContinueStmt || k == CXCursor_UnexposedExpr ||
		    k == CXCursor_UnexposedStmt)
			return false;
		if (k == CXCursor_BinaryOperator) {
			char *op = binary_op(t, f, n);
			bool assign = !strcmp(op, "=");

			free(op);
			if (assign)
				return false;
		}
		if (k == CXCursor_UnaryOperator) {
			char *op = unary_op(t, f, n);
			bool step = !strcmp(op, "++") || !strcmp(op, "--");

			free(op);
			if (step)
				return false;
		}
	}
	return true;
}

/* name is a local of f whose address f never takes: only f's own statements change it */
static bool private_local_var(struct tunit *t, const struct func *f, const char *name)
{
	struct toks all = {0};
	bool decl = false, taken = false;

	for (int n = 0; n < f->nnodes && !decl; n++) {
		char *sp;

		if (f->nodes[n].kind != CXCursor_VarDecl)
			continue;
		sp = node_callee(f, n); /* any cursor's spelling */
		decl = !strcmp(sp, name);
		free(sp);
	}
	toks_of(t->src + f->start, f->end - f->start, &all);
	for (int i = 0; i + 1 < all.n && !taken; i++)
		taken = !strcmp(all.v[i], "&") && !strcmp(all.v[i + 1], name);
	toks_free(&all);
	return decl && !taken;
}

/* the error every bio gets, as the final step's error_expr would spell it */
static char *loop_error(const struct tbind *b, const struct toks *status)
{
	struct toks e = {.v = b['E' - 'A'].v, .n = b['E' - 'A'].n};
	struct tbind eb[26] = {{0}};
	char *cond = toks_canon(status->v, status->n), *r = NULL;

	eb['S' - 'A'] = b['S' - 'A'];
	if (e.n == 1 && eb['S' - 'A'].n == 1 && !strcmp(e.v[0], eb['S' - 'A'].v[0]))
		r = xstrdup(cond); /* the status is the errno itself */
	else if (tmatch(&e, "$S ? 0 : - EIO", eb) || (tbind_reset(eb, "S"), 0) ||
		 tmatch(&e, "( $S ) ? 0 : - EIO", eb))
		r = xasprintf("%s?0:-EIO", cond);
	free(cond);
	return r;
}

static char *error_canon(const char *expr)
{
	struct toks tk = {0};
	struct tbind b[26] = {{0}};
	char *r;

	toks_of_str(expr, &tk);
	if (tmatch(&tk, "$E ? 0 : - EIO", b)) {
		char *c = toks_canon(b['E' - 'A'].v, b['E' - 'A'].n);

		r = xasprintf("%s?0:-EIO", c);
		free(c);
	} else {
		r = toks_canon(tk.v, tk.n);
	}
	toks_free(&tk);
	return r;
}

static void own_bios_reset(struct own_bios *ob)
{
	free(ob->evidence);
	memset(ob, 0, sizeof(*ob));
	ob->call_stmt = ob->account_stmt = -1;
}

void own_bios_edits(struct bm_site *s, const struct tunit *t, const struct func *f,
		    const struct own_bios *ob)
{
	if (ob->call_stmt >= 0)
		edit_remove_stmt_paragraph(s, t, f, ob->call_stmt);
	if (ob->account_stmt >= 0)
		edit_remove_stmt_paragraph(s, t, f, ob->account_stmt);
}

void own_bios_free(struct own_bios *ob)
{
	free(ob->evidence);
	ob->evidence = NULL;
}

bool own_bios_prove(struct ctx *cx, struct func *f, int own, int L, const char *rq,
		    const char *last_error, struct own_bios *ob, char **why)
{
	struct tunit *t = &cx->tus[f->tu];
	struct tbind b[26] = {{0}};
	struct toks body = {0}, rqt = {0}, status = {0}, tk = {0};
	struct func *g = NULL;
	char *callee = NULL, *bio = xasprintf("%s->bio", rq), *a0 = NULL, *berr = NULL,
	     *lerr = NULL;
	int c = own, p, st;
	unsigned cline;
	bool ok = false, private_local;

	own_bios_reset(ob);
	*why = NULL;
	if (f->nodes[c].kind != CXCursor_CallExpr)
		c = node_up(f, own);
	if (c < 0 || f->nodes[c].kind != CXCursor_CallExpr || call_nargs(f, c) != 2)
		goto out;
	cline = offset_line(t, f->nodes[c].start, NULL);
	a0 = node_text(t, &f->nodes[call_arg(f, c, 0)]);
	{
		char *n0 = normalize_ws(a0), *nb = normalize_ws(bio);

		ok = !strcmp(n0, nb);
		free(n0);
		free(nb);
	}
	callee = node_callee(f, c);
	g = ok ? func_by_name(cx, callee, f->tu) : NULL;
	ok = false;
	if (!g || g->tu != f->tu || g->nparams != 2 || !g->param_name || !g->param_name[0] ||
	    !g->param_name[1] || enclosing_stmt(f, c) != c)
		goto out;
	/* the helper's body: from its first '{' to its end */
	{
		const char *src = t->src + g->start, *brace = memchr(src, '{', g->end - g->start);

		if (!brace)
			goto out;
		toks_of(brace, g->end - g->start - (size_t)(brace - src), &body);
	}
	b['B' - 'A'] = (struct tbind){&g->param_name[0], 1, true};
	b['S' - 'A'] = (struct tbind){&g->param_name[1], 1, true};
	if (!matches_any(&body, bio_loops, sizeof(bio_loops) / sizeof(bio_loops[0]), b, "BS")) {
		*why = xasprintf("%s() (given %s at line %u) is not a loop that ends every bio of "
				 "the chain whole with bio_endio",
				 callee, bio, cline);
		goto out;
	}
	{
		char *st_txt = node_text(t, &f->nodes[call_arg(f, c, 1)]);

		toks_of_str(st_txt, &status);
		free(st_txt);
	}
	berr = loop_error(b, &status);
	lerr = error_canon(last_error);
	if (!berr || strcmp(berr, lerr)) {
		char *e = toks_show(b['E' - 'A'].v, b['E' - 'A'].n);

		*why =
		    xasprintf("%s() (line %u) ends the bios with '%s' for its status, the "
			      "final step ends the request with error '%s': 2.6.25 gives both one "
			      "error; decide which one the request must end with",
			      callee, cline, e, last_error);
		free(e);
		goto out;
	}
	/* straight code from the loop's call to the final step */
	p = f->nodes[c].parent;
	if (p < 0 || f->nodes[p].kind != CXCursor_CompoundStmt || enclosing_stmt(f, L) != L ||
	    f->nodes[L].parent != p || f->nodes[L].start <= f->nodes[c].start) {
		*why = xasprintf("the final step is not a statement in the same block as the "
				 "call of %s() (line %u)",
				 callee, cline);
		goto out;
	}
	toks_of_str(rq, &rqt);
	private_local =
	    status.n == 1 && is_ident(status.v[0]) && private_local_var(t, f, status.v[0]);
	for (st = f->nodes[c].next; st >= 0 && st != L; st = f->nodes[st].next) {
		int acquire = 0;
		bool fine = false;

		toks_free(&tk);
		stmt_toks(t, f, st, &tk);
		b['R' - 'A'] = (struct tbind){rqt.v, rqt.n, true};
		if (ob->account_stmt < 0 &&
		    matches_any(&tk, accountings, sizeof(accountings) / sizeof(accountings[0]), b,
				"R")) {
			ob->account_stmt = st;
			continue;
		}
		if (toks_has(&tk, "disk_stat_add") || toks_has(&tk, "bio_endio"))
			fine = false;
		else if (stmt_lock_op(cx, t, f, st, &acquire) && acquire)
			fine = true;
		else if (stmt_inert(t, f, st))
			fine = true; /* e.g. a debug macro that expands to nothing */
		else if (f->nodes[st].kind == CXCursor_CallExpr && tk.n > 0 &&
			 (!strcmp(tk.v[0], "add_disk_randomness") || !strcmp(tk.v[0], "printk")))
			fine = !toks_has(&tk, "++") && !toks_has(&tk, "--") && !toks_has(&tk, "=");
		else if (private_local && f->nodes[st].kind == CXCursor_CallExpr)
			/* nothing else can reach a local whose address is never taken */
			fine = !toks_has(&tk, status.v[0]);
		if (!fine) {
			*why =
			    xasprintf("line %u, between the driver's bio completion (line %u) "
				      "and the final step, is not one blkmig can show leaves the "
				      "request and its error alone",
				      offset_line(t, f->nodes[st].start, NULL), cline);
			goto out;
		}
	}
	if (st != L)
		goto out;
	/* no other sector accounting in the function (a macro: read the tokens) */
	{
		struct toks all = {0};
		size_t as = ob->account_stmt >= 0 ? f->nodes[ob->account_stmt].start : 0,
		       ae = ob->account_stmt >= 0 ? stmt_end(t, f, ob->account_stmt) : 0;
		bool other = false;

		toks_of(t->src + f->start, as ? as - f->start : f->end - f->start, &all);
		other = toks_has(&all, "disk_stat_add") || toks_has(&all, "__disk_stat_add");
		toks_free(&all);
		if (!other && as) {
			toks_of(t->src + ae, f->end - ae, &all);
			other =
			    toks_has(&all, "disk_stat_add") || toks_has(&all, "__disk_stat_add");
			toks_free(&all);
		}
		if (other) {
			*why =
			    xasprintf("%s() adds to the disk's statistics outside the sector "
				      "accounting blkmig recognises, which 2.6.25's data part may "
				      "add again",
				      f->name);
			goto out;
		}
	}
	{
		/* blk_rq_bytes() is every bio's bytes only while hard_nr_sectors (a
		 * filesystem request) and data_len (any other) still say so: cciss puts 0
		 * in data_len before it completes a packet request */
		char *w = rq_field_written(cx, f->tu, "data_len");

		if (!w)
			w = rq_field_written(cx, f->tu, "hard_nr_sectors");
		if (w) {
			*why = xasprintf("the one 2.6.25 call would complete blk_rq_bytes(%s), but "
					 "%s, so it need not be the bytes of the bios %s() ends: "
					 "decide the byte count (for a packet request, the size it "
					 "had before the driver rewrote it)",
					 rq, w, callee);
			free(w);
			goto out;
		}
	}
	ob->call_stmt = c;
	if (ob->account_stmt >= 0)
		ob->evidence = xasprintf(
		    "%s() (line %u) ends every bio of %s whole with the final step's error; "
		    "2.6.25's data part for blk_rq_bytes(%s) does the same and adds the "
		    "sectors, so that call and the sector accounting at line %u go",
		    callee, cline, bio, rq, offset_line(t, f->nodes[ob->account_stmt].start, NULL));
	else
		ob->evidence = xasprintf(
		    "%s() (line %u) ends every bio of %s whole with the final step's error; "
		    "2.6.25's data part for blk_rq_bytes(%s) does the same (and also adds the "
		    "sectors to the disk's statistics), so that call goes",
		    callee, cline, bio, rq);
	ok = true;
out:
	if (!ok && ob->evidence) {
		free(ob->evidence);
		ob->evidence = NULL;
	}
	toks_free(&body);
	toks_free(&rqt);
	toks_free(&status);
	toks_free(&tk);
	free(callee);
	free(bio);
	free(a0);
	free(berr);
	free(lerr);
	return ok;
}
