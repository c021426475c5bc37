/* Converted code with the right lock variants: verify is clean. */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(vo_lock);
static struct request *vo_cur;

static void vo_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));
}

static irqreturn_t vo_irq(int irq, void *data)
{
	struct request *rq = vo_cur;
	unsigned long flags;

	blk_end_request(rq, 0, blk_rq_bytes(rq));
	spin_lock_irqsave(&vo_lock, flags);
	__blk_end_request(rq, -EIO, 0);
	spin_unlock_irqrestore(&vo_lock, flags);
	return IRQ_HANDLED;
}

static int vo_init(void)
{
	blk_init_queue(vo_request, &vo_lock);
	return request_irq(1, vo_irq, 0, "vo", NULL);
}
module_init(vo_init);

/*
 * check-command: verify
 * check-exit: 0
 * check-brief-start
 * check-brief-end
 */
