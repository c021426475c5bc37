/*
 * Legacy calls in code the AST does not have (a branch that is not compiled)
 * are still named by the function they are in, read from the text: the
 * brace block around them and the `NAME(...)` before its '{', with only the
 * branch holding the call read of an #if/#else chain (regression: they were
 * reported "at file scope").
 */
#include <linux/blkdev.h>

#ifdef LF_OLD_KERNEL
static void lf_done(struct request *rq, int ok)
{
	if (ok)
		end_request(rq, 1);
	else
		end_request(rq, 0);
}
#else
static void lf_done(struct request *rq, int ok)
{
	__blk_end_request(rq, ok ? 0 : -EIO, blk_rq_cur_bytes(rq));
}
#endif

#ifndef LF_NO_NEW_API
static void lf_fail(struct request *rq)
{
	__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
}
#else
static void lf_fail(struct request *rq)
{
	end_request(rq, 0);
}
#endif

static void lf_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		if (rq->errors)
			lf_fail(rq);
		else
			lf_done(rq, 1);
	}
}

static spinlock_t lf_lock;

static int lf_init(void)
{
	return blk_init_queue(lf_request, &lf_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 1
 * check-brief-start
 * lost_function.c:14:3 lf_done end_request manual unclassified lock=unknown uptodate=none reason=unparsed
 * lost_function.c:16:3 lf_done end_request manual unclassified lock=unknown uptodate=none reason=unparsed
 * lost_function.c:33:2 lf_fail end_request manual unclassified lock=unknown uptodate=none reason=unparsed
 * check-brief-end
 * check-text-absent-start
 * file scope
 * check-text-absent-end
 */
