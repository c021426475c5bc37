/*
 * A multi-version file (issue 20 item 3): it tests LINUX_VERSION_CODE, so it builds
 * for kernels before 2.6.25 too, where __blk_end_request() does not exist.  Its calls
 * outside every guard, or under a guard that spans 2.6.25, are left (multi_version)
 * with the rewrite the analysis proved, to put under the file's own guard (a call
 * under a guard for 2.6.25 and later only is converted as usual: vg_new.c).
 */
#include <linux/blkdev.h>

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE KERNEL_VERSION(2, 6, 24)

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 16)
#define VGM_SECTOR_SHIFT 9
#endif

static DEFINE_SPINLOCK(vgm_lock);

static void vgm_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 31)
		if (rq->sector > 1024) {
			end_request(rq, 0);
			continue;
		}
#endif
		if (!end_that_request_first(rq, 1, rq->hard_nr_sectors)) {
			blkdev_dequeue_request(rq);
			end_that_request_last(rq, 1);
		}
	}
}

static int vgm_init(void)
{
	return blk_init_queue(vgm_request, &vgm_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 1
 * check-brief-start
 * vg_multi.c:25:4 vgm_request end_request manual end_request lock=held uptodate=constant reason=multi_version
 * vg_multi.c:30:4 vgm_request end_request manual end_request lock=held uptodate=constant reason=multi_version
 * vg_multi.c:34:8 vgm_request end_that_request_first manual first_last_held lock=held uptodate=constant reason=multi_version
 * vg_multi.c:36:4 vgm_request end_that_request_last manual first_last_held lock=held uptodate=constant reason=multi_version
 * check-brief-end
 * check-text-start
 * vg_multi.c:25:4: warning: end_request in vgm_request() left for manual review: this call is outside every version guard, and this file also builds for kernels before 2.6.25 (LINUX_VERSION_CODE tests at lines 13, 28), where __blk_end_request() does not exist: put the conversion under the file's own `#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)` (there: `__blk_end_request(rq, -EIO,
 * or keep the call (end_request() exists up to 2.6.30) [multi_version]
 * vg_multi.c:30:4: warning: end_request in vgm_request() left for manual review: this call is compiled for kernels before 2.6.31, and this file also builds for kernels before 2.6.25 (LINUX_VERSION_CODE tests at lines 13, 28)
 * vg_multi.c:34:8: warning: end_that_request_first in vgm_request() left for manual review: this call is outside every version guard
 * with this call in its #else (end_that_request_first() is gone in 2.6.25, so the file needs both) [multi_version]
 * vg_multi.c:36:4: warning: end_that_request_last in vgm_request() left for manual review: this call is outside every version guard
 * check-text-end
 */
