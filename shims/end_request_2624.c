// SPDX-License-Identifier: GPL-2.0
/*
 * end_request_2624.c - the 2.6.24 completion API, with its old semantics.
 *
 * Owns end_that_request_first/chunk/last() and the wrappers end_request(),
 * end_queued_request() and end_dequeued_request(), so a driver runs the
 * same before and after its conversion to the 2.6.25 API.  An old
 * "uptodate" is > 0 for success, 0 for -EIO, or a negative errno.
 */
#include <linux/module.h>
#include "blkcompat_internal.h"

/**
 * end_that_request_chunk - complete bytes of a request's data
 * @rq: the request
 * @uptodate: > 0 for success, 0 for an I/O error, or a negative errno
 * @nr_bytes: how many bytes to complete
 *
 * Completes @nr_bytes of @rq's bios, passing the error to them, and
 * advances @rq to its next segment.  Neither dequeues nor ends @rq.
 *
 * Context: any; the queue lock is not required.
 * Return: 1 while bytes remain, 0 when all of @rq's data is done.
 */
int end_that_request_chunk(struct request *rq, int uptodate, int nr_bytes)
{
	return blkcompat_update(rq, blkcompat_uptodate_to_error(uptodate),
				nr_bytes) ? 1 : 0;
}
EXPORT_SYMBOL_NS_GPL(end_that_request_chunk, BLKCOMPAT);

/**
 * end_that_request_first - complete sectors of a request's data
 * @rq: the request
 * @uptodate: > 0 for success, 0 for an I/O error, or a negative errno
 * @nr_sectors: how many 512-byte sectors to complete
 *
 * Exactly end_that_request_chunk(@rq, @uptodate, @nr_sectors << 9).
 *
 * Context: any; the queue lock is not required.
 * Return: 1 while bytes remain, 0 when all of @rq's data is done.
 */
int end_that_request_first(struct request *rq, int uptodate, int nr_sectors)
{
	return end_that_request_chunk(rq, uptodate, nr_sectors << 9);
}
EXPORT_SYMBOL_NS_GPL(end_that_request_first, BLKCOMPAT);

/**
 * end_that_request_last - end a request whose data is done
 * @rq: the request, already dequeued
 * @uptodate: > 0 for success, 0 for an I/O error, or a negative errno
 *
 * Accounts and ends @rq (its end_io callback runs, or it is freed).
 * @rq must not be used afterwards.
 *
 * Context: queue lock held.
 */
void end_that_request_last(struct request *rq, int uptodate)
{
	struct blkcompat_queue *bq = blkcompat_queue_of_rq(rq);

	blkcompat_assert_locked(bq);
	blkcompat_finish(bq, rq, blkcompat_uptodate_to_error(uptodate));
}
EXPORT_SYMBOL_NS_GPL(end_that_request_last, BLKCOMPAT);

/* Complete @nr_bytes and, if that was all, dequeue and end the request. */
static void blkcompat_end_bytes(struct request *rq, int uptodate,
				unsigned int nr_bytes)
{
	struct blkcompat_queue *bq = blkcompat_queue_of_rq(rq);
	int error = blkcompat_uptodate_to_error(uptodate);

	blkcompat_assert_locked(bq);
	if (!blkcompat_update(rq, error, nr_bytes))
		blkcompat_finish(bq, rq, error);
}

/**
 * end_request - complete the current segment of a queued request
 * @rq: the request, still queued (as elv_next_request() returned it)
 * @uptodate: > 0 for success, 0 for an I/O error, or a negative errno
 *
 * Completes the current segment; if that finished the request, dequeues
 * and ends it.
 *
 * Context: queue lock held.
 */
void end_request(struct request *rq, int uptodate)
{
	blkcompat_end_bytes(rq, uptodate, blk_rq_cur_bytes(rq));
}
EXPORT_SYMBOL_NS_GPL(end_request, BLKCOMPAT);

/**
 * end_queued_request - complete and end a whole queued request
 * @rq: the request, still queued
 * @uptodate: > 0 for success, 0 for an I/O error, or a negative errno
 *
 * Context: queue lock held.
 */
void end_queued_request(struct request *rq, int uptodate)
{
	blkcompat_end_bytes(rq, uptodate, blk_rq_bytes(rq));
}
EXPORT_SYMBOL_NS_GPL(end_queued_request, BLKCOMPAT);

/**
 * end_dequeued_request - complete and end a whole dequeued request
 * @rq: the request, already dequeued
 * @uptodate: > 0 for success, 0 for an I/O error, or a negative errno
 *
 * Context: queue lock held.
 */
void end_dequeued_request(struct request *rq, int uptodate)
{
	blkcompat_end_bytes(rq, uptodate, blk_rq_bytes(rq));
}
EXPORT_SYMBOL_NS_GPL(end_dequeued_request, BLKCOMPAT);
