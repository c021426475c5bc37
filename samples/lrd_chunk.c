// SPDX-License-Identifier: GPL-2.0
/*
 * lrd_chunk.c - legacy RAM disk /dev/lrdchunk.
 *
 * Completes in small pieces, as drivers for devices with tiny transfer
 * windows did: the request function dequeues a request and moves
 * chunk_bytes at a time, completing each piece with
 * end_that_request_chunk().  A piece that fails fails the rest of the
 * request, chunk by chunk, in a loop.
 */
#include "lrd_disk.h"

static unsigned int chunk_bytes = 512;
module_param(chunk_bytes, uint, 0444);
MODULE_PARM_DESC(chunk_bytes, "bytes completed at a time (multiple of 512)");

static struct lrd_disk lrd;

static void lrd_chunk_request(struct request_queue *q)
{
	struct request *rq;
	unsigned int bytes;
	int more;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		if (!blk_fs_request(rq)) {
			end_dequeued_request(rq, 0);
			continue;
		}
		do {
			bytes = min_t(unsigned int, chunk_bytes,
				      blk_rq_cur_bytes(rq));
			if (lrd_disk_fails(&lrd, blk_rq_pos(rq),
					   bytes >> SECTOR_SHIFT)) {
				while (end_that_request_chunk(rq, 0,
							      chunk_bytes))
					;
				end_that_request_last(rq, 0);
				break;
			}
			lrd_disk_transfer(&lrd, blk_rq_pos(rq), bytes,
					  bio_data(rq->bio), rq_data_dir(rq));
			more = end_that_request_chunk(rq, 1, bytes);
			if (!more)
				end_that_request_last(rq, 1);
		} while (more);
	}
}

static int __init lrd_chunk_init(void)
{
	int err;

	if (!chunk_bytes || chunk_bytes % 512)
		return -EINVAL;
	err = lrd_disk_alloc(&lrd, "lrdchunk");
	if (err)
		return err;
	lrd.queue = blk_init_queue(lrd_chunk_request, &lrd.lock);
	if (!lrd.queue) {
		err = -ENOMEM;
		goto free_disk;
	}
	err = lrd_disk_add(&lrd);
	if (err)
		goto cleanup_queue;
	return 0;

cleanup_queue:
	blk_cleanup_queue(lrd.queue);
free_disk:
	lrd_disk_free(&lrd);
	return err;
}

static void __exit lrd_chunk_exit(void)
{
	lrd_disk_remove(&lrd);
	blk_cleanup_queue(lrd.queue);
	lrd_disk_free(&lrd);
}

module_init(lrd_chunk_init);
module_exit(lrd_chunk_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("legacy RAM disk completing with end_that_request_chunk()");
