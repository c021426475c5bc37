/*
 * gc1.c - migrate input for the parse check's cache (cli/guard_cache.c): the file
 * parses with an error (GC_BOARD_ID is not defined by <gcache/board.h>), so the output
 * check parses its original too; it alone includes <gcache/one.h>.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <gcache/board.h>
#include <gcache/one.h>

static struct request_queue *gc1_queue;

static int gc1_board(void)
{
	return GC_BOARD_ID + GC_ONE;
}

static void gc1_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq) || gc1_board() < 0) {
			end_request(rq, 0);
			continue;
		}
		end_request(rq, 1);
	}
}

static DEFINE_SPINLOCK(gc1_lock);

static int __init gc1_init(void)
{
	gc1_queue = blk_init_queue(gc1_request, &gc1_lock);
	return gc1_queue ? 0 : -ENOMEM;
}

module_init(gc1_init);
MODULE_LICENSE("GPL");
