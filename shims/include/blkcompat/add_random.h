/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <blkcompat/add_random.h> - does the queue feed the entropy pool?
 *
 * The old completion path called add_disk_randomness() when the queue
 * asked for it.  Up to 6.10 that is the queue flag QUEUE_FLAG_ADD_RANDOM
 * (blk_queue_add_random()); 6.11 moved it into the queue limits as the
 * feature BLK_FEAT_ADD_RANDOM.
 */
#ifndef _BLKCOMPAT_ADD_RANDOM_H
#define _BLKCOMPAT_ADD_RANDOM_H

#include <linux/version.h>
#include <linux/blkdev.h>

static inline bool blkcompat_queue_add_random(struct request_queue *q)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	return q->limits.features & BLK_FEAT_ADD_RANDOM;
#else
	return blk_queue_add_random(q);
#endif
}

#endif /* _BLKCOMPAT_ADD_RANDOM_H */
