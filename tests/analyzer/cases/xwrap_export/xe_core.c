/* The shared wrapper is exported: any module may call it with an uptodate value. */
#include <linux/module.h>
#include <linux/blkdev.h>

DEFINE_SPINLOCK(xe_lock);

void xe_end_request(struct request *rq, int uptodate)
{
	end_request(rq, uptodate);
}
EXPORT_SYMBOL_GPL(xe_end_request);

static void xe_request(struct request_queue *q)
{
	xe_end_request(elv_next_request(q), 1);
}

static int xe_init(void)
{
	blk_init_queue(xe_request, &xe_lock);
	return 0;
}
module_init(xe_init);
