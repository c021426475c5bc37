/*
 * The queue lock reaches blk_init_queue as a parameter of the driver's own
 * queue setup (as in a card-reader stack: the block part owns the lock, a
 * shared queue helper creates the queue with it), and the completion takes
 * that lock through the device structure.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>

struct lp_queue {
	struct request_queue *queue;
	struct request *req;
};

struct lp_dev {
	spinlock_t lock;
	struct lp_queue queue;
};

static void lp_request(struct request_queue *q)
{
}

static int lp_init_queue(struct lp_queue *lq, spinlock_t *lock)
{
	lq->queue = blk_init_queue(lp_request, lock);
	return lq->queue ? 0 : -ENOMEM;
}

static void lp_complete(struct lp_dev *d)
{
	struct request *rq = d->queue.req;

	spin_lock_irq(&d->lock);
	if (!end_that_request_first(rq, 1, rq->hard_nr_sectors))
		end_that_request_last(rq, 1);
	spin_unlock_irq(&d->lock);
}

static int lp_thread(void *data)
{
	lp_complete(data);
	return 0;
}

static int lp_probe(struct lp_dev *d)
{
	spin_lock_init(&d->lock);
	if (lp_init_queue(&d->queue, &d->lock))
		return -ENOMEM;
	kthread_run(lp_thread, d, "lpd");
	return 0;
}

/*
 * check-exit: 0
 * check-brief-start
 * lockparam.c:35:7 lp_complete end_that_request_first auto first_last_held lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * lockparam.c:36:3 lp_complete end_that_request_last auto first_last_held lock=held uptodate=constant
 * check-brief-end
 */
