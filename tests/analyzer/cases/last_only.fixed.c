/*
 * end_that_request_last with no data completion before it: the request's
 * origin decides the byte count (a mailbox-style message queue, a power
 * management step, a reset handler that kills what is queued, and a
 * controller driver that ends the bios itself).
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>

static DEFINE_SPINLOCK(lo_lock);
static struct request_queue *lo_q;
static struct work_struct lo_work;
static int lo_busy;

/* messages travel as requests without data: the queue lock around the final step */
static void lo_tx_work(struct work_struct *work)
{
	struct request *rq;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(lo_q->queue_lock, flags);
		rq = elv_next_request(lo_q);
		spin_unlock_irqrestore(lo_q->queue_lock, flags);
		if (!rq)
			break;
		spin_lock_irqsave(lo_q->queue_lock, flags);
		__blk_end_request(rq, -EIO, blk_rq_bytes(rq));
		spin_unlock_irqrestore(lo_q->queue_lock, flags);
	}
}

/* a power-management step: such a request never has a data part */
static void lo_pm_done(struct request *rq)
{
	unsigned long flags;

	spin_lock_irqsave(&lo_lock, flags);
	if (rq->cmd_type == REQ_TYPE_PM_SUSPEND) {
		blkdev_dequeue_request(rq);
		lo_busy = 0;
		__blk_end_request(rq, 0, 0);
	}
	spin_unlock_irqrestore(&lo_lock, flags);
}

/* the controller ends the bios itself, then only the final step */
extern void lo_bio_done(struct bio *bio, int error);

static void lo_end_bios(struct bio *bio, int ok)
{
	while (bio) {
		struct bio *next = bio->bi_next;

		bio->bi_next = NULL;
		lo_bio_done(bio, ok ? 0 : -EIO);
		bio = next;
	}
}

static void lo_complete(struct request *rq, int ok)
{
	unsigned long flags;

	lo_end_bios(rq->bio, ok);
	add_disk_randomness(rq->rq_disk);
	spin_lock_irqsave(&lo_lock, flags);
	end_that_request_last(rq, ok ? 1 : -EIO);
	spin_unlock_irqrestore(&lo_lock, flags);
}

/* the interrupt handler finishes the command it was given, without the lock */
static irqreturn_t lo_irq(int irq, void *data)
{
	struct request *rq = data;

	lo_complete(rq, 1);
	lo_pm_done(rq);
	while ((rq = elv_next_request(lo_q)) != NULL) {
		blk_end_request(rq, -EIO, blk_rq_bytes(rq));
	}
	return IRQ_HANDLED;
}

static void lo_request(struct request_queue *q)
{
	schedule_work(&lo_work);
}

static int lo_init(void)
{
	lo_q = blk_init_queue(lo_request, &lo_lock);
	INIT_WORK(&lo_work, lo_tx_work);
	return request_irq(3, lo_irq, 0, "lo", NULL);
}
module_init(lo_init);

/*
 * check-exit: 1
 * check-brief-start
 * last_only.c:30:3 lo_tx_work end_that_request_last auto last_only lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_bytes(rq))
 * last_only.c:44:3 lo_pm_done end_that_request_last auto last_only lock=held uptodate=constant new=__blk_end_request(rq, 0, 0)
 * last_only.c:70:2 lo_complete end_that_request_last manual last_only lock=held uptodate=boolean reason=last_may_have_data
 * last_only.c:83:3 lo_irq end_that_request_last auto last_only lock=not_held uptodate=constant new=blk_end_request(rq, -EIO, blk_rq_bytes(rq))
 * check-brief-end
 */
