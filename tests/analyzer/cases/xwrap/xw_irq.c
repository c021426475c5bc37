/* The interrupt side: calls the shared wrapper under the queue lock. */
#include <linux/blkdev.h>
#include "xw.h"

void xw_interrupt(int status)
{
	unsigned long flags;

	spin_lock_irqsave(&xw_lock, flags);
	if (xw_cur)
		xw_end_request(xw_cur, !status);
	spin_unlock_irqrestore(&xw_lock, flags);
}
