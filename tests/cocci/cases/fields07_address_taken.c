/*
 * Issue 20 item 1: the address of a request field handed on (here to a
 * function of another file) lets that field change: a write, so the old
 * count stays literal.
 */
#include <linux/blkdev.h>

extern void at_next_sector(sector_t *sector);

static void at_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		at_next_sector(&rq->sector);
		blkdev_dequeue_request(rq);
		if (!end_that_request_first(rq, 1, rq->current_nr_sectors))
			end_that_request_last(rq, 1);
	}
}

static void at_init(void)
{
	blk_init_queue(at_request, NULL);
}
