// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_queue.c - the request_fn queue model on top of blk-mq.
 *
 * Owns blk_init_queue()/blk_cleanup_queue(), the disk allocation for such
 * a queue, elv_next_request()/blkdev_dequeue_request(),
 * blk_stop_queue()/blk_start_queue() and blk_fs_request().
 *
 * blk-mq hands each request to blkcompat_queue_rq(), which appends it to
 * the shim's pending list and, unless the queue is stopped, runs the
 * driver's request_fn right there with the driver's lock held and
 * interrupts off, as the old block layer did.  No allocation and no
 * extra context switch happen on that path.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "blkcompat_internal.h"

/* BLKDEV_MAX_RQ of the old kernels: how many requests a queue could hold */
#define BLKCOMPAT_QUEUE_DEPTH	128

/*
 * Run request_fn with the lock held.  A request_fn that drops the lock
 * inside lets other CPUs queue requests (or restart the queue) while it
 * still runs; they only note that, and the request_fn is run again when
 * it returns, so no request is left behind on the pending list.
 */
void blkcompat_run_locked(struct blkcompat_queue *bq)
{
	if (bq->in_request_fn) {
		bq->rerun = true;
		return;
	}
	while (!bq->stopped && !list_empty(&bq->pending)) {
		bq->rerun = false;
		bq->in_request_fn = true;
		bq->request_fn(bq->q);
		bq->in_request_fn = false;
		if (!bq->rerun)
			break;
	}
}

static blk_status_t blkcompat_queue_rq(struct blk_mq_hw_ctx *hctx,
				       const struct blk_mq_queue_data *bd)
{
	struct blkcompat_queue *bq = blkcompat_queue_of(hctx->queue);
	struct request *rq = bd->rq;
	unsigned long flags;

	blk_mq_start_request(rq);
	if (bq->prep && !bq->prep(rq))
		return BLK_STS_OK;
	spin_lock_irqsave(bq->lock, flags);
	list_add_tail(&rq->queuelist, &bq->pending);
	blkcompat_run_locked(bq);
	spin_unlock_irqrestore(bq->lock, flags);
	return BLK_STS_OK;
}

static const struct blk_mq_ops blkcompat_mq_ops = {
	.queue_rq	= blkcompat_queue_rq,
};

/*
 * The legacy queue of blk_init_queue() and of the legacy view: @cmd_size
 * bytes of payload per request and @prep, run at dispatch, are the
 * view's (0 and NULL for blk_init_queue()).
 */
struct blkcompat_queue *blkcompat_init_queue(request_fn_proc *rfn,
					     spinlock_t *lock,
					     unsigned int cmd_size,
					     bool (*prep)(struct request *rq))
{
	struct blkcompat_queue *bq;
	struct request_queue *q;

	if (WARN_ON(!rfn || !lock))
		return NULL;
	bq = kzalloc(sizeof(*bq), GFP_KERNEL);
	if (!bq)
		return NULL;
	bq->lock = lock;
	bq->request_fn = rfn;
	bq->prep = prep;
	INIT_LIST_HEAD(&bq->pending);

	bq->set.ops = &blkcompat_mq_ops;
	bq->set.nr_hw_queues = 1;
	bq->set.queue_depth = BLKCOMPAT_QUEUE_DEPTH;
	bq->set.numa_node = NUMA_NO_NODE;
	bq->set.cmd_size = cmd_size;
	/*
	 * Merge as the old queues did, but start without an I/O scheduler
	 * (like null_blk and brd): the request_fn drivers this serves are
	 * mostly memory-like, and sysfs can still select one.
	 */
	bq->set.flags = BLK_MQ_F_SHOULD_MERGE | BLK_MQ_F_NO_SCHED_BY_DEFAULT;
	if (blk_mq_alloc_tag_set(&bq->set))
		goto free_bq;

	q = blkcompat_mq_alloc_queue(&bq->set);
	if (IS_ERR(q))
		goto free_set;
	bq->q = q;
	return bq;

free_set:
	blk_mq_free_tag_set(&bq->set);
free_bq:
	kfree(bq);
	return NULL;
}

/**
 * blk_init_queue - create a legacy request queue
 * @rfn: the driver's request function, called with @lock held and
 *	 interrupts disabled whenever requests are pending and the queue is
 *	 not stopped
 * @lock: the driver's spinlock; it protects the queue from now on
 *
 * Context: process context, may sleep.
 * Return: the new queue, or %NULL on failure.  The driver may use
 * q->queuedata freely.  Release it with blk_cleanup_queue().
 */
struct request_queue *blk_init_queue(request_fn_proc *rfn, spinlock_t *lock)
{
	struct blkcompat_queue *bq = blkcompat_init_queue(rfn, lock, 0, NULL);

	return bq ? bq->q : NULL;
}
EXPORT_SYMBOL_NS_GPL(blk_init_queue, BLKCOMPAT);

/**
 * blkcompat_alloc_disk - allocate a gendisk for a legacy queue
 * @q: queue from blk_init_queue()
 * @minors: number of minors, as alloc_disk() took
 *
 * Linux 6.1 allocates a disk together with its queue, so the old
 * ``disk = alloc_disk(minors); disk->queue = q;`` becomes one call.  The
 * disk holds a reference on @q; tear down in the old order:
 * del_gendisk(), put_disk(), blk_cleanup_queue().
 *
 * Context: process context, may sleep.
 * Return: the disk with ->queue and ->minors set, or %NULL.
 */
struct gendisk *blkcompat_alloc_disk(struct request_queue *q, int minors)
{
	static struct lock_class_key blkcompat_disk_key;
	struct gendisk *disk;

	disk = blk_mq_alloc_disk_for_queue(q, &blkcompat_disk_key);
	if (!disk)
		return NULL;
	disk->minors = minors;
	return disk;
}
EXPORT_SYMBOL_NS_GPL(blkcompat_alloc_disk, BLKCOMPAT);

/* Release a legacy queue: its first blk-mq queue, the tag set, itself. */
void blkcompat_free_queue(struct blkcompat_queue *bq)
{
	WARN_ON_ONCE(!list_empty(&bq->pending));
	blk_mq_destroy_queue(bq->q);
	blk_put_queue(bq->q);
	blk_mq_free_tag_set(&bq->set);
	kfree(bq);
}

/**
 * blk_cleanup_queue - release a queue made by blk_init_queue()
 * @q: the queue
 *
 * Call after del_gendisk() and put_disk(): del_gendisk() waits for every
 * request in flight, so the legacy queue is empty here.
 *
 * Context: process context, may sleep.
 */
void blk_cleanup_queue(struct request_queue *q)
{
	blkcompat_free_queue(blkcompat_queue_of(q));
}
EXPORT_SYMBOL_NS_GPL(blk_cleanup_queue, BLKCOMPAT);

/**
 * elv_next_request - peek at the next request to process
 * @q: the queue
 *
 * The request stays queued until blkdev_dequeue_request() or a completion
 * that ends it (end_request(), __blk_end_request(), ...).
 *
 * Context: queue lock held.
 * Return: the oldest pending request, or %NULL if none.
 */
struct request *elv_next_request(struct request_queue *q)
{
	struct blkcompat_queue *bq = blkcompat_queue_of(q);

	blkcompat_assert_locked(bq);
	return list_first_entry_or_null(&bq->pending, struct request,
					queuelist);
}
EXPORT_SYMBOL_NS_GPL(elv_next_request, BLKCOMPAT);

/**
 * blkdev_dequeue_request - take a request off the queue
 * @rq: a request returned by elv_next_request()
 *
 * From now on the driver owns @rq until it completes it; rq->queuelist is
 * free for the driver's own lists.
 *
 * Context: queue lock held.
 */
void blkdev_dequeue_request(struct request *rq)
{
	blkcompat_assert_locked(blkcompat_queue_of_rq(rq));
	list_del_init(&rq->queuelist);
}
EXPORT_SYMBOL_NS_GPL(blkdev_dequeue_request, BLKCOMPAT);

/**
 * blk_stop_queue - stop calling the request function
 * @q: the queue
 *
 * New requests stay queued until blk_start_queue().
 *
 * Context: queue lock held.
 */
void blk_stop_queue(struct request_queue *q)
{
	struct blkcompat_queue *bq = blkcompat_queue_of(q);

	blkcompat_assert_locked(bq);
	bq->stopped = true;
}
EXPORT_SYMBOL_NS_GPL(blk_stop_queue, BLKCOMPAT);

/**
 * blk_start_queue - restart a stopped queue
 * @q: the queue
 *
 * Runs the request function for the requests that queued up meanwhile,
 * directly, or when the request function that is running returns.
 *
 * Context: queue lock held, interrupts disabled.
 */
void blk_start_queue(struct request_queue *q)
{
	struct blkcompat_queue *bq = blkcompat_queue_of(q);

	blkcompat_assert_locked(bq);
	WARN_ON_ONCE(!irqs_disabled());
	bq->stopped = false;
	blkcompat_run_locked(bq);
}
EXPORT_SYMBOL_NS_GPL(blk_start_queue, BLKCOMPAT);

/**
 * blk_fs_request - does the request carry file system data?
 * @rq: the request
 *
 * Only reads and writes are; the queue never advertises flush, discard or
 * other operations, and passthrough requests are not file system requests.
 *
 * Return: 1 for a read or write of data, 0 otherwise.
 */
int blk_fs_request(struct request *rq)
{
	return !blk_rq_is_passthrough(rq) &&
	       (req_op(rq) == REQ_OP_READ || req_op(rq) == REQ_OP_WRITE);
}
EXPORT_SYMBOL_NS_GPL(blk_fs_request, BLKCOMPAT);
