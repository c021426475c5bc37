/* Left: a state machine completes the data in one state and ends the
 * request in a later one (the xsysace shape): both calls are reported. */
#include <linux/blkdev.h>

enum { XS_IDLE, XS_XFER, XS_DONE };

struct xs_dev {
	struct request *req;
	int state;
	int left;
};

static void xs_step(struct xs_dev *xs)
{
	switch (xs->state) {
	case XS_XFER:
		if (end_that_request_first(xs->req, 1, xs->req->current_nr_sectors)) {
			xs->left = xs->req->current_nr_sectors;
			break;
		}
		xs->state = XS_DONE;
		break;
	case XS_DONE:
		blkdev_dequeue_request(xs->req);
		end_that_request_last(xs->req, 1);
		xs->req = NULL;
		xs->state = XS_IDLE;
		break;
	}
}
