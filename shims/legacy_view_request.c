// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_view_request.c - the 2.6.24 request fields, kept as 2.6.24 kept them.
 *
 * Owns struct blkcompat_lv_request's life: filled from the blk-mq request
 * when it is dispatched (as 2.6.24 filled a request from its first bio
 * and merges), and after each data part recomputed as 2.6.24's
 * __end_that_request_first() and blk_recalc_rq_sectors() did: the hard_*
 * fields advance by what was completed; the driver's submission cursor
 * (sector, nr_sectors, current_nr_sectors, buffer) is reset to them only
 * if the driver has not moved it past them.  A driver that counts the
 * cursor down while it transfers thus sees the fields it saw in 2.6.24,
 * and blk_rq_cur_bytes(), which reads current_nr_sectors, gives what it
 * gave on 2.6.25, 0 included.
 */
#include <linux/bio.h>
#include <linux/printk.h>
#include "legacy_view.h"

/* The request as 2.6.24's request_fn got it; false: not one it can get. */
bool blkcompat_lv_prep(struct request *rq)
{
	struct blkcompat_lv_request *lrq = blkcompat_lv_rq(rq);
	struct blkcompat_queue *bq = blkcompat_queue_of_rq(rq);

	/*
	 * 2.6.24 drivers got reads and writes; flushes, discards and the rest
	 * are not advertised by the view's queues, and are refused.
	 */
	if (blk_rq_is_passthrough(rq) || !rq->bio ||
	    (req_op(rq) != REQ_OP_READ && req_op(rq) != REQ_OP_WRITE)) {
		blk_mq_end_request(rq, BLK_STS_NOTSUPP);
		return false;
	}
	memset(lrq, 0, sizeof(*lrq));
	INIT_LIST_HEAD(&lrq->queuelist);
	lrq->q = bq->owner;
	lrq->cmd_type = BLKCOMPAT_LV_REQ_TYPE_FS;
	lrq->cmd_flags = rq_data_dir(rq) == WRITE ? BLKCOMPAT_LV_REQ_RW : 0;
	lrq->sector = blk_rq_pos(rq);
	lrq->hard_sector = lrq->sector;
	lrq->nr_sectors = blk_rq_sectors(rq);
	lrq->hard_nr_sectors = lrq->nr_sectors;
	lrq->current_nr_sectors = blk_rq_cur_sectors(rq);
	lrq->hard_cur_sectors = lrq->current_nr_sectors;
	lrq->bio = rq->bio;
	lrq->biotail = rq->biotail;
	lrq->buffer = bio_data(rq->bio);
	lrq->rq_disk = rq->q->queuedata;
	lrq->data_len = blk_rq_bytes(rq);
	lrq->nr_phys_segments = blk_rq_nr_phys_segments(rq);
	return true;
}

/* 2.6.24 blk_recalc_rq_sectors(), after @nsect sectors were completed */
static void blkcompat_lv_recalc_sectors(struct blkcompat_lv_request *lrq,
					struct request *rq, unsigned int nsect)
{
	lrq->hard_sector += nsect;
	lrq->hard_nr_sectors -= nsect;
	if (lrq->nr_sectors >= lrq->hard_nr_sectors &&
	    lrq->sector <= lrq->hard_sector) {
		lrq->sector = lrq->hard_sector;
		lrq->nr_sectors = lrq->hard_nr_sectors;
		lrq->hard_cur_sectors = bio_iovec(rq->bio).bv_len >> 9;
		lrq->current_nr_sectors = lrq->hard_cur_sectors;
		lrq->buffer = bio_data(rq->bio);
	}
	if (lrq->nr_sectors < lrq->current_nr_sectors) {
		pr_err("blk: request botched\n");
		lrq->nr_sectors = lrq->current_nr_sectors;
	}
}

/*
 * The data part of every completion (2.6.24 end_that_request_chunk()):
 * @nr_bytes to the bios, then the fields.  True while bytes remain.
 */
bool blkcompat_lv_update(struct blkcompat_lv_request *lrq, int error,
			 unsigned int nr_bytes)
{
	struct request *rq = blkcompat_lv_mq_rq(lrq);
	unsigned int before = blk_rq_bytes(rq);
	bool more;

	/* a packet request carries its sense through; any other is cleared */
	if (lrq->cmd_type != BLKCOMPAT_LV_REQ_TYPE_BLOCK_PC)
		lrq->errors = 0;
	more = blkcompat_update(rq, error, nr_bytes);
	lrq->bio = rq->bio;
	lrq->biotail = rq->biotail;
	if (more && blkcompat_lv_fs_request(lrq))
		blkcompat_lv_recalc_sectors(lrq, rq,
					    (before - blk_rq_bytes(rq)) >> 9);
	return more;
}

/* The final step (2.6.24 end_that_request_last()), lock held. */
void blkcompat_lv_finish(struct blkcompat_lv_request *lrq, int error)
{
	struct request *rq = blkcompat_lv_mq_rq(lrq);

	blkcompat_finish(blkcompat_queue_of_rq(rq), rq, error);
}
