/*
 * An out-of-tree vendor driver of the 2.6.2x era, one file and no headers
 * beside it: the queue is set up through the driver's own macro (the
 * request_fn is only named in the macro's argument), and the interrupt
 * handler reaches the queue lock through a local pointer.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static spinlock_t vblk_lock;
static struct request_queue *vblk_queue;
static struct request *vblk_cur;

#define VBLK_INIT_QUEUE(fn) blk_init_queue((fn), &vblk_lock)

static void vblk_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
		blkdev_dequeue_request(rq);
		vblk_cur = rq;
		break;
	}
}

static irqreturn_t vblk_irq(int irq, void *dev_id)
{
	struct request *rq = vblk_cur;
	spinlock_t *qlock = rq->q->queue_lock;
	unsigned long flags;

	spin_lock_irqsave(qlock, flags);
	if (!end_that_request_first(rq, 1, rq->hard_nr_sectors))
		end_that_request_last(rq, 1);
	vblk_cur = NULL;
	spin_unlock_irqrestore(qlock, flags);
	return IRQ_HANDLED;
}

static int __init vblk_init(void)
{
	spin_lock_init(&vblk_lock);
	vblk_queue = VBLK_INIT_QUEUE(vblk_request);
	if (!vblk_queue)
		return -ENOMEM;
	return request_irq(11, vblk_irq, 0, "vblk", NULL);
}
module_init(vblk_init);

/*
 * check-exit: 0
 * check-brief-start
 * vendor_macro.c:23:4 vblk_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * vendor_macro.c:39:7 vblk_irq end_that_request_first auto first_last_held lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * vendor_macro.c:40:3 vblk_irq end_that_request_last auto first_last_held lock=held uptodate=constant
 * check-brief-end
 */
