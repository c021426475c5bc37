/* Item 3: a pointer into the request used after the data completion. */
#include <linux/blkdev.h>

static void alias_log(char *buf)
{
	buf[0] = 0;
}

static void alias_done(struct request_queue *q, struct request *req)
{
	char *buf = req->buffer;

	spin_lock_irq(q->queue_lock);
	if (end_that_request_first(req, 1, req->current_nr_sectors)) {
		spin_unlock_irq(q->queue_lock);
		return;
	}
	alias_log(buf);
	end_that_request_last(req, 1);
	spin_unlock_irq(q->queue_lock);
}
