/* Issue 22: the housekeeping right before a converted last-only final step
 * goes, as the analyzer drops it: the new call's final step adds the
 * randomness and dequeues a request still queued itself, under the queue
 * lock held here; nothing runs in between.  Housekeeping with other work
 * between it and the call stays. */
#include <linux/blkdev.h>

static void hk_flush(struct request_queue *q)
{
	struct request *rq;
	unsigned long flags;

	while ((rq = elv_next_request(q)) != NULL) {
		spin_lock_irqsave(q->queue_lock, flags);
		blkdev_dequeue_request(rq);
		end_that_request_last(rq, 0);
		spin_unlock_irqrestore(q->queue_lock, flags);
	}
}

static void hk_reset(struct request_queue *q, struct request *rq)
{
	spin_lock_irq(q->queue_lock);
	add_disk_randomness(rq->rq_disk);
	blkdev_dequeue_request(rq);
	end_that_request_last(rq, 0);
	spin_unlock_irq(q->queue_lock);
}

static int hk_count;

static void hk_other(struct request_queue *q, struct request *rq)
{
	spin_lock_irq(q->queue_lock);
	blkdev_dequeue_request(rq);
	hk_count++;
	end_that_request_last(rq, 1);
	spin_unlock_irq(q->queue_lock);
}
