/*
 * Tree-wide facts, file 2 of 2: the lock taken around the final step is the
 * queue lock only by the facts of xq_main.c (blk_init_queue there).
 */
#include <linux/blkdev.h>

extern spinlock_t xq_lock;

void xq_complete(struct request *rq, int ok)
{
	unsigned long flags;

	if (!end_that_request_first(rq, ok, rq->hard_nr_sectors)) {
		spin_lock_irqsave(&xq_lock, flags);
		end_that_request_last(rq, ok);
		spin_unlock_irqrestore(&xq_lock, flags);
	}
}

void xq_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		blkdev_dequeue_request(rq);
}
