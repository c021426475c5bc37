/*
 * layout.c - input of the migrate suite's layout test (issue 22): spatch converts the
 * calls in lines whose indentation is broken (spaces before tabs, a tab and a space
 * before a statement); migrate's result indents them with tabs, and the call that
 * grows past 80 columns is broken after a comma as spatch breaks its own.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(lay_lock);
static struct request_queue *lay_queue;

static int lay_transfer(struct request *rq)
{
	return rq->sector + rq->current_nr_sectors <= 2048;
}

static void lay_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
               		end_request(rq, 0);
			continue;
		}
		 end_request(rq, lay_transfer(rq));
	}
}

static int __init lay_init(void)
{
	lay_queue = blk_init_queue(lay_request, &lay_lock);
	return lay_queue ? 0 : -ENOMEM;
}
module_init(lay_init);
