/*
 * A file parsed for 2.6.25 (issue 20 item 3): the call in its branch for 2.6.25 and
 * later is converted as usual, and its compat branch, not compiled here, stays as it
 * is and does not keep the rest of the file from converting.
 */
#include <linux/blkdev.h>

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE KERNEL_VERSION(2, 6, 25)

static DEFINE_SPINLOCK(vgn_lock);

static void vgn_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 25)
		end_dequeued_request(rq, 1);
#else
		blkdev_dequeue_request(rq);
		end_dequeued_request(rq, 1);
#endif
	}
}

static int vgn_init(void)
{
	return blk_init_queue(vgn_request, &vgn_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 1
 * check-brief-start
 * vg_new.c:19:3 vgn_request end_dequeued_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * vg_new.c:22:3 vgn_request end_dequeued_request manual unclassified lock=unknown uptodate=none reason=compat_branch
 * check-brief-end
 * check-text-start
 * vg_new.c:19:3: remark: end_dequeued_request in vgn_request() -> __blk_end_request(rq, 0,
 * vg_new.c:22:3: warning: end_dequeued_request in vgn_request() left for manual review: in the branch for kernels before 2.6.25 (#else at line 20 of the #if at line 18), which keeps the legacy API on purpose; the file's branch for 2.6.25 and later (#if at line 18) is what runs on newer kernels: nothing to convert [compat_branch]
 * check-text-end
 */
