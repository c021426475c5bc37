/* Left: data completions and nothing that ends the request (the mmc dead
 * queue shape): every new call would also end it. */
#include <linux/blkdev.h>

static void nl_kill_requests(struct request_queue *q)
{
	struct request *req;
	int ret;

	while ((req = elv_next_request(q)) != NULL) {
		do {
			ret = end_that_request_chunk(req, 0,
					req->current_nr_sectors << 9);
		} while (ret);
	}
}
