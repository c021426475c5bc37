/*
 * A call split across lines, right after a macro that closes a loop: still
 * a call (regression: taken for a declaration, the only call was lost).
 */
#include <linux/blkdev.h>

#define SC_FOR_EACH_SEG(i, rq) for ((i) = 0; (i) < (rq)->nr_phys_segments; (i)++)
#define SC_END_EACH

static DEFINE_SPINLOCK(sc_lock);

static void sc_request(struct request_queue *q)
{
	struct request *rq;
	int seg, bad = 0;

	while ((rq = elv_next_request(q)) != NULL) {
		SC_FOR_EACH_SEG(seg, rq) {
			bad |= rq->errors;
		} SC_END_EACH
		end_dequeued_request(rq,
				     !bad);
	}
}

static int sc_init(void)
{
	return blk_init_queue(sc_request, &sc_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 0
 * check-brief-start
 * split_call.c:21:3 sc_request end_dequeued_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, bad ? -EIO : 0, blk_rq_bytes(rq))
 * check-brief-end
 */
