/*
 * The whole request completed, the result only asserted (BUG_ON: the path
 * stops when bytes are left), the final step under a lock the function takes
 * itself; the callers (a work function) hold no lock.  The assertion checks
 * the result and is no work to move: it stays after the one new call, which
 * returns what the data completion returned (0: the request has ended).
 * Regression: "the work uses the local 'ret'" (work_not_movable).  The same
 * with `if (rc) BUG();`; a WARN_ON does not stop the path, so there the
 * count must cover the request (here it does: hard_nr_sectors).
 */
#include <linux/blkdev.h>

struct rb_dev {
	spinlock_t lock;
	struct request_queue *q;
	struct request *cur;
	struct work_struct work;
};

static struct rb_dev rb_devs[2];

static void rb_end_dequeued(struct rb_dev *dev, struct request *req, int uptodate)
{
	int ret;

	ret = end_that_request_first(req, uptodate, req->hard_nr_sectors);
	BUG_ON(ret);

	spin_lock_irq(&dev->lock);
	end_that_request_last(req, uptodate);
	spin_unlock_irq(&dev->lock);
}

static void rb_end_other(struct rb_dev *dev, struct request *req)
{
	int rc;

	rc = end_that_request_first(req, 1, req->hard_nr_sectors);
	if (rc)
		BUG();
	spin_lock_irq(&dev->lock);
	end_that_request_last(req, 1);
	spin_unlock_irq(&dev->lock);
}

static void rb_end_warn(struct rb_dev *dev, struct request *req)
{
	int rc;

	rc = end_that_request_first(req, 0, req->hard_nr_sectors);
	WARN_ON(rc);
	spin_lock_irq(&dev->lock);
	end_that_request_last(req, 0);
	spin_unlock_irq(&dev->lock);
}

static void rb_end_cur(struct rb_dev *dev, struct request *req)
{
	int rc;

	rc = end_that_request_first(req, 1, req->current_nr_sectors);
	WARN_ON(rc);
	spin_lock_irq(&dev->lock);
	end_that_request_last(req, 1);
	spin_unlock_irq(&dev->lock);
}

static void rb_work(struct work_struct *w)
{
	struct rb_dev *dev = &rb_devs[0];
	struct request *req = dev->cur;

	dev->cur = NULL;
	if (req->errors)
		rb_end_dequeued(dev, req, 0);
	else if (req->sector)
		rb_end_other(dev, req);
	else if (req->nr_sectors)
		rb_end_warn(dev, req);
	else if (req->buffer)
		rb_end_cur(dev, req);
	else
		rb_end_dequeued(dev, req, 1);
}

static void rb_request(struct request_queue *q)
{
	struct rb_dev *dev = q->queuedata;
	struct request *req = elv_next_request(q);

	if (req && !dev->cur) {
		blkdev_dequeue_request(req);
		dev->cur = req;
		schedule_work(&dev->work);
	}
}

static int rb_init(void)
{
	INIT_WORK(&rb_devs[0].work, rb_work);
	rb_devs[0].q = blk_init_queue(rb_request, &rb_devs[0].lock);
	return 0;
}

/*
 * check-exit: 1
 * check-brief-start
 * result_bug_on.c:26:8 rb_end_dequeued end_that_request_first auto wrapper_param lock=not_held uptodate=wrapper_param new=blk_end_request(req, error, blk_rq_bytes(req))
 * result_bug_on.c:30:2 rb_end_dequeued end_that_request_last auto wrapper_param lock=not_held uptodate=wrapper_param
 * result_bug_on.c:38:7 rb_end_other end_that_request_first auto result_used lock=not_held uptodate=constant new=blk_end_request(req, 0, blk_rq_bytes(req))
 * result_bug_on.c:42:2 rb_end_other end_that_request_last auto result_used lock=not_held uptodate=constant
 * result_bug_on.c:50:7 rb_end_warn end_that_request_first auto result_used lock=not_held uptodate=constant new=blk_end_request(req, -EIO, blk_rq_bytes(req))
 * result_bug_on.c:53:2 rb_end_warn end_that_request_last auto result_used lock=not_held uptodate=constant
 * result_bug_on.c:61:7 rb_end_cur end_that_request_first manual first_last_held lock=not_held uptodate=constant reason=last_may_have_data
 * result_bug_on.c:64:2 rb_end_cur end_that_request_last manual first_last_held lock=not_held uptodate=constant reason=last_may_have_data
 * check-brief-end
 * check-text-start
 * end_that_request_first's result is kept but no check stops the path when it is not 0
 * check-text-end
 * check-text-absent-start
 * uses the local
 * check-text-absent-end
 */
