/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <blkcompat/queue_limits.h> - changing one queue limit after allocation.
 *
 * Up to 6.8 each limit had a setter (blk_queue_logical_block_size(),
 * blk_queue_max_hw_sectors(), ...), which 6.9 began to replace by one
 * atomic update: queue_limits_start_update(), change the copy,
 * queue_limits_commit_update(), which validates the whole set and derives
 * the dependent limits (physical block size, max_sectors) as the setters
 * did.  6.11 removed the setters.  Legacy drivers set limits right after
 * blk_init_queue(), before any I/O, as the update requires.
 */
#ifndef _BLKCOMPAT_QUEUE_LIMITS_H
#define _BLKCOMPAT_QUEUE_LIMITS_H

#include <linux/version.h>
#include <linux/blkdev.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)

static inline void blkcompat_set_logical_block_size(struct request_queue *q,
						    unsigned int size)
{
	struct queue_limits lim = queue_limits_start_update(q);

	lim.logical_block_size = size;
	/* the old setter could not fail; an invalid size is a driver bug */
	WARN_ON_ONCE(queue_limits_commit_update(q, &lim));
}

static inline void blkcompat_set_max_hw_sectors(struct request_queue *q,
						unsigned int max_sectors)
{
	struct queue_limits lim = queue_limits_start_update(q);

	lim.max_hw_sectors = max_sectors;
	WARN_ON_ONCE(queue_limits_commit_update(q, &lim));
}

#else

static inline void blkcompat_set_logical_block_size(struct request_queue *q,
						    unsigned int size)
{
	blk_queue_logical_block_size(q, size);
}

static inline void blkcompat_set_max_hw_sectors(struct request_queue *q,
						unsigned int max_sectors)
{
	blk_queue_max_hw_sectors(q, max_sectors);
}

#endif

#endif /* _BLKCOMPAT_QUEUE_LIMITS_H */
