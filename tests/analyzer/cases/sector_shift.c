/*
 * Sector counts computed from byte counts (a user-mode disk finishing the
 * bytes its host thread reported; a virtual CD rounding a packet command's
 * length up to whole sectors): `>> 9` makes them sectors, not bytes.
 */
#include <linux/blkdev.h>

struct ss_dev {
	spinlock_t lock;
	struct request_queue *queue;
};

static struct ss_dev ss_devs[4];

/* locals that serve only the lock around the final step go with it */
static void ss_end_request(struct request *req, int bytes, int uptodate)
{
	if (!end_that_request_first(req, uptodate, bytes >> 9)) {
		struct ss_dev *dev = req->rq_disk->private_data;
		unsigned long flags;

		add_disk_randomness(req->rq_disk);
		spin_lock_irqsave(&dev->lock, flags);
		end_that_request_last(req, uptodate);
		spin_unlock_irqrestore(&dev->lock, flags);
	}
}

static void ss_cd_end(struct request *req, int uptodate)
{
	int nsectors = req->hard_nr_sectors;

	if (blk_pc_request(req))
		nsectors = (req->data_len + 511) >> 9;
	if (!nsectors)
		nsectors = 1;
	if (end_that_request_first(req, uptodate, nsectors))
		BUG();
	add_disk_randomness(req->rq_disk);
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
}

/* the host thread reports finished bytes; no queue lock held here */
void ss_host_done(struct request *req, int bytes, int err)
{
	if (err)
		ss_end_request(req, 0, 0);
	else
		ss_end_request(req, bytes, 1);
}

static void ss_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (req->cmd_type == REQ_TYPE_SPECIAL)
			ss_cd_end(req, 0);
		else
			ss_cd_end(req, 1);
	}
}

static int ss_init(void)
{
	ss_devs[0].queue = blk_init_queue(ss_request, &ss_devs[0].lock);
	return 0;
}

/*
 * check-exit: 0
 * check-brief-start
 * sector_shift.c:18:7 ss_end_request end_that_request_first auto wrapper_param lock=not_held uptodate=wrapper_param new=blk_end_request(req, error, (bytes >> 9) << 9)
 * sector_shift.c:24:3 ss_end_request end_that_request_last auto wrapper_param lock=not_held uptodate=wrapper_param
 * sector_shift.c:37:6 ss_cd_end end_that_request_first auto wrapper_param lock=held uptodate=wrapper_param new=__blk_end_request(req, error, nsectors << 9)
 * sector_shift.c:41:2 ss_cd_end end_that_request_last auto wrapper_param lock=held uptodate=wrapper_param
 * check-brief-end
 */
