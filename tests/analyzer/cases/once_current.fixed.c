/*
 * Issue 22 point 1, one evaluation per call: a request argument that is a
 * macro of the file expanding to a call (CURRENT, as in amiflop, ataflop and
 * legacy/hd) would be evaluated twice by the new call (as the request and in
 * its byte count).  A call standing on its own line in a block becomes a C90
 * block that reads the request once into a local, the first of three names
 * that is no word of the file (here the first is a member's declaration,
 * so the second).  A plain request argument (the parameter r) stays as it
 * is, and so does a call that is the body of an if without braces.  The
 * same text as spatch's (tests/cocci/cases/once01_current.res).
 */
#include <linux/blkdev.h>

static struct request_queue *once_queue;
#define CURRENT elv_next_request(once_queue)

struct once_cmd {
	struct request *req;
	int errors;
};

static void once_fail(struct request *r)
{
	__blk_end_request(r, -EIO, r->hard_cur_sectors << 9);
}

static void once_done(struct once_cmd *c)
{
	if (c->errors) {
		c->req = NULL;
		{
			struct request *rq = CURRENT;

			__blk_end_request(rq, -EIO, rq->hard_cur_sectors << 9);
		}
		return;
	}
	CURRENT->sector++;
#ifdef ONCE_DEBUG
	c->errors = 0;
#endif
	{
		struct request *rq = CURRENT;

		__blk_end_request(rq, 0, rq->hard_cur_sectors << 9);
	}
	if (!c->errors)
		__blk_end_request(CURRENT, 0, CURRENT->hard_cur_sectors << 9);
}

static void once_request(struct request_queue *q)
{
	struct once_cmd c = { NULL, 0 };

	once_done(&c);
	once_fail(elv_next_request(q));
}

/*
 * check-exit: 0
 * check-brief-start
 * once_current.c:24:2 once_fail end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(r, -EIO, r->hard_cur_sectors << 9)
 * once_current.c:31:3 once_done end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(rq, -EIO, rq->hard_cur_sectors << 9)
 * once_current.c:38:2 once_done end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(rq, 0, rq->hard_cur_sectors << 9)
 * once_current.c:40:3 once_done end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(CURRENT, 0, CURRENT->hard_cur_sectors << 9)
 * check-brief-end
 */
