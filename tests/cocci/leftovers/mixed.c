/*
 * Input of the leftover-scan test: only the call on the line marked CALL is
 * a legacy call; comments, strings, prototypes, definitions and look-alikes
 * are not.  end_request(rq, 1) in this comment does not count.
 */
void end_request(struct request *rq, int uptodate);
static void
end_queued_request(struct request *rq, int uptodate)
{
	printk("end_that_request_last(%p)\n", rq); // end_request(rq, 0)
	my_end_request(rq, uptodate);
	dev->end_request(rq, uptodate);
	end_request(rq, uptodate); /* CALL */
}
