/*
 * Issue 20 item 1: a driver that hands its request to a function of
 * another file (which could rewrite its fields).  The fields fact fails on
 * (c): the literal counts.
 */
#include <linux/blkdev.h>

extern void uf_account(struct request *rq);

static void uf_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		uf_account(rq);
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
		blkdev_dequeue_request(rq);
		if (!end_that_request_first(rq, 1, rq->nr_sectors))
			end_that_request_last(rq, 1);
	}
}

static void uf_init(void)
{
	blk_init_queue(uf_request, NULL);
}
