/* A caller in the driver's other file. */
#include <linux/blkdev.h>

extern spinlock_t xe_lock;
void xe_end_request(struct request *rq, int uptodate);

void xe_fail(struct request *rq)
{
	spin_lock_irq(&xe_lock);
	xe_end_request(rq, 0);
	spin_unlock_irq(&xe_lock);
}
