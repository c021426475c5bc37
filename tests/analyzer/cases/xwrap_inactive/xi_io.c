/* Callers in the driver's other file, one of them built only with XI_DEBUG. */
#include <linux/blkdev.h>

extern spinlock_t xi_lock;
void xi_end_request(struct request *rq, int uptodate);

void xi_fail(struct request *rq)
{
	spin_lock_irq(&xi_lock);
#ifdef XI_DEBUG
	xi_end_request(rq, 1);
#else
	xi_end_request(rq, 0);
#endif
	spin_unlock_irq(&xi_lock);
}
