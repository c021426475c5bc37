/*
 * model_2624.c - the 2.6.24 completion API (block/ll_rw_blk.c), as
 * shared/API-SEMANTICS.md states it: end_that_request_chunk/first complete
 * bytes/sectors and never end the request; end_that_request_last is the
 * final step (the request must be off the queue, the lock held); the three
 * wrappers complete a byte count and, when that finished the request,
 * dequeue (end_request, end_queued_request), add randomness and end it.
 */
#include "model.h"

int end_that_request_chunk(struct m_world *w, int uptodate, int nr_bytes)
{
	if (m_dead(w))
		return 0;
	return m_update(w, m_error_of_uptodate(uptodate), nr_bytes);
}

int end_that_request_first(struct m_world *w, int uptodate, int nr_sectors)
{
	return end_that_request_chunk(w, uptodate, nr_sectors << 9);
}

void end_that_request_last(struct m_world *w, int uptodate)
{
	m_final(w, m_error_of_uptodate(uptodate));
}

/* the wrappers' common body: the bytes, then (if done) the housekeeping and the end */
static void end_bytes(struct m_world *w, int uptodate, unsigned int nr_bytes, bool dequeue)
{
	if (!end_that_request_chunk(w, uptodate, (int)nr_bytes)) {
		if (dequeue)
			m_dequeue(w);
		m_add_disk_randomness(w);
		end_that_request_last(w, uptodate);
	}
}

/* the whole request, in 2.6.24's own words (the same sum blk_rq_bytes makes later) */
static unsigned int whole_bytes(struct m_world *w)
{
	struct m_request *rq = m_rq(w);

	return rq->type == M_FS ? rq->hard_nr_sectors << 9 : rq->data_len;
}

void end_request(struct m_world *w, int uptodate)
{
	if (m_dead(w))
		return;
	end_bytes(w, uptodate,
		  (MODEL_MUTANT == 1 ? m_rq(w)->current_nr_sectors : m_rq(w)->hard_cur_sectors)
		      << 9,
		  true);
}

void end_queued_request(struct m_world *w, int uptodate)
{
	if (m_dead(w))
		return;
	end_bytes(w, uptodate, whole_bytes(w), true);
}

void end_dequeued_request(struct m_world *w, int uptodate)
{
	if (m_dead(w))
		return;
	end_bytes(w, uptodate, whole_bytes(w), false);
}
