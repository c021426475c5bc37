/*
 * Real-driver shape: a small end-request helper called from the request_fn
 * and from an event handler that holds the queue lock through a local
 * pointer copied from req->q->queue_lock.
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(alias_lock);
static int alias_outstanding;

static void alias_end_request(struct request *req, int uptodate,
			      int num_sectors)
{
	if (end_that_request_first(req, uptodate, num_sectors))
		return;
	add_disk_randomness(req->rq_disk);
	end_that_request_last(req, uptodate);
}

static void alias_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		if (!blk_fs_request(req)) {
			alias_end_request(req, 0, req->hard_nr_sectors);
			continue;
		}
		alias_outstanding++;
	}
}

static int alias_event(struct request *req, int failed)
{
	unsigned long irq_flags;
	spinlock_t *qlock;
	int num_sect = req->current_nr_sectors;

	if (failed)
		num_sect = req->hard_nr_sectors;
	qlock = req->q->queue_lock;
	spin_lock_irqsave(qlock, irq_flags);
	alias_end_request(req, !failed, num_sect);
	spin_unlock_irqrestore(qlock, irq_flags);
	return 0;
}

static int __init alias_init(void)
{
	return blk_init_queue(alias_request, &alias_lock) ? 0 : -ENOMEM;
}
