/*
 * simple.c - migrate golden input: a request_fn completing with end_request
 * (the queue lock is held: blk_init_queue registered it). spatch converts it.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(simple_lock);
static struct request_queue *simple_queue;

static int simple_transfer(struct request *rq)
{
	return rq->sector + rq->current_nr_sectors <= 2048;
}

static void simple_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
			continue;
		}
		__blk_end_request(rq, simple_transfer(rq) ? 0 : -EIO,
				  blk_rq_cur_bytes(rq));
	}
}

static int __init simple_init(void)
{
	simple_queue = blk_init_queue(simple_request, &simple_lock);
	return simple_queue ? 0 : -ENOMEM;
}
module_init(simple_init);
