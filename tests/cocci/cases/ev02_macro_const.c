/*
 * Error values: an uptodate that is one of the file's own object-like
 * macros with an integer constant body is resolved (ps2esdi.c's FAIL, 0 in
 * <linux/ps2esdi.h>, found in the tree's include/): 0 -> -EIO, > 0 -> 0, a
 * negative errno stays the macro.  A macro whose body is no constant keeps
 * the exact mapping, in parentheses (it may stand for any expression; the
 * analyzer, which sees the preprocessor, agrees).
 */
#include <linux/blkdev.h>

#define EV2_FAIL	0
#define EV2_OK		(1)
#define EV2_GONE	(-ENXIO)
#define EV2_STATE	(rq->errors)

static void ev2_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (rq->sector == 0)
			end_request(rq, EV2_FAIL);
		else if (rq->sector == 1)
			end_request(rq, EV2_OK);
		else if (rq->sector == 2)
			end_request(rq, EV2_GONE);
		else
			end_request(rq, EV2_STATE);
	}
}

static int __init ev2_init(void)
{
	static DEFINE_SPINLOCK(ev2_lock);

	return blk_init_queue(ev2_request, &ev2_lock) ? 0 : -ENOMEM;
}
