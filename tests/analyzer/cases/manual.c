/* Sites blkmig must not convert on its own. */
#include <linux/blkdev.h>

#define FINISH(rq) end_request(rq, 1)

static DEFINE_SPINLOCK(m_lock);
static struct request *m_cur;
static int m_next(void);

/* called through a pointer only: lock context unknown */
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

	/* no data completion before: may still hold bios */
	end_that_request_last(rq, 1);
	/* uptodate with side effects */
	end_request(rq, m_next());
	/* a byte count where sectors are expected */
	if (!end_that_request_first(rq, 1, bytes))
		end_that_request_last(rq, 1);
	/* the request is read after it may be freed */
	if (end_that_request_first(rq, 1, 8))
		return;
	printk("%p\n", rq->rq_disk->private_data);
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
 * check-brief-end
 */
