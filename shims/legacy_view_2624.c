// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_view_2624.c - the 2.6.24 completion calls on the legacy view.
 *
 * Owns end_that_request_first/chunk/last, end_request,
 * end_queued_request and end_dequeued_request for drivers built with
 * <blkcompat/legacy/view.h>: the same calls as end_request_2624.c, with
 * 2.6.24's byte counts read from the legacy fields (end_request()
 * completes hard_cur_sectors, whatever the driver did to
 * current_nr_sectors) and the lock checks naming the call site.
 */
#include <linux/module.h>
#include "legacy_view.h"

/**
 * blkcompat_lv_end_that_request_chunk - complete bytes of a request
 * @rq: the request
 * @uptodate: > 0 success, 0 -EIO, < 0 that errno
 * @nr_bytes: how many bytes
 *
 * Context: any; the queue lock is not needed.
 * Return: 1 while bytes remain, 0 when every bio is done.
 */
int blkcompat_lv_end_that_request_chunk(struct blkcompat_lv_request *rq,
					int uptodate, int nr_bytes)
{
	return blkcompat_lv_update(rq, blkcompat_uptodate_to_error(uptodate),
				   nr_bytes) ? 1 : 0;
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_end_that_request_chunk, BLKCOMPAT);

/**
 * blkcompat_lv_end_that_request_first - complete sectors of a request
 * @rq: the request
 * @uptodate: > 0 success, 0 -EIO, < 0 that errno
 * @nr_sectors: how many 512-byte sectors
 *
 * Context: any; the queue lock is not needed.
 * Return: 1 while bytes remain, 0 when every bio is done.
 */
int blkcompat_lv_end_that_request_first(struct blkcompat_lv_request *rq,
					int uptodate, int nr_sectors)
{
	return blkcompat_lv_end_that_request_chunk(rq, uptodate,
						   nr_sectors << 9);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_end_that_request_first, BLKCOMPAT);

/**
 * blkcompat_lv_end_that_request_last - end a request whose data is done
 * @rq: the request; it may be freed on return
 * @uptodate: > 0 success, 0 -EIO, < 0 that errno
 *
 * Context: the queue lock held.
 */
void blkcompat_lv_end_that_request_last(struct blkcompat_lv_request *rq,
					int uptodate)
{
	blkcompat_lv_need_lock(rq->q, "end_that_request_last", _RET_IP_);
	blkcompat_lv_finish(rq, blkcompat_uptodate_to_error(uptodate));
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_end_that_request_last, BLKCOMPAT);

/* Complete @nr_bytes; if that was all, dequeue and end the request. */
static void blkcompat_lv_end_bytes(struct blkcompat_lv_request *rq,
				   int uptodate, unsigned int nr_bytes,
				   const char *call, unsigned long caller)
{
	int error = blkcompat_uptodate_to_error(uptodate);

	blkcompat_lv_need_lock(rq->q, call, caller);
	if (!blkcompat_lv_update(rq, error, nr_bytes))
		blkcompat_lv_finish(rq, error);
}

/**
 * blkcompat_lv_end_request - complete the current segment
 * @rq: the request, still queued
 * @uptodate: > 0 success, 0 -EIO, < 0 that errno
 *
 * Completes hard_cur_sectors sectors, as 2.6.24 did; if that ended the
 * request, dequeues and ends it.
 *
 * Context: the queue lock held.
 */
void blkcompat_lv_end_request(struct blkcompat_lv_request *rq, int uptodate)
{
	blkcompat_lv_end_bytes(rq, uptodate, rq->hard_cur_sectors << 9,
			       "end_request", _RET_IP_);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_end_request, BLKCOMPAT);

/**
 * blkcompat_lv_end_queued_request - complete a whole queued request
 * @rq: the request, still queued
 * @uptodate: > 0 success, 0 -EIO, < 0 that errno
 *
 * Context: the queue lock held.
 */
void blkcompat_lv_end_queued_request(struct blkcompat_lv_request *rq,
				     int uptodate)
{
	blkcompat_lv_end_bytes(rq, uptodate, blkcompat_lv_rq_bytes(rq),
			       "end_queued_request", _RET_IP_);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_end_queued_request, BLKCOMPAT);

/**
 * blkcompat_lv_end_dequeued_request - complete a whole dequeued request
 * @rq: the request, already dequeued
 * @uptodate: > 0 success, 0 -EIO, < 0 that errno
 *
 * Context: the queue lock held.
 */
void blkcompat_lv_end_dequeued_request(struct blkcompat_lv_request *rq,
				       int uptodate)
{
	blkcompat_lv_end_bytes(rq, uptodate, blkcompat_lv_rq_bytes(rq),
			       "end_dequeued_request", _RET_IP_);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_end_dequeued_request, BLKCOMPAT);
