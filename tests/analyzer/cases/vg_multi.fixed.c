/*
 * A multi-version file (issue 20 item 3): it tests LINUX_VERSION_CODE, so it builds
 * for kernels before 2.6.25 too, where __blk_end_request() does not exist.  Its calls
 * outside every guard, or under a guard that spans 2.6.25, are converted under the
 * file's own kind of guard, `#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)`, the
 * old lines in its #else (guard_rewrite.c); a call under a guard for 2.6.25 and
 * later only is converted as usual: vg_new.c.
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
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)
			__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
#else
			end_request(rq, 0);
#endif
			continue;
		}
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 31)
		if (rq->sector > 1024) {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)
			__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
#else
			end_request(rq, 0);
#endif
			continue;
		}
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)
		__blk_end_request(rq, 0, blk_rq_bytes(rq));
#else
		if (!end_that_request_first(rq, 1, rq->hard_nr_sectors)) {
			blkdev_dequeue_request(rq);
			end_that_request_last(rq, 1);
		}
#endif
	}
}

static int vgm_init(void)
{
	return blk_init_queue(vgm_request, &vgm_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 0
 * check-brief-start
 * vg_multi.c:26:4 vgm_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * vg_multi.c:31:4 vgm_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * vg_multi.c:35:8 vgm_request end_that_request_first auto first_last_held lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * vg_multi.c:37:4 vgm_request end_that_request_last auto first_last_held lock=held uptodate=constant
 * check-brief-end
 * check-text-start
 * vg_multi.c:26:4: remark: end_request in vgm_request() -> __blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * vg_multi.c:35:8: remark: end_that_request_first in vgm_request() -> __blk_end_request(rq, 0, blk_rq_bytes(rq))
 * version_guarded: this file also builds for kernels before 2.6.25 (LINUX_VERSION_CODE tests at lines 14, 29), where the new call does not exist: it goes under `#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)` and the old lines stay in its #else
 * check-text-end
 * check-text-absent-start
 * [multi_version]
 * check-text-absent-end
 */
