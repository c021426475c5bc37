/*
 * Version guards (issue 20 item 3): a driver that builds for several kernels keeps
 * the legacy calls in its branches for kernels before 2.6.25 on purpose.  Parsed as
 * a configured 2.6.24 tree would parse it (LINUX_VERSION_CODE is 2.6.24 here), so
 * the compat branches are the ones in the AST; the branch for 2.6.25 and later is
 * not compiled, and a legacy call there is classified as usual (unparsed).
 */
#include <linux/blkdev.h>

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE KERNEL_VERSION(2, 6, 24)

static DEFINE_SPINLOCK(vgb_lock);

/* #if < 2.6.25 with an #else for the new API */
static void vgb_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
		end_request(rq, 1);
#else
		__blk_end_request(rq, 0, rq->hard_cur_sectors << 9);
#endif
	}
}

/* the #else of >= 2.6.25 (the operands the other way round too) */
static void vgb_done(struct request *rq, int uptodate)
{
#if (KERNEL_VERSION(2, 6, 25) <= LINUX_VERSION_CODE)
	__blk_end_request(rq, uptodate ? 0 : -EIO, blk_rq_bytes(rq));
#else
	if (!end_that_request_first(rq, uptodate, rq->hard_nr_sectors)) {
		blkdev_dequeue_request(rq);
		end_that_request_last(rq, uptodate);
	}
#endif
}

/* an #elif ladder: 2.6.25 / 2.6.16 / 2.4 */
static void vgb_ladder(struct request *rq, int uptodate)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 25)
	__blk_end_request(rq, uptodate ? 0 : -EIO, blk_rq_bytes(rq));
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 16)
	while (end_that_request_first(rq, uptodate, rq->hard_nr_sectors))
		;
	end_that_request_last(rq, uptodate);
#else
	while (end_that_request_first(rq, uptodate, rq->hard_nr_sectors))
		;
	end_that_request_last(rq);
#endif
}

/* nested guards: > 2.6.15 then < 2.6.25; numeric literals */
static void vgb_nested(struct request *rq, int uptodate)
{
#if LINUX_VERSION_CODE > KERNEL_VERSION(2, 6, 15)
#  if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
	end_that_request_last(rq, uptodate);
#  endif
#else
	end_that_request_last(rq);
#endif
#if LINUX_VERSION_CODE < 0x020619
	end_dequeued_request(rq, uptodate);
#endif
#if LINUX_VERSION_CODE <= 0x020619 /* 2.6.25 too: not a compat branch */
	end_dequeued_request(rq, 1);
#endif
}

/* a branch for 2.6.25 and later only: not compiled here, so classified as usual */
static void vgb_new(struct request *rq)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 25) && defined(VGB_OLD_WRAPPERS)
	end_dequeued_request(rq, 1);
#endif
}

static int vgb_init(void)
{
	return blk_init_queue(vgb_request, &vgb_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 1
 * check-brief-start
 * vg_branches.c:22:3 vgb_request end_request manual end_request lock=held uptodate=constant reason=compat_branch
 * vg_branches.c:35:7 vgb_done end_that_request_first manual wrapper_param lock=unknown uptodate=wrapper_param reason=compat_branch
 * vg_branches.c:37:3 vgb_done end_that_request_last manual wrapper_param lock=unknown uptodate=wrapper_param reason=compat_branch
 * vg_branches.c:48:9 vgb_ladder end_that_request_first manual wrapper_param lock=unknown uptodate=wrapper_param reason=compat_branch
 * vg_branches.c:50:2 vgb_ladder end_that_request_last manual wrapper_param lock=unknown uptodate=wrapper_param reason=compat_branch
 * vg_branches.c:52:9 vgb_ladder end_that_request_first manual unclassified lock=unknown uptodate=none reason=compat_branch
 * vg_branches.c:54:2 vgb_ladder end_that_request_last manual unclassified lock=unknown uptodate=none reason=compat_branch
 * vg_branches.c:63:2 vgb_nested end_that_request_last manual wrapper_param lock=unknown uptodate=wrapper_param reason=compat_branch
 * vg_branches.c:66:2 vgb_nested end_that_request_last manual unclassified lock=unknown uptodate=none reason=compat_branch
 * vg_branches.c:69:2 vgb_nested end_dequeued_request manual wrapper_param lock=unknown uptodate=wrapper_param reason=compat_branch
 * vg_branches.c:72:2 vgb_nested end_dequeued_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * vg_branches.c:80:2 vgb_new end_dequeued_request manual unclassified lock=unknown uptodate=none reason=unparsed
 * check-brief-end
 * check-text-start
 * vg_branches.c:22:3: warning: end_request in vgb_request() left for manual review: in the branch for kernels before 2.6.25 (#if at line 21), which keeps the legacy API on purpose; the file's branch for 2.6.25 and later (#else at line 23 of the #if at line 21) is what runs on newer kernels: nothing to convert [compat_branch]
 * vg_branches.c:35:7: warning: end_that_request_first in vgb_done() left for manual review: in the branch for kernels before 2.6.25 (#else at line 34 of the #if at line 32), which keeps the legacy API on purpose; the file's branch for 2.6.25 and later (#if at line 32) is what runs on newer kernels: nothing to convert [compat_branch]
 * vg_branches.c:52:9: warning: end_that_request_first in vgb_ladder() left for manual review: in the branch for kernels before 2.6.25 (#else at line 51 of the #if at line 45)
 * vg_branches.c:63:2: warning: end_that_request_last in vgb_nested() left for manual review: in the branch for kernels before 2.6.25 (#if at line 62), which keeps the legacy API on purpose; on 2.6.25 and later this code is not compiled: nothing to convert [compat_branch]
 * vg_branches.c:66:2: warning: end_that_request_last in vgb_nested() left for manual review: in the branch for kernels before 2.6.25 (#else at line 65 of the #if at line 61)
 * vg_branches.c:72:2: remark: end_dequeued_request in vgb_nested() -> __blk_end_request(rq, 0, blk_rq_bytes(rq))
 * version_guarded: this file also builds for kernels before 2.6.25 (LINUX_VERSION_CODE tests at lines 21, 32, 45, 47, 61, 62, 68, 71, ...), where the new call does not exist
 * check-text-end
 * check-text-absent-start
 * (file scope)
 * [macro]
 * check-text-absent-end
 */
