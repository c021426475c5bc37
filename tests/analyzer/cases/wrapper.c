/* Wrappers whose parameter is the uptodate value. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(w_lock);
static struct request *w_cur;

static void w_end_request(struct request *req, int uptodate)
{
	if (!uptodate)
		printk(KERN_ERR "w: I/O error\n");
	if (!end_that_request_first(req, uptodate, req->hard_cur_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
}

/* passes its own parameter on: joins the group */
static void w_done(int uptodate)
{
	w_end_request(w_cur, uptodate);
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
		w_done(0);
	else if (rq->errors < 0)
		w_done(rq->errors);
	else
		w_done(!rq->errors);
	w_end_request(rq, ok);
	w_end_request(rq, 1);
	w_done(w_check(rq));
}

/* not static: callers elsewhere keep passing uptodate, so the parameter stays one
 * and the new call takes its exact error value */
void w_public_end(struct request *req, int uptodate)
{
	end_request(req, uptodate);
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
