/*
 * Error values: an uptodate of !x becomes x ? -EIO : 0, as 2.6.25's own
 * developers wrote it (ide-io.c ide_end_drive_cmd: !rq->errors), not the
 * equivalent !x ? 0 : -EIO.  A parenthesised operand that is more than a
 * name keeps its parentheses; a call is evaluated once either way.
 */
#include <linux/blkdev.h>

struct ev1_dev {
	int failed;
	int busy;
};

static int ev1_bad(struct request *rq)
{
	return rq->errors;
}

static void ev1_request(struct request_queue *q)
{
	struct ev1_dev *d = q->queuedata;
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (rq->sector == 0)
			end_request(rq, !rq->errors);
		else if (rq->sector == 1)
			end_request(rq, !(d->failed));
		else if (rq->sector == 2)
			end_request(rq, !(d->failed || d->busy));
		else
			end_request(rq, !ev1_bad(rq));
	}
}

static int __init ev1_init(void)
{
	static DEFINE_SPINLOCK(ev1_lock);

	return blk_init_queue(ev1_request, &ev1_lock) ? 0 : -ENOMEM;
}
