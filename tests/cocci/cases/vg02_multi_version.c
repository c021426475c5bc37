/* Issue 20 item 3: a file that builds for kernels on both sides of 2.6.25
 * through version tests: a call compiled for both cannot be rewritten bare
 * (__blk_end_request does not exist before 2.6.25): left (multi_version). */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(mv_lock);

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 16)
#define MV_OLD_QUEUE 1
#endif

/* a macro body keeps its own reason (it names the macro) */
#define MV_END_LAST(rq, u) end_that_request_last(rq, u)

static void mv_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq)) {
			end_request(rq, 0);
			continue;
		}
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 31)
		end_request(rq, 1);
#endif
	}
}

static int __init mv_init(void)
{
	return blk_init_queue(mv_request, &mv_lock) ? 0 : -ENOMEM;
}
