/* Item 11: sector counts become byte counts. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(sb_lock);

static void sb_request(struct request_queue *q)
{
	struct request *rq;
	unsigned int n, extra;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		n = rq->current_nr_sectors;
		extra = rq->nr_sectors - n;
		if (rq->sector == 0) {
			if (!end_that_request_first(rq, 1, n)) {
				add_disk_randomness(rq->rq_disk);
				end_that_request_last(rq, 1);
			}
		} else if (rq->sector == 1) {
			if (!end_that_request_first(rq, 1, n + extra))
				end_that_request_last(rq, 1);
		} else if (rq->sector == 2) {
			if (!end_that_request_first(rq, 1, rq->hard_cur_sectors))
				end_that_request_last(rq, 1);
		} else {
			if (!end_that_request_first(rq, 0, rq->nr_sectors))
				end_that_request_last(rq, 0);
		}
	}
}

static int __init sb_init(void)
{
	return blk_init_queue(sb_request, &sb_lock) ? 0 : -ENOMEM;
}
