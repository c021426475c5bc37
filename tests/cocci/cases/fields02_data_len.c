/*
 * Issue 20 item 1: a driver that stores a residual count in rq->data_len
 * before completing (like ub.c, without its packet requests).
 * blk_rq_bytes(rq) reads data_len for requests that are not filesystem
 * requests: not what the old calls completed.  The fields fact fails on (a):
 * the literal counts.  The driver makes no packet requests, so
 * hard_nr_sectors still covers every byte left and the whole-request
 * completion converts.
 */
#include <linux/blkdev.h>

struct dl_cmd {
	struct request *rq;
	unsigned int act_len;
	int error;
};

static void dl_end_rq(struct request *rq, int uptodate)
{
	end_that_request_first(rq, uptodate, rq->hard_nr_sectors);
	end_that_request_last(rq, uptodate);
}

static void dl_request(struct request_queue *q)
{
	struct request *rq;
	struct dl_cmd cmd;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		cmd.rq = rq;
		cmd.act_len = 0;
		if (!blk_fs_request(rq)) {
			if (cmd.act_len < rq->data_len)
				rq->data_len -= cmd.act_len;
			dl_end_rq(rq, 0);
			continue;
		}
		dl_end_rq(rq, cmd.error == 0);
	}
}

static void dl_kill(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 0);
}

static void dl_init(void)
{
	blk_init_queue(dl_request, NULL);
	blk_init_queue(dl_kill, NULL);
}
