/*
 * Negative: spatch cannot parse bad_request (a driver's own control-flow
 * macro), skips it silently and leaves its end_request alone: the leftover
 * scan of blkmig-cocci-convert must still list it.  good_request converts.
 */
#include <linux/blkdev.h>

#define DRIVER_LOOP_UNTIL(rq) for (;;)
#define WEIRD_END ;

static void poke(struct request *rq)
{
	rq->errors = 0;
}

static void good_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 1);
}

static void bad_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		DRIVER_LOOP_UNTIL(rq) {
			poke(rq);
			break;
		} WEIRD_END
		end_request(rq, 1);
	}
}
