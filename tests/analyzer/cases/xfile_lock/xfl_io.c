/*
 * Completion side of a two-file driver in the style of an old ATA stack: the
 * queue lock is a global defined and given to blk_init_queue_node in the probe
 * file, which names nothing of this file (its request_fn hands requests to
 * the hardware; the interrupt side calls xfl_end()).
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

extern spinlock_t xfl_lock;

static int __xfl_end(struct request *rq, int nr_bytes)
{
	if (end_that_request_chunk(rq, !rq->errors, nr_bytes))
		return 1;
	end_that_request_last(rq, !rq->errors);
	return 0;
}

int xfl_end(struct request *rq, int nr_bytes)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&xfl_lock, flags);
	ret = __xfl_end(rq, nr_bytes);
	spin_unlock_irqrestore(&xfl_lock, flags);
	return ret;
}
