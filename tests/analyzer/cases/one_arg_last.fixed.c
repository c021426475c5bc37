/*
 * A driver written for kernels before 2.6.16, whose end_that_request_last
 * took the request alone: `if (!end_that_request_first(rq, u, n)) { dequeue;
 * end_that_request_last(rq); }` is end_request(rq, u).  The one-argument call
 * does not parse against the 2.6.24 prototype, so the body is read as text;
 * the pair becomes one new call with the data completion's error (the old
 * final step gave end_io no error at all, which the report says).
 * Regression: "no end_that_request_last for 'rq' follows" and "unparsed".
 */
#include <linux/blkdev.h>

static spinlock_t oa_lock;

static void oa_end_request(struct request *rq, int error)
{
	__blk_end_request(rq, error, rq->hard_cur_sectors << 9);
}

static void oa_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			oa_end_request(rq, -EIO);
			continue;
		}
		oa_end_request(rq, 0);
	}
}

static int oa_init(void)
{
	return blk_init_queue(oa_request, &oa_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 0
 * check-brief-start
 * one_arg_last.c:16:7 oa_end_request end_that_request_first auto wrapper_param lock=held uptodate=wrapper_param new=__blk_end_request(rq, error, rq->hard_cur_sectors << 9)
 * one_arg_last.c:18:3 oa_end_request end_that_request_last auto wrapper_param lock=held uptodate=none
 * check-brief-end
 * check-text-start
 * this one-argument end_that_request_last of kernels before 2.6.16 gave end_io no error, the new call gives it the data completion's error
 * check-text-end
 */
