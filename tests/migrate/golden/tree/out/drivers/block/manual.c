/*
 * manual.c - migrate golden input: an exported helper with no caller in the
 * run that ends the request's bios itself (through rq->bio), then ends the
 * request with end_that_request_last alone. A 2.6.25 call would end those
 * bios a second time for any byte count, and never end the request for 0
 * bytes: the site is reported for manual review and the file stays as it is.
 */
#include <linux/module.h>
#include <linux/blkdev.h>

extern void manual_end_bios(struct bio *bio, int uptodate);

void manual_finish(struct request *rq, int uptodate)
{
	manual_end_bios(rq->bio, uptodate);
	end_that_request_last(rq, uptodate);
}
EXPORT_SYMBOL(manual_finish);
