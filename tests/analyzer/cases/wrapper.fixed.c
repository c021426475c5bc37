/* Wrappers whose parameter is the uptodate value. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(w_lock);
static struct request *w_cur;

static void w_end_request(struct request *req, int error)
{
	if (error)
		printk(KERN_ERR "w: I/O error\n");
	__blk_end_request(req, error, blk_rq_cur_bytes(req));
}

/* passes its own parameter on: joins the group */
static void w_done(int error)
{
	w_end_request(w_cur, error);
}

/* only ever returns 0 or 1: a call of it is a boolean */
static int w_check(struct request *rq)
{
	if (rq->errors)
		return 0;
	return rq->sector < 1024;
}

static void w_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);
	int ok = rq->errors == 0;

	w_cur = rq;
	if (!rq->buffer)
		w_done(-EIO);
	else if (rq->errors < 0)
		w_done(rq->errors > 0 ? 0 : (rq->errors ? rq->errors : -EIO));
	else
		w_done(rq->errors ? -EIO : 0);
	w_end_request(rq, ok ? 0 : -EIO);
	w_end_request(rq, 0);
	w_done(w_check(rq) ? 0 : -EIO);
}

/* not static: callers elsewhere keep passing uptodate, so the parameter stays one
 * and the new call takes its exact error value */
void w_public_end(struct request *req, int uptodate)
{
	__blk_end_request(req,
			  uptodate > 0 ? 0 : (uptodate ? uptodate : -EIO),
			  blk_rq_cur_bytes(req));
}

static void w_request2(struct request_queue *q)
{
	w_public_end(elv_next_request(q), 1);
}

static int w_init(void)
{
	blk_init_queue(w_request, &w_lock);
	blk_init_queue(w_request2, &w_lock);
	return 0;
}
module_init(w_init);

/*
 * check-exit: 0
 * check-brief-start
 * wrapper.c:11:7 w_end_request end_that_request_first auto wrapper_param lock=held uptodate=wrapper_param new=__blk_end_request(req, error, blk_rq_cur_bytes(req))
 * wrapper.c:13:3 w_end_request end_that_request_last auto wrapper_param lock=held uptodate=wrapper_param
 * wrapper.c:52:2 w_public_end end_request auto wrapper_param lock=held uptodate=errno_capable new=__blk_end_request(req, uptodate > 0 ? 0 : (uptodate ? uptodate : -EIO), blk_rq_cur_bytes(req))
 * check-brief-end
 */
