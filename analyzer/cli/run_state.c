/*
 * run_state.c - a run's results (files, sites with their edits, findings) to
 * JSON and back, field for field, so that a cached result (cache.c) gives
 * the same reports, patch and exit status as the run that made it.  The
 * constant strings of a run (reason codes, confidences, outcomes) come back
 * interned: they live until the process ends, as the originals do.
 */
#include <string.h>

#include "run_state.h"
#include "util.h"

static struct bm_strlist interned;

const char *run_state_intern(const char *s)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < interned.n; i++)
		if (!strcmp(interned.v[i], s))
			return interned.v[i];
	strlist_push(&interned, s);
	return interned.v[interned.n - 1];
}

json_t *run_state_bytes(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);
	char *hex;

	if (j)
		return j;
	/* not UTF-8 (a Latin-1 comment): JSON strings cannot hold it as it is */
	hex = xmalloc(2 * n + 1);
	for (size_t i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", (unsigned char)s[i]);
	hex[2 * n] = '\0';
	j = json_pack("{s:s}", "hex", hex);
	free(hex);
	return j;
}

char *run_state_get_bytes(json_t *j, size_t *len)
{
	const char *h = json_string_value(json_object_get(j, "hex"));
	size_t n;
	char *r;

	if (json_is_string(j)) {
		n = json_string_length(j);
		r = xmalloc(n + 1);
		memcpy(r, json_string_value(j), n);
		r[n] = '\0';
		*len = n;
		return r;
	}
	if (!h || strlen(h) % 2)
		return NULL;
	n = strlen(h) / 2;
	r = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(h + 2 * i, "%2x", &v) != 1) {
			free(r);
			return NULL;
		}
		r[i] = (char)v;
	}
	r[n] = '\0';
	*len = n;
	return r;
}

static json_t *str_or_null(const char *s)
{
	return s ? run_state_bytes(s, strlen(s)) : json_null();
}

static json_t *strlist_json(const struct bm_strlist *l)
{
	json_t *a = json_array();

	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(a, str_or_null(l->v[i]));
	return a;
}

static json_t *site_json(const struct bm_site *s)
{
	json_t *edits = json_array();

	for (size_t i = 0; i < s->nedits; i++)
		json_array_append_new(
		    edits, json_pack("[o, I, I, o]", str_or_null(s->edits[i].file),
				     (json_int_t)s->edits[i].start, (json_int_t)s->edits[i].end,
				     str_or_null(s->edits[i].text)));
	return json_pack(
	    "{s:o, s:[I, I, I, I, I, I], s:o, s:o, s:[i, i, i, i, b, i], s:o, s:o, s:o, s:o, "
	    "s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
	    "file", str_or_null(s->file), "pos", (json_int_t)s->line, (json_int_t)s->column,
	    (json_int_t)s->end_line, (json_int_t)s->end_column, (json_int_t)s->offset,
	    (json_int_t)s->end_offset, "function", str_or_null(s->function), "call",
	    str_or_null(s->call), "enums", (int)s->pattern, (int)s->lock, (int)s->uptodate_class,
	    (int)s->verdict, s->typed, 0, "lock_evidence", strlist_json(&s->lock_evidence),
	    "uptodate_expr", str_or_null(s->uptodate_expr), "error_expr",
	    str_or_null(s->error_expr), "uptodate_origin", str_or_null(s->uptodate_origin),
	    "bytes_expr", str_or_null(s->bytes_expr), "bytes_origin", str_or_null(s->bytes_origin),
	    "replacement", str_or_null(s->replacement), "before", str_or_null(s->before), "after",
	    str_or_null(s->after), "reason_code", str_or_null(s->reason_code), "reason_text",
	    str_or_null(s->reason_text), "confidence", str_or_null(s->confidence), "parse_note",
	    str_or_null(s->parse_note), "edits", edits);
}

static json_t *file_json(const struct bm_file *f)
{
	json_t *j = json_pack("{s:o, s:[i, I, I, b, I], s:o, s:o, s:o, s:o, s:o, s:o}", "path",
			      str_or_null(f->path), "nums", (int)f->status, (json_int_t)f->errors,
			      (json_int_t)f->warnings, f->used_model, (json_int_t)f->nsites,
			      "reason", str_or_null(f->reason), "diagnostics",
			      strlist_json(&f->diagnostics), "outcome", str_or_null(f->outcome),
			      "outcome_code", str_or_null(f->outcome_code), "outcome_text",
			      str_or_null(f->outcome_text), "fail_code", str_or_null(f->fail_code));

	if (j && f->link) /* a symbolic link the walk named and skipped */
		json_object_set_new(j, "link", json_true());
	return j;
}

json_t *run_state_save(const struct bm_run *run)
{
	json_t *files = json_array(), *sites = json_array(), *findings = json_array();

	for (size_t i = 0; i < run->nfiles; i++)
		json_array_append_new(files, file_json(&run->files[i]));
	for (size_t i = 0; i < run->nsites; i++)
		json_array_append_new(sites, site_json(&run->sites[i]));
	for (size_t i = 0; i < run->nfindings; i++) {
		const struct bm_finding *f = &run->findings[i];

		json_array_append_new(findings,
				      json_pack("[o, I, I, o, i, o]", str_or_null(f->file),
						(json_int_t)f->line, (json_int_t)f->column,
						str_or_null(f->function), (int)f->kind,
						str_or_null(f->message)));
	}
	json_t *facts = json_array();

	for (size_t r = 0; r < run->nfacts_added; r++)
		json_array_append_new(facts, json_integer((json_int_t)run->facts_added[r]));
	return json_pack("{s:o, s:o, s:o, s:I, s:o}", "files", files, "sites", sites, "findings",
			 findings, "io_errors", (json_int_t)run->io_errors, "facts_added", facts);
}

/* A string member, copied (NULL for null); *bad when missing or of another type. */
static char *get_str(json_t *o, const char *key, bool *bad)
{
	json_t *v = json_object_get(o, key);
	size_t n;
	char *r;

	if (json_is_null(v))
		return NULL;
	r = run_state_get_bytes(v, &n);
	if (!r)
		*bad = true;
	return r;
}

static const char *get_const(json_t *o, const char *key, bool *bad)
{
	char *s = get_str(o, key, bad);
	const char *r = run_state_intern(s);

	free(s);
	return r;
}

static void get_strlist(json_t *a, struct bm_strlist *l, bool *bad)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a)) {
		*bad = true;
		return;
	}
	json_array_foreach(a, i, v)
	{
		size_t n;
		char *s = run_state_get_bytes(v, &n);

		if (s)
			strlist_push_owned(l, s);
		else
			*bad = true;
	}
}

static json_int_t num(json_t *a, size_t i, bool *bad)
{
	json_t *v = json_array_get(a, i);

	if (json_is_boolean(v))
		return json_is_true(v);
	if (!json_is_integer(v))
		*bad = true;
	return json_integer_value(v);
}

static void load_site(json_t *o, struct bm_site *s, bool *bad)
{
	json_t *pos = json_object_get(o, "pos"), *en = json_object_get(o, "enums"), *e;
	size_t i;

	s->file = get_str(o, "file", bad);
	s->line = (unsigned)num(pos, 0, bad);
	s->column = (unsigned)num(pos, 1, bad);
	s->end_line = (unsigned)num(pos, 2, bad);
	s->end_column = (unsigned)num(pos, 3, bad);
	s->offset = (size_t)num(pos, 4, bad);
	s->end_offset = (size_t)num(pos, 5, bad);
	s->function = get_str(o, "function", bad);
	s->call = get_str(o, "call", bad);
	s->pattern = (enum bm_pattern)num(en, 0, bad);
	s->lock = (enum bm_lock_state)num(en, 1, bad);
	s->uptodate_class = (enum bm_uptodate_class)num(en, 2, bad);
	s->verdict = (enum bm_verdict)num(en, 3, bad);
	s->typed = num(en, 4, bad) != 0;
	get_strlist(json_object_get(o, "lock_evidence"), &s->lock_evidence, bad);
	s->uptodate_expr = get_str(o, "uptodate_expr", bad);
	s->error_expr = get_str(o, "error_expr", bad);
	s->uptodate_origin = get_str(o, "uptodate_origin", bad);
	s->bytes_expr = get_str(o, "bytes_expr", bad);
	s->bytes_origin = get_str(o, "bytes_origin", bad);
	s->parse_note = get_str(o, "parse_note", bad);
	s->replacement = get_str(o, "replacement", bad);
	s->before = get_str(o, "before", bad);
	s->after = get_str(o, "after", bad);
	s->reason_code = get_const(o, "reason_code", bad);
	s->reason_text = get_str(o, "reason_text", bad);
	s->confidence = get_const(o, "confidence", bad);
	if (!s->file || !s->call || !json_is_array(json_object_get(o, "edits")))
		*bad = true;
	s->edits = xcalloc(json_array_size(json_object_get(o, "edits")) + 1, sizeof(*s->edits));
	json_array_foreach(json_object_get(o, "edits"), i, e)
	{
		struct bm_edit *d = &s->edits[s->nedits++];
		size_t n;
		char *f = run_state_get_bytes(json_array_get(e, 0), &n);
		char *t = run_state_get_bytes(json_array_get(e, 3), &n);

		d->file = f ? f : xstrdup("");
		d->start = (size_t)num(e, 1, bad);
		d->end = (size_t)num(e, 2, bad);
		d->text = t ? t : xstrdup("");
		if (!f || !t)
			*bad = true;
	}
}

int run_state_load(json_t *j, struct bm_run *run)
{
	json_t *files = json_object_get(j, "files"), *sites = json_object_get(j, "sites");
	json_t *findings = json_object_get(j, "findings"), *facts, *v;
	bool bad = !json_is_array(files) || !json_is_array(sites) || !json_is_array(findings);
	size_t i, facts_cap = 0;

	if (bad)
		return -1;
	json_array_foreach(files, i, v)
	{
		struct bm_file *f = vec_push(run->files, run->nfiles, run->files_cap);
		json_t *n = json_object_get(v, "nums");

		memset(f, 0, sizeof(*f));
		f->path = get_str(v, "path", &bad);
		f->status = (enum bm_parse_status)num(n, 0, &bad);
		f->errors = (unsigned)num(n, 1, &bad);
		f->warnings = (unsigned)num(n, 2, &bad);
		f->used_model = num(n, 3, &bad) != 0;
		f->nsites = (size_t)num(n, 4, &bad);
		f->reason = get_str(v, "reason", &bad);
		f->link = json_is_true(json_object_get(v, "link"));
		get_strlist(json_object_get(v, "diagnostics"), &f->diagnostics, &bad);
		f->outcome = get_const(v, "outcome", &bad);
		f->outcome_code = get_const(v, "outcome_code", &bad);
		f->outcome_text = get_str(v, "outcome_text", &bad);
		if (json_object_get(v, "fail_code")) /* resource_limit (parse.c) */
			f->fail_code = get_const(v, "fail_code", &bad);
		if (!f->path)
			bad = true;
	}
	json_array_foreach(sites, i, v)
	{
		struct bm_site *s = vec_push(run->sites, run->nsites, run->sites_cap);

		memset(s, 0, sizeof(*s));
		load_site(v, s, &bad);
	}
	json_array_foreach(findings, i, v)
	{
		struct bm_finding *f = vec_push(run->findings, run->nfindings, run->findings_cap);
		size_t n;
		char *file = run_state_get_bytes(json_array_get(v, 0), &n);

		memset(f, 0, sizeof(*f));
		f->file = file ? file : xstrdup("");
		f->line = (unsigned)num(v, 1, &bad);
		f->column = (unsigned)num(v, 2, &bad);
		f->function = json_is_null(json_array_get(v, 3))
				  ? NULL
				  : run_state_get_bytes(json_array_get(v, 3), &n);
		f->kind = (enum bm_finding_kind)num(v, 4, &bad);
		f->message = json_is_null(json_array_get(v, 5))
				 ? NULL
				 : run_state_get_bytes(json_array_get(v, 5), &n);
		if (!file || f->kind >= BM_FIND_KIND_COUNT)
			bad = true;
	}
	run->io_errors = (unsigned)json_integer_value(json_object_get(j, "io_errors"));
	facts = json_object_get(j, "facts_added");
	if (!json_is_array(facts))
		bad = true;
	json_array_foreach(facts, i, v)
	{
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			bad = true;
		else
			vec_append(run->facts_added, run->nfacts_added, facts_cap,
				   (size_t)json_integer_value(v));
	}
	return bad ? -1 : 0;
}
