/*
 * combine.c - migrate property input: spatch converts both calls, but the analysis can
 * prove only plain_request's (a request_fn given to blk_init_queue: lock held); the
 * lock context of vendor_complete (exported, no caller in the file) is unknown.
 * Migrate must keep the proven conversion and undo only the other one, reporting it:
 * the file is not left whole because one site cannot be proven.
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
