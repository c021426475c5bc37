/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat_internal.h - state shared by the blkcompat sources.
 *
 * Owns struct blkcompat_queue (the legacy queue a request_fn driver
 * believes it has), the lookup from any request or queue to it, the
 * lock assertion and the two steps every completion is built from: the
 * data part (blkcompat_update()) and the final step
 * (blkcompat_finish()).
 */
#ifndef _BLKCOMPAT_INTERNAL_H
#define _BLKCOMPAT_INTERNAL_H

#include <linux/blkcompat.h>
#include <linux/list.h>
#include <linux/lockdep.h>

/**
 * struct blkcompat_queue - legacy request queue state owned by the shim
 * @set: blk-mq tag set; embedded so that q->tag_set leads back here and
 *	 q->queuedata stays free for the driver, as it always was
 * @q: the blk-mq request queue the driver sees
 * @lock: the driver's spinlock given to blk_init_queue()
 * @request_fn: the driver's request function
 * @pending: requests dispatched by blk-mq and not yet dequeued by the
 *	     driver, linked through rq->queuelist; protected by @lock
 * @stopped: blk_stop_queue() was called; protected by @lock
 * @in_request_fn: @request_fn is running; protected by @lock
 * @rerun: a request was queued or the queue restarted while @request_fn
 *	   ran (with the lock dropped, or from inside it): run it again when
 *	   it returns, as the old kernels deferred to kblockd; under @lock
 * @prep: called for each request as blk-mq dispatches it, before it is
 *	  queued; false: it ended the request itself (NULL: none)
 * @owner: the legacy view's queue built on this one (NULL: none)
 */
struct blkcompat_queue {
	struct blk_mq_tag_set set;
	struct request_queue *q;
	spinlock_t *lock;
	request_fn_proc *request_fn;
	struct list_head pending;
	bool stopped;
	bool in_request_fn;
	bool rerun;
	bool (*prep)(struct request *rq);
	void *owner;
};

static inline struct blkcompat_queue *
blkcompat_queue_of(struct request_queue *q)
{
	return container_of(q->tag_set, struct blkcompat_queue, set);
}

static inline struct blkcompat_queue *blkcompat_queue_of_rq(struct request *rq)
{
	return blkcompat_queue_of(rq->q);
}

/* The legacy contract: the caller holds the driver's queue lock. */
static inline void blkcompat_assert_locked(struct blkcompat_queue *bq)
{
	lockdep_assert_held(bq->lock);
	WARN_ON_ONCE(!spin_is_locked(bq->lock));
}

static inline blk_status_t blkcompat_status(int error)
{
	return likely(!error) ? BLK_STS_OK : errno_to_blk_status(error);
}

/* 2.6.24 end_io_error(): uptodate > 0 is success, 0 is -EIO, < 0 an errno */
static inline int blkcompat_uptodate_to_error(int uptodate)
{
	if (uptodate > 0)
		return 0;
	return uptodate ? uptodate : -EIO;
}

struct blkcompat_queue *blkcompat_init_queue(request_fn_proc *rfn,
					     spinlock_t *lock,
					     unsigned int cmd_size,
					     bool (*prep)(struct request *rq));
void blkcompat_free_queue(struct blkcompat_queue *bq);
/* run the request_fn for what is pending, unless stopped; @bq->lock held */
void blkcompat_run_locked(struct blkcompat_queue *bq);

bool blkcompat_update(struct request *rq, int error, unsigned int nr_bytes);
void blkcompat_finish(struct blkcompat_queue *bq, struct request *rq,
		      int error);

#endif /* _BLKCOMPAT_INTERNAL_H */
