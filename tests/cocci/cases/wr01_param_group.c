/* Wrapper parameters (issue 22): a static wrapper whose parameter flows into
 * uptodate becomes a wrapper taking error, with every caller's argument
 * converted; a parameter passed on to another wrapper joins its group; tests
 * on the parameter are flipped (!ok -> error, if (ok) -> if (!ok-error)). */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(wr_lock);
static struct request *wr_cur;
static int wr_state;

static void wr_end_request(struct request *req, int uptodate)
{
	if (!uptodate)
		wr_state = 1;
	if (end_that_request_first(req, uptodate, req->hard_nr_sectors))
		return;
	add_disk_randomness(req->rq_disk);
	end_that_request_last(req, uptodate);
}

static void wr_next(int success)
{
	unsigned long flags;

	spin_lock_irqsave(&wr_lock, flags);
	wr_end_request(wr_cur, success);
	if (success)
		wr_state = 0;
	spin_unlock_irqrestore(&wr_lock, flags);
}

static void wr_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		if (!blk_fs_request(rq)) {
			wr_end_request(rq, 0);
			continue;
		}
		wr_cur = rq;
	}
}

static void wr_done(int status, int bad)
{
	int ok = (status == 0);

	if (bad)
		wr_next(0);
	else if (status > 4)
		wr_next(status > 8);
	else
		wr_next(ok);
}

static int wr_init(void)
{
	struct request_queue *q = blk_init_queue(wr_request, &wr_lock);

	wr_done(0, 0);
	return q ? 0 : -ENOMEM;
}
