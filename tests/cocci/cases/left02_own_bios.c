/* Left: the driver ends the bios itself, then calls end_that_request_last
 * alone (the cciss shape): blk_rq_bytes would end them a second time. */
#include <linux/blkdev.h>

void bio_endio(struct bio *bio, int error);

static void ob_end_bios(struct bio *bio, int ok)
{
	while (bio) {
		struct bio *next = bio->bi_next;

		bio->bi_next = NULL;
		bio_endio(bio, ok ? 0 : -EIO);
		bio = next;
	}
}

static void ob_complete(struct request_queue *q, struct request *rq, int ok)
{
	unsigned long flags;

	ob_end_bios(rq->bio, ok);
	add_disk_randomness(rq->rq_disk);
	spin_lock_irqsave(q->queue_lock, flags);
	end_that_request_last(rq, ok);
	spin_unlock_irqrestore(q->queue_lock, flags);
}
