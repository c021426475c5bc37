/* The shared wrapper is also stored in a function pointer: a call through it passes
 * whatever its caller passes, so its callers are not all known. */
#include <linux/blkdev.h>

DEFINE_SPINLOCK(xa_lock);

void xa_end_request(struct request *rq, int uptodate)
{
	end_request(rq, uptodate);
}

void (*xa_done_fn)(struct request *, int) = xa_end_request;

static void xa_request(struct request_queue *q)
{
	xa_end_request(elv_next_request(q), 1);
}

static int xa_init(void)
{
	blk_init_queue(xa_request, &xa_lock);
	return 0;
}
module_init(xa_init);
