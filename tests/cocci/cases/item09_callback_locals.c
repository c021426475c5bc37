/* Item 9: the work uses local state: it cannot move, the site is reported. */
#include <linux/blkdev.h>

struct loc_dev {
	spinlock_t lock;
	int inflight;
};

static void loc_finish(struct loc_dev *dev, struct request *rq)
{
	unsigned long flags;

	if (end_that_request_first(rq, 1, rq->hard_nr_sectors))
		return;
	dev->inflight--;
	spin_lock_irqsave(rq->q->queue_lock, flags);
	end_that_request_last(rq, 1);
	spin_unlock_irqrestore(rq->q->queue_lock, flags);
}
