/*
 * Issue 20 item 1: a PIO driver that counts sector, buffer and
 * current_nr_sectors down as it transfers (like legacy/hd.c).  At its
 * end_request calls blk_rq_cur_bytes(rq) (current_nr_sectors << 9) is no
 * longer what end_request completed (hard_cur_sectors << 9): it can be 0.
 * The fields fact fails on (a): the literal count, as 2.6.25's own
 * end_request passes it.
 */
#include <linux/blkdev.h>

static struct request_queue *pio_queue;
#define CURRENT elv_next_request(pio_queue)

static char pio_port[512];

static void pio_copy(char *dst, const char *src, int n)
{
	while (n--)
		*dst++ = *src++;
}

static void pio_read_intr(void)
{
	struct request *req = CURRENT;
	int i;

	pio_copy(req->buffer, pio_port, 512);
	req->sector++;
	req->buffer += 512;
	i = --req->nr_sectors;
	--req->current_nr_sectors;
	if (req->current_nr_sectors <= 0)
		end_request(req, 1);
	if (i > 0)
		return;
}

static void pio_times_out(void)
{
	end_request(CURRENT, 0);
}

static void pio_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		pio_read_intr();
		pio_times_out();
		return;
	}
}
