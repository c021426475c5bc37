// SPDX-License-Identifier: GPL-2.0
/*
 * completion_core.c - the two steps every legacy completion is made of.
 *
 * Owns the mapping of the old completion model onto blk-mq: the data
 * part (complete bytes of the request's bios, advance the request) is
 * blk_update_request(); the final step (dequeue, account, free or call
 * end_io) is __blk_mq_end_request().  Both the 2.6.24 and the 2.6.25
 * functions are built from these two.
 */
#include <linux/random.h>
#include "blkcompat_internal.h"

/*
 * blkcompat_update - complete @nr_bytes of @rq's data with @error.
 * Returns true while bytes remain.  As in 2.6.25, zero bytes on a request
 * that still has bios completes nothing and leaves the request alive
 * (blk_update_request() would mark the first bio failed on an error).
 */
bool blkcompat_update(struct request *rq, int error, unsigned int nr_bytes)
{
	if (!nr_bytes && rq->bio)
		return true;
	return blk_update_request(rq, blkcompat_status(error), nr_bytes);
}

/*
 * blkcompat_finish - the final step of a request, queue lock held.
 * Dequeues @rq if it is still on the legacy queue (2.6.25 did the same),
 * adds disk randomness where the queue asks for it, and ends the request.
 * After this @rq may be freed.
 */
void blkcompat_finish(struct blkcompat_queue *bq, struct request *rq,
		      int error)
{
	if (!list_empty(&rq->queuelist))
		list_del_init(&rq->queuelist);

	/*
	 * Ending a request that still holds bios would leave their owners
	 * waiting forever: a driver bug, but fail the data instead of hanging.
	 */
	if (WARN_ON_ONCE(rq->bio))
		blk_update_request(rq, BLK_STS_IOERR, blk_rq_bytes(rq));

	if (blkcompat_queue_add_random(rq->q))
		add_disk_randomness(rq->q->disk);

	__blk_mq_end_request(rq, blkcompat_status(error));
}
