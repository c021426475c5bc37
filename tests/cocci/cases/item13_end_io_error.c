/*
 * Issue 20 item 5: end_io_error(u) was unlikely((u) <= 0) and is gone in
 * 2.6.25: spelled out in a file the patch converts.
 */
#include <linux/blkdev.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static int eie_errors;

static void eie_done(struct request *rq, int uptodate)
{
	if (end_io_error(uptodate))
		eie_errors++;
	end_request(rq, uptodate);
}

static void eie_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		eie_done(rq, rq->errors == 0);
}

static void eie_init(void)
{
	blk_init_queue(eie_request, NULL);
}
