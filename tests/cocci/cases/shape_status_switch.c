/*
 * Real-driver shape: a completion loop under the driver's lock maps a device
 * status to an uptodate value (1, 0 or a negative errno) declared inside the
 * loop, and ends dequeued requests with it.
 */
#include <linux/blkdev.h>

#define ENOTTY 25
#define STS_OK 0
#define STS_UNSUPP 1

struct sw_req {
	struct request *req;
	int status;
	struct sw_req *next;
};

struct sw_dev {
	spinlock_t lock;
	struct request_queue *q;
	struct sw_req *done;
};

static void sw_done(struct sw_dev *dev)
{
	struct sw_req *vbr;
	unsigned long flags;

	spin_lock_irqsave(&dev->lock, flags);
	while ((vbr = dev->done) != NULL) {
		int uptodate;

		switch (vbr->status) {
		case STS_OK:
			uptodate = 1;
			break;
		case STS_UNSUPP:
			uptodate = -ENOTTY;
			break;
		default:
			uptodate = 0;
			break;
		}

		end_dequeued_request(vbr->req, uptodate);
		dev->done = vbr->next;
	}
	blk_start_queue(dev->q);
	spin_unlock_irqrestore(&dev->lock, flags);
}
