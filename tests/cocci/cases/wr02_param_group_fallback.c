/* Wrapper parameters (issue 22): a group converts all at once or not at
 * all.  wr2_end's parameter is passed on by wr2_next, and wr2_next is used
 * through a function pointer (its callers are unknown): neither parameter is
 * renamed and the call inside maps the uptodate value exactly.  wr3_end is
 * not static; wr4_end's caller passes an argument with side effects;
 * wr5_end tests its parameter and a caller passes a value that may be
 * negative; wr6_end uses !uptodate as a value (0 or 1, where error would be
 * 0 or -EIO). */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(wr2_lock);
static struct request *wr2_cur;
static void (*wr2_hook)(int);
static int wr2_state;

static void wr2_end(struct request *req, int uptodate)
{
	end_request(req, uptodate);
}

static void wr2_next(int success)
{
	wr2_end(wr2_cur, success);
}

void wr3_end(struct request *req, int uptodate)
{
	end_request(req, uptodate);
}

static void wr4_end(struct request *req, int uptodate)
{
	end_request(req, uptodate);
}

static void wr5_end(struct request *req, int uptodate)
{
	if (!uptodate)
		wr2_state = 1;
	end_request(req, uptodate);
}

static void wr6_end(struct request *req, int uptodate)
{
	wr2_state = !uptodate;
	end_request(req, uptodate);
}

static int wr2_status(void)
{
	return wr2_state++;
}

static void wr2_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		wr2_cur = rq;
		wr2_next(1);
		wr3_end(rq, 1);
		wr4_end(rq, wr2_status());
		wr5_end(rq, wr2_state - 2);
		wr5_end(rq, 1);
		wr6_end(rq, 1);
	}
}

static int wr2_init(void)
{
	struct request_queue *q = blk_init_queue(wr2_request, &wr2_lock);

	wr2_hook = wr2_next;
	return q ? 0 : -ENOMEM;
}
