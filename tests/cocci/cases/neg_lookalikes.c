/* Negative: look-alike driver functions, comments, strings, macros. */
#include <linux/blkdev.h>

#define MY_FINISH(rq) end_request(rq, 1)

void my_end_that_request_last(struct request *rq, int uptodate);

struct foo_dev {
	void (*end_request)(struct request *rq, int uptodate);
};

static void foo_end_request(struct request *rq, int uptodate)
{
	/* not end_request(rq, uptodate): this driver uses its own */
	printk(KERN_DEBUG "end_request(%p, %d)\n", rq, uptodate);
}

static void foo_done(struct foo_dev *dev, struct request *rq)
{
	foo_end_request(rq, 1);
	dev->end_request(rq, 1);
	my_end_that_request_last(rq, 1);
	MY_FINISH(rq);
}
