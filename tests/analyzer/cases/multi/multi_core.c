/* Across files: the completion helper lives here, its callers elsewhere. */
#include <linux/blkdev.h>

void multi_complete(struct request *rq, int ok);

void multi_complete(struct request *rq, int ok)
{
	end_request(rq, ok ? 1 : 0);
}

void multi_complete_unlocked(struct request *rq)
{
	unsigned long flags;

	if (end_that_request_first(rq, 1, rq->hard_nr_sectors))
		return;
	spin_lock_irqsave(rq->q->queue_lock, flags);
	end_that_request_last(rq, 1);
	spin_unlock_irqrestore(rq->q->queue_lock, flags);
}
