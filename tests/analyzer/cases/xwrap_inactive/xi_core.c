/* The shared wrapper has a caller the parse does not see (an #ifdef branch not taken):
 * with another configuration that caller would keep passing an uptodate value. */
#include <linux/blkdev.h>

DEFINE_SPINLOCK(xi_lock);

void xi_end_request(struct request *rq, int uptodate)
{
	end_request(rq, uptodate);
}

static void xi_request(struct request_queue *q)
{
	xi_end_request(elv_next_request(q), 1);
}

static int xi_init(void)
{
	blk_init_queue(xi_request, &xi_lock);
	return 0;
}
module_init(xi_init);
