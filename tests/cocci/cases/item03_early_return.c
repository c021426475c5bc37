/* Item 3: early-return form under the lock; work after it stays after. */
#include <linux/blkdev.h>

static int motor_on;
static struct request *cur_req;

static void motor_off(int drive)
{
	motor_on = 0;
}

static void early_end_request(struct request_queue *q, struct request *req,
			      int uptodate, int drive)
{
	spin_lock_irq(q->queue_lock);
	if (end_that_request_first(req, uptodate, req->current_nr_sectors)) {
		spin_unlock_irq(q->queue_lock);
		return;
	}
	add_disk_randomness(req->rq_disk);
	motor_off(drive);
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
	cur_req = NULL;
	spin_unlock_irq(q->queue_lock);
}
