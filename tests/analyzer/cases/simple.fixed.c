/* end_request and friends; look-alikes, comments and strings stay. */
#include <linux/blkdev.h>
#include <linux/timer.h>

static DEFINE_SPINLOCK(simple_lock);
static struct request_queue *simple_q;
static struct timer_list simple_timer;
static struct request *simple_pending;

/* a driver's own function with a similar name: never touched */
static void simple_end_request(struct request *rq, int ok)
{
	printk("end_request(rq, %d) done\n", ok); /* end_request(rq, 1) */
}

static void simple_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
			continue;
		}
		if (rq->sector + rq->current_nr_sectors > 1024) {
			__blk_end_request(rq, -ENOSPC, blk_rq_bytes(rq));
			continue;
		}
		simple_end_request(rq, 1);
		__blk_end_request(rq, rq->errors == 0 ? 0 : -EIO,
				  blk_rq_bytes(rq));
	}
}

/* a timer runs without the queue lock */
static void simple_timeout(unsigned long data)
{
	struct request *rq = simple_pending;

	blk_end_request(rq,
			rq->errors > 0 ? 0 : (rq->errors ? rq->errors : -EIO),
			blk_rq_cur_bytes(rq));
}

static int simple_init(void)
{
	simple_q = blk_init_queue(simple_request, &simple_lock);
	setup_timer(&simple_timer, simple_timeout, 0);
	return 0;
}
module_init(simple_init);

/*
 * check-exit: 0
 * check-brief-start
 * simple.c:22:4 simple_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * simple.c:26:4 simple_request end_dequeued_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -ENOSPC, blk_rq_bytes(rq))
 * simple.c:30:3 simple_request end_queued_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, rq->errors == 0 ? 0 : -EIO, blk_rq_bytes(rq))
 * simple.c:39:2 simple_timeout end_request auto end_request lock=not_held uptodate=errno_capable new=blk_end_request(rq, rq->errors > 0 ? 0 : (rq->errors ? rq->errors : -EIO), blk_rq_cur_bytes(rq))
 * check-brief-end
 */
