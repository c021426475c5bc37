/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat/legacy/queue.h - the 2.6.24 request queue a legacy driver sees.
 *
 * Owns struct blkcompat_lv_queue: what 2.6.24 drivers read in their
 * queue (queue_lock is a pointer to the lock given to blk_init_queue(),
 * queuedata is theirs) and the queue calls: blk_init_queue(),
 * elv_next_request(), blkdev_dequeue_request(), stop/start, the limits
 * setters and blk_cleanup_queue().  Behind it is the shim's legacy queue
 * (struct blkcompat_queue: a blk-mq tag set, the pending list and the
 * request_fn), with one blk-mq queue per disk added on it, since a blk-mq
 * queue serves one disk and 2.6.24 drivers shared a queue between disks.
 *
 * Drivers never name this struct: <blkcompat/legacy/view.h> renames their
 * "struct request_queue" to it.
 */
#ifndef _BLKCOMPAT_LEGACY_QUEUE_H
#define _BLKCOMPAT_LEGACY_QUEUE_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <blkcompat/legacy/request.h>

struct blkcompat_queue;
struct blkcompat_lv_queue;
typedef void (blkcompat_lv_request_fn)(struct blkcompat_lv_queue *q);

/**
 * struct blkcompat_lv_queue - a request queue as a 2.6.24 driver sees it
 * @queue_lock: the lock given to blk_init_queue()
 * @queuedata: the driver's
 * @bq: the shim's legacy queue behind it
 * @request_fn: the driver's request function
 * @max_sectors: the limit set with blk_queue_max_sectors() (0: default)
 * @hardsect_size: the limit set with blk_queue_hardsect_size() (0: 512)
 * @disks: the legacy disks added on this queue
 */
struct blkcompat_lv_queue {
	spinlock_t *queue_lock;
	void *queuedata;
	struct blkcompat_queue *bq;
	blkcompat_lv_request_fn *request_fn;
	unsigned int max_sectors;
	unsigned short hardsect_size;
	struct list_head disks;
};

struct blkcompat_lv_queue *blkcompat_lv_init_queue(blkcompat_lv_request_fn *rfn,
						  spinlock_t *lock);
void blkcompat_lv_cleanup_queue(struct blkcompat_lv_queue *q);
struct blkcompat_lv_request *
blkcompat_lv_elv_next_request(struct blkcompat_lv_queue *q);
void blkcompat_lv_dequeue_request(struct blkcompat_lv_request *rq);
void blkcompat_lv_stop_queue(struct blkcompat_lv_queue *q);
void blkcompat_lv_start_queue(struct blkcompat_lv_queue *q);

static inline void blkcompat_lv_queue_max_sectors(struct blkcompat_lv_queue *q,
						  unsigned int max_sectors)
{
	q->max_sectors = max_sectors;
}

static inline void
blkcompat_lv_queue_hardsect_size(struct blkcompat_lv_queue *q,
				 unsigned short size)
{
	q->hardsect_size = size;
}

#endif /* _BLKCOMPAT_LEGACY_QUEUE_H */
