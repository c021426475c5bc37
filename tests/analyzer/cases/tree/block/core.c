/* The legacy API itself, defined non-static as block/ll_rw_blk.c did: calls of it stay sites. */
#include <linux/blkdev.h>
int end_that_request_first(struct request *req, int uptodate, int nr_sectors)
{
	return 0;
}
void end_that_request_last(struct request *req, int uptodate)
{
}
void end_request(struct request *req, int uptodate)
{
	if (!end_that_request_first(req, uptodate, req->hard_cur_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
}
