/*
 * A caller the parse lost: clang drops the whole `for` whose condition names a
 * macro from a header that is not there, and the call in its body with it.
 * That caller still passes an uptodate value (0) to the wrapper and its lock
 * context is unknown: the wrapper's parameter must not become an error (0
 * would then mean success), and the lock evidence must not count only the
 * callers the AST kept.  Regression: the parameter was renamed `error` and
 * the only caller seen (the request_fn) converted, the lost one left passing 0.
 */
#include <linux/blkdev.h>

struct lc_dev {
	spinlock_t lock;
	struct request_queue *q;
	struct request *reqs[4];
};

static struct lc_dev lc_dev;

static void lc_end(struct request *req, int uptodate)
{
	end_request(req, uptodate);
}

static void lc_fail_all(struct lc_dev *dev)
{
	int i;

	spin_lock_irq(&dev->lock);
	for (i = 0; i < LC_SLOTS; i++)
		lc_end(dev->reqs[i], 0);
	spin_unlock_irq(&dev->lock);
}

static void lc_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		lc_end(req, 1);
	}
}

static int lc_init(void)
{
	lc_dev.q = blk_init_queue(lc_request, &lc_dev.lock);
	lc_fail_all(&lc_dev);
	return 0;
}

/*
 * check-exit: 0
 * check-brief-start
 * lost_caller.c:22:2 lc_end end_request auto wrapper_param lock=unknown uptodate=errno_capable new=__blk_end_request(req, uptodate > 0 ? 0 : (uptodate ? uptodate : -EIO), req->hard_cur_sectors << 9)
 * check-brief-end
 * check-text-start
 * a call at lost_caller.c:31 is in code the parse does not have
 * check-text-end
 */
