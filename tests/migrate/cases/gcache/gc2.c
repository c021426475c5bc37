/*
 * gc2.c - migrate input for the parse check's cache (cli/guard_cache.c): the file
 * parses with an error (GC_BOARD_ID is not defined by <gcache/board.h>), so the output
 * check parses its original too; it does not include <gcache/one.h>.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <gcache/board.h>

static struct request_queue *gc2_queue;

static int gc2_board(void)
{
	return GC_BOARD_ID;
}

static void gc2_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq) || gc2_board() < 0) {
			end_request(rq, 0);
			continue;
		}
		end_request(rq, 1);
	}
}

static DEFINE_SPINLOCK(gc2_lock);

static int __init gc2_init(void)
{
	gc2_queue = blk_init_queue(gc2_request, &gc2_lock);
	return gc2_queue ? 0 : -ENOMEM;
}

module_init(gc2_init);
MODULE_LICENSE("GPL");
