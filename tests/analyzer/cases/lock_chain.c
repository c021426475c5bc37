/*
 * Issue 20 item 2: held on some paths only, through a chain of callers.  lc_act() is
 * called from lc_start(), itself called with the queue lock held (from the request
 * function) and without it (from the interrupt handler), and from the interrupt
 * handler directly: lc_start's own entry is only "unknown", but the chains show
 * both states, so lc_act's end_request is left (lock_mixed) with the two paths named.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(lc_lock);
static struct request_queue *lc_q;
static struct request *lc_cur;

static void lc_act(void)
{
	end_request(lc_cur, 0);
}

static void lc_start(void)
{
	lc_cur = elv_next_request(lc_q);
	if (lc_cur)
		lc_act();
}

static void lc_request(struct request_queue *q)
{
	lc_start();
}

static irqreturn_t lc_irq(int irq, void *d)
{
	lc_start();
	lc_act();
	return IRQ_HANDLED;
}

static int lc_init(void)
{
	lc_q = blk_init_queue(lc_request, &lc_lock);
	return request_irq(5, lc_irq, 0, "lc", NULL);
}

/*
 * check-exit: 1
 * check-brief-start
 * lock_chain.c:17:2 lc_act end_request manual end_request lock=unknown uptodate=constant reason=lock_mixed
 * check-brief-end
 * check-text-start
 * lc_act() runs with the queue lock held when called as lc_request -> lc_start -> lc_act
 * and without it as lc_irq -> lc_act
 * [lock_mixed]
 * check-text-end
 */
