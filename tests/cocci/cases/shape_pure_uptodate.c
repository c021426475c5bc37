/* Issue 20 item 6 (dldi): blk_fs_request(rq) is a test macro of the block
 * layer, no side effect: the uptodate value converts; so do unlikely() and
 * the block layer's accessors. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(pu_lock);

static void pu_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (unlikely(rq->errors))
			end_request(rq, unlikely(rq_data_dir(rq)) ? 0 : 1);
		else
			end_request(rq, blk_fs_request(rq));
	}
}

static int __init pu_init(void)
{
	return blk_init_queue(pu_request, &pu_lock) ? 0 : -ENOMEM;
}
