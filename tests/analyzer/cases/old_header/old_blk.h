/*
 * old_blk.h - a header in the style of an old block driver's private
 * header: it declares and defines its own end_request (behind an
 * attribute macro, as fastcall once was); neither is a site.  Its helper's
 * call, split across lines behind a statement macro, is one.
 */
#ifndef OLD_BLK_H
#define OLD_BLK_H

#include <linux/blkdev.h>

#define OB_API
#define OB_UNPLUGGED

void OB_API end_request(struct request *req, int uptodate);

void ob_complete(struct request *req, int error);

void OB_API end_request(struct request *req, int uptodate)
{
	ob_complete(req, uptodate ? 0 : -EIO);
}

static inline void ob_fail_next(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	OB_UNPLUGGED
	end_request(rq,
		    0);
}

#endif
