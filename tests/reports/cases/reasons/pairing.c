/*
 * Data completions and final steps blkmig does not pair one to one: the reason given
 * for each must be true of the code (which call follows, which one is above, on which
 * request expression), not "no final step follows" or "no data completion before it".
 * A 2008-style virtual disk: a header block, then the payload, completed apart.
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(pr_lock);

/* the header's sectors, then the payload's; one final step for both */
static void pr_complete(struct request *rq, int ok, unsigned int hdr)
{
	unsigned long flags;

	spin_lock_irqsave(&pr_lock, flags);
	end_that_request_first(rq, ok, hdr);
	if (!end_that_request_first(rq, ok, rq->hard_nr_sectors - hdr)) {
		blkdev_dequeue_request(rq);
		end_that_request_last(rq, ok);
	}
	spin_unlock_irqrestore(&pr_lock, flags);
}

/* the data completion through the device's pointer, the final step on the argument */
struct pr_dev {
	struct request *cur;
};

static void pr_done(struct pr_dev *dev, struct request *req, unsigned int bytes)
{
	unsigned long flags;

	spin_lock_irqsave(&pr_lock, flags);
	if (!end_that_request_chunk(dev->cur, 1, bytes)) {
		dev->cur = NULL;
		blkdev_dequeue_request(req);
		add_disk_randomness(req->rq_disk);
		end_that_request_last(req, 1);
	}
	spin_unlock_irqrestore(&pr_lock, flags);
}

/* a data completion whose final step really is elsewhere (pr_finish, below) */
static int pr_partial(struct request *rq, unsigned int bytes)
{
	return end_that_request_chunk(rq, 1, bytes);
}

static void pr_finish(struct request *rq)
{
	unsigned long flags;

	spin_lock_irqsave(&pr_lock, flags);
	blkdev_dequeue_request(rq);
	end_that_request_last(rq, 1);
	spin_unlock_irqrestore(&pr_lock, flags);
}

void pr_io_done(struct pr_dev *dev, struct request *rq, unsigned int bytes, unsigned int hdr)
{
	if (!pr_partial(rq, bytes))
		pr_finish(rq);
	pr_complete(rq, 1, hdr);
	pr_done(dev, rq, bytes);
}
