/* Left: a partial completion whose leftover is completed only on error
 * and the request ended in any case (the i2o_block shape). */
#include <linux/blkdev.h>

#define lo_failed(u) ((u) <= 0)

static void lo_end_request(struct request *req, int uptodate, int nr_bytes)
{
	struct request_queue *q = req->q;
	unsigned long flags;

	if (end_that_request_chunk(req, uptodate, nr_bytes)) {
		int leftover = req->hard_nr_sectors << 9;

		if (blk_pc_request(req))
			leftover = req->data_len;
		if (lo_failed(uptodate))
			end_that_request_chunk(req, 0, leftover);
	}
	add_disk_randomness(req->rq_disk);
	spin_lock_irqsave(q->queue_lock, flags);
	end_that_request_last(req, uptodate);
	spin_unlock_irqrestore(q->queue_lock, flags);
}
