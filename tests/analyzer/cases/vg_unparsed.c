/*
 * Version guards where the parse has nothing (issue 20 item 3): the driver's code
 * sits under its own macro, which this parse does not define, and KERNEL_VERSION is
 * not defined either, so no function here is in the AST.  The text alone decides:
 * calls in branches for kernels before 2.6.25 are compat_branch, the others
 * multi_version, each in its function (never "at file scope"), the braces counted in
 * one branch of each conditional.
 */
#include <linux/blkdev.h>

#if VGU_KERNEL_26
static void vgu_end_io(struct request *rq, int uptodate)
{
#if (LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25))
	__blk_end_request(rq, uptodate ? 0 : -EIO, blk_rq_bytes(rq));
#else
	if (!end_that_request_first(rq, uptodate, rq->nr_sectors))
		end_that_request_last(rq, uptodate);
#endif
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,19)
static void vgu_request(struct request_queue *q)
{
#else
static void vgu_request(request_queue_t *q)
{
#endif
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,16)
		if (rq->flags & REQ_DRIVE_CMD) {
#else
		if (rq->cmd_type == REQ_TYPE_ATA_CMD) {
#endif
			end_request(rq, 0);
			continue;
		}
	}
}
#endif /* VGU_KERNEL_26 */

/*
 * check-exit: 1
 * check-brief-start
 * vg_unparsed.c:17:7 vgu_end_io end_that_request_first manual unclassified lock=unknown uptodate=none reason=compat_branch
 * vg_unparsed.c:18:3 vgu_end_io end_that_request_last manual unclassified lock=unknown uptodate=none reason=compat_branch
 * vg_unparsed.c:33:4 vgu_request end_request manual unclassified lock=unknown uptodate=none reason=multi_version
 * vg_unparsed.c:41:4 vgu_request end_request manual unclassified lock=unknown uptodate=none reason=multi_version
 * check-brief-end
 * check-text-start
 * vg_unparsed.c:17:7: warning: end_that_request_first in vgu_end_io() left for manual review: in the branch for kernels before 2.6.25 (#else at line 16 of the #if at line 14), which keeps the legacy API on purpose; the file's branch for 2.6.25 and later (#if at line 14) is what runs on newer kernels: nothing to convert [compat_branch]
 * vg_unparsed.c:33:4: warning: end_request in vgu_request() left for manual review: this call is outside every version guard, and this file also builds for kernels before 2.6.25 (LINUX_VERSION_CODE tests at lines 14, 22, 36), where __blk_end_request() does not exist: put the conversion under the file's own `#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)` or keep the call (end_request() exists up to 2.6.30) [multi_version]
 * vg_unparsed.c:41:4: warning: end_request in vgu_request() left for manual review: this call is outside every version guard
 * check-text-end
 * check-text-absent-start
 * (file scope)
 * not in the parsed code
 * check-text-absent-end
 */
