/*
 * Issue 20 item 1: *rq->buffer++ = x moves the member itself (the postfix
 * ++ binds to rq->buffer), unlike *rq->buffer = x: a write of buffer, so the
 * old count stays literal.
 */
#include <linux/blkdev.h>

static void mp_fill(struct request *rq, int n)
{
	while (n--)
		*rq->buffer++ = 0;
}

static void mp_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		mp_fill(rq, 512);
		end_request(rq, 1);
	}
}

static void mp_init(void)
{
	blk_init_queue(mp_request, NULL);
}
