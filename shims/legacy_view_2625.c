// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_view_2625.c - the 2.6.25 completion calls on the legacy view.
 *
 * Owns blk_end_request, __blk_end_request and blk_end_request_callback
 * for drivers built with <blkcompat/legacy/view.h>: the semantics of
 * end_request_2625.c, on the legacy fields, with the lock checks naming
 * the call site.
 */
#include <linux/module.h>
#include "legacy_view.h"

/**
 * __blkcompat_lv_blk_end_request - complete bytes, end the request if done
 * @rq: the request; it may be freed when 0 is returned
 * @error: 0 or a negative errno
 * @nr_bytes: how many bytes
 *
 * Context: the queue lock held.
 * Return: 1 while bytes remain, 0 once the request has ended.
 */
int __blkcompat_lv_blk_end_request(struct blkcompat_lv_request *rq, int error,
				   int nr_bytes)
{
	blkcompat_lv_need_lock(rq->q, "__blk_end_request", _RET_IP_);
	if (blkcompat_lv_update(rq, error, nr_bytes))
		return 1;
	blkcompat_lv_finish(rq, error);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(__blkcompat_lv_blk_end_request, BLKCOMPAT);

static int blkcompat_lv_end_unlocked(struct blkcompat_lv_request *rq,
		int error, int nr_bytes,
		int (drv_callback)(struct blkcompat_lv_request *),
		const char *call, unsigned long caller)
{
	spinlock_t *lock = rq->q->queue_lock;
	bool take = blkcompat_lv_must_not_hold(rq->q, call, caller);
	unsigned long flags = 0;

	if (blkcompat_lv_update(rq, error, nr_bytes))
		return 1;
	if (drv_callback && drv_callback(rq))
		return 1;
	if (take)
		spin_lock_irqsave(lock, flags);
	blkcompat_lv_finish(rq, error);
	if (take)
		spin_unlock_irqrestore(lock, flags);
	return 0;
}

/**
 * blkcompat_lv_blk_end_request_callback - complete, call back, then end
 * @rq: the request; it may be freed when 0 is returned
 * @error: 0 or a negative errno
 * @nr_bytes: how many bytes
 * @drv_callback: called without the lock once the data part is done;
 *	non-zero keeps the request (the driver ends it later)
 *
 * Context: the queue lock NOT held; taken for the final step.
 * Return: 1 while bytes remain or the callback kept the request, else 0.
 */
int blkcompat_lv_blk_end_request_callback(struct blkcompat_lv_request *rq,
		int error, int nr_bytes,
		int (drv_callback)(struct blkcompat_lv_request *))
{
	return blkcompat_lv_end_unlocked(rq, error, nr_bytes, drv_callback,
					 "blk_end_request_callback", _RET_IP_);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_blk_end_request_callback, BLKCOMPAT);

/**
 * blkcompat_lv_blk_end_request - complete bytes, end the request if done
 * @rq: the request; it may be freed when 0 is returned
 * @error: 0 or a negative errno
 * @nr_bytes: how many bytes
 *
 * Context: the queue lock NOT held; taken for the final step.
 * Return: 1 while bytes remain, 0 once the request has ended.
 */
int blkcompat_lv_blk_end_request(struct blkcompat_lv_request *rq, int error,
				 int nr_bytes)
{
	return blkcompat_lv_end_unlocked(rq, error, nr_bytes, NULL,
					 "blk_end_request", _RET_IP_);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_blk_end_request, BLKCOMPAT);
