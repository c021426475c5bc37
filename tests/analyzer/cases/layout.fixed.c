/*
 * The layout of the lines a conversion adds (indent_fix.c, issue 22): a broken
 * indentation on a rewritten line becomes tabs (column / 8), a line that grows to 80
 * columns or more (past 100 with the driver's trailing comment, at 39) is broken after
 * an argument's comma as spatch breaks it; a function indented with spaces keeps them.
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(lay_lock);

static int lay_transfer(struct request *rq)
{
	return rq->sector < 4096 ? 1 : -EIO;
}

static void lay_request(struct request_queue *q)
{
	struct request *rq;
	int status;

	while ((rq = elv_next_request(q)) != NULL) {
		if (rq->sector > 8192) {
			__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
			continue;
		}
		if (!blk_fs_request(rq)) {
		__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));
			continue;
		}
		if (rq->cmd_flags)
		__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));
		status = lay_transfer(rq);
		if (status != 1) {
			if (rq->errors) {
				__blk_end_request(rq,
						  status > 0 ? 0 : (status ? status : -EIO),
						  blk_rq_cur_bytes(rq));
				continue;
			}
		}
		__blk_end_request(rq, 0,
				  blk_rq_cur_bytes(rq)); /* the last: the driver's own comment */
	}
}

static void lay_spaces(struct request_queue *q)
{
    struct request *rq;
    int status;

    while ((rq = elv_next_request(q)) != NULL) {
        if (rq->errors) {
            if (rq->sector > 8192) {
                if (rq->nr_sectors > 8) {
                    status = lay_transfer(rq);
                    __blk_end_request(rq,
                                      status > 0 ? 0 : (status ? status : -EIO),
                                      blk_rq_cur_bytes(rq));
                    continue;
                }
            }
        }
        __blk_end_request(rq, 0, blk_rq_cur_bytes(rq));
    }
}

static int lay_init(void)
{
	blk_init_queue(lay_request, &lay_lock);
	blk_init_queue(lay_spaces, &lay_lock);
	return 0;
}

/*
 * check-exit: 0
 * check-brief-start
 * layout.c:23:18 lay_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * layout.c:27:4 lay_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq))
 * layout.c:31:5 lay_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_cur_bytes(rq))
 * layout.c:35:5 lay_request end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, status > 0 ? 0 : (status ? status : -EIO), blk_rq_cur_bytes(rq))
 * layout.c:39:3 lay_request end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_cur_bytes(rq))
 * layout.c:53:21 lay_spaces end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, status > 0 ? 0 : (status ? status : -EIO), blk_rq_cur_bytes(rq))
 * layout.c:58:9 lay_spaces end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_cur_bytes(rq))
 * check-brief-end
 */
