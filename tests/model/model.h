/*
 * model.h - a userspace model of the block layer's request completion in
 * Linux 2.6.24 (ll_rw_blk.c) and 2.6.25 (blk-core.c), as
 * shared/API-SEMANTICS.md describes them, written in our own words.
 *
 * One "world" is one request with its bio chain, the queue lock (a flag),
 * and everything a driver, a bio owner or the block layer could observe
 * after a completion: bytes and error per bio, the request's end_io (or its
 * release), dequeue, tag release, randomness, BUG()s, lock misuse, hangs,
 * and any touch of the request after it ended.  A world is a plain value:
 * copying it with `=` gives an independent copy (bios are an array, the
 * chain is an index), so the old and the new code run on identical states.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stdbool.h>

/*
 * MODEL_MUTANT=N (a -D at build time, run.sh's self-check) breaks the model
 * on purpose, one way per N, to show the property tests catch it:
 *   1 end_request completes current_nr_sectors << 9 (not hard_cur_sectors)
 *   2 2.6.25's final step forgets the tag
 *   3 2.6.25 runs the data part for special requests too
 *   4 blk_end_request does not take the queue lock
 */
#ifndef MODEL_MUTANT
#define MODEL_MUTANT 0
#endif
#include <stddef.h>

#define M_MAX_BIOS 4
#define M_MAX_VECS 4

#define M_EIO	     5
#define M_ENOMEM     12
#define M_EOPNOTSUPP 95

enum m_type { M_FS, M_PC, M_SPECIAL };

/* which list rq->queuelist is on: none, the queue, a tag map's busy list */
enum m_list { M_OFF_LIST, M_ON_QUEUE, M_ON_BUSY };

/* BUG()s the 2.6.24/2.6.25 code (or a converted driver) would hit */
enum {
	M_BUG_DEQUEUE_UNQUEUED = 1 << 0, /* elv_dequeue_request: list empty */
	M_BUG_END_TAG_UNTAGGED = 1 << 1, /* blk_queue_end_tag: tag == -1 */
	M_BUG_FREE_ON_LIST = 1 << 2,	 /* __blk_put_request: still on a list */
	M_BUG_DRIVER = 1 << 3,		 /* the driver's own BUG() */
	M_BUG_DEADLOCK = 1 << 4,	 /* spin_lock of the queue lock while held */
};

/*
 * Queue state changed without the queue lock (a race, not a stop), by what
 * was changed, not by which API call did it: old and new code that race in
 * the same way compare equal.
 */
enum {
	M_RACE_FINAL = 1 << 0,	 /* the final step (end_that_request_last) */
	M_RACE_DEQUEUE = 1 << 1, /* blkdev_dequeue_request */
	M_RACE_END_TAG = 1 << 2, /* blk_queue_end_tag */
};

/* fields a driver wrote between the fetch and the completion (generator) */
enum {
	M_W_CUR = 1 << 0,     /* current_nr_sectors counted down */
	M_W_SECTOR = 1 << 1,  /* sector counted up */
	M_W_BUFFER = 1 << 2,  /* buffer advanced */
	M_W_NR = 1 << 3,      /* nr_sectors counted down */
	M_W_DATALEN = 1 << 4, /* data_len overwritten with a residual count */
};

struct m_bvec {
	unsigned long page; /* a synthetic address */
	unsigned int offset;
	unsigned int len;
};

struct m_bio {
	struct m_bvec vec[M_MAX_VECS];
	int vcnt;
	int idx;	   /* bi_idx */
	unsigned int size; /* bi_size: bytes not yet completed */
	unsigned long sector;
	bool uptodate; /* BIO_UPTODATE */
	/* observables */
	unsigned int done; /* bytes completed through the request */
	int endio_calls;   /* bio_endio ran (once the bio is done) */
	int endio_error;
};

struct m_request {
	enum m_type type;
	unsigned long sector, hard_sector;
	unsigned int nr_sectors, hard_nr_sectors;
	unsigned int current_nr_sectors, hard_cur_sectors;
	unsigned long buffer;
	unsigned int data_len;
	int errors;
	int tag; /* -1: not tagged (REQ_QUEUED clear) */
	enum m_list list;
	bool has_disk;	 /* rq->rq_disk set: randomness counts */
	bool has_end_io; /* rq->end_io set; otherwise released when ended */
	struct m_bio bios[M_MAX_BIOS];
	int nbios;
	int bio; /* rq->bio: index into bios, -1 for NULL */
};

struct m_obs {
	bool ended; /* end_io called or request released */
	int end_io_calls;
	int end_io_error;
	int end_io_rq_errors; /* rq->errors when end_io ran */
	bool end_io_locked;   /* the queue lock was held at the final step */
	enum m_list end_list; /* where the request was when it ended */
	int freed;
	int tags_released;
	int randomness;
	int in_flight; /* q->in_flight: +1 on dequeue of a fs request, -1 on release */
	int bug;       /* M_BUG_* */
	int race;      /* M_RACE_* */
	bool uaf;      /* the request was used after it ended */
	bool hang;     /* a loop did not end */
	int cb_calls;  /* blk_end_request_callback's callback ran */
	bool cb_locked;
};

struct m_world {
	struct m_request rq;
	bool lock_held;
	struct m_obs o;
	/* generator's record of what the driver did (not seen by the model) */
	unsigned int written; /* M_W_* */
	unsigned int orig_data_len;
	int uptodate_hist; /* the uptodate of an earlier partial completion, or 1 */
};

/* the old code must stop once a BUG() hit: every call checks this */
static inline bool m_dead(const struct m_world *w)
{
	return w->o.bug != 0;
}

/* ---- common (model_common.c) ---------------------------------------------------- */
/* any use of the request: records a use after the request ended */
struct m_request *m_rq(struct m_world *w);
int m_error_of_uptodate(int uptodate);		    /* end_that_request_last's mapping */
int m_E(int uptodate);				    /* the converters' E(u) */
unsigned int m_bytes_left(const struct m_world *w); /* bytes of the bios not done */
unsigned long m_bio_data(const struct m_request *rq, int b);
unsigned int m_bio_cur_sectors(const struct m_request *rq, int b);
/* the data part both kernels share (__end_that_request_first): 1 if bytes remain */
int m_update(struct m_world *w, int error, int nr_bytes);
void m_add_disk_randomness(struct m_world *w);
void m_dequeue(struct m_world *w); /* blkdev_dequeue_request */
void m_end_tag(struct m_world *w); /* blk_queue_end_tag */
void m_lock(struct m_world *w);	   /* spin_lock_irqsave(q->queue_lock) */
void m_unlock(struct m_world *w);
void m_bug(struct m_world *w); /* the driver's BUG() */
/* end_that_request_last() after its uptodate -> error mapping: end_io or release */
void m_final(struct m_world *w, int error);

/* ---- 2.6.24 (model_2624.c) ------------------------------------------------------ */
int end_that_request_chunk(struct m_world *w, int uptodate, int nr_bytes);
int end_that_request_first(struct m_world *w, int uptodate, int nr_sectors);
void end_that_request_last(struct m_world *w, int uptodate);
void end_request(struct m_world *w, int uptodate);
void end_queued_request(struct m_world *w, int uptodate);
void end_dequeued_request(struct m_world *w, int uptodate);

/* ---- 2.6.25 (model_2625.c) ------------------------------------------------------ */
typedef int (*m_cb)(struct m_world *w);
int __blk_end_request(struct m_world *w, int error, int nr_bytes);
int blk_end_request(struct m_world *w, int error, int nr_bytes);
int blk_end_request_callback(struct m_world *w, int error, int nr_bytes, m_cb cb);
unsigned int blk_rq_bytes(struct m_world *w);
unsigned int blk_rq_cur_bytes(struct m_world *w);

/* ---- comparing and printing (compare.c) ------------------------------------------ */
enum {
	M_CMP_ALL = 0,
	M_CMP_NO_RACE = 1 << 0,	      /* ignore races and the lock at the end (an old race fixed) */
	M_CMP_NO_RANDOMNESS = 1 << 1, /* ignore the entropy count */
	M_CMP_NO_RET = 1 << 2,	      /* the return value is unused */
};
/* 0 if equal; otherwise writes what differs into why */
int m_compare(const struct m_world *a, int ra, const struct m_world *b, int rb, int flags,
	      char *why, size_t n);
void m_print_world(const struct m_world *w, const char *title);

#endif
