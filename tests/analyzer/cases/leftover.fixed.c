/*
 * Partial completion with a leftover (a SCSI-midlayer-style command layer
 * and a message-passing controller): complete what the device did, then
 * either kill the rest or requeue it, and the final step under the queue
 * lock taken around it.
 */
#include <linux/blkdev.h>

struct lv_cmd {
	struct request *request;
	struct request_queue *q;
	int retries;
};

static DEFINE_SPINLOCK(lv_lock);
static struct request_queue *lv_q;

static void lv_requeue(struct request_queue *q, struct lv_cmd *cmd)
{
	cmd->retries++;
}

static int lv_noretry(struct request *req)
{
	return req->cmd_flags != 0;
}

static struct lv_cmd *lv_end_request(struct lv_cmd *cmd, int error, int bytes, int requeue)
{
	struct request_queue *q = cmd->q;
	struct request *req = cmd->request;

	if (blk_end_request(req, error, bytes)) {
		int leftover = (req->hard_nr_sectors << 9);

		if (blk_pc_request(req))
			leftover = req->data_len;

		if (error && lv_noretry(req))
			blk_end_request(req, -EIO, leftover);
		else {
			if (requeue) {
				lv_requeue(q, cmd);
				cmd = NULL;
			}
			return cmd;
		}
	}



	return NULL;
}

void lv_done(struct lv_cmd *cmd, int good_bytes, int result)
{
	if (lv_end_request(cmd, 0, good_bytes, result == 0) == NULL)
		return;
	lv_end_request(cmd, -EIO, good_bytes, 1);
}

/* on success with bytes left the request is ended anyway: not expressible */
static void lv_msg_end(struct request *req, int uptodate, int nr_bytes)
{
	struct request_queue *q = req->q;
	unsigned long flags;

	if (end_that_request_chunk(req, uptodate, nr_bytes)) {
		int leftover = (req->hard_nr_sectors << 9);

		if (blk_pc_request(req))
			leftover = req->data_len;
		if (uptodate <= 0)
			end_that_request_chunk(req, 0, leftover);
	}
	spin_lock_irqsave(q->queue_lock, flags);
	end_that_request_last(req, uptodate);
	spin_unlock_irqrestore(q->queue_lock, flags);
}

void lv_msg_reply(struct request *req, int status, int len)
{
	lv_msg_end(req, status ? -EIO : 1, len);
}

static void lv_request(struct request_queue *q)
{
}

static int lv_init(void)
{
	lv_q = blk_init_queue(lv_request, &lv_lock);
	return 0;
}

/*
 * check-exit: 1
 * check-brief-start
 * leftover.c:34:6 lv_end_request end_that_request_chunk auto wrapper_param lock=not_held uptodate=wrapper_param new=blk_end_request(req, error, bytes)
 * leftover.c:41:4 lv_end_request end_that_request_chunk auto chunk lock=not_held uptodate=constant new=blk_end_request(req, -EIO, leftover)
 * leftover.c:56:2 lv_end_request end_that_request_last auto wrapper_param lock=not_held uptodate=wrapper_param
 * leftover.c:75:6 lv_msg_end end_that_request_chunk manual wrapper_param lock=unknown uptodate=wrapper_param reason=shape
 * leftover.c:81:4 lv_msg_end end_that_request_chunk manual chunk lock=unknown uptodate=constant reason=shape
 * leftover.c:84:2 lv_msg_end end_that_request_last manual wrapper_param lock=held uptodate=wrapper_param reason=shape
 * check-brief-end
 */
