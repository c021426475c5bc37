/*
 * manual.c - migrate golden input: an exported helper with no caller in the
 * run, ending a request with end_that_request_last alone. Whether the lock
 * is held and whether the request still holds bios cannot be known: the
 * site is reported for manual review and the file stays as it is.
 */
#include <linux/module.h>
#include <linux/blkdev.h>

void manual_finish(struct request *rq, int uptodate)
{
	end_that_request_last(rq, uptodate);
}
EXPORT_SYMBOL(manual_finish);
