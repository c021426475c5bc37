/*
 * hconst.c - migrate input: the uptodate values are #define constants of a header
 * that only -I finds (<hconst/status.h>).  spatch runs on a private copy of the file,
 * so migrate must name that folder to it: HCONST_FAIL is 0, the new error -EIO, and
 * HCONST_OK is 1, the new error 0 (not the three-way mapping of an unknown value).
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <hconst/status.h>

static struct request_queue *hconst_queue;

static void hconst_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, HCONST_FAIL);
			continue;
		}
		end_request(rq, HCONST_OK);
	}
}

static DEFINE_SPINLOCK(hconst_lock);

static int __init hconst_init(void)
{
	hconst_queue = blk_init_queue(hconst_request, &hconst_lock);
	return hconst_queue ? 0 : -ENOMEM;
}

module_init(hconst_init);
MODULE_LICENSE("GPL");
