/*
 * wrap.c - migrate golden input: a wrapper whose parameter is the uptodate
 * value, called from the request_fn (lock held) and from a timer that takes
 * the queue lock first. Its parameter becomes an error value and every
 * caller's argument is converted.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

static DEFINE_SPINLOCK(wrap_lock);
static struct request_queue *wrap_queue;
static struct request *wrap_current;

static void wrap_end_request(struct request *rq, int error)
{
	if (error)
		printk(KERN_ERR "wrap: I/O error\n");
	__blk_end_request(rq, error, blk_rq_cur_bytes(rq));
}

static void wrap_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (rq->sector >= 4096) {
			wrap_end_request(rq, -EIO);
			continue;
		}
		wrap_current = rq;
		wrap_end_request(rq, 0);
	}
}

static void wrap_timeout(unsigned long data)
{
	unsigned long flags;

	spin_lock_irqsave(&wrap_lock, flags);
	if (wrap_current)
		wrap_end_request(wrap_current, data != 0 ? 0 : -EIO);
	spin_unlock_irqrestore(&wrap_lock, flags);
}

static int __init wrap_init(void)
{
	static struct timer_list timer;

	setup_timer(&timer, wrap_timeout, 0);
	wrap_queue = blk_init_queue(wrap_request, &wrap_lock);
	return wrap_queue ? 0 : -ENOMEM;
}
module_init(wrap_init);
