/*
 * A low-level driver: its completion is only reached through the ops table
 * (`.end_rq = opsdisk_end_rq`); a command callback stored in a member is
 * called from a timer without the lock.
 */
#include <linux/blkdev.h>
#include <linux/timer.h>

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

struct opsdisk_cmd {
	struct request *rq;
	void (*done)(struct opsdisk_cmd *cmd);
};

static int opsdisk_end_rq(struct ops_drive *d, int nr_sectors)
{
	struct request *rq = d->rq;

	if (end_that_request_first(rq, !d->error, nr_sectors))
		return 1;
	blkdev_dequeue_request(rq);
	end_that_request_last(rq, !d->error);
	d->rq = NULL;
	return 0;
}

static struct ops_driver opsdisk_driver = {
	.name = "opsdisk",
	.end_rq = opsdisk_end_rq,
};

static void opsdisk_cmd_done(struct opsdisk_cmd *cmd)
{
	struct request *rq = cmd->rq;

	if (end_that_request_first(rq, 1, rq->hard_nr_sectors))
		return;
	spin_lock_irq(rq->q->queue_lock);
	end_that_request_last(rq, 1);
	spin_unlock_irq(rq->q->queue_lock);
}

static struct opsdisk_cmd opsdisk_pending;
static struct timer_list opsdisk_timer;

static void opsdisk_timeout(unsigned long data)
{
	struct opsdisk_cmd *cmd = &opsdisk_pending;

	(*cmd->done)(cmd);
}

void opsdisk_attach(struct ops_drive *d)
{
	d->driver = &opsdisk_driver;
	opsdisk_pending.done = opsdisk_cmd_done;
	setup_timer(&opsdisk_timer, opsdisk_timeout, 0);
}
