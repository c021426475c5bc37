/*
 * missed.c - migrate property input: spatch skips missed_request (a driver's
 * own control-flow macro right before the call) and plain_request's call is
 * the only other legacy call. Whatever the tools manage, the site in
 * missed_request must end up converted or reported, never lost.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>

#define MISSED_EACH_TRY(n) for ((n) = 0; (n) < 3; (n)++)
#define MISSED_END ;

static DEFINE_SPINLOCK(missed_lock);
static struct request_queue *q1, *q2;

static void missed_request(struct request_queue *q)
{
	struct request *rq;
	int n, ok = 0;

	while ((rq = elv_next_request(q)) != NULL) {
		MISSED_EACH_TRY(n) {
			ok = rq->errors == 0;
			if (ok)
				break;
		} MISSED_END
		end_request(rq, ok);
	}
}

static void plain_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 1);
}

static int __init missed_init(void)
{
	q1 = blk_init_queue(missed_request, &missed_lock);
	q2 = blk_init_queue(plain_request, &missed_lock);
	return q1 && q2 ? 0 : -ENOMEM;
}
module_init(missed_init);
