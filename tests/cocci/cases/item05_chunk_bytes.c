/* Item 5: end_that_request_chunk keeps its byte count. */
#include <linux/blkdev.h>

static unsigned int chunk_size = 4096;

static void chunk_request(struct request_queue *q)
{
	struct request *rq;
	unsigned int done;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		done = min(chunk_size, rq->data_len);
		if (end_that_request_chunk(rq, 1, done))
			continue;
		end_that_request_last(rq, 1);
	}
}

static int __init chunk_init(void)
{
	static DEFINE_SPINLOCK(chunk_lock);

	return blk_init_queue(chunk_request, &chunk_lock) ? 0 : -ENOMEM;
}
