/*
 * rules.c - the equivalence rules the converters (cocci/ and the analyzer)
 * apply: for each, the old 2.6.24 code, the new 2.6.25 code, and the
 * preconditions under which they do the same thing, each a predicate over
 * the generated state.  props.c runs every rule on the states meeting all
 * its preconditions (they must agree) and, for each precondition, on states
 * meeting all others but that one (some state must tell them apart).
 * `free` lists conditions the converters (may) check that the model shows
 * are not needed for the rule to hold.
 */
#include "props.h"

#define W  (&c->w)
#define RQ (m_rq(&c->w))

/* ---- preconditions ----------------------------------------------------------------- */
static bool queued(const struct m_case *c)
{
	return c->w.rq.list == M_ON_QUEUE;
}

static bool dequeued(const struct m_case *c)
{
	return c->w.rq.list == M_OFF_LIST && c->w.rq.tag < 0;
}

static bool not_queued(const struct m_case *c)
{
	return c->w.rq.list != M_ON_QUEUE;
}

static bool hk_matches(const struct m_case *c)
{
	const struct m_request *rq = &c->w.rq;

	switch (c->hk) {
	case HK_DEQUEUE: return rq->list == M_ON_QUEUE;
	case HK_END_TAG: return rq->tag >= 0;
	default: return rq->list == M_OFF_LIST && rq->tag < 0;
	}
}

static bool no_special_bios(const struct m_case *c)
{
	return c->w.rq.type != M_SPECIAL || c->w.rq.bio < 0;
}

static bool special_errors_clear(const struct m_case *c)
{
	return c->w.rq.type != M_SPECIAL || c->w.rq.errors == 0;
}

static bool not_special(const struct m_case *c)
{
	return c->w.rq.type != M_SPECIAL;
}

static bool not_pc(const struct m_case *c)
{
	return c->w.rq.type != M_PC;
}

static bool fs(const struct m_case *c)
{
	return c->w.rq.type == M_FS;
}

static bool cur_not_written(const struct m_case *c)
{
	return !(c->w.written & M_W_CUR);
}

static bool pos_not_written(const struct m_case *c)
{
	return !(c->w.written & (M_W_SECTOR | M_W_NR | M_W_BUFFER));
}

static bool nr_not_written(const struct m_case *c)
{
	return !(c->w.written & M_W_NR);
}

static bool datalen_not_written(const struct m_case *c)
{
	return !(c->w.written & M_W_DATALEN);
}

static bool b_covers_left(const struct m_case *c)
{
	return c->b >= 0 && (unsigned int)c->b >= m_bytes_left(&c->w);
}

static bool n_covers_left(const struct m_case *c)
{
	return c->n >= 0 && ((unsigned int)c->n << 9) >= m_bytes_left(&c->w);
}

static bool no_data_left(const struct m_case *c)
{
	return c->w.rq.type == M_SPECIAL || c->w.rq.bio < 0;
}

/* no earlier completion stopped inside a sector: the current bvec is whole sectors */
static bool sector_aligned(const struct m_case *c)
{
	const struct m_request *rq = &c->w.rq;

	return rq->bio < 0 || rq->bios[rq->bio].vec[rq->bios[rq->bio].idx].len % 512 == 0;
}

static bool lock_free(const struct m_case *c)
{
	return !c->w.lock_held;
}

static bool fs_errors_clear(const struct m_case *c)
{
	return c->w.rq.type != M_FS || c->w.rq.errors == 0;
}

/* scsi_end_request: the test that kills the rest implies !uptodate */
static bool kill_implies_failure(const struct m_case *c)
{
	return !c->noretry || c->strict || m_E(c->u) == -M_EIO;
}

/* rq_disk, data_len: nothing in a completion changes them */
static bool field_invariant(const struct m_case *c)
{
	return c->field == F_DISK || c->field == F_DATA_LEN;
}

/* the new call cannot end the request: a data part that leaves bytes */
static bool call_leaves_bytes(const struct m_case *c)
{
	return c->w.rq.type != M_SPECIAL && c->n >= 0 &&
	       ((unsigned int)c->n << 9) < m_bytes_left(&c->w);
}

static const struct m_pre P_QUEUED = {"queued", queued};
static const struct m_pre P_DEQUEUED = {"dequeued", dequeued};
static const struct m_pre P_NOT_QUEUED = {"not-queued", not_queued};
static const struct m_pre P_HK = {"housekeeping-matches-state", hk_matches};
static const struct m_pre P_NO_SPECIAL_BIOS = {"no-special-with-bios", no_special_bios};
static const struct m_pre P_SPECIAL_ERRORS = {"special-errors-clear", special_errors_clear};
static const struct m_pre P_NOT_SPECIAL = {"not-special", not_special};
static const struct m_pre P_NOT_PC = {"not-pc", not_pc};
static const struct m_pre P_FS = {"fs", fs};
static const struct m_pre P_CUR = {"current_nr_sectors-not-written", cur_not_written};
static const struct m_pre P_POS = {"sector-nr_sectors-buffer-not-written", pos_not_written};
static const struct m_pre P_NR = {"nr_sectors-not-written", nr_not_written};
static const struct m_pre P_DATALEN = {"data_len-not-written", datalen_not_written};
static const struct m_pre P_B_COVERS = {"bytes-cover-all-left", b_covers_left};
static const struct m_pre P_N_COVERS = {"sectors-cover-all-left", n_covers_left};
static const struct m_pre P_NO_DATA = {"no-data-left", no_data_left};
static const struct m_pre P_ALIGNED = {"progress-sector-aligned", sector_aligned};
static const struct m_pre P_INVARIANT = {"field-completion-invariant", field_invariant};
static const struct m_pre P_LEAVES = {"call-cannot-end-request", call_leaves_bytes};
static const struct m_pre P_LOCK_FREE = {"lock-not-held", lock_free};
static bool lock_held(const struct m_case *c)
{
	return c->w.lock_held;
}
static const struct m_pre P_LOCK_HELD = {"lock-held", lock_held};
static const struct m_pre P_FS_ERRORS = {"fs-errors-clear", fs_errors_clear};
static const struct m_pre P_KILL = {"kill-test-implies-failure", kill_implies_failure};

/* ---- old-code helpers -------------------------------------------------------------- */
static void old_hk(struct m_case *c)
{
	if (c->hk == HK_DEQUEUE)
		m_dequeue(W);
	else if (c->hk == HK_END_TAG)
		m_end_tag(W);
}

/* if (!ret) { add_disk_randomness; housekeeping; end_that_request_last } */
static int old_pair_tail(struct m_case *c, int ret)
{
	if (!ret) {
		m_add_disk_randomness(W);
		old_hk(c);
		end_that_request_last(W, c->u);
	}
	return ret;
}

static int ret1(struct m_world *w)
{
	(void)w;
	return 1;
}

/* ---- R2, R3, R2L: end_request --------------------------------------------------------- */
static int o_end_request(struct m_case *c)
{
	end_request(W, c->u);
	return 0;
}

static int n_blk_hard_cur(struct m_case *c)
{
	return __blk_end_request(W, m_E(c->u), (int)(RQ->hard_cur_sectors << 9));
}

static int n_blk_cur_bytes(struct m_case *c)
{
	return __blk_end_request(W, m_E(c->u), (int)blk_rq_cur_bytes(W));
}

static int n_unlocked_hard_cur(struct m_case *c)
{
	return blk_end_request(W, m_E(c->u), (int)(RQ->hard_cur_sectors << 9));
}

/* ---- R4..R7: if (!first/chunk) { ...; last } ------------------------------------------ */
static int o_first_n(struct m_case *c)
{
	return old_pair_tail(c, end_that_request_first(W, c->u, c->n));
}

static int n_blk_n(struct m_case *c)
{
	return __blk_end_request(W, m_E(c->u), c->n << 9);
}

static int o_chunk_b(struct m_case *c)
{
	return old_pair_tail(c, end_that_request_chunk(W, c->u, c->b));
}

static int n_blk_b(struct m_case *c)
{
	return __blk_end_request(W, m_E(c->u), c->b);
}

static int o_first_n_lock_around_last(struct m_case *c)
{
	int ret = end_that_request_first(W, c->u, c->n);

	if (!ret) {
		m_add_disk_randomness(W);
		m_lock(W);
		old_hk(c);
		end_that_request_last(W, c->u);
		m_unlock(W);
	}
	return ret;
}

static int n_unlocked_n(struct m_case *c)
{
	return blk_end_request(W, m_E(c->u), c->n << 9);
}

static int o_first_hard_nr(struct m_case *c)
{
	return old_pair_tail(c, end_that_request_first(W, c->u, (int)RQ->hard_nr_sectors));
}

static int o_first_nr(struct m_case *c)
{
	return old_pair_tail(c, end_that_request_first(W, c->u, (int)RQ->nr_sectors));
}

static int o_first_cur(struct m_case *c)
{
	return old_pair_tail(c, end_that_request_first(W, c->u, (int)RQ->current_nr_sectors));
}

static int o_first_hard_cur(struct m_case *c)
{
	return old_pair_tail(c, end_that_request_first(W, c->u, (int)RQ->hard_cur_sectors));
}

static int n_blk_bytes(struct m_case *c)
{
	return __blk_end_request(W, m_E(c->u), (int)blk_rq_bytes(W));
}

/* ---- R8: the whole request, result ignored -> one call (it always ends the request) -- */
static int o_chunk_b_unconditional(struct m_case *c)
{
	end_that_request_chunk(W, c->u, c->b);
	old_hk(c);
	end_that_request_last(W, c->u);
	return 0;
}

static int o_first_n_unconditional(struct m_case *c)
{
	end_that_request_first(W, c->u, c->n);
	old_hk(c);
	end_that_request_last(W, c->u);
	return 0;
}

/* the count covers every byte left (P_B_COVERS, P_N_COVERS): the result is always 0,
 * so no BUG() checks it (checkpatch's AVOID_BUG) */
static int n_blk_b_whole(struct m_case *c)
{
	__blk_end_request(W, m_E(c->u), c->b);
	return 0;
}

static int n_blk_n_whole(struct m_case *c)
{
	__blk_end_request(W, m_E(c->u), c->n << 9);
	return 0;
}

/* ---- R9, R10: end_queued_request / end_dequeued_request ------------------------------ */
static int o_end_queued(struct m_case *c)
{
	end_queued_request(W, c->u);
	return 0;
}

static int o_end_dequeued(struct m_case *c)
{
	end_dequeued_request(W, c->u);
	return 0;
}

/* ---- R11, R12: last-only --------------------------------------------------------------- */
static int o_last_only(struct m_case *c)
{
	old_hk(c);
	end_that_request_last(W, c->u);
	return 0;
}

static int n_blk_zero(struct m_case *c)
{
	return __blk_end_request(W, m_E(c->u), 0);
}

/* ---- R13: a data-only completion (result unused; the final step runs later) ----------- */
static int o_chunk_data_only(struct m_case *c)
{
	end_that_request_chunk(W, c->u, c->b);
	return 0;
}

static int n_callback_data_only(struct m_case *c)
{
	blk_end_request_callback(W, m_E(c->u), c->b, ret1);
	return 0;
}

/* ---- R14: the loop over current_nr_sectors -------------------------------------------- */
static int o_loop_cur(struct m_case *c)
{
	int guard = 0;

	while (end_that_request_first(W, c->u, (int)RQ->current_nr_sectors))
		if (++guard > 4096) {
			W->o.hang = true; /* the driver spins for ever */
			return 0;
		}
	m_add_disk_randomness(W);
	old_hk(c);
	end_that_request_last(W, c->u);
	return 0;
}

/* ---- R15: scsi_end_request's leftover (requeue = 0) ---------------------------------- */
static bool kill_rest(const struct m_case *c)
{
	return c->noretry && (!c->strict || c->u == 0);
}

static unsigned int leftover(struct m_case *c)
{
	return RQ->type == M_PC ? RQ->data_len : RQ->hard_nr_sectors << 9;
}

static int o_scsi_leftover(struct m_case *c)
{
	if (end_that_request_chunk(W, c->u, c->b)) {
		unsigned int rest = leftover(c);

		if (kill_rest(c))
			end_that_request_chunk(W, 0, (int)rest);
		else
			return 1; /* the command is kept for the rest */
	}
	m_add_disk_randomness(W);
	m_lock(W);
	if (RQ->tag >= 0)
		m_end_tag(W);
	end_that_request_last(W, c->u);
	m_unlock(W);
	return 0;
}

static int n_scsi_leftover(struct m_case *c)
{
	if (blk_end_request(W, m_E(c->u), c->b)) {
		unsigned int rest = leftover(c);

		if (kill_rest(c))
			blk_end_request(W, -M_EIO, (int)rest);
		else
			return 1;
	}
	return 0;
}

/* ---- R16: a read of the request between the data part and the final step ------------ */
static long read_field(struct m_case *c)
{
	struct m_request *rq = RQ;

	switch (c->field) {
	case F_DISK: return rq->has_disk;
	case F_DATA_LEN: return rq->data_len;
	case F_ERRORS: return rq->errors;
	case F_SECTOR: return (long)rq->sector;
	default: return rq->current_nr_sectors;
	}
}

static int o_pair_with_read(struct m_case *c)
{
	long v = -1;

	if (!end_that_request_first(W, c->u, c->n)) {
		m_add_disk_randomness(W);
		old_hk(c);
		v = read_field(c); /* e.g. a driver's accounting of rq->rq_disk */
		end_that_request_last(W, c->u);
	}
	return (int)v;
}

static int n_hoisted_read(struct m_case *c)
{
	long v = read_field(c); /* typeof(rq->x) x = rq->x; before the call */

	return __blk_end_request(W, m_E(c->u), c->n << 9) ? -1 : (int)v;
}

static int o_read_after_data(struct m_case *c)
{
	long v = -1;

	if (end_that_request_first(W, c->u, c->n))
		v = read_field(c);
	else
		old_pair_tail(c, 0);
	return (int)v;
}

static int n_read_after_call(struct m_case *c)
{
	__blk_end_request(W, m_E(c->u), c->n << 9);
	return (int)read_field(c); /* the read left after the new call */
}

/* ---- R18: data-only completion, the final step later (ide-cd's cdrom_newpc_intr) ------ */
static void driver_between(struct m_case *c)
{
	if (c->zero_datalen)
		RQ->data_len = 0; /* the DMA path: rq->data_len = 0; goto end_request; */
}

static int o_data_only_then_last(struct m_case *c)
{
	end_that_request_chunk(W, c->u, c->b);
	driver_between(c);
	m_lock(W);
	old_hk(c);
	end_that_request_last(W, c->u);
	m_unlock(W);
	return 0;
}

static int n_data_only_then_last(struct m_case *c)
{
	blk_end_request_callback(W, m_E(c->u), c->b, ret1);
	driver_between(c);
	m_lock(W);
	__blk_end_request(W, m_E(c->u), (int)blk_rq_bytes(W));
	m_unlock(W);
	return 0;
}

/* ---- R19: work between the data part and the lock moves into a callback (cocci) ------ */
static long seen_by_work;

static void driver_work(struct m_case *c)
{
	seen_by_work = read_field(c); /* uses only the request and globals */
}

static struct m_case *cb_case; /* the callback's view of its request's case */

static int end_cb(struct m_world *w)
{
	(void)w;
	driver_work(cb_case);
	return 0;
}

static int o_work_then_locked_last(struct m_case *c)
{
	int ret = end_that_request_first(W, c->u, c->n);

	seen_by_work = -1;
	if (!ret) {
		driver_work(c);
		m_add_disk_randomness(W);
		m_lock(W);
		old_hk(c);
		end_that_request_last(W, c->u);
		m_unlock(W);
	}
	return ret * 1000003 + (int)seen_by_work;
}

static int n_callback_end_cb(struct m_case *c)
{
	int ret;

	seen_by_work = -1;
	cb_case = c;
	ret = blk_end_request_callback(W, m_E(c->u), c->n << 9, end_cb);
	return ret * 1000003 + (int)seen_by_work;
}

/* ---- the table --------------------------------------------------------------------------- */
const struct m_rule m_rules[] = {
    {"R2-end_request-hard_cur",
     "end_request(rq, u)  [lock held or not]",
     "__blk_end_request(rq, E(u), rq->hard_cur_sectors << 9)",
     o_end_request,
     n_blk_hard_cur,
     M_CMP_NO_RET,
     {&P_QUEUED, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {&P_LOCK_HELD}},
    {"R2L-end_request-unlocked",
     "end_request(rq, u)  [lock NOT held: an old race]",
     "blk_end_request(rq, E(u), rq->hard_cur_sectors << 9)",
     o_end_request,
     n_unlocked_hard_cur,
     M_CMP_NO_RET | M_CMP_NO_RACE,
     {&P_QUEUED, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS, &P_LOCK_FREE},
     {0}},
    {"R3-end_request-cur_bytes",
     "end_request(rq, u)",
     "__blk_end_request(rq, E(u), blk_rq_cur_bytes(rq))",
     o_end_request,
     n_blk_cur_bytes,
     M_CMP_NO_RET,
     {&P_QUEUED, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS, &P_NOT_PC, &P_CUR},
     {&P_POS}},
    {"R4-first-pair",
     "if (!end_that_request_first(rq, u, n)) { add_disk_randomness; HK; "
     "end_that_request_last(rq, u); }",
     "__blk_end_request(rq, E(u), n << 9)",
     o_first_n,
     n_blk_n,
     M_CMP_ALL,
     {&P_HK, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {&P_LOCK_HELD}},
    {"R5-chunk-pair",
     "if (!end_that_request_chunk(rq, u, b)) { add_disk_randomness; HK; "
     "end_that_request_last(rq, u); }",
     "__blk_end_request(rq, E(u), b)",
     o_chunk_b,
     n_blk_b,
     M_CMP_ALL,
     {&P_HK, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {&P_LOCK_HELD}},
    {"R6-first-pair-lock-around-last",
     "if (!end_that_request_first(rq, u, n)) { add_disk_randomness; spin_lock; HK; "
     "end_that_request_last(rq, u); spin_unlock; }",
     "blk_end_request(rq, E(u), n << 9)",
     o_first_n_lock_around_last,
     n_unlocked_n,
     M_CMP_ALL,
     {&P_HK, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {&P_LOCK_FREE}},
    {"R7-hard_nr_sectors-as-blk_rq_bytes",
     "if (!end_that_request_first(rq, u, rq->hard_nr_sectors)) { ...; last }",
     "__blk_end_request(rq, E(u), blk_rq_bytes(rq))",
     o_first_hard_nr,
     n_blk_bytes,
     M_CMP_ALL,
     {&P_HK, &P_FS},
     {0}},
    {"R7b-nr_sectors-as-blk_rq_bytes",
     "if (!end_that_request_first(rq, u, rq->nr_sectors)) { ...; last }",
     "__blk_end_request(rq, E(u), blk_rq_bytes(rq))",
     o_first_nr,
     n_blk_bytes,
     M_CMP_ALL,
     {&P_HK, &P_FS, &P_NR},
     {0}},
    {"R7c-current_nr_sectors-as-blk_rq_cur_bytes",
     "if (!end_that_request_first(rq, u, rq->current_nr_sectors)) { ...; last }",
     "__blk_end_request(rq, E(u), blk_rq_cur_bytes(rq))",
     o_first_cur,
     n_blk_cur_bytes,
     M_CMP_ALL,
     {&P_HK, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS, &P_NOT_PC},
     {&P_CUR}},
    {"R7d-hard_cur_sectors-as-blk_rq_cur_bytes",
     "if (!end_that_request_first(rq, u, rq->hard_cur_sectors)) { ...; last }",
     "__blk_end_request(rq, E(u), blk_rq_cur_bytes(rq))",
     o_first_hard_cur,
     n_blk_cur_bytes,
     M_CMP_ALL,
     {&P_HK, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS, &P_NOT_PC, &P_CUR},
     {0}},
    {"R8-chunk-whole-unconditional",
     "end_that_request_chunk(rq, u, b); HK; end_that_request_last(rq, u);",
     "__blk_end_request(rq, E(u), b);",
     o_chunk_b_unconditional,
     n_blk_b_whole,
     M_CMP_NO_RANDOMNESS,
     {&P_HK, &P_B_COVERS, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {0}},
    {"R8f-first-whole-unconditional",
     "end_that_request_first(rq, u, n); HK; end_that_request_last(rq, u);",
     "__blk_end_request(rq, E(u), n << 9);",
     o_first_n_unconditional,
     n_blk_n_whole,
     M_CMP_NO_RANDOMNESS,
     {&P_HK, &P_N_COVERS, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {0}},
    {"R9-end_queued_request",
     "end_queued_request(rq, u)",
     "__blk_end_request(rq, E(u), blk_rq_bytes(rq))",
     o_end_queued,
     n_blk_bytes,
     M_CMP_NO_RET,
     {&P_QUEUED, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {&P_DATALEN}},
    {"R10-end_dequeued_request",
     "end_dequeued_request(rq, u)",
     "__blk_end_request(rq, E(u), blk_rq_bytes(rq))",
     o_end_dequeued,
     n_blk_bytes,
     M_CMP_NO_RET,
     {&P_DEQUEUED, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {&P_DATALEN}},
    {"R11-last-only-blk_rq_bytes",
     "HK; end_that_request_last(rq, u);",
     "__blk_end_request(rq, E(u), blk_rq_bytes(rq))",
     o_last_only,
     n_blk_bytes,
     M_CMP_NO_RET | M_CMP_NO_RANDOMNESS,
     {&P_HK, &P_NO_DATA, &P_FS_ERRORS},
     {0}},
    {"R12-last-only-zero",
     "HK; end_that_request_last(rq, u);",
     "__blk_end_request(rq, E(u), 0)",
     o_last_only,
     n_blk_zero,
     M_CMP_NO_RET | M_CMP_NO_RANDOMNESS,
     {&P_HK, &P_NO_DATA, &P_FS_ERRORS},
     {0}},
    {"R13-data-only-callback",
     "end_that_request_chunk(rq, u, b);  [result unused]",
     "blk_end_request_callback(rq, E(u), b, f_data_only_cb)  [cb returns 1]",
     o_chunk_data_only,
     n_callback_data_only,
     M_CMP_NO_RET,
     {&P_NOT_SPECIAL},
     {&P_LOCK_FREE}},
    {"R14-loop-current_nr_sectors",
     "while (end_that_request_first(rq, u, rq->current_nr_sectors)) ; "
     "add_disk_randomness; HK; end_that_request_last(rq, u);",
     "__blk_end_request(rq, E(u), blk_rq_bytes(rq))",
     o_loop_cur,
     n_blk_bytes,
     M_CMP_NO_RET,
     {&P_HK, &P_FS, &P_CUR, &P_ALIGNED},
     {&P_POS}},
    {"R15-scsi-leftover",
     "if (end_that_request_chunk(rq, u, b)) { rest = fs ? hard_nr_sectors << 9 : data_len; "
     "if (C) end_that_request_chunk(rq, 0, rest); else return 1; } randomness; lock; "
     "[end_tag]; end_that_request_last(rq, u); unlock",
     "if (blk_end_request(rq, E(u), b)) { rest = ...; if (C) blk_end_request(rq, -EIO, rest); "
     "else return 1; }",
     o_scsi_leftover,
     n_scsi_leftover,
     M_CMP_ALL,
     {&P_NOT_QUEUED, &P_NOT_SPECIAL, &P_KILL, &P_DATALEN},
     {&P_LOCK_FREE}},
    {"R16-read-hoisted-before-call",
     "if (!end_that_request_first(rq, u, n)) { randomness; HK; x = rq->FIELD; "
     "end_that_request_last(rq, u); }",
     "x = rq->FIELD; __blk_end_request(rq, E(u), n << 9);",
     o_pair_with_read,
     n_hoisted_read,
     M_CMP_ALL,
     {&P_HK, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS, &P_INVARIANT},
     {0}},
    {"R17-read-after-call",
     "if (end_that_request_first(rq, u, n)) x = rq->FIELD; else { ...; last }",
     "__blk_end_request(rq, E(u), n << 9); x = rq->FIELD;",
     o_read_after_data,
     n_read_after_call,
     M_CMP_ALL,
     {&P_LEAVES},
     {&P_HK}},
    {"R18-data-only-then-last-only",
     "end_that_request_chunk(rq, u, b); [rq->data_len = 0;] ... lock; HK; "
     "end_that_request_last(rq, u); unlock",
     "blk_end_request_callback(rq, E(u), b, f_data_only_cb); [rq->data_len = 0;] ... lock; "
     "__blk_end_request(rq, E(u), blk_rq_bytes(rq)); unlock",
     o_data_only_then_last,
     n_data_only_then_last,
     M_CMP_NO_RANDOMNESS,
     {&P_HK, &P_NOT_SPECIAL, &P_B_COVERS},
     {&P_DATALEN}},
    {"R19-work-into-end_cb",
     "if (!end_that_request_first(rq, u, n)) { WORK(rq); randomness; lock; HK; "
     "end_that_request_last(rq, u); unlock; }",
     "blk_end_request_callback(rq, E(u), n << 9, f_end_cb)  [f_end_cb: WORK(rq); return 0;]",
     o_work_then_locked_last,
     n_callback_end_cb,
     M_CMP_ALL,
     {&P_HK, &P_NO_SPECIAL_BIOS, &P_SPECIAL_ERRORS},
     {&P_LOCK_FREE}},
};

const int m_nrules = sizeof(m_rules) / sizeof(m_rules[0]);
