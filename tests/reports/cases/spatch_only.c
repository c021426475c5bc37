/* A call the analyzer does not see (in a branch the preprocessor drops) that spatch
 * rewrites anyway: nothing proves that rewrite exact, so the reports say the call is
 * left, why, and that the file stays as it was. */
#include <linux/blkdev.h>

static spinlock_t so_lock;

static void so_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
#ifdef SO_OLD_FIRMWARE
		if (rq->sector > 1000) {
			end_request(rq, 0);
			continue;
		}
#endif
		end_request(rq, 1);
	}
}

static int so_init(void)
{
	blk_init_queue(so_request, &so_lock);
	return 0;
}
