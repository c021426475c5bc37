/*
 * A driver macro that renames a data completion (`#define MA_FIRST
 * end_that_request_first`) hides it from the lexer and from the sites: the
 * end_that_request_last after it is that call's final step, not a last-only
 * call.  Converting it alone (regression: __blk_end_request(rq, 0,
 * blk_rq_bytes(rq)) after the data completion, which 2.6.25 no longer has)
 * would be wrong: it is left with the line of the macro's use.
 */
#include <linux/blkdev.h>

#define MA_FIRST end_that_request_first

static spinlock_t ma_lock;

static void ma_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		if (!MA_FIRST(rq, 1, rq->hard_nr_sectors))
			end_that_request_last(rq, 1);
	}
}

static int ma_init(void)
{
	return blk_init_queue(ma_request, &ma_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 1
 * check-brief-start
 * macro_alias.c:22:4 ma_request end_that_request_last manual unclassified lock=held uptodate=none reason=macro
 * check-brief-end
 * check-text-start
 * a data completion in ma_request() comes from a macro expansion (line 21)
 * check-text-end
 */
