/*
 * expr_text.c - what the text of an expression says, for the facts and the
 * rewrites alike: a whole word in a text, white space normalised, a simple
 * operand (one evaluation costs nothing), side effects (also through the
 * file's macros), a macro call that yields a boolean.
 */
#include <ctype.h>
#include <string.h>

#include "flow.h"

bool word_in(const char *hay, size_t len, const char *word)
{
	size_t wl = strlen(word);

	if (!wl)
		return false;
	for (size_t i = 0; i + wl <= len; i++) {
		if (memcmp(hay + i, word, wl))
			continue;
		/* a member of the same name (x->rq, x.rq) is not the variable */
		bool left = i == 0 || (!(isalnum((unsigned char)hay[i - 1]) || hay[i - 1] == '_') &&
				       hay[i - 1] != '.' &&
				       !(i > 1 && hay[i - 1] == '>' && hay[i - 2] == '-'));
		bool right =
		    i + wl == len || !(isalnum((unsigned char)hay[i + wl]) || hay[i + wl] == '_');

		if (left && right)
			return true;
	}
	return false;
}

char *normalize_ws(const char *s)
{
	struct sbuf b = {0};

	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			sbuf_addn(&b, s, 1);
	return sbuf_take(&b);
}

bool is_simple_operand(const char *s)
{
	/* identifier, member chain, or number: safe before "<< 9" or "? :" */
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.' || *s == '>' ||
		      (*s == '-' && s[1] == '>')))
			return false;
	return true;
}

/* calls that read and change nothing (request tests and accessors, compiler hints) */
static const char *const pure_calls[] = {
    "blk_fs_request",
    "blk_pc_request",
    "blk_special_request",
    "blk_sense_request",
    "blk_pm_request",
    "blk_pm_suspend_request",
    "blk_pm_resume_request",
    "blk_barrier_rq",
    "blk_fua_rq",
    "blk_discard_rq",
    "blk_rq_tagged",
    "blk_rq_started",
    "blk_rq_bytes",
    "blk_rq_cur_bytes",
    "blk_rq_sectors",
    "blk_rq_cur_sectors",
    "blk_rq_pos",
    "blk_queue_tagged",
    "rq_data_dir",
    "rq_is_sync",
    "rq_is_meta",
    "list_empty",
    "likely",
    "unlikely",
    "sizeof",
    "__builtin_expect",
    "IS_ERR",
    "PTR_ERR",
};

static bool is_pure_call(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(pure_calls) / sizeof(pure_calls[0]); i++)
		if (strlen(pure_calls[i]) == n && !memcmp(pure_calls[i], name, n))
			return true;
	return false;
}

/*
 * Side effects in expression text: ++, --, an assignment, or a call of anything
 * but a known pure accessor or (with a unit t) a function-like macro whose body
 * has none of these itself (`#define blk_fs_request(rq) ((rq)->cmd_type == ...)`).
 */
static bool side_effects_depth(struct tunit *t, const char *s, int depth)
{
	size_t n = strlen(s);

	if (strstr(s, "++") || strstr(s, "--"))
		return true;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '=') {
			char p = i ? s[i - 1] : 0, pp = i > 1 ? s[i - 2] : 0;

			if (s[i + 1] == '=') {
				i++;
				continue;
			}
			if (p == '!' || p == '=' || ((p == '<' || p == '>') && pp != p))
				continue;
			return true;
		}
		if (!(isalpha((unsigned char)s[i]) || s[i] == '_') ||
		    (i && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')))
			continue;
		size_t e = i, q;

		while (e < n && (isalnum((unsigned char)s[e]) || s[e] == '_'))
			e++;
		for (q = e; q < n && isspace((unsigned char)s[q]); q++)
			;
		if (q < n && s[q] == '(' && !is_pure_call(s + i, e - i)) {
			char *name = xstrndup(s + i, e - i);
			char *body = t && depth < 4 ? macro_body(t, name) : NULL;
			bool bad = !body || side_effects_depth(t, body, depth + 1);

			free(body);
			free(name);
			if (bad)
				return true;
		}
		i = e - 1;
	}
	return false;
}

bool has_side_effects(const char *s)
{
	return side_effects_depth(NULL, s, 0);
}

bool has_side_effects_in(struct tunit *t, const char *s)
{
	return side_effects_depth(t, s, 0);
}

/*
 * `NAME(args)` where NAME is a function-like macro of the unit whose body is a
 * comparison or a logical operation at its top level (`((rq)->cmd_type ==
 * REQ_TYPE_FS)`): a boolean, 0 or 1.
 */
bool macro_call_is_boolean(struct tunit *t, const char *s)
{
	size_t e = 0, n = strlen(s), a, b;
	char *name, *body;
	bool r = false;

	while (e < n && (isalnum((unsigned char)s[e]) || s[e] == '_'))
		e++;
	if (!e || e >= n || s[e] != '(' || s[n - 1] != ')')
		return false;
	name = xstrndup(s, e);
	body = macro_body(t, name);
	free(name);
	if (!body)
		return false;
	a = 0;
	b = strlen(body);
	while (a < b && isspace((unsigned char)body[a]))
		a++;
	while (b > a && isspace((unsigned char)body[b - 1]))
		b--;
	/* outer parentheses that enclose the whole body */
	while (b - a >= 2 && body[a] == '(' && body[b - 1] == ')') {
		int d = 0;
		bool whole = true;

		for (size_t i = a; i < b; i++) {
			d += body[i] == '(' ? 1 : body[i] == ')' ? -1 : 0;
			if (!d && i < b - 1)
				whole = false;
		}
		if (!whole)
			break;
		a++;
		b--;
	}
	int d = 0;

	for (size_t i = a; i < b && !r; i++) {
		char c = body[i], c2 = i + 1 < b ? body[i + 1] : 0;

		d += c == '(' ? 1 : c == ')' ? -1 : 0;
		if (d || c == '?')
			continue;
		if ((c == '=' && c2 == '=') || (c == '!' && c2 == '=') || (c == '&' && c2 == '&') ||
		    (c == '|' && c2 == '|'))
			r = true;
		else if ((c == '<' || c == '>') && c2 != c && i > a && body[i - 1] != c &&
			 body[i - 1] != '-')
			r = true;
	}
	/* a conditional or a comma at any depth: not a plain test */
	for (size_t i = a; i < b; i++)
		if (body[i] == '?' || body[i] == ',')
			r = false;
	if (a < b && body[a] == '!' && body[a + 1] != '=' && !strchr(body + a, '?'))
		r = true; /* !x */
	r = r && !side_effects_depth(t, body, 1);
	free(body);
	return r;
}
