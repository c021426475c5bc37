/*
 * Item 3: reads through the request after the data completion are hoisted
 * into a local taken before the new call (which may free the request);
 * uses that cannot be hoisted are reported.
 */
#include <linux/blkdev.h>

static int last_sector;

static void note(long v)
{
	last_sector = v;
}

/* Early-return form: the read is hoisted. */
static void hoist_exit(struct request_queue *q, struct request *req)
{
	spin_lock_irq(q->queue_lock);
	if (end_that_request_first(req, 1, req->current_nr_sectors)) {
		spin_unlock_irq(q->queue_lock);
		return;
	}
	add_disk_randomness(req->rq_disk);
	note((long)req->rq_disk->private_data);
	blkdev_dequeue_request(req);
	end_that_request_last(req, 1);
	spin_unlock_irq(q->queue_lock);
}

/* Block form: the read is hoisted. */
static void hoist_block(struct request_queue *q, struct request *req)
{
	spin_lock_irq(q->queue_lock);
	if (!end_that_request_first(req, 1, req->hard_nr_sectors)) {
		note(req->sector);
		end_that_request_last(req, 1);
	}
	spin_unlock_irq(q->queue_lock);
}

/* The request is passed whole: reported. */
static void hoist_refused(struct request_queue *q, struct request *req)
{
	spin_lock_irq(q->queue_lock);
	if (!end_that_request_first(req, 1, req->hard_nr_sectors)) {
		printk(KERN_INFO "done %p\n", req);
		end_that_request_last(req, 1);
	}
	spin_unlock_irq(q->queue_lock);
}

/* A field is written: reported. */
static void hoist_written(struct request_queue *q, struct request *req)
{
	spin_lock_irq(q->queue_lock);
	if (!end_that_request_first(req, 1, req->hard_nr_sectors)) {
		req->errors = 0;
		end_that_request_last(req, 1);
	}
	spin_unlock_irq(q->queue_lock);
}
