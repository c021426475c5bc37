/*
 * State machines in a file with parse errors (a platform constant the
 * headers at hand do not define).  A function that did not parse may have
 * lost statements; it can hide a use of the kept request or the state only
 * if its text names their storage.  The first bridge's broken function
 * names neither: converted.  The second one's names the request: left.
 */
#include <linux/blkdev.h>

struct fsa_dev {
	struct request *req;
	int st;
	int irq;
	int go;
};

static void fsa_yield(struct fsa_dev *d)
{
	if (d->irq == FSA_NO_IRQ)
		d->go = 0;
}

static void fsa_step(struct fsa_dev *d)
{
	switch (d->st) {
	case 1:
		if (end_that_request_first(d->req, 1, d->req->current_nr_sectors)) {
			fsa_yield(d);
			break;
		}
		d->st = 2;
		break;
	case 2:
		blkdev_dequeue_request(d->req);
		end_that_request_last(d->req, 1);
		d->req = NULL;
		d->st = 0;
		break;
	}
}

struct fsb_dev {
	struct request *cur;
	int st;
	int irq;
};

static void fsb_poll(struct fsb_dev *d)
{
	if (d->irq == FSB_NO_IRQ && d->cur)
		d->irq = d->cur->errors;
}

static void fsb_step(struct fsb_dev *d)
{
	switch (d->st) {
	case 1:
		if (end_that_request_first(d->cur, 1, d->cur->current_nr_sectors))
			break;
		d->st = 2;
		break;
	case 2:
		blkdev_dequeue_request(d->cur);
		end_that_request_last(d->cur, 1);
		d->cur = NULL;
		d->st = 0;
		break;
	}
}

/*
 * check-exit: 1
 * check-brief-start
 * fsm_unparsed.c:27:7 fsa_step end_that_request_first auto early_return lock=unknown uptodate=constant new=__blk_end_request(d->req, 0, d->req->current_nr_sectors << 9)
 * fsm_unparsed.c:35:3 fsa_step end_that_request_last auto early_return lock=unknown uptodate=constant
 * fsm_unparsed.c:58:7 fsb_step end_that_request_first manual first_last_held lock=unknown uptodate=constant reason=shape
 * fsm_unparsed.c:64:3 fsb_step end_that_request_last manual first_last_held lock=unknown uptodate=constant reason=shape
 * check-brief-end
 */
