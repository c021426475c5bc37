/* A driver in a whole tree that also holds the API's own definitions. */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(tree_lock);

static void tree_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 1);
}

static int tree_init(void)
{
	blk_init_queue(tree_request, &tree_lock);
	return 0;
}
