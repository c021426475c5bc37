/*
 * Tree-wide facts, file 1 of 2: the queue and its lock are set up here; the
 * completion is in xq_done.c, which sees only "extern spinlock_t xq_lock".
 */
#include <linux/blkdev.h>

DEFINE_SPINLOCK(xq_lock);
void xq_request(struct request_queue *q);

static int __init xq_init(void)
{
	return blk_init_queue(xq_request, &xq_lock) ? 0 : -ENOMEM;
}
