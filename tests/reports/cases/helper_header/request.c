/* request.c - request handling of the vbd driver: completions through vbd.h */
#include "vbd.h"

static void vbd_request(struct request_queue *q)
{
	struct vbd_dev *dev = q->queuedata;
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
		if (vbd_submit(dev->handle, rq) < 0) {
			end_request(rq, 0);
			continue;
		}
		dev->cur = rq;
		blkdev_dequeue_request(rq);
	}
}

static void vbd_irq_done(struct vbd_dev *dev, int ok)
{
	unsigned long flags;
	struct request *rq = dev->cur;

	spin_lock_irqsave(&dev->lock, flags);
	if (!end_that_request_first(rq, ok, rq->nr_sectors)) {
		add_disk_randomness(rq->rq_disk);
		end_that_request_last(rq, ok);
	}
	dev->cur = NULL;
	spin_unlock_irqrestore(&dev->lock, flags);
}

void vbd_abort(struct vbd_dev *dev)
{
	spin_lock_irq(&dev->lock);
	if (dev->cur)
		vbd_finish(dev->cur, 0);
	dev->cur = NULL;
	spin_unlock_irq(&dev->lock);
}

int vbd_init(struct vbd_dev *dev)
{
	spin_lock_init(&dev->lock);
	dev->q = blk_init_queue(vbd_request, &dev->lock);
	if (!dev->q)
		return -ENOMEM;
	dev->q->queuedata = dev;
	vbd_irq_done(dev, 1);
	return 0;
}
