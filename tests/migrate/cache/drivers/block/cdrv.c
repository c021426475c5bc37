/*
 * cdrv.c - input of the migrate suite's cache tests: what migrate makes of this file
 * depends on its header (cdrv.h): as shipped it changes no request field, so the
 * calls convert with blk_rq_cur_bytes(); a header that moves rq->sector (the test
 * writes one) makes them pass rq->hard_cur_sectors << 9 instead.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include "cdrv.h"

static DEFINE_SPINLOCK(cdrv_lock);
static struct request_queue *cdrv_queue;

static int cdrv_transfer(struct request *rq)
{
	return rq->sector + rq->current_nr_sectors <= 2048;
}

static void cdrv_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
#ifdef CDRV_SKIP
		CDRV_SKIP(rq);
#endif
		end_request(rq, cdrv_transfer(rq) == CDRV_STATUS);
	}
}

static int __init cdrv_init(void)
{
	cdrv_queue = blk_init_queue(cdrv_request, &cdrv_lock);
	return cdrv_queue ? 0 : -ENOMEM;
}
module_init(cdrv_init);
