/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat/legacy/request.h - the 2.6.24 struct request a legacy driver sees.
 *
 * Owns struct blkcompat_lv_request: the request fields of 2.6.24 that
 * drivers read and write (sector, nr_sectors, current_nr_sectors, the
 * hard_* copies, buffer, errors, rq_disk, bio, ...).  It lives in the
 * blk-mq payload (PDU) of each request of a legacy-view queue: the shim
 * fills it when the request is dispatched and recomputes it after every
 * partial completion exactly as 2.6.24's blk_recalc_rq_sectors() did, so
 * a driver that counts the fields down as it transfers sees what it saw
 * in 2.6.24.  Also the 2.6.24 and 2.6.25 completion calls on it, and
 * the 2.6.25 byte helpers, which read these fields (not blk-mq's own).
 *
 * Drivers never name this struct: <blkcompat/legacy/view.h> renames their
 * "struct request" to it.
 */
#ifndef _BLKCOMPAT_LEGACY_REQUEST_H
#define _BLKCOMPAT_LEGACY_REQUEST_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/bio.h>

struct blkcompat_lv_queue;
struct blkcompat_lv_disk;

/* 2.6.24 enum rq_cmd_type_bits: the kinds of request the view hands out */
#define BLKCOMPAT_LV_REQ_TYPE_FS	1
#define BLKCOMPAT_LV_REQ_TYPE_BLOCK_PC	2
/* 2.6.24 REQ_RW: bit 0 of cmd_flags, the data direction */
#define BLKCOMPAT_LV_REQ_RW		(1U << 0)

/**
 * struct blkcompat_lv_request - a request as a 2.6.24 driver sees it
 * @queuelist: free for the driver's own lists once it has dequeued the
 *	       request (the shim queues the blk-mq request, not this)
 * @q: the legacy queue the request came from
 * @cmd_flags: 2.6.24 flags; only REQ_RW (the direction) is set
 * @cmd_type: REQ_TYPE_FS for reads and writes, the only kind handed out
 * @sector: next sector to submit (the driver's cursor)
 * @hard_sector: next sector to complete
 * @nr_sectors: sectors left to submit
 * @hard_nr_sectors: sectors left to complete
 * @current_nr_sectors: sectors left to submit in the current segment
 * @hard_cur_sectors: sectors left to complete in the current segment
 * @bio: the first bio not yet completed
 * @biotail: the last bio
 * @buffer: kernel address of the current segment's data
 * @errors: the driver's retry counter; cleared by every completion
 * @rq_disk: the legacy disk the request is for
 * @data_len: bytes of the request when it was dispatched
 * @nr_phys_segments: physical segments when it was dispatched
 * @special: free for the driver
 */
struct blkcompat_lv_request {
	struct list_head queuelist;
	struct blkcompat_lv_queue *q;
	unsigned int cmd_flags;
	int cmd_type;
	sector_t sector;
	sector_t hard_sector;
	unsigned long nr_sectors;
	unsigned long hard_nr_sectors;
	unsigned int current_nr_sectors;
	unsigned int hard_cur_sectors;
	struct bio *bio;
	struct bio *biotail;
	char *buffer;
	int errors;
	struct blkcompat_lv_disk *rq_disk;
	unsigned int data_len;
	unsigned short nr_phys_segments;
	void *special;
};

static inline bool blkcompat_lv_fs_request(struct blkcompat_lv_request *rq)
{
	return rq->cmd_type == BLKCOMPAT_LV_REQ_TYPE_FS;
}

/* 2.6.25 blk_rq_bytes(): the whole request */
static inline unsigned int blkcompat_lv_rq_bytes(struct blkcompat_lv_request *rq)
{
	if (blkcompat_lv_fs_request(rq))
		return rq->hard_nr_sectors << 9;
	return rq->data_len;
}

/* 2.6.25 blk_rq_cur_bytes(): current_nr_sectors, as the driver left it */
static inline unsigned int
blkcompat_lv_rq_cur_bytes(struct blkcompat_lv_request *rq)
{
	if (blkcompat_lv_fs_request(rq))
		return rq->current_nr_sectors << 9;
	if (rq->bio)
		return rq->bio->bi_iter.bi_size;
	return rq->data_len;
}

/* 2.6.24 completion calls (shims/legacy_view_2624.c) */
int blkcompat_lv_end_that_request_first(struct blkcompat_lv_request *rq,
					int uptodate, int nr_sectors);
int blkcompat_lv_end_that_request_chunk(struct blkcompat_lv_request *rq,
					int uptodate, int nr_bytes);
void blkcompat_lv_end_that_request_last(struct blkcompat_lv_request *rq,
					int uptodate);
void blkcompat_lv_end_request(struct blkcompat_lv_request *rq, int uptodate);
void blkcompat_lv_end_queued_request(struct blkcompat_lv_request *rq,
				     int uptodate);
void blkcompat_lv_end_dequeued_request(struct blkcompat_lv_request *rq,
				       int uptodate);

/* 2.6.25 completion calls (shims/legacy_view_2625.c) */
int blkcompat_lv_blk_end_request(struct blkcompat_lv_request *rq, int error,
				 int nr_bytes);
int __blkcompat_lv_blk_end_request(struct blkcompat_lv_request *rq, int error,
				   int nr_bytes);
int blkcompat_lv_blk_end_request_callback(struct blkcompat_lv_request *rq,
		int error, int nr_bytes,
		int (drv_callback)(struct blkcompat_lv_request *));

#endif /* _BLKCOMPAT_LEGACY_REQUEST_H */
