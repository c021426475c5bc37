/*
 * hdx.c - series test input: a PIO disk in the style of the old hd driver.
 * Its interrupt handler completes the current segment with end_request
 * without the queue lock (an old race: 2.6.24 required it there), and
 * hdx_start(), called both from the request_fn (lock held) and from the
 * interrupt handler (not held), fails a request: that one is left for a human.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>

#define HDX_IRQ		14

static DEFINE_SPINLOCK(hdx_lock);
static struct request_queue *hdx_queue;
static struct request *hdx_rq;

static void hdx_start(void)
{
	struct request *rq = elv_next_request(hdx_queue);

	if (!rq)
		return;
	if (rq->sector >= 8192) {
		end_request(rq, 0);
		return;
	}
	hdx_rq = rq;
}

static irqreturn_t hdx_intr(int irq, void *dev_id)
{
	struct request *rq = hdx_rq;

	if (!rq)
		return IRQ_NONE;
	rq->sector++;
	rq->buffer += 512;
	if (--rq->current_nr_sectors <= 0) {
		end_request(rq, 1);
		hdx_rq = NULL;
		hdx_start();
	}
	return IRQ_HANDLED;
}

static void hdx_request(struct request_queue *q)
{
	if (!hdx_rq)
		hdx_start();
}

static int __init hdx_init(void)
{
	hdx_queue = blk_init_queue(hdx_request, &hdx_lock);
	if (!hdx_queue)
		return -ENOMEM;
	return request_irq(HDX_IRQ, hdx_intr, 0, "hdx", NULL);
}
module_init(hdx_init);
