// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_view_queue.c - the 2.6.24 request queue of the legacy view.
 *
 * Owns struct blkcompat_lv_queue's life and the queue calls on it.  Each
 * is a shim legacy queue (legacy_queue.c: tag set, pending list, the
 * request_fn run with the driver's lock held) whose requests carry a
 * struct blkcompat_lv_request as payload, filled at dispatch; the
 * driver's request_fn is called with the view's queue.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "legacy_view.h"

/* legacy_queue.c calls request_fn with a blk-mq queue: the view's is behind it */
static void blkcompat_lv_run(struct request_queue *q)
{
	struct blkcompat_lv_queue *lq = blkcompat_queue_of(q)->owner;

	lq->request_fn(lq);
}

/**
 * blkcompat_lv_init_queue - create a legacy queue (2.6.24 blk_init_queue)
 * @rfn: the driver's request function, called with @lock held and
 *	 interrupts disabled whenever requests are pending and the queue is
 *	 not stopped
 * @lock: the driver's spinlock; q->queue_lock points to it
 *
 * Context: process context, may sleep.
 * Return: the queue, or %NULL on failure.
 */
struct blkcompat_lv_queue *blkcompat_lv_init_queue(blkcompat_lv_request_fn *rfn,
						  spinlock_t *lock)
{
	struct blkcompat_lv_queue *lq;

	if (WARN_ON(!rfn || !lock))
		return NULL;
	lq = kzalloc(sizeof(*lq), GFP_KERNEL);
	if (!lq)
		return NULL;
	lq->queue_lock = lock;
	lq->request_fn = rfn;
	INIT_LIST_HEAD(&lq->disks);
	lq->bq = blkcompat_init_queue(blkcompat_lv_run, lock,
				      sizeof(struct blkcompat_lv_request),
				      blkcompat_lv_prep);
	if (!lq->bq) {
		kfree(lq);
		return NULL;
	}
	lq->bq->owner = lq;
	return lq;
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_init_queue, BLKCOMPAT);

/**
 * blkcompat_lv_cleanup_queue - release a queue (2.6.24 blk_cleanup_queue)
 * @q: the queue; its disks are deleted and put already
 *
 * Context: process context, may sleep.
 */
void blkcompat_lv_cleanup_queue(struct blkcompat_lv_queue *q)
{
	WARN_ON_ONCE(!list_empty(&q->disks));
	blkcompat_free_queue(q->bq);
	kfree(q);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_cleanup_queue, BLKCOMPAT);

/**
 * blkcompat_lv_elv_next_request - peek at the next request to process
 * @q: the queue
 *
 * Context: the queue lock held.
 * Return: the oldest request not yet dequeued, or %NULL.
 */
struct blkcompat_lv_request *
blkcompat_lv_elv_next_request(struct blkcompat_lv_queue *q)
{
	struct request *rq;

	blkcompat_lv_note_lock(q, "elv_next_request", _RET_IP_);
	rq = list_first_entry_or_null(&q->bq->pending, struct request,
				      queuelist);
	return rq ? blkcompat_lv_rq(rq) : NULL;
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_elv_next_request, BLKCOMPAT);

/**
 * blkcompat_lv_dequeue_request - take a request off the queue
 * @rq: the request
 *
 * Context: the queue lock held.
 */
void blkcompat_lv_dequeue_request(struct blkcompat_lv_request *rq)
{
	blkcompat_lv_note_lock(rq->q, "blkdev_dequeue_request", _RET_IP_);
	list_del_init(&blkcompat_lv_mq_rq(rq)->queuelist);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_dequeue_request, BLKCOMPAT);

/**
 * blkcompat_lv_stop_queue - stop calling the request function
 * @q: the queue
 *
 * Context: the queue lock held.
 */
void blkcompat_lv_stop_queue(struct blkcompat_lv_queue *q)
{
	blkcompat_lv_note_lock(q, "blk_stop_queue", _RET_IP_);
	q->bq->stopped = true;
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_stop_queue, BLKCOMPAT);

/**
 * blkcompat_lv_start_queue - call the request function again
 * @q: the queue
 *
 * Runs the request function at once for what queued up meanwhile.
 *
 * Context: the queue lock held, interrupts disabled.
 */
void blkcompat_lv_start_queue(struct blkcompat_lv_queue *q)
{
	blkcompat_lv_note_lock(q, "blk_start_queue", _RET_IP_);
	q->bq->stopped = false;
	blkcompat_run_locked(q->bq);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_start_queue, BLKCOMPAT);
