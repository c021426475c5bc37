/*
 * A card-reader driver whose request function fails every queued request
 * when its device is gone, by completing the data of each request and never
 * ending it: in 2.6.24 the loop never ends (elv_next_request() returns the
 * same request again).  The 2.6.25 call ends the request when its last byte
 * completes; the old bug is reported as its own finding.  Where the request
 * may be ended elsewhere, or the queue lock is not held, a human decides.
 */
#include <linux/blkdev.h>
#include <linux/timer.h>

struct cr_dev {
	struct request_queue *queue;
	struct request *cur;
	int gone;
};

static DEFINE_SPINLOCK(cr_lock);
static struct timer_list cr_timer;

static void cr_log(struct request *req);

static void cr_request(struct request_queue *q)
{
	struct cr_dev *dev = q->queuedata;
	struct request *req;
	int ret;

	if (dev->gone) {
		while ((req = elv_next_request(q)) != NULL) {
			do {
				ret = __blk_end_request(req, -EIO,
							req->current_nr_sectors << 9);
			} while (ret);
		}
		return;
	}
	dev->cur = elv_next_request(q);
}

/* the request is also handed to another function, which may end it */
static void cr_request_logged(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		cr_log(req);
		while (end_that_request_first(req, 0, req->hard_nr_sectors))
			;
	}
}

/* blk_end_request_callback: complete the data only, the request ends later */
static int cr_timeout_data_only_cb(struct request *rq)
{
	return 1;
}

/* a timer without the queue lock: another context may end the request */
static void cr_timeout(unsigned long data)
{
	struct cr_dev *dev = (struct cr_dev *)data;
	struct request *req;

	while ((req = elv_next_request(dev->queue)) != NULL)
		blk_end_request_callback(req, -EIO, blk_rq_bytes(req),
					 cr_timeout_data_only_cb);
}

static int cr_init(struct cr_dev *dev)
{
	dev->queue = blk_init_queue(cr_request, &cr_lock);
	blk_init_queue(cr_request_logged, &cr_lock);
	setup_timer(&cr_timer, cr_timeout, (unsigned long)dev);
	return 0;
}

/*
 * check-exit: 1
 * check-brief-start
 * unended.c:32:11 cr_request end_that_request_chunk auto chunk lock=held uptodate=constant new=__blk_end_request(req, -EIO, req->current_nr_sectors << 9)
 * unended.c:48:10 cr_request_logged end_that_request_first manual first_last_held lock=held uptodate=constant reason=shape
 * unended.c:60:3 cr_timeout end_that_request_chunk auto callback lock=not_held uptodate=constant new=blk_end_request_callback(req, -EIO, blk_rq_bytes(req), cr_timeout_data_only_cb)
 * unended.c:32:11 cr_request preexisting_unended_request
 * check-brief-end
 */
