/* Issue 20 item 6 (ifxmips, mmc): good bytes completed with uptodate 1
 * before a loop whose final step passes 0.  When that chunk completes the
 * request's last bytes, the old code still ended it with -EIO; the new call
 * would end it with 0: left with that reason, and the loop with it; a pair
 * converted before them in the function leaves their keys as they were. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(pe_lock);

static void pe_error(struct request *rq, unsigned int good)
{
	int ret = 1;

	spin_lock_irq(&pe_lock);
	if (good == rq->hard_nr_sectors << 9) {
		ret = end_that_request_chunk(rq, 1, good);
		if (!ret) {
			add_disk_randomness(rq->rq_disk);
			blkdev_dequeue_request(rq);
			end_that_request_last(rq, 1);
		}
		spin_unlock_irq(&pe_lock);
		return;
	}
	if (good)
		ret = end_that_request_chunk(rq, 1, good);
	while (ret)
		ret = end_that_request_chunk(rq, 0, rq->current_nr_sectors << 9);
	add_disk_randomness(rq->rq_disk);
	blkdev_dequeue_request(rq);
	end_that_request_last(rq, 0);
	spin_unlock_irq(&pe_lock);
}

static void pe_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		spin_unlock_irq(q->queue_lock);
		pe_error(rq, 512);
		spin_lock_irq(q->queue_lock);
	}
}

static int __init pe_init(void)
{
	return blk_init_queue(pe_request, &pe_lock) ? 0 : -ENOMEM;
}
