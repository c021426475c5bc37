/*
 * Issue 20 item 1: a driver that rewrites rq->hard_nr_sectors before its
 * whole-request completion: that count is no longer provably every byte
 * left, and the old code ended the request anyway; 2.6.25 cannot.  Left for
 * a human, with the line of the write.
 */
#include <linux/blkdev.h>

static void hw_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		if (rq->errors)
			rq->hard_nr_sectors = rq->current_nr_sectors;
		end_that_request_first(rq, 1, rq->hard_nr_sectors);
		end_that_request_last(rq, 1);
	}
}

static void hw_init(void)
{
	blk_init_queue(hw_request, NULL);
}
