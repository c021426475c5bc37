/* Housekeeping nested in ifs (ide-style): it goes, the rest of the if stays. */
#include <linux/blkdev.h>
struct hwgroup { struct request *rq; };
struct drive { struct hwgroup *hwgroup; struct request_queue *queue; };
static DEFINE_SPINLOCK(ide_lock);
static int my_end(struct drive *drive, struct request *rq, int error, int nr_bytes, int dequeue)
{
	int ret = 1;

	if (!__blk_end_request(rq, error, nr_bytes)) {
		if (dequeue) {
			drive->hwgroup->rq = NULL;
		}
		ret = 0;
	}
	return ret;
}
static void my_request(struct request_queue *q)
{
	struct drive *d = q->queuedata;
	struct request *rq = elv_next_request(q);
	my_end(d, rq, 0, 512, 1);
	my_end(d, rq, -EIO, 512, 0);
}
static int my_init(void)
{
	blk_init_queue(my_request, &ide_lock);
	return 0;
}

/*
 * check-exit: 0
 * check-brief-start
 * nested_housekeeping.c:10:7 my_end end_that_request_chunk auto wrapper_param lock=held uptodate=wrapper_param new=__blk_end_request(rq, error, nr_bytes)
 * nested_housekeeping.c:19:3 my_end end_that_request_last auto wrapper_param lock=held uptodate=wrapper_param
 * check-brief-end
 */
