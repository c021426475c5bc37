/* Data completion + end_that_request_last in the catalogue's shapes. */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

struct pdev {
	spinlock_t lock;
	struct request_queue *queue;
	struct request *cur;
	int busy;
};

static struct pdev pd;

/* item 1: if (!first) { randomness; dequeue; last } under the lock */
static void pairs_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		__blk_end_request(rq, 0, blk_rq_bytes(rq));
	}
}

/* item 2: the lock is taken only around the final step */
static irqreturn_t pairs_irq(int irq, void *data)
{
	struct request *rq = pd.cur;
	int status = inb(0x1f7);

	if (!blk_end_request(rq, status == 0 ? 0 : -EIO,
			     blk_rq_cur_bytes(rq))) {
		pd.busy = 0;
	}
	return IRQ_HANDLED;
}

/* item 3: early return */
static void pairs_early(struct request *rq, int nsect)
{
	if (__blk_end_request(rq, 0, nsect << 9))
		return;
	pd.busy = 0;
}

/* item 6: whole request, result ignored */
static void pairs_whole(struct request *rq)
{
	__blk_end_request(rq, -EIO, blk_rq_bytes(rq));
}

/* item 4: result kept in a variable */
static void pairs_var(struct request *rq, unsigned int bytes)
{
	int ret;

	ret = __blk_end_request(rq, 0, bytes);
}

/* item 4: loop */
static void pairs_loop(struct request *rq)
{
	while (__blk_end_request(rq, -EIO, 512))
		;
}

static void pairs_kick(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	pairs_early(rq, 8);
	pairs_whole(rq);
	pairs_var(rq, 4096);
	pairs_loop(rq);
}

static int pairs_init(void)
{
	spin_lock_init(&pd.lock);
	pd.queue = blk_init_queue(pairs_request, &pd.lock);
	blk_init_queue(pairs_kick, &pd.lock);
	return request_irq(14, pairs_irq, 0, "pairs", &pd);
}
module_init(pairs_init);

/*
 * check-exit: 0
 * check-brief-start
 * pairs.c:20:8 pairs_request end_that_request_first auto first_last_held lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * pairs.c:23:4 pairs_request end_that_request_last auto first_last_held lock=held uptodate=constant
 * pairs.c:35:7 pairs_irq end_that_request_first auto first_last_unlocked lock=not_held uptodate=boolean new=blk_end_request(rq, status == 0 ? 0 : -EIO, blk_rq_cur_bytes(rq))
 * pairs.c:38:3 pairs_irq end_that_request_last auto first_last_unlocked lock=not_held uptodate=boolean
 * pairs.c:48:6 pairs_early end_that_request_first auto early_return lock=held uptodate=constant new=__blk_end_request(rq, 0, nsect << 9)
 * pairs.c:52:2 pairs_early end_that_request_last auto early_return lock=held uptodate=constant
 * pairs.c:58:2 pairs_whole end_that_request_first auto whole_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_bytes(rq))
 * pairs.c:59:2 pairs_whole end_that_request_last auto whole_request lock=held uptodate=constant
 * pairs.c:67:8 pairs_var end_that_request_chunk auto result_used lock=held uptodate=constant new=__blk_end_request(rq, 0, bytes)
 * pairs.c:70:3 pairs_var end_that_request_last auto result_used lock=held uptodate=constant
 * pairs.c:77:9 pairs_loop end_that_request_chunk auto result_used lock=held uptodate=constant new=__blk_end_request(rq, -EIO, 512)
 * pairs.c:79:2 pairs_loop end_that_request_last auto result_used lock=held uptodate=constant
 * check-brief-end
 */
