/*
 * uptodate given by a test macro: blk_fs_request(rq) is
 * `((rq)->cmd_type == REQ_TYPE_FS)`, no call, no assignment: a boolean, so
 * `blk_fs_request(rq) ? 0 : -EIO` (regression: "has side effects").  A
 * driver's own macro counts the same when its body is a plain comparison; one
 * that only reads gets the exact errno form; one that counts (++) stays manual.
 */
#include <linux/blkdev.h>

#define PM_OK(rq) ((rq)->errors == 0)
#define PM_STATUS(rq) ((rq)->errors)
#define PM_NEXT(d) ((d)->done++)

struct pm_dev {
	int done;
};

static struct pm_dev pm_dev;
static spinlock_t pm_lock;

static void pm_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (req->sector == 0)
			__blk_end_request(req, blk_fs_request(req) ? 0 : -EIO,
					  blk_rq_cur_bytes(req));
		else if (req->sector == 1)
			__blk_end_request(req, PM_OK(req) ? 0 : -EIO,
					  blk_rq_cur_bytes(req));
		else if (req->sector == 2)
			__blk_end_request(req,
					  (PM_STATUS(req)) > 0 ? 0 : ((PM_STATUS(req)) ? (PM_STATUS(req)) : -EIO),
					  blk_rq_cur_bytes(req));
		else
			end_request(req, PM_NEXT(&pm_dev));
	}
}

static int pm_init(void)
{
	return blk_init_queue(pm_request, &pm_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 1
 * check-brief-start
 * pure_macro.c:27:4 pm_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(req, blk_fs_request(req) ? 0 : -EIO, blk_rq_cur_bytes(req))
 * pure_macro.c:29:4 pm_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(req, PM_OK(req) ? 0 : -EIO, blk_rq_cur_bytes(req))
 * pure_macro.c:31:4 pm_request end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(req, (PM_STATUS(req)) > 0 ? 0 : ((PM_STATUS(req)) ? (PM_STATUS(req)) : -EIO), blk_rq_cur_bytes(req))
 * pure_macro.c:33:4 pm_request end_request manual end_request lock=held uptodate=unknown reason=uptodate_unknown
 * check-brief-end
 */
