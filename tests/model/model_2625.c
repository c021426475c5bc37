/*
 * model_2625.c - the 2.6.25 completion API (block/blk-core.c), as
 * shared/API-SEMANTICS.md states it: the data part only for filesystem and
 * packet requests (1 while bytes remain); then randomness and the final
 * step, which releases the tag, dequeues the request if it is still queued
 * and runs 2.6.24's end_that_request_last (with the error turned back into
 * an uptodate value and out again, as 2.6.25 did).  blk_end_request takes
 * the queue lock for the final step only; blk_end_request_callback calls
 * its callback (without the lock) between the two parts, and a non-zero
 * return keeps the final step from running.
 */
#include "model.h"

static bool has_data_part(const struct m_request *rq)
{
	return rq->type == M_FS || rq->type == M_PC || MODEL_MUTANT == 3;
}

/* complete_request(): tag, dequeue, then the 2.6.24 final step */
static void final_step(struct m_world *w, int error)
{
	struct m_request *rq = m_rq(w);
	int uptodate = 1;

	if (rq->tag >= 0 && MODEL_MUTANT != 2)
		m_end_tag(w);
	if (rq->list != M_OFF_LIST)
		m_dequeue(w);
	if (error)
		uptodate = error == -M_EIO ? 0 : error;
	m_final(w, m_error_of_uptodate(uptodate));
}

int __blk_end_request(struct m_world *w, int error, int nr_bytes)
{
	if (m_dead(w))
		return 0;
	if (has_data_part(m_rq(w)) && m_update(w, error, nr_bytes))
		return 1;
	m_add_disk_randomness(w);
	final_step(w, error);
	return 0;
}

static int end_io(struct m_world *w, int error, int nr_bytes, m_cb cb)
{
	if (m_dead(w))
		return 0;
	if (has_data_part(m_rq(w)) && m_update(w, error, nr_bytes))
		return 1;
	if (cb) {
		w->o.cb_calls++;
		w->o.cb_locked = w->lock_held;
		if (cb(w))
			return 1;
	}
	m_add_disk_randomness(w);
	if (MODEL_MUTANT == 4) {
		final_step(w, error);
		return 0;
	}
	m_lock(w);
	final_step(w, error);
	m_unlock(w);
	return 0;
}

int blk_end_request(struct m_world *w, int error, int nr_bytes)
{
	return end_io(w, error, nr_bytes, NULL);
}

int blk_end_request_callback(struct m_world *w, int error, int nr_bytes, m_cb cb)
{
	return end_io(w, error, nr_bytes, cb);
}

unsigned int blk_rq_bytes(struct m_world *w)
{
	struct m_request *rq = m_rq(w);

	return rq->type == M_FS ? rq->hard_nr_sectors << 9 : rq->data_len;
}

unsigned int blk_rq_cur_bytes(struct m_world *w)
{
	struct m_request *rq = m_rq(w);

	if (rq->type == M_FS)
		return rq->current_nr_sectors << 9;
	if (rq->bio >= 0)
		return rq->bios[rq->bio].size;
	return rq->data_len;
}
