/*
 * Real-driver shape: whole-request completion whose result is kept only for
 * an assertion, in a helper whose callers hold the host lock that was given
 * to blk_init_queue.
 */
#include <linux/blkdev.h>

#define assert(expr) do { if (!(expr)) BUG(); } while (0)

struct ah_host {
	spinlock_t lock;
	struct request_queue *oob_q;
};

struct ah_request {
	struct request *rq;
};

static int ah_put_request(struct ah_host *host, struct ah_request *crq)
{
	crq->rq = NULL;
	return 0;
}

static void ah_end_request_queued(struct ah_host *host,
				  struct ah_request *crq, int uptodate)
{
	struct request *req = crq->rq;
	int rc;

	rc = end_that_request_first(req, uptodate, req->hard_nr_sectors);
	assert(rc == 0);

	end_that_request_last(req, uptodate);

	rc = ah_put_request(host, crq);
	assert(rc == 0);
}

static void ah_handle_done(struct ah_host *host, struct ah_request *crq,
			   int ok)
{
	unsigned long flags;

	spin_lock_irqsave(&host->lock, flags);
	ah_end_request_queued(host, crq, ok);
	spin_unlock_irqrestore(&host->lock, flags);
}

static void ah_rq_fn(struct request_queue *q)
{
}

static int ah_probe(struct ah_host *host)
{
	host->oob_q = blk_init_queue(ah_rq_fn, &host->lock);
	return host->oob_q ? 0 : -ENOMEM;
}
