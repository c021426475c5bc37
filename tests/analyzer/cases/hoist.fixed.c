/* Item 3: a read through the request after the early return is hoisted before the call. */
#include <linux/blkdev.h>

struct hz_disk {
	int motor;
};

static void hz_motor_off(struct hz_disk *d)
{
	d->motor = 0;
}

static void hz_end(struct request_queue *q, struct request *req)
{
	void *saved_private_data;
	spin_lock_irq(q->queue_lock);
	saved_private_data = req->rq_disk->private_data;
	if (__blk_end_request(req, 0, blk_rq_cur_bytes(req)))
		goto out;
	hz_motor_off(saved_private_data);
out:
	spin_unlock_irq(q->queue_lock);
}

/* the sector moves on with the completion: it cannot be read early */
static void hz_end_sector(struct request_queue *q, struct request *req)
{
	spin_lock_irq(q->queue_lock);
	if (end_that_request_first(req, 1, req->current_nr_sectors))
		goto out;
	printk("done at %lu\n", req->sector);
	end_that_request_last(req, 1);
out:
	spin_unlock_irq(q->queue_lock);
}

/*
 * check-exit: 1
 * check-brief-start
 * hoist.c:16:6 hz_end end_that_request_first auto early_return lock=held uptodate=constant new=__blk_end_request(req, 0, blk_rq_cur_bytes(req))
 * hoist.c:21:2 hz_end end_that_request_last auto early_return lock=held uptodate=constant
 * hoist.c:30:6 hz_end_sector end_that_request_first manual early_return lock=held uptodate=constant reason=rq_used_after_completion
 * hoist.c:33:2 hz_end_sector end_that_request_last manual early_return lock=held uptodate=constant reason=rq_used_after_completion
 * check-brief-end
 */
