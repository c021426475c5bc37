/*
 * An interrupt handler completes a request without the queue lock: the old
 * race is the final step's (end_that_request_last needed the lock; the data
 * completion end_that_request_first never did), and blk_end_request, which
 * takes the lock for the final step itself, ends it.  The evidence names the
 * call that needed the lock (regression: "end_that_request_first ... ran
 * without the queue lock, which the 2.6.24 API required").
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

struct lf_host {
	spinlock_t lock;
	struct request_queue *q;
	struct request *cur;
};

static struct lf_host lf_host;

static irqreturn_t lf_irq(int irq, void *data)
{
	struct lf_host *h = data;
	struct request *req = h->cur;

	h->cur = NULL;
	if (!end_that_request_first(req, 1, req->hard_nr_sectors))
		end_that_request_last(req, 1);
	return IRQ_HANDLED;
}

static void lf_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	if (req && !lf_host.cur) {
		blkdev_dequeue_request(req);
		lf_host.cur = req;
	}
}

static int lf_init(void)
{
	lf_host.q = blk_init_queue(lf_request, &lf_host.lock);
	return request_irq(5, lf_irq, 0, "lf", &lf_host);
}

/*
 * check-exit: 0
 * check-brief-start
 * lock_final_step.c:26:7 lf_irq end_that_request_first auto first_last_unlocked lock=not_held uptodate=constant new=blk_end_request(req, 0, blk_rq_bytes(req))
 * lock_final_step.c:27:3 lf_irq end_that_request_last auto first_last_unlocked lock=not_held uptodate=constant
 * check-brief-end
 * check-text-start
 * old_lock_bug_fixed: end_that_request_last (line 27, the final step of this end_that_request_first) in lf_irq() ran without the queue lock
 * check-text-end
 * check-text-absent-start
 * end_that_request_first in lf_irq() ran without the queue lock
 * check-text-absent-end
 */
