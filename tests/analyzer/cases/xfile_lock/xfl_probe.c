/* Probe side: owns the lock and registers the queue (no legacy call here). */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

DEFINE_SPINLOCK(xfl_lock);

static void xfl_request(struct request_queue *q)
{
	/* starts the hardware on elv_next_request(q) */
}

struct request_queue *xfl_probe_queue(int node)
{
	return blk_init_queue_node(xfl_request, &xfl_lock, node);
}
