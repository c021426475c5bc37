// SPDX-License-Identifier: GPL-2.0
/*
 * end_request_2625.c - the 2.6.25 completion API.
 *
 * Owns blk_end_request(), __blk_end_request() and
 * blk_end_request_callback(): complete bytes of a request and, when none
 * remain, end it, in one call.  They differ only in who holds the queue
 * lock (the driver's lock given to blk_init_queue()).
 */
#include <linux/module.h>
#include "blkcompat_internal.h"

/**
 * __blk_end_request - complete bytes of a request, queue lock held
 * @rq: the request
 * @error: 0 for success, or a negative errno for the bytes completed
 * @nr_bytes: how many bytes of @rq to complete
 *
 * Completes @nr_bytes of @rq's bios with @error and advances @rq to its
 * next segment.  When no bytes remain (or @rq carries no data) the
 * request is dequeued if still queued and ended; it may be freed then.
 * Zero bytes on a request that still holds data end nothing.
 *
 * Context: queue lock held, as in the request function.
 * Return: 0 if the request was ended, 1 while bytes remain.
 */
int __blk_end_request(struct request *rq, int error, unsigned int nr_bytes)
{
	struct blkcompat_queue *bq = blkcompat_queue_of_rq(rq);

	blkcompat_assert_locked(bq);
	if (blkcompat_update(rq, error, nr_bytes))
		return 1;
	blkcompat_finish(bq, rq, error);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(__blk_end_request, BLKCOMPAT);

/**
 * blk_end_request_callback - complete bytes, with a hook before the end
 * @rq: the request
 * @error: 0 for success, or a negative errno for the bytes completed
 * @nr_bytes: how many bytes of @rq to complete
 * @drv_callback: called as drv_callback(@rq) without the queue lock once
 *	no bytes remain, before the request is ended; may be %NULL
 *
 * Like blk_end_request().  If @drv_callback returns non-zero the request
 * is not ended: the driver keeps it and ends it later, typically with
 * blk_end_request(@rq, 0, 0).
 *
 * Context: queue lock not held; takes it for the final step only.
 * Return: 0 if the request was ended, 1 while bytes remain or when
 * @drv_callback asked to keep the request.
 */
int blk_end_request_callback(struct request *rq, int error,
			     unsigned int nr_bytes,
			     int (drv_callback)(struct request *))
{
	struct blkcompat_queue *bq = blkcompat_queue_of_rq(rq);
	unsigned long flags;

	if (blkcompat_update(rq, error, nr_bytes))
		return 1;
	if (drv_callback && drv_callback(rq))
		return 1;

	spin_lock_irqsave(bq->lock, flags);
	blkcompat_finish(bq, rq, error);
	spin_unlock_irqrestore(bq->lock, flags);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(blk_end_request_callback, BLKCOMPAT);

/**
 * blk_end_request - complete bytes of a request, queue lock not held
 * @rq: the request
 * @error: 0 for success, or a negative errno for the bytes completed
 * @nr_bytes: how many bytes of @rq to complete
 *
 * As __blk_end_request(), but the bios are completed without the queue
 * lock, which is taken only around the final step.  Usable from work
 * items, timers and interrupt handlers.
 *
 * Context: queue lock not held.
 * Return: 0 if the request was ended, 1 while bytes remain.
 */
int blk_end_request(struct request *rq, int error, unsigned int nr_bytes)
{
	return blk_end_request_callback(rq, error, nr_bytes, NULL);
}
EXPORT_SYMBOL_NS_GPL(blk_end_request, BLKCOMPAT);
