/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <blkcompat/queue_alloc.h> - allocating a blk-mq request queue.
 *
 * Up to 6.8 a queue for a tag set is blk_mq_init_queue(set); 6.9 replaced
 * it with blk_mq_alloc_queue(set, limits, queuedata).  The shim gives no
 * limits at allocation (the driver sets them afterwards, as legacy drivers
 * did) and keeps queuedata for the driver.  Both return an ERR_PTR on
 * failure.
 */
#ifndef _BLKCOMPAT_QUEUE_ALLOC_H
#define _BLKCOMPAT_QUEUE_ALLOC_H

#include <linux/version.h>
#include <linux/blk-mq.h>

static inline struct request_queue *
blkcompat_mq_alloc_queue(struct blk_mq_tag_set *set)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	return blk_mq_alloc_queue(set, NULL, NULL);
#else
	return blk_mq_init_queue(set);
#endif
}

#endif /* _BLKCOMPAT_QUEUE_ALLOC_H */
