/*
 * partial.c - migrate property input: a vendor driver with one site blkmig converts
 * (end_request in its request_fn, lock held) and one a human must decide (a helper
 * that ends the bios itself, then calls end_that_request_last alone).  Converting only
 * the first would mix the 2.6.24 and 2.6.25 APIs in one file: migrate must leave the
 * file whole and say which site needs the human (partial_file).
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(vnd_lock);
static struct request_queue *vnd_q;

void vnd_abort(struct request *rq, int uptodate)
{
	struct bio *bio;

	while ((bio = rq->bio) != NULL) {
		rq->bio = bio->bi_next;
		bio_endio(bio, bio->bi_size, uptodate > 0 ? 0 : -EIO);
	}
	end_that_request_last(rq, uptodate);
}
EXPORT_SYMBOL(vnd_abort);

static void vnd_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 1);
}

static int __init vnd_init(void)
{
	vnd_q = blk_init_queue(vnd_request, &vnd_lock);
	return vnd_q ? 0 : -ENOMEM;
}
module_init(vnd_init);
