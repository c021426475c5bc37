/* Item 6: whole request completed with the result ignored. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(whole_lock);

static void whole_end(struct request *rq, unsigned int status)
{
	int uptodate;

	if (status == 0) {
		uptodate = 1;
	} else {
		uptodate = 0;
		rq->errors = status;
	}
	spin_lock(&whole_lock);
	end_that_request_first(rq, uptodate, rq->hard_nr_sectors);
	end_that_request_last(rq, uptodate);
	spin_unlock(&whole_lock);
}

static void whole_request(struct request_queue *q)
{
}

static int __init whole_init(void)
{
	return blk_init_queue(whole_request, &whole_lock) ? 0 : -ENOMEM;
}
