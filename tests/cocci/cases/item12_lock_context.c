/* Item 12: lock context decides; unknown keeps the contract of _last. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(lc_lock);

/* Only ever called with the queue lock held: converted. */
static void lc_end_held(struct request *rq, int uptodate, int sectors)
{
	if (end_that_request_first(rq, uptodate, sectors))
		return;
	add_disk_randomness(rq->rq_disk);
	end_that_request_last(rq, uptodate);
}

/* Exported: lock state unknown; _last needed it: same contract. */
void lc_end_unknown(struct request *rq)
{
	if (!end_that_request_first(rq, 1, rq->hard_nr_sectors))
		end_that_request_last(rq, 1);
}
EXPORT_SYMBOL(lc_end_unknown);

/* The lock is dropped before: blk_end_request, old_lock_bug_fixed. */
static void lc_dropped(struct request_queue *q, struct request *rq)
{
	spin_unlock_irq(q->queue_lock);
	if (!end_that_request_first(rq, 1, rq->hard_nr_sectors))
		end_that_request_last(rq, 1);
	spin_lock_irq(q->queue_lock);
}

static void lc_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		lc_end_held(rq, 1, rq->current_nr_sectors);
		lc_dropped(q, rq);
	}
}

static irqreturn_t lc_irq(int irq, void *data)
{
	struct request *rq = data;
	unsigned long flags;

	spin_lock_irqsave(&lc_lock, flags);
	lc_end_held(rq, 0, rq->hard_nr_sectors);
	spin_unlock_irqrestore(&lc_lock, flags);
	return IRQ_HANDLED;
}

static int __init lc_init(void)
{
	return blk_init_queue(lc_request, &lc_lock) ? 0 : -ENOMEM;
}
