/*
 * combine.c - migrate property input: two end_request sites, one in a request_fn given
 * to blk_init_queue (lock held) and one in an exported helper (2.6.24 contract: lock
 * held).  The tests run migrate with a deliberately wrong semantic patch beside this
 * file (wrong-cocci/): migrate must refute spatch's rewrite of each site and take the
 * analyzer's exact one.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(combine_lock);
static struct request_queue *combine_q;

void vendor_complete(struct request *rq, int ok)
{
	end_request(rq, ok);
}
EXPORT_SYMBOL(vendor_complete);

static void plain_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 1);
}

static int __init combine_init(void)
{
	combine_q = blk_init_queue(plain_request, &combine_lock);
	return combine_q ? 0 : -ENOMEM;
}
module_init(combine_init);
