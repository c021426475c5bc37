/*
 * Real-driver shape: work after end_that_request_last inside the block stays
 * in the block; the helper's lock context is unknown (a function pointer),
 * but _last needed the lock and none is taken between: same contract.
 */
#include <linux/blkdev.h>

struct bt_cmd {
	struct request *req;
	int block_count;
	int *completion;
};

static int bt_finish(struct bt_cmd *cmd, int successful)
{
	struct request *req = cmd->req;
	int uptodate;

	uptodate = 0;
	if (successful)
		uptodate = 1;

	if (!end_that_request_first(req, uptodate, cmd->block_count)) {
		add_disk_randomness(req->rq_disk);
		end_that_request_last(req, uptodate);

		if (cmd->completion) {
			*cmd->completion = 1;
			cmd->completion = NULL;
		}
		return 1;
	}
	return 0;
}

int (*bt_finish_hook)(struct bt_cmd *cmd, int successful) = bt_finish;
