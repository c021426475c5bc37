/* Issue 20 item 2: the queue lock is provably not held on any path to a
 * call that needed it: blk_end_request (it takes the lock itself). */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(nh_lock);
static struct request *nh_current;
static struct work_struct nh_work;

/* an interrupt handler: the kernel runs it without the queue lock */
static irqreturn_t nh_irq(int irq, void *data)
{
	struct request *rq = nh_current;

	end_request(rq, 1);
	return IRQ_HANDLED;
}

/* a work function */
static void nh_work_fn(struct work_struct *w)
{
	struct request *rq = nh_current;

	if (!end_that_request_first(rq, 0, rq->hard_nr_sectors))
		end_that_request_last(rq, 0);
}

/* a helper every caller of which runs without the lock */
static void nh_finish(struct request *rq)
{
	end_dequeued_request(rq, 1);
}

static irqreturn_t nh_irq2(int irq, void *data)
{
	nh_finish(nh_current);
	return IRQ_HANDLED;
}

static void nh_work_fn2(struct work_struct *w)
{
	nh_finish(nh_current);
}

static void nh_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		nh_current = rq;
	}
}

static int __init nh_init(void)
{
	INIT_WORK(&nh_work, nh_work_fn);
	INIT_WORK(&nh_work, nh_work_fn2);
	if (request_irq(1, nh_irq, 0, "nh", NULL) ||
	    request_irq(2, nh_irq2, 0, "nh2", NULL))
		return -ENXIO;
	return blk_init_queue(nh_request, &nh_lock) ? 0 : -ENOMEM;
}
