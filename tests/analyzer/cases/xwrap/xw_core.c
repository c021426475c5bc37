/* A wrapper shared by the files of one driver (not static, not exported): its
 * parameter becomes `error`, and its callers in the other files are converted. */
#include <linux/blkdev.h>
#include "xw.h"

DEFINE_SPINLOCK(xw_lock);
struct request *xw_cur;

void xw_end_request(struct request *rq, int uptodate)
{
	if (!uptodate)
		printk(KERN_ERR "xw: I/O error\n");
	end_request(rq, uptodate);
}

static void xw_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	if (rq->sector > 4096) {
		xw_end_request(rq, 0);
		return;
	}
	xw_cur = rq;
}

static int xw_init(void)
{
	blk_init_queue(xw_request, &xw_lock);
	return 0;
}
module_init(xw_init);
