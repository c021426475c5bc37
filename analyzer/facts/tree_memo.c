/*
 * tree_memo.c - what the tree-wide pass found in each file without legacy calls, kept
 * between runs by the file's content (issue 24: a run after editing one file reads the
 * other files of the tree again, but need not scan them again).
 *
 * For such a file the pass (convert/analyze.c) checks that it is text, finds no legacy
 * call token in it (prefilter.c), and lists its identifiers and whether it registers a
 * queue (tree_index.c): all of it depends on the file's bytes and on blkmig alone.  The
 * memo maps the SHA-256 of those bytes to that answer; the cache keeps it as one blob
 * (cli/tree_memo_cache.c, keyed by blkmig itself), read once per process and written
 * again as the process exits if its analyses found files it did not hold, with the
 * records they used and those they added (a migrate runs up to four analyses).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "tree_memo.h"
#include "util.h"

const struct tree_memo_ops *bm_tree_memo_cache;

#define MEMO_MAGIC "blkmig-tree-memo 1\n"

struct memo_record {
	unsigned char sum[32];
	bool registers;
	bool used; /* by this run, or added by it */
	uint32_t *ids;
	size_t nids;
};

struct tree_memo {
	struct memo_record *rec;
	size_t nrec, cap;
	long *slot; /* open addressing over rec by sum */
	size_t nslots;
	size_t added;	       /* records added by the process */
	size_t taken, scanned; /* by the current analysis: answers taken, files scanned */
};

static size_t slot_of(const struct tree_memo *m, const unsigned char sum[32])
{
	uint64_t h;

	memcpy(&h, sum, sizeof(h));
	return (size_t)(h % m->nslots);
}

static long find(const struct tree_memo *m, const unsigned char sum[32])
{
	for (size_t s = slot_of(m, sum);; s = (s + 1) % m->nslots) {
		if (m->slot[s] < 0)
			return -1;
		if (!memcmp(m->rec[m->slot[s]].sum, sum, 32))
			return m->slot[s];
	}
}

static void rehash(struct tree_memo *m, size_t nslots)
{
	free(m->slot);
	m->nslots = nslots;
	m->slot = xmalloc(nslots * sizeof(*m->slot));
	for (size_t s = 0; s < nslots; s++)
		m->slot[s] = -1;
	for (size_t i = 0; i < m->nrec; i++) {
		size_t s = slot_of(m, m->rec[i].sum);

		while (m->slot[s] >= 0)
			s = (s + 1) % nslots;
		m->slot[s] = (long)i;
	}
}

static struct memo_record *add(struct tree_memo *m, const unsigned char sum[32])
{
	struct memo_record *r;

	if (2 * (m->nrec + 1) > m->nslots)
		rehash(m, m->nslots ? 2 * m->nslots : 1024);
	if (m->nrec == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->rec = xrealloc(m->rec, m->cap * sizeof(*m->rec));
	}
	r = &m->rec[m->nrec];
	memset(r, 0, sizeof(*r));
	memcpy(r->sum, sum, 32);
	size_t s = slot_of(m, sum);

	while (m->slot[s] >= 0)
		s = (s + 1) % m->nslots;
	m->slot[s] = (long)m->nrec++;
	return r;
}

/* The records of DATA (as write_at_exit() writes them); a damaged tail is dropped. */
static void read_records(struct tree_memo *m, const char *data, size_t len)
{
	size_t p = strlen(MEMO_MAGIC);

	if (len < p || memcmp(data, MEMO_MAGIC, p))
		return;
	while (p + 32 + 1 + 4 <= len) {
		const char *at = data + p;
		uint32_t n;

		memcpy(&n, at + 33, 4);
		if ((len - p - 37) / 4 < n)
			break;
		if (find(m, (const unsigned char *)at) < 0) {
			struct memo_record *r = add(m, (const unsigned char *)at);

			r->registers = at[32] != 0;
			r->nids = n;
			r->ids = n ? xmalloc(n * sizeof(*r->ids)) : NULL;
			if (n)
				memcpy(r->ids, at + 37, n * sizeof(*r->ids));
		}
		p += 37 + (size_t)n * 4;
	}
}

static struct tree_memo *the_memo; /* the process's */
static const struct tree_memo_ops *the_memo_ops;

static void write_at_exit(void);

struct tree_memo *tree_memo_open(void)
{
	struct tree_memo *m = the_memo;
	size_t len = 0;
	char *data;

	if (!bm_tree_memo_cache)
		return NULL;
	if (m)
		return m;
	m = the_memo = xcalloc(1, sizeof(*m));
	the_memo_ops = bm_tree_memo_cache;
	rehash(m, 1024);
	data = bm_tree_memo_cache->load(&len);
	if (data)
		read_records(m, data, len);
	free(data);
	atexit(write_at_exit);
	return m;
}

void tree_memo_sum(const char *text, size_t len, unsigned char sum[32])
{
	unsigned n = 0;

	EVP_Digest(text, len, sum, &n, EVP_sha256(), NULL);
}

bool tree_memo_take(struct tree_memo *m, const unsigned char sum[32], bool *registers,
		    struct tree_idents *ids)
{
	long i = m ? find(m, sum) : -1;
	struct memo_record *r;

	if (i < 0)
		return false;
	m->taken++;
	r = &m->rec[i];
	r->used = true;
	*registers = r->registers;
	ids->n = r->nids;
	ids->h = r->nids ? xmalloc(r->nids * sizeof(*ids->h)) : NULL;
	if (r->nids)
		memcpy(ids->h, r->ids, r->nids * sizeof(*ids->h));
	return true;
}

void tree_memo_put(struct tree_memo *m, const unsigned char sum[32], bool registers,
		   const struct tree_idents *ids)
{
	struct memo_record *r;

	if (!m)
		return;
	m->scanned++;
	if (find(m, sum) >= 0)
		return;
	r = add(m, sum);
	r->registers = registers;
	r->used = true;
	r->nids = ids->n;
	r->ids = ids->n ? xmalloc(ids->n * sizeof(*r->ids)) : NULL;
	if (ids->n)
		memcpy(r->ids, ids->h, ids->n * sizeof(*r->ids));
	m->added++;
}

void tree_memo_done(struct tree_memo *m)
{
	if (m && m->taken + m->scanned && getenv("BLKMIG_STAGE_TIMES"))
		fprintf(stderr,
			"blkmig: the tree scan of %zu of %zu file(s) kept from an earlier run\n",
			m->taken, m->taken + m->scanned);
	if (m)
		m->taken = m->scanned = 0;
}

static void write_at_exit(void)
{
	struct tree_memo *m = the_memo;

	if (!m)
		return;
	/* a process that found nothing new leaves the memo as it is (another tree's
	 * records stay); one that did keeps what it used and what it added */
	if (m->added) {
		struct sbuf b = {0};

		sbuf_add(&b, MEMO_MAGIC);
		for (size_t i = 0; i < m->nrec; i++) {
			const struct memo_record *r = &m->rec[i];
			uint32_t n = (uint32_t)r->nids;
			char flag = r->registers;

			if (!r->used || r->nids != n)
				continue;
			sbuf_addn(&b, (const char *)r->sum, 32);
			sbuf_addn(&b, &flag, 1);
			sbuf_addn(&b, (const char *)&n, 4);
			if (n)
				sbuf_addn(&b, (const char *)r->ids, (size_t)n * 4);
		}
		the_memo_ops->store(b.s, b.len);
		free(b.s);
	}
	for (size_t i = 0; i < m->nrec; i++)
		free(m->rec[i].ids);
	free(m->rec);
	free(m->slot);
	free(m);
	the_memo = NULL;
}
