// SPDX-License-Identifier: GPL-2.0
/*
 * lrd_simple.c - legacy RAM disk /dev/lrdsimple.
 *
 * The classic request_fn driver: it peeks at each request with
 * elv_next_request(), copies the current segment and completes it with
 * end_request() under the queue lock, in the request function itself.
 */
#include "lrd_disk.h"

static struct lrd_disk lrd;

static void lrd_simple_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
		if (lrd_disk_fails(&lrd, blk_rq_pos(rq),
				   blk_rq_cur_sectors(rq))) {
			end_request(rq, 0);
			continue;
		}
		lrd_disk_transfer(&lrd, blk_rq_pos(rq), blk_rq_cur_bytes(rq),
				  bio_data(rq->bio), rq_data_dir(rq));
		end_request(rq, 1);
	}
}

static int __init lrd_simple_init(void)
{
	int err;

	err = lrd_disk_alloc(&lrd, "lrdsimple");
	if (err)
		return err;
	lrd.queue = blk_init_queue(lrd_simple_request, &lrd.lock);
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

static void __exit lrd_simple_exit(void)
{
	lrd_disk_remove(&lrd);
	blk_cleanup_queue(lrd.queue);
	lrd_disk_free(&lrd);
}

module_init(lrd_simple_init);
module_exit(lrd_simple_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("legacy RAM disk completing with end_request()");
