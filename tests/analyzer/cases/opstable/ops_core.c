/*
 * Generic half of a layered driver: it calls the low-level driver's
 * completion through its ops table, always under the queue lock.
 */
#include <linux/blkdev.h>

struct ops_drive;

struct ops_driver {
	const char *name;
	int (*end_rq)(struct ops_drive *d, int nr_sectors);
};

struct ops_drive {
	struct request_queue *queue;
	struct request *rq;
	struct ops_driver *driver;
	int error;
};

void ops_finish(struct ops_drive *d, int ok)
{
	unsigned long flags;

	spin_lock_irqsave(d->queue->queue_lock, flags);
	d->error = !ok;
	d->driver->end_rq(d, d->rq->hard_cur_sectors);
	spin_unlock_irqrestore(d->queue->queue_lock, flags);
}
