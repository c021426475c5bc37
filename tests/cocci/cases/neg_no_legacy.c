/* Negative: a driver already on the 2.6.25 API is never touched. */
#include <linux/blkdev.h>

static void new_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		add_disk_randomness(rq->rq_disk);
		if (__blk_end_request(rq, 0, blk_rq_bytes(rq)))
			BUG();
	}
}
