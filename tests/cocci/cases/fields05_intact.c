/*
 * Issue 20 item 1: a driver that writes no request field, makes no packet
 * requests and passes its requests only to its own functions and the block
 * layer's: the fields hold what the old calls used, so the helpers.  Reads,
 * comparisons, comments, strings, locals, initializers of the same names and
 * writes through a member pointer (*rq->buffer = 0) are no writes of them;
 * printk only reads the request it prints.
 */
#include <linux/blkdev.h>

struct in_state {
	char *buffer;
	unsigned long sector;
};

static struct in_state in_st = { .buffer = NULL, .sector = 0 };

/* the old driver did rq->sector++ and rq->data_len = 0 here */
static int in_check(struct request *rq)
{
	unsigned long sector = rq->sector;

	sector++;
	if (rq->buffer)
		*rq->buffer = 0;
	if (rq->sector == 0 || rq->current_nr_sectors <= 1)
		printk(KERN_DEBUG "rq %p: buffer = %p\n", rq, rq->buffer);
	return rq->data_len != 0;
}

static void in_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq) || in_check(rq)) {
			end_request(rq, 0);
			continue;
		}
		blkdev_dequeue_request(rq);
		if (rq->errors) {
			end_that_request_first(rq, 0, rq->hard_nr_sectors);
			end_that_request_last(rq, 0);
			continue;
		}
		if (end_that_request_first(rq, 1, rq->current_nr_sectors))
			continue;
		end_that_request_last(rq, 1);
	}
}

static void in_init(void)
{
	blk_init_queue(in_request, NULL);
}
