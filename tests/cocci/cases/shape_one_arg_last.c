/* Issue 20 item 6 (xsysace): the one-argument end_that_request_last of
 * kernels before 2.6.16 is a final step: the reasons say so. */
#define BLKMIG_TEST_ONE_ARG_LAST
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(oa_lock);

static void oa_end(struct request *rq, int uptodate)
{
	if (!end_that_request_first(rq, uptodate, rq->hard_cur_sectors)) {
		blkdev_dequeue_request(rq);
		end_that_request_last(rq);
	}
}

static void oa_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		oa_end(rq, 1);
}

static int __init oa_init(void)
{
	return blk_init_queue(oa_request, &oa_lock) ? 0 : -ENOMEM;
}
