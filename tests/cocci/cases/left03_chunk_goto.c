/* Left: a data completion whose result is ignored, then a jump to the
 * final step (the ide-cd DMA shape): the byte count is not provably the
 * whole request. */
#include <linux/blkdev.h>

static spinlock_t cg_lock;

static int cg_intr(struct request *rq, int dma)
{
	unsigned long flags;

	if (dma) {
		end_that_request_chunk(rq, 1, rq->data_len);
		rq->data_len = 0;
		goto done;
	}
	return 1;
done:
	spin_lock_irqsave(&cg_lock, flags);
	blkdev_dequeue_request(rq);
	end_that_request_last(rq, 1);
	spin_unlock_irqrestore(&cg_lock, flags);
	return 0;
}
