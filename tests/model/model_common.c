/*
 * model_common.c - what 2.6.24 and 2.6.25 share: the data part of a
 * completion (walking the bio chain, whole bios, whole and partial bvecs, the
 * request's sector bookkeeping for filesystem requests), the per-bio end,
 * the final step (end_io or release), and the housekeeping calls (dequeue,
 * tag release, randomness, the queue lock).  2.6.25's __end_that_request_first
 * is 2.6.24's with an error instead of an uptodate value, so one function
 * serves both; the two API files differ only in what they call and when.
 */
#include "model.h"

struct m_request *m_rq(struct m_world *w)
{
	if (w->o.ended)
		w->o.uaf = true;
	return &w->rq;
}

/* 2.6.24's end_io_error(u) is u <= 0: then -EIO for 0, u itself below 0 */
int m_error_of_uptodate(int uptodate)
{
	if (uptodate > 0)
		return 0;
	return uptodate ? uptodate : -M_EIO;
}

/* what the converters write for an old uptodate value (API-SEMANTICS.md) */
int m_E(int u)
{
	return u > 0 ? 0 : (u ? u : -M_EIO);
}

static int next_bio(const struct m_request *rq, int b)
{
	return b + 1 < rq->nbios ? b + 1 : -1;
}

unsigned int m_bytes_left(const struct m_world *w)
{
	unsigned int n = 0;

	for (int b = w->rq.bio; b >= 0; b = next_bio(&w->rq, b))
		n += w->rq.bios[b].size;
	return n;
}

/* bio_data(): the address of the current bvec's data, 0 for no bvec */
unsigned long m_bio_data(const struct m_request *rq, int b)
{
	const struct m_bio *bio;

	if (b < 0)
		return 0;
	bio = &rq->bios[b];
	if (!bio->vcnt)
		return 0;
	return bio->vec[bio->idx].page + bio->vec[bio->idx].offset;
}

/* bio_cur_sectors(): whole sectors left in the current bvec */
unsigned int m_bio_cur_sectors(const struct m_request *rq, int b)
{
	const struct m_bio *bio;

	if (b < 0)
		return 0;
	bio = &rq->bios[b];
	return bio->vcnt ? bio->vec[bio->idx].len >> 9 : 0;
}

/*
 * A bio's share of a completion (req_bio_endio): an error clears the bio's
 * uptodate flag for good; the bio's owner hears of it (bio_endio) once, when
 * its last byte completes, with -EIO if any earlier part failed.
 */
static void bio_part_done(struct m_bio *bio, unsigned int nbytes, int error)
{
	if (error)
		bio->uptodate = false;
	else if (!bio->uptodate)
		error = -M_EIO;
	if (nbytes > bio->size)
		nbytes = bio->size;
	bio->size -= nbytes;
	bio->sector += nbytes >> 9;
	bio->done += nbytes;
	if (bio->size == 0) {
		bio->endio_calls++;
		bio->endio_error = error;
	}
}

/*
 * blk_recalc_rq_sectors(): only filesystem requests.  The hard_ fields move
 * by whole sectors; the driver's cursor (sector, nr_sectors,
 * current_nr_sectors, buffer) is reset to the next segment only if the
 * driver has not moved it past the completed part.
 */
static void recalc_sectors(struct m_request *rq, unsigned int nsect)
{
	if (rq->type != M_FS)
		return;
	rq->hard_sector += nsect;
	rq->hard_nr_sectors -= nsect;
	if (rq->nr_sectors >= rq->hard_nr_sectors && rq->sector <= rq->hard_sector) {
		rq->sector = rq->hard_sector;
		rq->nr_sectors = rq->hard_nr_sectors;
		rq->hard_cur_sectors = m_bio_cur_sectors(rq, rq->bio);
		rq->current_nr_sectors = rq->hard_cur_sectors;
		rq->buffer = m_bio_data(rq, rq->bio);
	}
	if (rq->nr_sectors < rq->current_nr_sectors) /* "request botched" */
		rq->nr_sectors = rq->current_nr_sectors;
}

int m_update(struct m_world *w, int error, int nr_bytes)
{
	struct m_request *rq = m_rq(w);
	int total = 0, part = 0, vecs = 0;

	/* a packet request keeps its sense status; every other kind is cleared */
	if (rq->type != M_PC)
		rq->errors = 0;

	while (rq->bio >= 0) {
		struct m_bio *bio = &rq->bios[rq->bio];
		int nbytes;

		if (nr_bytes >= (int)bio->size) {
			/* the whole (rest of the) bio */
			nbytes = (int)bio->size;
			rq->bio = next_bio(rq, rq->bio);
			bio_part_done(bio, (unsigned int)nbytes, error);
			vecs = 0;
			part = 0;
		} else {
			if (bio->idx + vecs >= bio->vcnt)
				break; /* the kernel prints "bio idx >= vcnt" */
			nbytes = (int)bio->vec[bio->idx + vecs].len;
			if (nbytes > nr_bytes) {
				/* part of one bvec: stop inside it */
				part += nr_bytes;
				total += nr_bytes;
				break;
			}
			vecs++; /* a whole bvec of a bio that goes on */
			part += nbytes;
		}
		total += nbytes;
		nr_bytes -= nbytes;
		if (rq->bio >= 0 && nr_bytes <= 0)
			break;
	}
	if (rq->bio < 0)
		return 0; /* every bio is done */

	if (part) {
		struct m_bio *bio = &rq->bios[rq->bio];

		bio_part_done(bio, (unsigned int)part, error);
		bio->idx += vecs;
		/* what is left of nr_bytes is the part of the current bvec done */
		bio->vec[bio->idx].offset += (unsigned int)nr_bytes;
		bio->vec[bio->idx].len -= (unsigned int)nr_bytes;
	}
	recalc_sectors(rq, (unsigned int)total >> 9);
	return 1;
}

void m_add_disk_randomness(struct m_world *w)
{
	if (m_dead(w))
		return;
	if (m_rq(w)->has_disk)
		w->o.randomness++;
}

void m_dequeue(struct m_world *w)
{
	struct m_request *rq;

	if (m_dead(w))
		return;
	rq = m_rq(w);
	if (!w->lock_held)
		w->o.race |= M_RACE_DEQUEUE;
	if (rq->list == M_OFF_LIST) {
		w->o.bug |= M_BUG_DEQUEUE_UNQUEUED;
		return;
	}
	rq->list = M_OFF_LIST;
	if (rq->type == M_FS)
		w->o.in_flight++; /* a started fs request is in flight at the driver */
}

void m_end_tag(struct m_world *w)
{
	struct m_request *rq;

	if (m_dead(w))
		return;
	rq = m_rq(w);
	if (!w->lock_held)
		w->o.race |= M_RACE_END_TAG;
	if (rq->tag < 0) {
		w->o.bug |= M_BUG_END_TAG_UNTAGGED;
		return;
	}
	rq->list = M_OFF_LIST; /* off the tag map's busy list */
	rq->tag = -1;
	w->o.tags_released++;
}

void m_lock(struct m_world *w)
{
	if (m_dead(w))
		return;
	if (w->lock_held)
		w->o.bug |= M_BUG_DEADLOCK;
	else
		w->lock_held = true;
}

void m_unlock(struct m_world *w)
{
	if (m_dead(w))
		return;
	w->lock_held = false;
}

void m_bug(struct m_world *w)
{
	w->o.bug |= M_BUG_DRIVER;
}

/* end_that_request_last(), after its error mapping: end_io or release */
void m_final(struct m_world *w, int error)
{
	struct m_request *rq;

	if (m_dead(w))
		return;
	rq = m_rq(w);
	if (!w->lock_held)
		w->o.race |= M_RACE_FINAL;
	w->o.end_list = rq->list;
	w->o.end_io_locked = w->lock_held;
	if (rq->has_end_io) {
		w->o.end_io_calls++;
		w->o.end_io_error = error;
		w->o.end_io_rq_errors = rq->errors;
	} else {
		w->o.freed++;
		if (rq->list != M_OFF_LIST)
			w->o.bug |= M_BUG_FREE_ON_LIST;
	}
	w->o.ended = true;
}
