/*
 * error_values.c - the shortest exact error value, the same as the semantic
 * patches write it (issue 22 point 1):
 *   !x                 -> x ? -EIO : 0 (ide-io.c ide_end_drive_cmd)
 *   !(a || b)          -> (a || b) ? -EIO : 0
 *   a macro constant   -> resolved (ps2esdi.c: FAIL is 0 -> -EIO)
 *   a local only ever 0 or 1, also printed (nbd.c: (c) ? 1 : 0)
 *                      -> keeps its name, u ? 0 : -EIO
 *   a local given constants, errnos among them (virtio_blk.c blk_done:
 *                      1, -ENOTTY, 0)
 *                      -> renamed error, its values converted
 *   a local given a condition and an errno (xen-blkfront.c
 *                      blkif_interrupt)
 *                      -> renamed error, its values converted
 *   two such locals in one function -> neither is renamed (they would clash):
 *                      the exact mapping at each call, no parentheses
 *   a local also incremented -> the exact mapping
 */
#include <linux/blkdev.h>

#define EV_FAIL 0

static DEFINE_SPINLOCK(ev_lock);

static void ev_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		int uptodate = (rq->errors == 0) ? 1 : 0;
		int tries = 0;

		if (rq->sector == 0) {
			__blk_end_request(rq, rq->errors ? -EIO : 0,
					  blk_rq_cur_bytes(rq));
			continue;
		}
		if (rq->sector == 1) {
			__blk_end_request(rq,
					  (rq->errors || rq->sector > 8) ? -EIO : 0,
					  blk_rq_cur_bytes(rq));
			continue;
		}
		if (rq->sector == 2) {
			__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
			continue;
		}
		if (rq->sector == 3) {
			printk(KERN_DEBUG "%s\n", uptodate ? "done" : "failed");
			__blk_end_request(rq, uptodate ? 0 : -EIO,
					  blk_rq_cur_bytes(rq));
			continue;
		}
		if (rq->errors)
			tries++;
		__blk_end_request(rq, tries > 0 ? 0 : (tries ? tries : -EIO),
				  blk_rq_cur_bytes(rq));
	}
}

static void ev_status_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		int error;

		switch (rq->errors) {
		case 0:
			error = 0;
			break;
		case 1:
			error = -ENOSPC;
			break;
		default:
			error = -EIO;
			break;
		}
		__blk_end_request(rq, error, blk_rq_cur_bytes(rq));
	}
}

static void ev_okay_request(struct request_queue *q)
{
	struct request *rq;
	int error;

	while ((rq = elv_next_request(q)) != NULL) {
		error = rq->errors == 0 ? 0 : -EIO;
		if (rq->sector > 8)
			error = -ENXIO;
		__blk_end_request(rq, error, blk_rq_cur_bytes(rq));
	}
}

static void ev_two_request(struct request_queue *q)
{
	struct request *rq;
	int a, b;

	while ((rq = elv_next_request(q)) != NULL) {
		a = 1;
		b = -EIO;
		if (rq->sector)
			__blk_end_request(rq, a ? 0 : -EIO,
					  blk_rq_cur_bytes(rq));
		else
			__blk_end_request(rq, b > 0 ? 0 : (b ? b : -EIO),
					  blk_rq_cur_bytes(rq));
	}
}

int __init ev_init(void)
{
	if (!blk_init_queue(ev_request, &ev_lock) ||
	    !blk_init_queue(ev_status_request, &ev_lock) ||
	    !blk_init_queue(ev_okay_request, &ev_lock) ||
	    !blk_init_queue(ev_two_request, &ev_lock))
		return -ENOMEM;
	return 0;
}


/*
 * check-exit: 0
 * check-brief-start
 * error_values.c:34:4 ev_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, rq->errors ? -EIO : 0, blk_rq_cur_bytes(rq))
 * error_values.c:38:4 ev_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, (rq->errors || rq->sector > 8) ? -EIO : 0, blk_rq_cur_bytes(rq))
 * error_values.c:42:4 ev_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * error_values.c:47:4 ev_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, uptodate ? 0 : -EIO, blk_rq_cur_bytes(rq))
 * error_values.c:52:3 ev_request end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, tries > 0 ? 0 : (tries ? tries : -EIO), blk_rq_cur_bytes(rq))
 * error_values.c:74:3 ev_status_request end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, error, blk_rq_cur_bytes(rq))
 * error_values.c:87:3 ev_okay_request end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, error, blk_rq_cur_bytes(rq))
 * error_values.c:100:4 ev_two_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, a ? 0 : -EIO, blk_rq_cur_bytes(rq))
 * error_values.c:102:4 ev_two_request end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, b > 0 ? 0 : (b ? b : -EIO), blk_rq_cur_bytes(rq))
 * check-brief-end
 */
