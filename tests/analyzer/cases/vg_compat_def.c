/*
 * A driver's own compat version of the API (issue 20 item 3): it provides
 * blk_end_request() for kernels that lack it, written with the legacy calls, and a
 * macro for the 2.6.31 spelling.  Their bodies stay as they are
 * (converted, blk_end_request() would call itself).  A function of a legacy name is
 * the API itself and converts like a wrapper (case tree/); a macro of a legacy name
 * is compat code too (unit.c: vg-rule-legacy-macro).
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(vgc_lock);

int blk_end_request(struct request *rq, int error, unsigned int nr_bytes)
{
	unsigned long flags;

	if (end_that_request_chunk(rq, error ? error : 1, nr_bytes))
		return 1;
	add_disk_randomness(rq->rq_disk);
	spin_lock_irqsave(rq->q->queue_lock, flags);
	blkdev_dequeue_request(rq);
	end_that_request_last(rq, error ? error : 1);
	spin_unlock_irqrestore(rq->q->queue_lock, flags);
	return 0;
}

#define __blk_end_request_cur(rq, error) end_request((rq), (error) ? (error) : 1)

static void vgc_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 1);
}

static int vgc_init(void)
{
	return blk_init_queue(vgc_request, &vgc_lock) ? 0 : -ENOMEM;
}

/*
 * check-exit: 1
 * check-brief-start
 * vg_compat_def.c:17:6 blk_end_request end_that_request_chunk manual early_return lock=not_held uptodate=errno_capable reason=compat_branch
 * vg_compat_def.c:22:2 blk_end_request end_that_request_last manual early_return lock=not_held uptodate=errno_capable reason=compat_branch
 * vg_compat_def.c:27:42 - end_request manual unclassified lock=unknown uptodate=none reason=compat_branch
 * vg_compat_def.c:34:3 vgc_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_cur_bytes(rq))
 * check-brief-end
 * check-text-start
 * vg_compat_def.c:17:6: warning: end_that_request_chunk in blk_end_request() left for manual review: in this file's own definition of blk_end_request (line 13), its stand-in for the newer call on kernels that lack it, written with the legacy API on purpose (converted, it would call itself): nothing to convert [compat_branch]
 * vg_compat_def.c:22:2: warning: end_that_request_last in blk_end_request() left for manual review: in this file's own definition of blk_end_request (line 13), its stand-in for the newer call on kernels that lack it, written with the legacy API on purpose (converted, it would call itself): nothing to convert [compat_branch]
 * vg_compat_def.c:27:42: warning: end_request in (file scope) left for manual review: in this file's own #define of __blk_end_request_cur (line 27), its stand-in for the newer call on kernels that lack it, written with the legacy API on purpose: nothing to convert [compat_branch]
 * vg_compat_def.c:34:3: remark: end_request in vgc_request() -> __blk_end_request(rq, 0,
 * check-text-end
 */
