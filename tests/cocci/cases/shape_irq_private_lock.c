/*
 * Real-driver shape: the interrupt handler takes the driver's private lock,
 * the one its probe routine gave blk_init_queue, and completes there; the
 * uptodate variable shares a declaration with others.
 */
#include <linux/blkdev.h>

struct irqd_priv {
	spinlock_t lock;
	struct request_queue *queue;
	struct request *req;
};

static void irqd_copy_in(struct request *req)
{
	req->errors = 0;
}

static void irqd_request(struct request_queue *q)
{
}

static irqreturn_t irqd_interrupt(struct irqd_priv *priv, unsigned long status)
{
	struct request *req = priv->req;
	int res, read, uptodate;
	unsigned long num_sectors;

	read = 1;
	res = 0;
	num_sectors = req->nr_sectors;
	if (status) {
		uptodate = 0;
	} else {
		uptodate = 1;
		if (read)
			irqd_copy_in(req);
	}

	spin_lock(&priv->lock);
	if (!end_that_request_first(req, uptodate, num_sectors)) {
		add_disk_randomness(req->rq_disk);
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
	priv->req = NULL;
	spin_unlock(&priv->lock);
	return IRQ_HANDLED + res;
}

static int irqd_probe(struct irqd_priv *priv)
{
	priv->queue = blk_init_queue(irqd_request, &priv->lock);
	return priv->queue ? 0 : -ENOMEM;
}
