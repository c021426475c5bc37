/*
 * hoist.c - series test input: between its data completion and its final step
 * the driver turns its motor off with a value read from the request; the
 * 2.6.25 call may end and free the request, so the conversion reads that value
 * first and turns the motor off after the call.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(hoist_lock);
static struct request_queue *hoist_queue;

static void hoist_motor_off(long unit)
{
	printk(KERN_DEBUG "hoist: motor %ld off\n", unit);
}

static void hoist_end_request(struct request *req, int uptodate)
{
	if (end_that_request_first(req, uptodate, req->hard_cur_sectors))
		return;
	add_disk_randomness(req->rq_disk);
	hoist_motor_off((long)req->rq_disk->private_data);
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
}

static void hoist_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		hoist_end_request(rq, rq->sector < 1024);
}

static int __init hoist_init(void)
{
	hoist_queue = blk_init_queue(hoist_request, &hoist_lock);
	return hoist_queue ? 0 : -ENOMEM;
}
module_init(hoist_init);
