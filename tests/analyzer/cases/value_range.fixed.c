/*
 * value_range.c - a value that can only be 0 or 1 at the call is written
 * x ? 0 : -EIO, not the three-way form (issue 22 point 1, value ranges):
 *   a local given only calls of functions of the file whose every return is
 *   0 or 1 (also through another such function; xd.c's xd_readwrite,
 *   mtd_blkdevs.c's do_blktrans_request)          -> res ? 0 : -EIO
 *   a local given a call of a function that also returns -ENXIO
 *                                                   -> the exact mapping
 *   the call under case labels 0 and 1 (enum constants) of a switch on the
 *   variable (pd.c's run_fsm: switch (res = phase()) { case Ok: case Fail: })
 *                                                   -> res ? 0 : -EIO
 *   the same switch with a default label before the call, a case 2 falling
 *   into it, or the variable assigned in the case body -> the exact mapping
 *   a local only ever given constants, the call guarded by `v != C` and the
 *   other constants 0 or 1 (ps2esdi.c's ending: -1, FAIL, SUCCES, the call
 *   under `if (ending != -1)`)                   -> ending ? 0 : -EIO
 *   the same with an unsigned char (-1 stored is 255, never equal to -1), a
 *   constant 2 among the values, or the local assigned under the guard
 *                                                   -> the exact mapping
 */
#include <linux/blkdev.h>

enum vr_action { VR_FAIL = 0, VR_OK = 1, VR_HOLD, VR_WAIT };

static DEFINE_SPINLOCK(vr_lock);
static int vr_state;
static enum vr_action (*vr_phase)(void);

static int vr_transfer(struct request *rq)
{
	if (!blk_fs_request(rq))
		return 0;
	if (rq->sector > 64)
		return (0);
	return 1;
}

static int vr_retry(struct request *rq)
{
	if (vr_state)
		return vr_state > 2;
	return vr_transfer(rq);
}

static int vr_check(struct request *rq)
{
	if (rq->sector > 8)
		return -ENXIO;
	return vr_transfer(rq);
}

static void vr_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		int res = 0;
		int tries;

		for (tries = 0; tries < 3 && !res; tries++)
			res = vr_transfer(rq);
		__blk_end_request(rq, res ? 0 : -EIO, blk_rq_cur_bytes(rq));
	}
}

static void vr_retry_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		int ret;

		ret = vr_retry(rq);
		__blk_end_request(rq, ret ? 0 : -EIO, blk_rq_cur_bytes(rq));
	}
}

static void vr_check_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		int ret = vr_check(rq);

		__blk_end_request(rq, ret > 0 ? 0 : (ret ? ret : -EIO),
				  blk_rq_cur_bytes(rq));
	}
}

static void vr_fsm(struct request *rq)
{
	enum vr_action res;
	unsigned long flags;

	switch (res = vr_phase()) {
	case VR_OK: case VR_FAIL:
		spin_lock_irqsave(&vr_lock, flags);
		__blk_end_request(rq, res ? 0 : -EIO, blk_rq_cur_bytes(rq));
		spin_unlock_irqrestore(&vr_lock, flags);
	case VR_HOLD:
		break;
	case VR_WAIT:
		break;
	}
}

static void vr_fsm_default(struct request *rq)
{
	enum vr_action res;
	unsigned long flags;

	switch (res = vr_phase()) {
	case VR_OK:
	default:
		spin_lock_irqsave(&vr_lock, flags);
		__blk_end_request(rq, res > 0 ? 0 : (res ? res : -EIO),
				  blk_rq_cur_bytes(rq));
		spin_unlock_irqrestore(&vr_lock, flags);
	}
}

static void vr_fsm_fallthrough(struct request *rq)
{
	enum vr_action res = vr_phase();
	unsigned long flags;

	switch (res) {
	case VR_HOLD:
		vr_state++;
	case VR_OK: case VR_FAIL:
		spin_lock_irqsave(&vr_lock, flags);
		__blk_end_request(rq, res > 0 ? 0 : (res ? res : -EIO),
				  blk_rq_cur_bytes(rq));
		spin_unlock_irqrestore(&vr_lock, flags);
		break;
	default:
		break;
	}
}

static void vr_fsm_assigned(struct request *rq)
{
	enum vr_action res;
	unsigned long flags;

	switch (res = vr_phase()) {
	case VR_OK: case VR_FAIL:
		if (rq->errors)
			res = VR_WAIT;
		spin_lock_irqsave(&vr_lock, flags);
		__blk_end_request(rq, res > 0 ? 0 : (res ? res : -EIO),
				  blk_rq_cur_bytes(rq));
		spin_unlock_irqrestore(&vr_lock, flags);
		break;
	default:
		break;
	}
}

static void vr_guard(struct request *rq, int code)
{
	unsigned long flags;
	unsigned int ending;

	switch (code) {
	case 0:
		ending = -1;
		break;
	case 1:
		ending = VR_FAIL;
		break;
	default:
		ending = 1;
		break;
	}
	if (ending != -1) {
		spin_lock_irqsave(&vr_lock, flags);
		__blk_end_request(rq, ending ? 0 : -EIO, blk_rq_cur_bytes(rq));
		spin_unlock_irqrestore(&vr_lock, flags);
	}
}

static void vr_guard_narrow(struct request *rq, int code)
{
	unsigned long flags;
	unsigned char ending = 0;

	if (code)
		ending = 1;
	if (code > 4)
		ending = -1;
	if (ending != -1) {
		spin_lock_irqsave(&vr_lock, flags);
		__blk_end_request(rq,
				  ending > 0 ? 0 : (ending ? ending : -EIO),
				  blk_rq_cur_bytes(rq));
		spin_unlock_irqrestore(&vr_lock, flags);
	}
}

static void vr_guard_other(struct request *rq, int code)
{
	unsigned long flags;
	int ending = 0;

	if (code == 1)
		ending = -1;
	if (code == 2)
		ending = 2;
	if (ending != -1) {
		spin_lock_irqsave(&vr_lock, flags);
		__blk_end_request(rq,
				  ending > 0 ? 0 : (ending ? ending : -EIO),
				  blk_rq_cur_bytes(rq));
		spin_unlock_irqrestore(&vr_lock, flags);
	}
}

static void vr_guard_assigned(struct request *rq, int code)
{
	unsigned long flags;
	int ending = code ? -1 : 1;

	if (ending != -1) {
		if (rq->errors)
			ending = -1;
		spin_lock_irqsave(&vr_lock, flags);
		__blk_end_request(rq,
				  ending > 0 ? 0 : (ending ? ending : -EIO),
				  blk_rq_cur_bytes(rq));
		spin_unlock_irqrestore(&vr_lock, flags);
	}
}

int __init vr_init(void)
{
	if (!blk_init_queue(vr_request, &vr_lock) ||
	    !blk_init_queue(vr_retry_request, &vr_lock) ||
	    !blk_init_queue(vr_check_request, &vr_lock))
		return -ENOMEM;
	vr_fsm(NULL);
	vr_fsm_default(NULL);
	vr_fsm_fallthrough(NULL);
	vr_fsm_assigned(NULL);
	vr_guard(NULL, 0);
	vr_guard_narrow(NULL, 0);
	vr_guard_other(NULL, 0);
	vr_guard_assigned(NULL, 0);
	return 0;
}

/*
 * check-exit: 0
 * check-brief-start
 * value_range.c:62:3 vr_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, res ? 0 : -EIO, blk_rq_cur_bytes(rq))
 * value_range.c:74:3 vr_retry_request end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, ret ? 0 : -EIO, blk_rq_cur_bytes(rq))
 * value_range.c:85:3 vr_check_request end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, ret > 0 ? 0 : (ret ? ret : -EIO), blk_rq_cur_bytes(rq))
 * value_range.c:97:3 vr_fsm end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, res ? 0 : -EIO, blk_rq_cur_bytes(rq))
 * value_range.c:115:3 vr_fsm_default end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, res > 0 ? 0 : (res ? res : -EIO), blk_rq_cur_bytes(rq))
 * value_range.c:130:3 vr_fsm_fallthrough end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, res > 0 ? 0 : (res ? res : -EIO), blk_rq_cur_bytes(rq))
 * value_range.c:148:3 vr_fsm_assigned end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, res > 0 ? 0 : (res ? res : -EIO), blk_rq_cur_bytes(rq))
 * value_range.c:174:3 vr_guard end_request auto end_request lock=held uptodate=boolean new=__blk_end_request(rq, ending ? 0 : -EIO, blk_rq_cur_bytes(rq))
 * value_range.c:190:3 vr_guard_narrow end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, ending > 0 ? 0 : (ending ? ending : -EIO), blk_rq_cur_bytes(rq))
 * value_range.c:206:3 vr_guard_other end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, ending > 0 ? 0 : (ending ? ending : -EIO), blk_rq_cur_bytes(rq))
 * value_range.c:220:3 vr_guard_assigned end_request auto end_request lock=held uptodate=errno_capable new=__blk_end_request(rq, ending > 0 ? 0 : (ending ? ending : -EIO), blk_rq_cur_bytes(rq))
 * check-brief-end
 * check-text-start
 *     uptodate: res (boolean: res is 0 or 1: vr_transfer() returns only 0 or 1) -> error res ? 0 : -EIO
 *     uptodate: ret (boolean: ret is 0 or 1: vr_retry() returns only 0 or 1) -> error ret ? 0 : -EIO
 *     uptodate: res (boolean: res is 0 or 1: the call is reached only through case VR_OK, case VR_FAIL of the switch on it) -> error res ? 0 : -EIO
 *     uptodate: ending (boolean: ending is 0 or 1: it is only given the constants -1, 0, 1 and the call is guarded by ending != -1) -> error ending ? 0 : -EIO
 * check-text-end
 */
