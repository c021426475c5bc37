/* Item 2: the queue lock is taken only around the final step. */
#include <linux/blkdev.h>

static struct request_queue *around_queue;

static void around_complete(struct request *rq, int ok)
{
	struct request_queue *q = rq->q;
	unsigned long flags;

	if (!end_that_request_first(rq, ok > 0, rq->hard_nr_sectors)) {
		spin_lock_irqsave(q->queue_lock, flags);
		blkdev_dequeue_request(rq);
		end_that_request_last(rq, ok > 0);
		spin_unlock_irqrestore(q->queue_lock, flags);
	}
}

static DEFINE_SPINLOCK(drv_lock);

static void around_complete_drvlock(struct request *rq)
{
	unsigned long flags;

	if (end_that_request_first(rq, 1, rq->nr_sectors))
		return;
	add_disk_randomness(rq->rq_disk);
	spin_lock_irqsave(&drv_lock, flags);
	end_that_request_last(rq, 1);
	spin_unlock_irqrestore(&drv_lock, flags);
}

static void around_request(struct request_queue *q)
{
}

static int __init around_init(void)
{
	around_queue = blk_init_queue(around_request, &drv_lock);
	return around_queue ? 0 : -ENOMEM;
}
