/*
 * ide-io.c - series test input: a file of the ide-core module.  Ending a
 * request from a context where the caller holds the queue lock (the
 * spin_lock_irqsave below), with the byte count the caller passes.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

int ide_end_bytes(struct request *rq, int uptodate, int nr_bytes)
{
	unsigned long flags;
	int ret = 1;

	spin_lock_irqsave(rq->q->queue_lock, flags);
	if (!end_that_request_chunk(rq, uptodate, nr_bytes)) {
		blkdev_dequeue_request(rq);
		end_that_request_last(rq, uptodate);
		ret = 0;
	}
	spin_unlock_irqrestore(rq->q->queue_lock, flags);
	return ret;
}
EXPORT_SYMBOL(ide_end_bytes);
