/* The completion helper: its lock context is its callers', and they are in
 * cal_irq.c, which has no legacy call and registers no queue. */
#include <linux/blkdev.h>

void cal_finish(struct request *rq)
{
	end_request(rq, 1);
}
