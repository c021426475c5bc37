/*
 * A driver's own statement macro right before the only legacy call in the
 * file: the word before end_request is an identifier, yet this is a call
 * (regression: the lexer took it for a declaration and skipped the file).
 */
#include <linux/blkdev.h>

#define MC_RETRY(n) for ((n) = 0; (n) < 4; (n)++)
#define MC_RETRY_END ;

static DEFINE_SPINLOCK(mc_lock);

static void mc_request(struct request_queue *q)
{
	struct request *rq;
	int tries, good = 0;

	while ((rq = elv_next_request(q)) != NULL) {
		MC_RETRY(tries) {
			good = rq->errors == 0;
			if (good)
				break;
		} MC_RETRY_END
		end_request(rq, good);
	}
}

static int mc_init(void)
{
	return blk_init_queue(mc_request, &mc_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 0
 * check-brief-start
 * macro_call.c:24:3 mc_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, good ? 0 : -EIO, blk_rq_cur_bytes(rq))
 * check-brief-end
 */
