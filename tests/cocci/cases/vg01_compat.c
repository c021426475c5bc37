/* Issue 20 item 3: code compiled only for kernels before 2.6.25, and the
 * driver's own definitions of the API, stay as they are (compat_branch). */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(vc_lock);

static void vc_done(struct request *rq, int uptodate)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 25)
	__blk_end_request(rq, uptodate ? 0 : -EIO, blk_rq_bytes(rq));
#else
	if (!end_that_request_first(rq, uptodate, rq->hard_nr_sectors))
		end_that_request_last(rq, uptodate);
#endif
}

static void vc_fail(struct request *rq)
{
#if LINUX_VERSION_CODE < 0x020619
	end_request(rq, 0);
#else
	__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
#endif
}

static void vc_ladder(struct request *rq)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 31)
	__blk_end_request(rq, 0, blk_rq_bytes(rq));
#elif (LINUX_VERSION_CODE > KERNEL_VERSION(2, 6, 24)) && !(LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25))
	__blk_end_request(rq, 0, blk_rq_bytes(rq));
#elif defined(VC_OLD) || LINUX_VERSION_CODE <= KERNEL_VERSION(2, 6, 24)
	end_dequeued_request(rq, 1);
#endif
}

#if KERNEL_VERSION(2, 6, 25) > LINUX_VERSION_CODE
#define vc_end_all(rq, err) \
	end_dequeued_request(rq, (err) == 0)
#endif

/* the driver's own stand-in for a 2.6.25 call, for the kernels before it */
static int __blk_end_request_all(struct request *rq, int error)
{
	if (!end_that_request_first(rq, !error, rq->hard_nr_sectors)) {
		end_that_request_last(rq, !error);
		return 0;
	}
	return 1;
}

static void vc_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		if (!blk_fs_request(rq)) {
			vc_fail(rq);
			continue;
		}
		vc_done(rq, 1);
		vc_ladder(rq);
		__blk_end_request_all(rq, 0);
	}
}

static int __init vc_init(void)
{
	return blk_init_queue(vc_request, &vc_lock) ? 0 : -ENOMEM;
}
