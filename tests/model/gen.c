/*
 * gen.c - the seeded generator of request states: filesystem, packet and
 * special requests with 0..4 bios of 1..4 bvecs (512..4096 bytes, odd packet
 * sizes such as 36 bytes), built as the block layer builds them, then
 * partly completed, counted down by a PIO driver, given a residual data_len,
 * tagged or not, queued or not, with the queue lock held or not; and the
 * arguments the old code passes (uptodate from {1, 2, 0, -EIO, -ENOMEM,
 * -EOPNOTSUPP}, sector and byte counts drawn from the request's own fields
 * and from the bytes really left).
 */
#include <string.h>

#include "props.h"

uint64_t m_rand(struct m_rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned int m_below(struct m_rng *r, unsigned int n)
{
	return n ? (unsigned int)(m_rand(r) % n) : 0;
}

static bool chance(struct m_rng *r, unsigned int percent)
{
	return m_below(r, 100) < percent;
}

static unsigned int pick(struct m_rng *r, const unsigned int *v, unsigned int n)
{
	return v[m_below(r, n)];
}

static unsigned int vec_len(struct m_rng *r, enum m_type t)
{
	static const unsigned int odd[] = {36, 8, 18, 96, 254, 2052, 1000};

	if (t == M_PC && chance(r, 35))
		return pick(r, odd, sizeof(odd) / sizeof(odd[0]));
	return 512 * (1 + m_below(r, 8));
}

static void make_bios(struct m_rng *r, struct m_request *rq, unsigned long sector)
{
	for (int i = 0; i < rq->nbios; i++) {
		struct m_bio *bio = &rq->bios[i];

		memset(bio, 0, sizeof(*bio));
		bio->vcnt = 1 + (int)m_below(r, M_MAX_VECS);
		bio->sector = sector;
		bio->uptodate = true;
		for (int v = 0; v < bio->vcnt; v++) {
			bio->vec[v].page =
			    ((unsigned long)(i + 1) << 20) | ((unsigned long)v << 14);
			bio->vec[v].offset =
			    rq->type == M_FS ? 512 * m_below(r, 4) : m_below(r, 64);
			bio->vec[v].len = vec_len(r, rq->type);
			bio->size += bio->vec[v].len;
		}
		sector += bio->size >> 9;
	}
}

/* what blk_rq_bio_prep and the merges leave in a fresh request */
static void setup_request(struct m_rng *r, struct m_request *rq)
{
	unsigned long start = m_below(r, 1u << 20);
	unsigned int total = 0;

	make_bios(r, rq, start);
	for (int i = 0; i < rq->nbios; i++)
		total += rq->bios[i].size;
	rq->bio = rq->nbios ? 0 : -1;
	rq->sector = rq->hard_sector = start;
	if (rq->nbios) {
		/* a packet request's sector counts are its first bio's (blk_rq_bio_prep) */
		unsigned int sz = rq->type == M_FS ? total : rq->bios[0].size;

		rq->nr_sectors = rq->hard_nr_sectors = sz >> 9;
		rq->current_nr_sectors = rq->hard_cur_sectors = m_bio_cur_sectors(rq, 0);
		rq->buffer = m_bio_data(rq, 0);
		rq->data_len = total;
	} else {
		static const unsigned int dl[] = {0, 0, 512, 36, 4096, 18};

		rq->nr_sectors = rq->hard_nr_sectors = 0;
		rq->current_nr_sectors = rq->hard_cur_sectors = 0;
		rq->buffer = 0xd000;
		rq->data_len = pick(r, dl, sizeof(dl) / sizeof(dl[0]));
	}
}

static void pio_countdown(struct m_rng *r, struct m_world *w)
{
	struct m_request *rq = &w->rq;
	unsigned int mask = 1 + m_below(r, 15), k = m_below(r, rq->current_nr_sectors + 1);

	if (!k)
		return;
	for (unsigned int i = 0; i < k; i++) {
		if (mask & M_W_CUR)
			rq->current_nr_sectors--;
		if (mask & M_W_SECTOR)
			rq->sector++;
		if (mask & M_W_BUFFER)
			rq->buffer += 512;
		if (mask & M_W_NR && rq->nr_sectors)
			rq->nr_sectors--;
	}
	w->written |= mask;
}

static int pick_uptodate(struct m_rng *r)
{
	static const int set[] = {1, 2, 0, -M_EIO, -M_ENOMEM, -M_EOPNOTSUPP};

	return set[m_below(r, 6)];
}

void m_generate(struct m_rng *r, struct m_case *c)
{
	struct m_world *w = &c->w;
	struct m_request *rq = &w->rq;
	unsigned int x = m_below(r, 100), left;

	memset(c, 0, sizeof(*c));
	rq->type = x < 45 ? M_FS : x < 80 ? M_PC : M_SPECIAL;
	if (rq->type == M_FS)
		rq->nbios = 1 + (int)m_below(r, M_MAX_BIOS);
	else if (rq->type == M_PC)
		rq->nbios = chance(r, 15) ? 0 : 1 + (int)m_below(r, M_MAX_BIOS);
	else
		rq->nbios = chance(r, 75) ? 0 : 1 + (int)m_below(r, 2);
	setup_request(r, rq);
	rq->tag = -1;
	if (chance(r, 25)) {
		rq->tag = (int)m_below(r, 32);
		rq->list = M_ON_BUSY; /* blk_queue_start_tag moved it to the busy list */
	} else {
		rq->list = chance(r, 55) ? M_ON_QUEUE : M_OFF_LIST;
	}
	rq->has_disk = chance(r, 80);
	rq->has_end_io = chance(r, 50);
	w->lock_held = chance(r, 50);
	w->uptodate_hist = 1;

	/* some bytes completed already (the model's own 2.6.24 chunk) */
	if (rq->bio >= 0 && rq->type != M_SPECIAL && chance(r, 35)) {
		unsigned int all = m_bytes_left(w), nb;

		if (rq->type == M_FS && chance(r, 80))
			nb = 512 * m_below(r, all / 512 + 1);
		else
			nb = m_below(r, all + 1);
		w->uptodate_hist = chance(r, 75) ? 1 : 0;
		end_that_request_chunk(w, w->uptodate_hist, (int)nb);
	}
	/* a PIO driver's cursor */
	if (rq->type == M_FS && chance(r, 35))
		pio_countdown(r, w);
	w->orig_data_len = rq->data_len;
	/* a residual count written over data_len */
	if (rq->type != M_FS && chance(r, 25)) {
		unsigned int d = m_below(r, rq->data_len + 1);

		if (d != rq->data_len) {
			rq->data_len = d;
			w->written |= M_W_DATALEN;
		}
	}
	rq->errors = chance(r, 80) ? 0 : 1 + (int)m_below(r, 8);
	memset(&w->o, 0, sizeof(w->o));

	c->u = pick_uptodate(r);
	left = m_bytes_left(w);
	{
		unsigned int ns[] = {rq->hard_cur_sectors,
				     rq->current_nr_sectors,
				     rq->hard_nr_sectors,
				     rq->nr_sectors,
				     left >> 9,
				     (left + 511) >> 9,
				     m_below(r, 17),
				     0};
		unsigned int bs[] = {(unsigned int)pick(r, ns, 8) << 9,
				     rq->data_len,
				     left,
				     rq->bio >= 0 ? rq->bios[rq->bio].vec[rq->bios[rq->bio].idx].len
						  : 0,
				     m_below(r, 8193),
				     36,
				     0,
				     rq->hard_nr_sectors << 9};

		c->n = (int)pick(r, ns, 8);
		c->b = (int)pick(r, bs, 8);
	}
	if (chance(r, 70))
		c->hk = rq->tag >= 0 ? HK_END_TAG : rq->list == M_ON_QUEUE ? HK_DEQUEUE : HK_NONE;
	else
		c->hk = (enum m_hk)m_below(r, 3);
	c->noretry = chance(r, 50);
	c->strict = chance(r, 60);
	c->field = (int)m_below(r, F_NFIELDS);
	c->zero_datalen = chance(r, 50);
}
