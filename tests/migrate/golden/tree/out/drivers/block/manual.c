/*
 * manual.c - migrate golden input: an exported helper that ends the
 * request's bios itself, one by one, and then calls end_that_request_last
 * alone.  2.6.25 has no call that finishes a request while leaving the bios
 * to the driver: whether to drop the driver's own bio completion is a
 * decision for a human (last_may_have_data), and the file stays as it is.
 */
#include <linux/module.h>
#include <linux/blkdev.h>

void manual_finish(struct request *rq, int uptodate)
{
	struct bio *bio;

	while ((bio = rq->bio) != NULL) {
		rq->bio = bio->bi_next;
		bio_endio(bio, bio->bi_size, uptodate > 0 ? 0 : -EIO);
	}
	end_that_request_last(rq, uptodate);
}
EXPORT_SYMBOL(manual_finish);
