/* Item 7: end_that_request_last without a data completion: blk_rq_bytes. */
#include <linux/blkdev.h>

static void bio_side_done(struct request *rq, int ok)
{
	rq->errors = !ok;
}

static void last_only(struct request_queue *q, struct request *rq, int ok)
{
	unsigned long flags;

	bio_side_done(rq, ok);
	add_disk_randomness(rq->rq_disk);
	spin_lock_irqsave(q->queue_lock, flags);
	end_that_request_last(rq, ok);
	spin_unlock_irqrestore(q->queue_lock, flags);
}
