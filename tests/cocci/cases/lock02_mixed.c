/* Issue 20 item 2: the queue lock is held on some paths to a call and not
 * on others: no one 2.6.25 call is right: left (lock_mixed), paths named. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(mx_lock);
static struct request *mx_current;

static void mx_end(struct request *rq, int uptodate)
{
	end_request(rq, uptodate);
}

static void mx_end_last(struct request *rq)
{
	end_that_request_last(rq, 1);
}

static void mx_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			mx_end(rq, 0);
			continue;
		}
		mx_current = rq;
		mx_end_last(rq);
	}
}

static irqreturn_t mx_irq(int irq, void *data)
{
	mx_end(mx_current, 1);
	mx_end_last(mx_current);
	return IRQ_HANDLED;
}

static int __init mx_init(void)
{
	if (request_irq(1, mx_irq, 0, "mx", NULL))
		return -ENXIO;
	return blk_init_queue(mx_request, &mx_lock) ? 0 : -ENOMEM;
}
