/*
 * Issue 20 item 4: a parse error blocks only what it touches.  broken() does not
 * parse (an undeclared type); p_request() and p_timeout() parse whole and convert,
 * and each says where the file's error is and that none is in it or its callers.
 * p_helper() is called only from broken(), so its lock context rests on a function
 * that did not parse: it converts at confidence medium and says why.
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(p_lock);

static void p_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 1);
}

static void p_helper(struct request *rq)
{
	end_request(rq, 0);
}

static void broken(struct request *rq)
{
	struct no_such_type x = rq->flags;

	p_helper(rq);
}

static int p_init(void)
{
	return blk_init_queue(p_request, &p_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 0
 * check-brief-start
 * partial_parse.c:17:3 p_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, rq->hard_cur_sectors << 9)
 * partial_parse.c:22:2 p_helper end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(rq, -EIO, rq->hard_cur_sectors << 9)
 * check-brief-end
 */
