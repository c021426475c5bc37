/*
 * A flash-card controller driven by a state machine (data completion in one
 * state, the final step in the next), and a packet drive that fails a
 * packet command whole: for a request that is not a filesystem request,
 * data_len is the whole request.
 */
#include <linux/blkdev.h>

enum { SM_XFER, SM_DONE };

struct sm_dev {
	spinlock_t lock;
	struct request *req;
	int state;
	char *ptr;
};

static struct sm_dev sm;

static int sm_step(struct sm_dev *d)
{
	int n;

	switch (d->state) {
	case SM_XFER:
		n = d->req->current_nr_sectors;
		if (end_that_request_first(d->req, 1, n)) {
			d->ptr = d->req->buffer;
			break;
		}
		d->state = SM_DONE;
		break;
	case SM_DONE:
		blkdev_dequeue_request(d->req);
		end_that_request_last(d->req, 1);
		d->req = NULL;
		break;
	}
	return d->req != NULL;
}

/* called from the request function: the queue lock is held */
static void sm_fail(struct request *failed)
{
	if (blk_fs_request(failed)) {
		__blk_end_request(failed, -EIO, blk_rq_cur_bytes(failed));
	} else {
		__blk_end_request(failed, -EIO, failed->data_len);
	}
}

static void sm_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	if (!req)
		return;
	if (req->errors) {
		sm_fail(req);
		return;
	}
	sm.req = req;
	sm.state = SM_XFER;
	while (sm_step(&sm))
		;
}

static int sm_init(void)
{
	blk_init_queue(sm_request, &sm.lock);
	return 0;
}

/*
 * check-exit: 1
 * check-brief-start
 * state_machine.c:27:7 sm_step end_that_request_first manual first_last_held lock=held uptodate=constant reason=shape
 * state_machine.c:35:3 sm_step end_that_request_last manual first_last_held lock=held uptodate=constant reason=shape
 * state_machine.c:46:3 sm_fail end_request auto end_request lock=held uptodate=constant new=__blk_end_request(failed, -EIO, blk_rq_cur_bytes(failed))
 * state_machine.c:48:3 sm_fail end_that_request_chunk auto whole_request lock=held uptodate=constant new=__blk_end_request(failed, -EIO, failed->data_len)
 * state_machine.c:49:3 sm_fail end_that_request_last auto whole_request lock=held uptodate=constant
 * check-brief-end
 */
