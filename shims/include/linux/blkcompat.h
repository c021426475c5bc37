/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/blkcompat.h> - the 2.6.24/2.6.25 block driver API on Linux 6.1/6.12.
 *
 * Owns the declarations legacy request_fn drivers include: the legacy
 * request queue (blk_init_queue() and friends), the 2.6.25 completion
 * functions (blk_end_request() and friends) and the 2.6.24 completion
 * functions (end_that_request_*(), end_request() and friends).  The
 * implementations live in the blkcompat module (shims/).
 *
 * Names follow the old kernels wherever the new ones do not use them.  The
 * only new name is blkcompat_alloc_disk(): since 5.x a gendisk is allocated
 * together with its request queue, so the old alloc_disk(minors) cannot
 * exist unchanged.  The same driver source builds for every supported
 * kernel: what differs between them is in <blkcompat/compat.h>.
 *
 * The functions are exported in the symbol namespace BLKCOMPAT; including
 * this header imports it into the driver module (MODULE_IMPORT_NS), so a
 * driver needs no line of its own for it.
 */
#ifndef _LINUX_BLKCOMPAT_H
#define _LINUX_BLKCOMPAT_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/spinlock.h>
#include <linux/module.h>
#include <blkcompat/compat.h>

/* Drivers import the namespace; the shim itself (BLKCOMPAT_SHIM) exports it. */
#ifndef BLKCOMPAT_SHIM
MODULE_IMPORT_NS(BLKCOMPAT);
#endif

typedef void (request_fn_proc)(struct request_queue *q);

/* legacy request queue (shims/legacy_queue.c) */
struct request_queue *blk_init_queue(request_fn_proc *rfn, spinlock_t *lock);
void blk_cleanup_queue(struct request_queue *q);
struct gendisk *blkcompat_alloc_disk(struct request_queue *q, int minors);
struct request *elv_next_request(struct request_queue *q);
void blkdev_dequeue_request(struct request *rq);
void blk_stop_queue(struct request_queue *q);
void blk_start_queue(struct request_queue *q);
int blk_fs_request(struct request *rq);

/* 2.6.25 completion API (shims/end_request_2625.c) */
int blk_end_request(struct request *rq, int error, unsigned int nr_bytes);
int __blk_end_request(struct request *rq, int error, unsigned int nr_bytes);
int blk_end_request_callback(struct request *rq, int error,
			     unsigned int nr_bytes,
			     int (drv_callback)(struct request *));

/* 2.6.24 completion API (shims/end_request_2624.c) */
int end_that_request_first(struct request *rq, int uptodate, int nr_sectors);
int end_that_request_chunk(struct request *rq, int uptodate, int nr_bytes);
void end_that_request_last(struct request *rq, int uptodate);
void end_request(struct request *rq, int uptodate);
void end_queued_request(struct request *rq, int uptodate);
void end_dequeued_request(struct request *rq, int uptodate);

/* setup helpers whose old names the new kernels dropped */
static inline void blk_queue_hardsect_size(struct request_queue *q,
					   unsigned short size)
{
	blkcompat_set_logical_block_size(q, size);
}

static inline void blk_queue_max_sectors(struct request_queue *q,
					 unsigned int max_sectors)
{
	blkcompat_set_max_hw_sectors(q, max_sectors);
}

#endif /* _LINUX_BLKCOMPAT_H */
