/*
 * Real-driver shape: the completion takes the queue lock through a local
 * queue pointer around the whole pair; the uptodate value is also printed,
 * so it keeps its name and gets the exact mapping.
 */
#include <linux/blkdev.h>

static void lq_end_request(struct request *req)
{
	int uptodate = (req->errors == 0) ? 1 : 0;
	struct request_queue *q = req->q;
	unsigned long flags;

	printk(KERN_DEBUG "%s: request %p: %s\n", req->rq_disk->disk_name,
	       req, uptodate ? "done" : "failed");

	spin_lock_irqsave(q->queue_lock, flags);
	if (!end_that_request_first(req, uptodate, req->nr_sectors)) {
		end_that_request_last(req, uptodate);
	}
	spin_unlock_irqrestore(q->queue_lock, flags);
}
