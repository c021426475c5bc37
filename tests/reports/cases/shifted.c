/* A pair the conversion shrinks by four lines, then a completion whose lock context is
 * unknown (its function is used as a value below): the reason cites a line, which must
 * be the line of this file, not of migrate's private copy. */
#include <linux/blkdev.h>

static spinlock_t sh_lock;

static void sh_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!end_that_request_first(rq, 1, rq->nr_sectors)) {
			add_disk_randomness(rq->rq_disk);
			blkdev_dequeue_request(rq);
			end_that_request_last(rq, 1);
		}
	}
}

static void sh_done(struct request *rq)
{
	if (!end_that_request_first(rq, 1, rq->nr_sectors))
		end_that_request_last(rq, 1);
}

void (*sh_hook)(struct request *) = sh_done;

static int sh_init(void)
{
	blk_init_queue(sh_request, &sh_lock);
	return 0;
}
