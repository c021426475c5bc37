/* Issue 22: a read through the request after the data completion is
 * hoisted into a local declared with the function's declarations only when
 * its type is known without the kernel's headers (2.6.24's struct request
 * and struct gendisk fields); any other read is left for a human, as the
 * analyzer leaves one whose type it cannot spell. */
#include <linux/blkdev.h>

struct hx_dev {
	int busy;
};

static void hx_note(void *p)
{
}

static void hx_end(struct request_queue *q, struct request *req)
{
	int n = 0;

	spin_lock_irq(q->queue_lock);
	if (end_that_request_first(req, 1, req->hard_nr_sectors)) {
		spin_unlock_irq(q->queue_lock);
		return;
	}
	hx_note(req->special);
	end_that_request_last(req, 1);
	spin_unlock_irq(q->queue_lock);
	n++;
}

static void hx_end2(struct request_queue *q, struct request *req)
{
	spin_lock_irq(q->queue_lock);
	if (end_that_request_first(req, 1, req->hard_nr_sectors)) {
		spin_unlock_irq(q->queue_lock);
		return;
	}
	hx_note(req->q->queuedata);
	end_that_request_last(req, 1);
	spin_unlock_irq(q->queue_lock);
}
