/* Registers the request_fn and the interrupt handler. */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

void multi_complete(struct request *rq, int ok);
void multi_complete_unlocked(struct request *rq);

static DEFINE_SPINLOCK(multi_lock);
static struct request *multi_cur;

static void multi_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	if (rq)
		multi_complete(rq, 1);
}

static irqreturn_t multi_irq(int irq, void *data)
{
	unsigned long flags;

	multi_complete_unlocked(multi_cur);
	spin_lock_irqsave(&multi_lock, flags);
	multi_complete(multi_cur, 0);
	spin_unlock_irqrestore(&multi_lock, flags);
	return IRQ_HANDLED;
}

static int multi_init(void)
{
	blk_init_queue(multi_request, &multi_lock);
	return request_irq(9, multi_irq, 0, "multi", NULL);
}
module_init(multi_init);
