/* Item 8: end_request, end_queued_request, end_dequeued_request. */
#include <linux/blkdev.h>

static int wrap_busy;

static void wrap_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
		if (rq->sector + rq->current_nr_sectors > 1024) {
			end_queued_request(rq, -ENOSPC);
			continue;
		}
		end_request(rq, 1);
	}
}

static void wrap_dequeued(struct request *rq, int error)
{
	end_dequeued_request(rq, error == 0);
	wrap_busy = 0;
}
