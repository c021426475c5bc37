/* Item 10: the old uptodate value becomes the exact error value. */
#include <linux/blkdev.h>

static int ev_status(struct request *rq)
{
	return rq->errors;
}

static void ev_request(struct request_queue *q)
{
	struct request *rq;
	int status;

	while ((rq = elv_next_request(q)) != NULL) {
		status = ev_status(rq);
		if (status == 1)
			end_request(rq, 1);
		else if (status == 2)
			end_request(rq, 0);
		else if (status == 3)
			end_request(rq, -ENOMEM);
		else if (status == 4)
			end_request(rq, rq->errors == 0);
		else if (status == 5)
			end_request(rq, !rq->errors && status);
		else if (status == 6)
			end_request(rq, rq->errors ? 0 : 1);
		else if (status == 7)
			end_request(rq, ev_status(rq));
		else
			end_request(rq, status);
	}
}

/* A local that only feeds the completion calls becomes "error". */
static void ev_local(struct request_queue *q)
{
	struct request *rq;
	int uptodate = 1;

	while ((rq = elv_next_request(q)) != NULL) {
		if (rq->errors)
			uptodate = 0;
		else
			uptodate = rq->sector < 100;
		end_request(rq, uptodate);
	}
}

/* Also used elsewhere: keeps its name; only ever 1, so uptodate ? 0 : -EIO. */
static void ev_shared(struct request_queue *q)
{
	struct request *rq;
	int uptodate = 1;

	while ((rq = elv_next_request(q)) != NULL) {
		printk(KERN_DEBUG "uptodate %d\n", uptodate);
		end_request(rq, uptodate);
	}
}

static int __init ev_init(void)
{
	static DEFINE_SPINLOCK(ev_lock);

	return blk_init_queue(ev_request, &ev_lock) ? 0 : -ENOMEM;
}
