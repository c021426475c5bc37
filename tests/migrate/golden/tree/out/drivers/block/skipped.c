/*
 * skipped.c - migrate golden input: spatch cannot parse skipped_request (a
 * driver's own control-flow macro) and silently skips it; the analyzer sees
 * the site and converts it. plain_request is converted by spatch.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>

#define SKIPPED_EACH_TRY(n) for ((n) = 0; (n) < 3; (n)++)
#define SKIPPED_BEGIN {
#define SKIPPED_STOP }

static DEFINE_SPINLOCK(skipped_lock);
static struct request_queue *q1, *q2;

static int skipped_poke(struct request *rq)
{
	return rq->errors == 0;
}

static void skipped_request(struct request_queue *q)
{
	struct request *rq;
	int n, ok = 0;

	while ((rq = elv_next_request(q)) != NULL) {
		SKIPPED_EACH_TRY(n) SKIPPED_BEGIN
			ok = skipped_poke(rq);
			if (ok)
				break;
		SKIPPED_STOP
		n = 0;
		__blk_end_request(rq, ok ? 0 : -EIO, blk_rq_cur_bytes(rq));
	}
}

static void plain_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));
}

static int __init skipped_init(void)
{
	q1 = blk_init_queue(skipped_request, &skipped_lock);
	q2 = blk_init_queue(plain_request, &skipped_lock);
	return q1 && q2 ? 0 : -ENOMEM;
}
module_init(skipped_init);
