/* Item 9: work between data completion and final step -> callback. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(cb_lock);
static unsigned int cb_done;
static struct request_queue *cb_queue;

static void cb_finish(struct request *rq, int uptodate)
{
	unsigned long flags;

	if (end_that_request_first(rq, uptodate, rq->hard_nr_sectors))
		return;
	cb_done++;
	if (rq->errors)
		printk(KERN_INFO "cb: request %p failed\n", rq);
	spin_lock_irqsave(&cb_lock, flags);
	end_that_request_last(rq, uptodate);
	spin_unlock_irqrestore(&cb_lock, flags);
}

static void cb_request(struct request_queue *q)
{
}

static int __init cb_init(void)
{
	cb_queue = blk_init_queue(cb_request, &cb_lock);
	return cb_queue ? 0 : -ENOMEM;
}
