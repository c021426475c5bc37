// SPDX-License-Identifier: GPL-2.0
/*
 * lrd_defer.c - legacy RAM disk /dev/lrddefer.
 *
 * Completes later, as drivers for interrupt-driven hardware did: the
 * request function only dequeues requests onto the driver's own list (and
 * stops the queue when that list is full); a work item moves the data and
 * completes each segment with end_that_request_first(), taking the
 * driver's lock itself around end_that_request_last() in
 * lrd_defer_end_request().
 */
#include <linux/workqueue.h>
#include "lrd_disk.h"

/* Requests the driver holds before it stops the queue. */
#define LRD_DEFER_MAX_HELD	32

static struct lrd_disk lrd;
static LIST_HEAD(lrd_defer_held);	/* dequeued, not done; under lrd.lock */
static unsigned int lrd_defer_nr_held;	/* under lrd.lock */
static bool lrd_defer_stopped;		/* under lrd.lock */

static void lrd_defer_work_fn(struct work_struct *work);
static DECLARE_WORK(lrd_defer_work, lrd_defer_work_fn);

/* Complete the current segment of @rq; end @rq if it was the last one. */
static void lrd_defer_end_request(struct request *rq, int uptodate)
{
	unsigned long flags;

	if (!end_that_request_first(rq, uptodate, blk_rq_cur_sectors(rq))) {
		spin_lock_irqsave(&lrd.lock, flags);
		end_that_request_last(rq, uptodate);
		spin_unlock_irqrestore(&lrd.lock, flags);
	}
}

/* Move the current segment; 1 if it worked, 0 if it failed. */
static int lrd_defer_transfer(struct request *rq)
{
	if (lrd_disk_fails(&lrd, blk_rq_pos(rq), blk_rq_cur_sectors(rq)))
		return 0;
	lrd_disk_transfer(&lrd, blk_rq_pos(rq), blk_rq_cur_bytes(rq),
			  bio_data(rq->bio), rq_data_dir(rq));
	return 1;
}

static void lrd_defer_handle(struct request *rq)
{
	unsigned int left = blk_rq_sectors(rq);
	unsigned int segment;

	if (!blk_fs_request(rq) || !left) {
		lrd_defer_end_request(rq, 0);
		return;
	}
	while (left) {
		/* the last segment's completion may free rq: count first */
		segment = blk_rq_cur_sectors(rq);
		left -= min(segment, left);
		lrd_defer_end_request(rq, lrd_defer_transfer(rq));
	}
}

static void lrd_defer_work_fn(struct work_struct *work)
{
	struct request *rq;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&lrd.lock, flags);
		rq = list_first_entry_or_null(&lrd_defer_held, struct request,
					      queuelist);
		if (rq) {
			list_del_init(&rq->queuelist);
			lrd_defer_nr_held--;
		} else if (lrd_defer_stopped) {
			lrd_defer_stopped = false;
			blk_start_queue(lrd.queue);
		}
		spin_unlock_irqrestore(&lrd.lock, flags);
		if (!rq)
			break;
		lrd_defer_handle(rq);
	}
}

static void lrd_defer_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		list_add_tail(&rq->queuelist, &lrd_defer_held);
		if (++lrd_defer_nr_held >= LRD_DEFER_MAX_HELD) {
			lrd_defer_stopped = true;
			blk_stop_queue(q);
			break;
		}
	}
	schedule_work(&lrd_defer_work);
}

static int __init lrd_defer_init(void)
{
	int err;

	err = lrd_disk_alloc(&lrd, "lrddefer");
	if (err)
		return err;
	lrd.queue = blk_init_queue(lrd_defer_request, &lrd.lock);
	if (!lrd.queue) {
		err = -ENOMEM;
		goto free_disk;
	}
	err = lrd_disk_add(&lrd);
	if (err)
		goto cleanup_queue;
	return 0;

cleanup_queue:
	blk_cleanup_queue(lrd.queue);
free_disk:
	lrd_disk_free(&lrd);
	return err;
}

static void __exit lrd_defer_exit(void)
{
	lrd_disk_remove(&lrd);
	cancel_work_sync(&lrd_defer_work);
	blk_cleanup_queue(lrd.queue);
	lrd_disk_free(&lrd);
}

module_init(lrd_defer_init);
module_exit(lrd_defer_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("legacy RAM disk completing later from a work item");
