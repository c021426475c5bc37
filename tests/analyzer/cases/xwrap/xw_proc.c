/* A second caller file, with its own extern declaration of the wrapper. */
#include <linux/blkdev.h>

extern void xw_end_request(struct request *req, int uptodate);
extern spinlock_t xw_lock;

void xw_abort(struct request *rq)
{
	spin_lock_irq(&xw_lock);
	xw_end_request(rq, 1);
	spin_unlock_irq(&xw_lock);
}
