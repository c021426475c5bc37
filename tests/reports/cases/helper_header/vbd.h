/*
 * vbd.h - private header of a 2008-style hypervisor block driver: the device, a
 * completion helper every path uses, and a handle type from a hypervisor header that
 * is not beside it (the analyzer parses with one error here).
 */
#ifndef VBD_H
#define VBD_H
#include <linux/blkdev.h>
#include <asm/vbd_hypercall.h>

struct vbd_dev {
	spinlock_t lock;
	struct request_queue *q;
	vbd_handle_t handle;
	struct request *cur;
};

/* finish what is left of the request; callers hold dev->lock, the queue lock */
static inline void vbd_finish(struct request *rq, int ok)
{
	if (!end_that_request_first(rq, ok, rq->hard_nr_sectors)) {
		blkdev_dequeue_request(rq);
		end_that_request_last(rq, ok);
	}
}

/* the old completion under a vendor name, kept for an out-of-tree module */
#define vbd_done(rq, ok) end_request(rq, ok)
#endif
