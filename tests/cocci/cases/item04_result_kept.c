/* Item 4: the result kept in a variable, or driving a loop. */
#include <linux/blkdev.h>

static void kept_done(struct request_queue *q, struct request *req, int bytes)
{
	int ret;

	spin_lock_irq(q->queue_lock);
	ret = end_that_request_chunk(req, 1, bytes);
	if (!ret) {
		add_disk_randomness(req->rq_disk);
		blkdev_dequeue_request(req);
		end_that_request_last(req, 1);
	}
	spin_unlock_irq(q->queue_lock);
}

static void kept_fail(struct request_queue *q, struct request *req)
{
	spin_lock_irq(q->queue_lock);
	while (end_that_request_chunk(req, 0, req->current_nr_sectors << 9))
		;
	blkdev_dequeue_request(req);
	end_that_request_last(req, 0);
	spin_unlock_irq(q->queue_lock);
}

static void kept_fail_var(struct request_queue *q, struct request *req)
{
	int ret = 1;

	spin_lock_irq(q->queue_lock);
	while (ret)
		ret = end_that_request_chunk(req, -EIO, req->current_nr_sectors << 9);
	add_disk_randomness(req->rq_disk);
	blkdev_dequeue_request(req);
	end_that_request_last(req, -EIO);
	spin_unlock_irq(q->queue_lock);
}
