/* Across files: the completion helper lives here, its callers elsewhere. */
#include <linux/blkdev.h>

void multi_complete(struct request *rq, int ok);

void multi_complete(struct request *rq, int ok)
{
	end_request(rq, ok ? 1 : 0);
}

void multi_complete_unlocked(struct request *rq)
{
	end_that_request_first(rq, 1, rq->hard_nr_sectors);
	end_that_request_last(rq, 1);
}
