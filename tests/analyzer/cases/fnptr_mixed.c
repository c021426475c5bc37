/*
 * Issue 21: a function reached through a static function pointer both from the
 * request function (queue lock held) and from the interrupt handler (not held).
 * fm_done()'s address goes only to fm_next, which both call: no one 2.6.25 call is
 * right on both paths, so its end_request is left (lock_mixed) with both named.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(fm_lock);
static struct request_queue *fm_q;
static struct request *fm_cur;
static void (*fm_next)(void);

static void fm_done(void)
{
	end_request(fm_cur, 1);
}

static void fm_request(struct request_queue *q)
{
	fm_cur = elv_next_request(q);
	fm_next = fm_done;
	if (fm_cur->errors)
		(*fm_next)();
}

static irqreturn_t fm_irq(int irq, void *d)
{
	if (fm_next)
		fm_next();
	return IRQ_HANDLED;
}

static int fm_init(void)
{
	fm_q = blk_init_queue(fm_request, &fm_lock);
	return request_irq(14, fm_irq, 0, "fm", NULL);
}

/*
 * check-exit: 1
 * check-brief-start
 * fnptr_mixed.c:17:2 fm_done end_request manual end_request lock=unknown uptodate=constant reason=lock_mixed
 * check-brief-end
 * check-text-start
 * fm_done() runs with the queue lock held when called as fm_request -> fm_done (request_fn registered with blk_init_queue at fnptr_mixed.c:37)
 * and without it as fm_irq -> fm_done (interrupt handler registered with request_irq at fnptr_mixed.c:38)
 * held in fm_request through fm_next at fnptr_mixed.c:25, not in fm_irq through fm_next at fnptr_mixed.c:31
 * [lock_mixed]
 * check-text-end
 */
