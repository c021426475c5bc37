/* A driver with a syntax error inside the function that holds the legacy call. */
#include <linux/blkdev.h>

static spinlock_t sif_lock;

static void sif_request(struct request_queue *q)
{
	struct request *rq;
	int x = ;

	while ((rq = elv_next_request(q)) != NULL)
		end_request(rq, 1);
}

static int sif_init(void)
{
	blk_init_queue(sif_request, &sif_lock);
	return 0;
}
