/*
 * Genuine prototypes of the legacy functions, one behind an attribute-like
 * macro, are not sites; the file's only call, behind a statement macro, is
 * (regression: every legacy name here looked like a declaration).
 */
#include <linux/blkdev.h>

#define PT_REGPARM
#define PT_SYNC do { } while (0);

void end_request(struct request *, int);
extern void end_that_request_last(struct request *, int);
int PT_REGPARM end_that_request_first(struct request *, int, int);

static DEFINE_SPINLOCK(pt_lock);

static void pt_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	if (!rq)
		return;
	PT_SYNC
	end_request(rq, 1);
}

static int pt_init(void)
{
	return blk_init_queue(pt_request, &pt_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 0
 * check-brief-start
 * prototype.c:24:2 pt_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_cur_bytes(rq))
 * check-brief-end
 */
