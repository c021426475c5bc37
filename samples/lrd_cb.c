// SPDX-License-Identifier: GPL-2.0
/*
 * lrd_cb.c - legacy RAM disk /dev/lrdcb.
 *
 * Completes from a tasklet (softirq context), as drivers did from their
 * interrupt bottom half, and does driver work between the data completion
 * (end_that_request_first()) and the final end_that_request_last(): it
 * counts finished requests in cb_count.  The conversion turns that work
 * into a blk_end_request_callback() callback.
 */
#include <linux/interrupt.h>
#include "lrd_disk.h"

static unsigned int cb_count;
module_param(cb_count, uint, 0444);
MODULE_PARM_DESC(cb_count, "requests whose data completed before they ended");

static struct lrd_disk lrd;
static LIST_HEAD(lrd_cb_held);		/* dequeued, not done; under lrd.lock */

static void lrd_cb_tasklet_fn(struct tasklet_struct *t);
static DECLARE_TASKLET(lrd_cb_tasklet, lrd_cb_tasklet_fn);

static void lrd_cb_handle(struct request *rq)
{
	unsigned int left = blk_rq_sectors(rq);
	unsigned int segment;
	unsigned long flags;
	int uptodate;

	while (left) {
		/* the last segment's completion may free rq: count first */
		segment = blk_rq_cur_sectors(rq);
		left -= min(segment, left);
		if (!blk_fs_request(rq) ||
		    lrd_disk_fails(&lrd, blk_rq_pos(rq), segment)) {
			uptodate = 0;
		} else {
			lrd_disk_transfer(&lrd, blk_rq_pos(rq),
					  blk_rq_cur_bytes(rq),
					  bio_data(rq->bio), rq_data_dir(rq));
			uptodate = 1;
		}
		if (!end_that_request_first(rq, uptodate, segment)) {
			cb_count++;
			spin_lock_irqsave(&lrd.lock, flags);
			end_that_request_last(rq, uptodate);
			spin_unlock_irqrestore(&lrd.lock, flags);
		}
	}
}

static void lrd_cb_tasklet_fn(struct tasklet_struct *t)
{
	struct request *rq;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&lrd.lock, flags);
		rq = list_first_entry_or_null(&lrd_cb_held, struct request,
					      queuelist);
		if (rq)
			list_del_init(&rq->queuelist);
		spin_unlock_irqrestore(&lrd.lock, flags);
		if (!rq)
			break;
		lrd_cb_handle(rq);
	}
}

static void lrd_cb_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		list_add_tail(&rq->queuelist, &lrd_cb_held);
	}
	tasklet_schedule(&lrd_cb_tasklet);
}

static int __init lrd_cb_init(void)
{
	int err;

	err = lrd_disk_alloc(&lrd, "lrdcb");
	if (err)
		return err;
	lrd.queue = blk_init_queue(lrd_cb_request, &lrd.lock);
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

static void __exit lrd_cb_exit(void)
{
	lrd_disk_remove(&lrd);
	tasklet_kill(&lrd_cb_tasklet);
	blk_cleanup_queue(lrd.queue);
	lrd_disk_free(&lrd);
}

module_init(lrd_cb_init);
module_exit(lrd_cb_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("legacy RAM disk with work between first and last");
