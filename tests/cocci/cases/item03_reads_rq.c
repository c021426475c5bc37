/* Item 3: a read through the request between first and last: reported. */
#include <linux/blkdev.h>

static void motor_off(long drive)
{
}

static void reads_end_request(struct request_queue *q, struct request *req)
{
	spin_lock_irq(q->queue_lock);
	if (end_that_request_first(req, 1, req->current_nr_sectors))
		goto out;
	add_disk_randomness(req->rq_disk);
	motor_off((long)req->rq_disk->private_data);
	blkdev_dequeue_request(req);
	end_that_request_last(req, 1);
out:
	spin_unlock_irq(q->queue_lock);
}
