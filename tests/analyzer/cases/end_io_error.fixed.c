/*
 * Issue 20 item 5: end_io_error(uptodate) went away in 2.6.25.  In a file blkmig
 * converts, each use is spelled out as the test it stood for, in code and in
 * macro bodies; the driver's own compat definition of the macro stays.
 */
#include <linux/blkdev.h>

#ifndef end_io_error
#define end_io_error(u) ((u) <= 0)
#endif
#define EIE_FAILED(u) unlikely((u) <= 0)

static DEFINE_SPINLOCK(eie_lock);
static unsigned long eie_failures;

static void eie_end(struct request *rq, int uptodate)
{
	if (unlikely((uptodate) <= 0))
		eie_failures++;
	__blk_end_request(rq, uptodate > 0 ? 0 : (uptodate ? uptodate : -EIO),
			  blk_rq_bytes(rq));
}

void eie_done(struct request *rq, int uptodate)
{
	eie_end(rq, unlikely((uptodate) <= 0) ? -EIO : 1);
}

static void eie_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	if (rq)
		eie_done(rq, 1);
}

static int eie_init(void)
{
	return blk_init_queue(eie_request, &eie_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 0
 * check-brief-start
 * end_io_error.c:20:7 eie_end end_that_request_first auto wrapper_param lock=held uptodate=errno_capable new=__blk_end_request(rq, uptodate > 0 ? 0 : (uptodate ? uptodate : -EIO), blk_rq_bytes(rq))
 * end_io_error.c:22:3 eie_end end_that_request_last auto wrapper_param lock=held uptodate=errno_capable
 * check-brief-end
 */
