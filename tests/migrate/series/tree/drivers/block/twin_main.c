/*
 * twin_main.c - series test input: one of the two files of the twin module.
 * Its request_fn (the queue lock held: blk_init_queue registered it) fails a
 * request beyond the disk with end_request.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include "twin.h"

DEFINE_SPINLOCK(twin_lock);
struct request_queue *twin_queue;

static void twin_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (rq->sector + rq->nr_sectors > TWIN_SECTORS) {
			end_request(rq, 0);
			continue;
		}
		blkdev_dequeue_request(rq);
	}
}

static int __init twin_init(void)
{
	twin_queue = blk_init_queue(twin_request, &twin_lock);
	return twin_queue ? 0 : -ENOMEM;
}
module_init(twin_init);
