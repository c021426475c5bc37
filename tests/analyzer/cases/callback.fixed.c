/* Work between the data completion and the final step. */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(cb_lock);
static struct request *cb_cur;
static int cb_count;

static int cb_irq_end_callback(struct request *rq)
{
	cb_count++;
	rq->special = NULL;
	return 0;
}

static irqreturn_t cb_irq(int irq, void *data)
{
	struct request *rq = cb_cur;

	blk_end_request_callback(rq, 0, blk_rq_bytes(rq), cb_irq_end_callback);
	return IRQ_HANDLED;
}

/* the work uses a local: it cannot become a callback */
static irqreturn_t cb_irq2(int irq, void *data)
{
	struct request *rq = cb_cur;
	unsigned long flags;
	int done = irq;

	if (!end_that_request_first(rq, 1, rq->hard_nr_sectors)) {
		cb_count += done;
		spin_lock_irqsave(&cb_lock, flags);
		end_that_request_last(rq, 1);
		spin_unlock_irqrestore(&cb_lock, flags);
	}
	return IRQ_HANDLED;
}

static void cb_request(struct request_queue *q)
{
}

static int cb_init(void)
{
	blk_init_queue(cb_request, &cb_lock);
	request_irq(3, cb_irq, 0, "cb", NULL);
	return request_irq(4, cb_irq2, 0, "cb2", NULL);
}
module_init(cb_init);

/*
 * check-exit: 1
 * check-brief-start
 * callback.c:14:7 cb_irq end_that_request_first auto callback lock=not_held uptodate=constant new=blk_end_request_callback(rq, 0, blk_rq_bytes(rq), cb_irq_end_callback)
 * callback.c:20:3 cb_irq end_that_request_last auto callback lock=not_held uptodate=constant
 * callback.c:33:7 cb_irq2 end_that_request_first manual first_last_unlocked lock=not_held uptodate=constant reason=work_not_movable
 * callback.c:36:3 cb_irq2 end_that_request_last manual first_last_unlocked lock=not_held uptodate=constant reason=work_not_movable
 * check-brief-end
 */
