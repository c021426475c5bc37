/*
 * A completion helper called from an interrupt handler (no lock) and from a
 * function nothing in the file calls (its lock context is unknown).  The
 * evidence counts every caller: the one whose context is known, and the one
 * whose context is not (regression: "none of the 1 caller(s)", with two).
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

struct cu_host {
	spinlock_t lock;
	struct request_queue *q;
	struct request *cur;
};

static struct cu_host cu_host;

static void cu_done(struct cu_host *h, struct request *req)
{
	unsigned long flags;

	spin_lock_irqsave(&h->lock, flags);
	end_request(req, 1);
	spin_unlock_irqrestore(&h->lock, flags);
}

static void cu_complete(struct cu_host *h, int ok)
{
	struct request *req = h->cur;

	h->cur = NULL;
	if (!end_that_request_first(req, ok, req->hard_nr_sectors))
		cu_done(h, req);
}

static irqreturn_t cu_irq(int irq, void *data)
{
	cu_complete(data, 1);
	return IRQ_HANDLED;
}

void cu_abort(struct cu_host *h)
{
	cu_complete(h, 0);
}

static void cu_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	if (req && !cu_host.cur) {
		blkdev_dequeue_request(req);
		cu_host.cur = req;
	}
}

static int cu_init(void)
{
	cu_host.q = blk_init_queue(cu_request, &cu_host.lock);
	return request_irq(5, cu_irq, 0, "cu", &cu_host);
}

/*
 * check-exit: 1
 * check-brief-start
 * callers_unknown.c:23:2 cu_done end_request auto end_request lock=held uptodate=constant new=__blk_end_request(req, 0, blk_rq_cur_bytes(req))
 * callers_unknown.c:32:7 cu_complete end_that_request_first manual wrapper_param lock=not_held uptodate=wrapper_param reason=shape
 * check-brief-end
 * check-text-start
 * none of the 1 caller(s) of cu_complete whose lock context is known holds it (e.g. cu_irq at callers_unknown.c:38); 1 more caller(s) of unknown lock context (e.g. cu_abort at callers_unknown.c:44)
 * check-text-end
 */
