/* Mentions blk_init_queue(cal_request, &cal_lock) only in this comment: it gives no
 * queue to anything, so the tree pass does not parse it for registrations. */
#include <linux/kernel.h>

int cal_notes_version(void)
{
	return 2;
}
