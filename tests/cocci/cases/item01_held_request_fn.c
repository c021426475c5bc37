/* Item 1: pair inside the request_fn given to blk_init_queue (lock held). */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(held_lock);
static struct request_queue *held_queue;

static void held_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		if (!end_that_request_first(rq, 1, rq->current_nr_sectors)) {
			add_disk_randomness(rq->rq_disk);
			end_that_request_last(rq, 1);
		}
	}
}

static void held_irq(struct request *rq, int err)
{
	unsigned long flags;

	spin_lock_irqsave(&held_lock, flags);
	if (!end_that_request_first(rq, err, rq->hard_nr_sectors)) {
		add_disk_randomness(rq->rq_disk);
		blkdev_dequeue_request(rq);
		end_that_request_last(rq, err);
		held_queue = NULL;
	}
	spin_unlock_irqrestore(&held_lock, flags);
}

static int __init held_init(void)
{
	held_queue = blk_init_queue(held_request, &held_lock);
	return held_queue ? 0 : -ENOMEM;
}
