/*
 * A card driver's issue function (kthread, the queue lock is a member given to
 * blk_init_queue through a helper's parameter): a successful transfer completes
 * its pair under the lock; on an error, one of two branches completes the good
 * blocks, then a flush loop ends the rest with an error.  The two branches'
 * calls exclude each other: the second is no "further data completion" of the
 * first's path, it is the other way to the same final step, whose error (0)
 * differs from theirs (1); and every call here runs under spin_lock_irq of the
 * queue lock, which the report says (regression: "lock: unknown" on each site
 * left before its lock was looked at).
 */
#include <linux/blkdev.h>

struct bc_dev {
	spinlock_t lock;
	struct request_queue *q;
	int sd;
};

static struct bc_dev bc_dev;

static void bc_issue(struct bc_dev *md, struct request *req, int bytes, int good)
{
	int ret = 1;

	if (good) {
		spin_lock_irq(&md->lock);
		ret = end_that_request_chunk(req, 1, bytes);
		if (!ret) {
			blkdev_dequeue_request(req);
			end_that_request_last(req, 1);
		}
		spin_unlock_irq(&md->lock);
		return;
	}
	if (md->sd) {
		spin_lock_irq(&md->lock);
		ret = end_that_request_chunk(req, 1, bytes);
		spin_unlock_irq(&md->lock);
	} else if (rq_data_dir(req) == WRITE) {
		spin_lock_irq(&md->lock);
		ret = end_that_request_chunk(req, 1, 512);
		spin_unlock_irq(&md->lock);
	}

	spin_lock_irq(&md->lock);
	while (ret)
		ret = end_that_request_chunk(req, 0, req->current_nr_sectors << 9);
	blkdev_dequeue_request(req);
	end_that_request_last(req, 0);
	spin_unlock_irq(&md->lock);
}

static void bc_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	if (req)
		bc_issue(&bc_dev, req, 512, 1);
}

static void bc_init_queue(struct bc_dev *d, spinlock_t *lock)
{
	d->q = blk_init_queue(bc_request, lock);
}

static int bc_init(void)
{
	bc_init_queue(&bc_dev, &bc_dev.lock);
	return 0;
}

/*
 * check-exit: 1
 * check-brief-start
 * branch_chunks.c:28:9 bc_issue end_that_request_chunk auto result_used lock=held uptodate=constant new=__blk_end_request(req, 0, bytes)
 * branch_chunks.c:31:4 bc_issue end_that_request_last auto result_used lock=held uptodate=constant
 * branch_chunks.c:38:9 bc_issue end_that_request_chunk manual chunk lock=held uptodate=constant reason=uptodate_unknown
 * branch_chunks.c:42:9 bc_issue end_that_request_chunk manual chunk lock=held uptodate=constant reason=uptodate_unknown
 * branch_chunks.c:48:9 bc_issue end_that_request_chunk manual chunk lock=held uptodate=constant reason=shape
 * branch_chunks.c:50:2 bc_issue end_that_request_last manual chunk lock=held uptodate=constant reason=uptodate_unknown
 * check-brief-end
 * check-text-start
 * in the other branch of the if at line 36 than the data completion at line 38
 * check-text-end
 * check-text-absent-start
 * lock: unknown
 * check-text-absent-end
 */
