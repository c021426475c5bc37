/* Item 3 with a branch that never returns: if (first) BUG(); and a wrapper. */
#include <linux/blkdev.h>
static DEFINE_SPINLOCK(vlock);
static void my_end_request(struct request *req, int error)
{
	int nsectors = req->hard_nr_sectors;

	if (!nsectors)
		nsectors = 1;
	if (__blk_end_request(req, error, nsectors << 9))
		BUG();
}
static void my_request(struct request_queue *q)
{
	struct request *req;
	while ((req = elv_next_request(q)) != NULL) {
		if (req->errors)
			my_end_request(req, -EIO);
		else
			my_end_request(req, 0);
	}
}
void my_event(void *ev)
{
	unsigned long flags;
	struct request *req = ev;
	spin_lock_irqsave(&vlock, flags);
	my_end_request(req, req->errors ? -EIO : 0);
	spin_unlock_irqrestore(&vlock, flags);
}
static int my_init(void)
{
	blk_init_queue(my_request, &vlock);
	return 0;
}

/*
 * check-exit: 0
 * check-brief-start
 * bug_exit.c:10:6 my_end_request end_that_request_first auto wrapper_param lock=held uptodate=wrapper_param new=__blk_end_request(req, error, nsectors << 9)
 * bug_exit.c:14:2 my_end_request end_that_request_last auto wrapper_param lock=held uptodate=wrapper_param
 * check-brief-end
 */
