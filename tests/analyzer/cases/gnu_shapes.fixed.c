/* GNU C shapes: statement expressions, comma operators, switch, macro arguments and bodies. */
#include <linux/blkdev.h>
#define DBG(x) x
#define CALL_TWICE(rq) do { end_request(rq, 1); end_request(rq, 1); } while (0)
static DEFINE_SPINLOCK(wl);
static int weird_helper(int a)
{
	return a;
}
static void weird_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);
	int x = ({ __blk_end_request(rq, 0, blk_rq_cur_bytes(rq)); 0; });
	int y = weird_helper(end_that_request_first(rq, 1, 8));
	typeof(x) z = x ? (__blk_end_request(rq, -EIO,
					     blk_rq_cur_bytes(rq)), 1) : 2;
	DBG(end_request(rq, 1));
	CALL_TWICE(rq);
	asm volatile("" ::: "memory");
	switch (x) {
	case 1:
		__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));
		break;
	default:
		for (;;)
			__blk_end_request(rq, 0, blk_rq_bytes(rq));
	}
	if (y) goto done;
	__blk_end_request(rq, z > 0 ? 0 : (z ? z : -EIO), blk_rq_bytes(rq));
done:
	end_that_request_last(rq, 1);
}
static int weird_init(void)
{
	blk_init_queue(weird_request, &wl);
	return 0;
}

/*
 * check-exit: 1
 * check-brief-start
 * gnu_shapes.c:4:29 - end_request manual unclassified lock=unknown uptodate=none reason=macro
 * gnu_shapes.c:4:49 - end_request manual unclassified lock=unknown uptodate=none reason=macro
 * gnu_shapes.c:13:13 weird_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_cur_bytes(rq))
 * gnu_shapes.c:14:23 weird_request end_that_request_first manual first_last_held lock=held uptodate=constant reason=shape
 * gnu_shapes.c:15:21 weird_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * gnu_shapes.c:16:6 weird_request end_request manual unclassified lock=unknown uptodate=none reason=macro
 * gnu_shapes.c:21:3 weird_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_cur_bytes(rq))
 * gnu_shapes.c:25:4 weird_request end_dequeued_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * gnu_shapes.c:28:2 weird_request end_queued_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, z > 0 ? 0 : (z ? z : -EIO), blk_rq_bytes(rq))
 * gnu_shapes.c:30:2 weird_request end_that_request_last manual first_last_held lock=held uptodate=constant reason=shape
 * check-brief-end
 */
