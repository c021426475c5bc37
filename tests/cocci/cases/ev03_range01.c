/*
 * Error values: value ranges.  A local that is only ever given 0 or 1 (a
 * constant, a condition, c ? 1 : 0) needs no three-way mapping: u ? 0 :
 * -EIO (nbd.c nbd_end_request, whose uptodate is also printed, so it keeps
 * its name).  A local also written otherwise (++, +=, its address taken)
 * or given another value keeps the exact mapping, without parentheses
 * around a plain name.
 */
#include <linux/blkdev.h>

static void ev3_read(int *v)
{
	*v = -EIO;
}

static void ev3_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		int uptodate = (rq->errors == 0) ? 1 : 0;
		int bumped = 0;
		int addr = 1;
		int other = 1;

		printk(KERN_DEBUG "%s\n", uptodate ? "done" : "failed");
		end_request(rq, uptodate);
		if (rq->sector)
			bumped++;
		printk(KERN_DEBUG "%d\n", bumped);
		end_request(rq, bumped);
		ev3_read(&addr);
		end_request(rq, addr);
		if (rq->errors > 3)
			other = 2;
		printk(KERN_DEBUG "%d\n", other);
		end_request(rq, other);
	}
}

static int __init ev3_init(void)
{
	static DEFINE_SPINLOCK(ev3_lock);

	return blk_init_queue(ev3_request, &ev3_lock) ? 0 : -ENOMEM;
}
