/* Sites blkmig must not convert on its own. */
#include <linux/blkdev.h>

#define FINISH(rq) end_request(rq, 1)
#define FINISH_CUR end_request(m_cur, 1)

static DEFINE_SPINLOCK(m_lock);
static struct request *m_cur;
static int m_next(void);

/* called through a pointer only: lock context unknown, so the 2.6.24 contract of
 * end_that_request_last (queue lock held) decides: __blk_end_request */
static void m_complete(struct request *rq)
{
	if (!end_that_request_first(rq, 1, rq->nr_sectors)) {
		blkdev_dequeue_request(rq);
		end_that_request_last(rq, 1);
	}
}
static void (*m_hook)(struct request *) = m_complete;

static void m_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);
	int bytes = rq->data_len;

	/* no data completion before: it may still hold bios, so blk_rq_bytes (never 0) */
	end_that_request_last(rq, 1);
	/* uptodate with side effects */
	end_request(rq, m_next());
	/* a byte count where sectors are expected */
	if (!end_that_request_first(rq, 1, bytes))
		end_that_request_last(rq, 1);
	/* the request is read after it may be freed (the sector moves on completion) */
	if (end_that_request_first(rq, 1, 8))
		return;
	printk("%lu\n", rq->sector);
	end_that_request_last(rq, 1);
	FINISH(rq);
#if 0
	end_request(rq, 0);
#endif
}

static int m_init(void)
{
	blk_init_queue(m_request, &m_lock);
	return 0;
}
module_init(m_init);

/*
 * check-exit: 1
 * check-brief-start
 * manual.c:4:20 - end_request manual unclassified lock=unknown uptodate=none reason=macro
 * manual.c:5:20 - end_request manual unclassified lock=unknown uptodate=none reason=macro
 * manual.c:15:7 m_complete end_that_request_first auto first_last_held lock=unknown uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * manual.c:17:3 m_complete end_that_request_last auto first_last_held lock=unknown uptodate=constant
 * manual.c:28:2 m_request end_that_request_last auto last_only lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * manual.c:30:2 m_request end_request manual end_request lock=held uptodate=unknown reason=uptodate_unknown
 * manual.c:32:7 m_request end_that_request_first manual first_last_held lock=held uptodate=constant reason=bytes_unknown
 * manual.c:33:3 m_request end_that_request_last manual first_last_held lock=held uptodate=constant reason=bytes_unknown
 * manual.c:35:6 m_request end_that_request_first manual early_return lock=held uptodate=constant reason=rq_used_after_completion
 * manual.c:38:2 m_request end_that_request_last manual early_return lock=held uptodate=constant reason=rq_used_after_completion
 * manual.c:41:2 m_request end_request manual unclassified lock=unknown uptodate=none reason=unparsed
 * check-brief-end
 */
