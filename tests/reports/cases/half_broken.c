/* Two convertible calls, and one in a function the parser cannot read: converting
 * only the first two would leave a file that mixes the old and the new API. */
#include <linux/blkdev.h>

static spinlock_t hb_lock;

static void hb_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (rq->sector > 100) {
			end_request(rq, 0);
			continue;
		}
		end_request(rq, 1);
	}
}

static void hb_broken(struct request *rq)
{
	int y = = 3;
	end_request(rq, 1) +;
}

static int hb_init(void)
{
	blk_init_queue(hb_request, &hb_lock);
	return 0;
}
