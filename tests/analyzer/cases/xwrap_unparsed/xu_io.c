/* A caller in the driver's other file. */
struct request;
void xu_end_request(struct request *rq, int uptodate);

void xu_fail(struct request *rq)
{
	xu_end_request(rq, 0);
}
