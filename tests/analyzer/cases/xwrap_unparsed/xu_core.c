/* The shared wrapper takes the queue lock itself: the tree pass has no reason to parse
 * its callers' files, and a file that names it and was not analysed may pass anything. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(xu_lock);

void xu_end_request(struct request *rq, int uptodate)
{
	unsigned long flags;

	spin_lock_irqsave(&xu_lock, flags);
	end_request(rq, uptodate);
	spin_unlock_irqrestore(&xu_lock, flags);
}

static void xu_request(struct request_queue *q)
{
}

static int xu_init(void)
{
	blk_init_queue(xu_request, &xu_lock);
	return 0;
}
module_init(xu_init);
