/*
 * A controller driver (2007 vendor style) that completes the whole request,
 * keeps the result only for a sanity assertion, then runs the final step:
 * the result of the new call means the same (0: done).
 */
#include <linux/blkdev.h>

#define rk_assert(expr)                                                    \
	if (unlikely(!(expr))) {                                           \
		printk(KERN_ERR "rk: assertion failed: %s\n", #expr);      \
	}

struct rk_host {
	spinlock_t lock;
	struct request_queue *q;
	int busy;
};

static struct rk_host rk_hosts[2];

static inline void rk_end_request_queued(struct rk_host *host, struct request *req,
					 int error)
{
	int rc;

	rc = __blk_end_request(req, error, blk_rq_bytes(req));
	rk_assert(rc == 0);

	host->busy--;
}

static void rk_request(struct request_queue *q)
{
	struct rk_host *host = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		rk_end_request_queued(host, req, req->errors ? -EIO : 0);
	}
}

static int rk_init(void)
{
	rk_hosts[0].q = blk_init_queue(rk_request, &rk_hosts[0].lock);
	return 0;
}

/*
 * check-exit: 0
 * check-brief-start
 * result_kept.c:26:7 rk_end_request_queued end_that_request_first auto wrapper_param lock=held uptodate=wrapper_param new=__blk_end_request(req, error, blk_rq_bytes(req))
 * result_kept.c:29:2 rk_end_request_queued end_that_request_last auto wrapper_param lock=held uptodate=wrapper_param
 * check-brief-end
 */
