/* A caller in the driver's other file. */
#include <linux/blkdev.h>

extern spinlock_t xa_lock;
void xa_end_request(struct request *rq, int uptodate);

void xa_fail(struct request *rq)
{
	spin_lock_irq(&xa_lock);
	xa_end_request(rq, 0);
	spin_unlock_irq(&xa_lock);
}
