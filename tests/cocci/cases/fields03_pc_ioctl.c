/*
 * Issue 20 item 1: a driver that makes packet requests (SG_IO through
 * scsi_cmd_ioctl).  For a packet request the request's data is data_len
 * bytes, not provably hard_nr_sectors << 9: the old code ended the request
 * whether or not bytes remained, 2.6.25 cannot.  The whole-request
 * completion is left for a human; end_request keeps its literal count.
 */
#include <linux/blkdev.h>

struct block_device;
int scsi_cmd_ioctl(void *file, struct request_queue *q, void *disk,
		   unsigned int cmd, void *arg);

static struct request_queue *pc_queue;

static void pc_end_rq(struct request *rq, int uptodate)
{
	end_that_request_first(rq, uptodate, rq->hard_nr_sectors);
	end_that_request_last(rq, uptodate);
}

static void pc_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		if (rq->errors) {
			end_request(rq, 0);
			continue;
		}
		pc_end_rq(rq, 1);
	}
}

static int pc_ioctl(unsigned int cmd, void *arg)
{
	return scsi_cmd_ioctl(NULL, pc_queue, NULL, cmd, arg);
}

static void pc_init(void)
{
	pc_queue = blk_init_queue(pc_request, NULL);
	pc_ioctl(0, NULL);
}
