/*
 * blkcore.c - series test input: a file of the block core (its patch's subject
 * is "block:").  Flushing a queue ends every request with an error, under the
 * queue lock.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

void blkcore_flush(struct request_queue *q)
{
	struct request *rq;

	spin_lock_irq(q->queue_lock);
	while ((rq = elv_next_request(q)) != NULL)
		end_queued_request(rq, 0);
	spin_unlock_irq(q->queue_lock);
}
EXPORT_SYMBOL(blkcore_flush);
