/*
 * compare.c - a comparison with a sector-count variable is not an assignment:
 * only what the variable is given decides whether it holds sectors or bytes.
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(compare_lock);
static struct request_queue *compare_q;

static void compare_request(struct request_queue *q)
{
	struct request *rq;
	unsigned int nsect;

	while ((rq = elv_next_request(q)) != NULL) {
		nsect = rq->current_nr_sectors;
		if (nsect > rq->data_len)
			nsect = 0;
		if (!end_that_request_first(rq, 1, nsect)) {
			blkdev_dequeue_request(rq);
			end_that_request_last(rq, 1);
		}
	}
}

static int __init compare_init(void)
{
	compare_q = blk_init_queue(compare_request, &compare_lock);
	return compare_q ? 0 : -ENOMEM;
}
module_init(compare_init);

/*
 * check-exit: 0
 * check-brief-start
 * compare.c:19:8 compare_request end_that_request_first auto first_last_held lock=held uptodate=constant new=__blk_end_request(rq, 0, nsect << 9)
 * compare.c:21:4 compare_request end_that_request_last auto first_last_held lock=held uptodate=constant
 * check-brief-end
 */
