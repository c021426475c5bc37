/*
 * compare.c - what "the same" means: every observable of two worlds after
 * the old and the new code ran (the return value, each bio's bytes, error,
 * end and state, the request's end_io/release and its error, dequeue, tag,
 * randomness, BUG()s, races, use after end, hangs) and, while the request
 * has not ended, every field of it (the driver goes on using them).  Also
 * the printer of a world, for counterexamples.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"

#define DIFF(cond, ...)                                                                            \
	do {                                                                                       \
		if (cond) {                                                                        \
			snprintf(why, n, __VA_ARGS__);                                             \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

static int cmp_bio(const struct m_bio *a, const struct m_bio *b, int i, char *why, size_t n)
{
	DIFF(a->done != b->done, "bio %d: %u bytes completed vs %u", i, a->done, b->done);
	DIFF(a->endio_calls != b->endio_calls, "bio %d: bio_endio ran %d time(s) vs %d", i,
	     a->endio_calls, b->endio_calls);
	DIFF(a->endio_calls && a->endio_error != b->endio_error, "bio %d: bio_endio error %d vs %d",
	     i, a->endio_error, b->endio_error);
	DIFF(a->uptodate != b->uptodate, "bio %d: uptodate %d vs %d", i, a->uptodate, b->uptodate);
	/*
	 * An ended bio is its owner's again; how far bi_idx got depends only on
	 * how the completion was split (2.6.24 itself leaves it either way).
	 */
	if (a->endio_calls)
		return 0;
	DIFF(a->size != b->size || a->idx != b->idx || a->sector != b->sector,
	     "bio %d: size/idx/sector %u/%d/%lu vs %u/%d/%lu", i, a->size, a->idx, a->sector,
	     b->size, b->idx, b->sector);
	for (int v = 0; v < a->vcnt; v++)
		DIFF(a->vec[v].offset != b->vec[v].offset || a->vec[v].len != b->vec[v].len,
		     "bio %d bvec %d: offset/len %u/%u vs %u/%u", i, v, a->vec[v].offset,
		     a->vec[v].len, b->vec[v].offset, b->vec[v].len);
	return 0;
}

static int cmp_rq(const struct m_request *a, const struct m_request *b, char *why, size_t n)
{
	DIFF(a->bio != b->bio, "rq->bio: bio %d vs bio %d", a->bio, b->bio);
	DIFF(a->sector != b->sector || a->hard_sector != b->hard_sector,
	     "sector/hard_sector %lu/%lu vs %lu/%lu", a->sector, a->hard_sector, b->sector,
	     b->hard_sector);
	DIFF(a->nr_sectors != b->nr_sectors || a->hard_nr_sectors != b->hard_nr_sectors,
	     "nr_sectors/hard_nr_sectors %u/%u vs %u/%u", a->nr_sectors, a->hard_nr_sectors,
	     b->nr_sectors, b->hard_nr_sectors);
	DIFF(a->current_nr_sectors != b->current_nr_sectors ||
		 a->hard_cur_sectors != b->hard_cur_sectors,
	     "current_nr_sectors/hard_cur_sectors %u/%u vs %u/%u", a->current_nr_sectors,
	     a->hard_cur_sectors, b->current_nr_sectors, b->hard_cur_sectors);
	DIFF(a->buffer != b->buffer, "buffer %#lx vs %#lx", a->buffer, b->buffer);
	DIFF(a->data_len != b->data_len, "data_len %u vs %u", a->data_len, b->data_len);
	DIFF(a->errors != b->errors, "rq->errors %d vs %d", a->errors, b->errors);
	DIFF(a->tag != b->tag, "tag %d vs %d", a->tag, b->tag);
	DIFF(a->list != b->list, "list %d vs %d", a->list, b->list);
	return 0;
}

int m_compare(const struct m_world *a, int ra, const struct m_world *b, int rb, int flags,
	      char *why, size_t n)
{
	const struct m_obs *x = &a->o, *y = &b->o;

	DIFF(x->bug != y->bug, "BUG() %#x vs %#x", x->bug, y->bug);
	DIFF(x->hang != y->hang, "hang %d vs %d", x->hang, y->hang);
	DIFF(x->uaf != y->uaf, "use after end %d vs %d", x->uaf, y->uaf);
	DIFF(!(flags & M_CMP_NO_RET) && ra != rb, "return %d vs %d", ra, rb);
	DIFF(x->ended != y->ended, "request ended %d vs %d", x->ended, y->ended);
	DIFF(x->end_io_calls != y->end_io_calls, "end_io ran %d vs %d", x->end_io_calls,
	     y->end_io_calls);
	DIFF(x->end_io_calls && x->end_io_error != y->end_io_error, "end_io error %d vs %d",
	     x->end_io_error, y->end_io_error);
	DIFF(x->end_io_calls && x->end_io_rq_errors != y->end_io_rq_errors,
	     "rq->errors seen by end_io %d vs %d", x->end_io_rq_errors, y->end_io_rq_errors);
	DIFF(x->freed != y->freed, "released %d vs %d", x->freed, y->freed);
	DIFF(x->ended && (x->end_list != y->end_list ||
			  (!(flags & M_CMP_NO_RACE) && x->end_io_locked != y->end_io_locked)),
	     "at the end: list %d, locked %d vs list %d, locked %d", x->end_list, x->end_io_locked,
	     y->end_list, y->end_io_locked);
	DIFF(x->tags_released != y->tags_released, "tags released %d vs %d", x->tags_released,
	     y->tags_released);
	DIFF(x->in_flight != y->in_flight, "in_flight %d vs %d", x->in_flight, y->in_flight);
	DIFF(!(flags & M_CMP_NO_RANDOMNESS) && x->randomness != y->randomness,
	     "randomness %d vs %d", x->randomness, y->randomness);
	DIFF(!(flags & M_CMP_NO_RACE) && x->race != y->race, "race %#x vs %#x", x->race, y->race);
	DIFF(a->lock_held != b->lock_held, "lock held after: %d vs %d", a->lock_held, b->lock_held);
	for (int i = 0; i < a->rq.nbios; i++)
		if (cmp_bio(&a->rq.bios[i], &b->rq.bios[i], i, why, n))
			return 1;
	if (!x->ended && cmp_rq(&a->rq, &b->rq, why, n))
		return 1;
	return 0;
}

static const char *const type_name[] = {"fs", "pc", "special"};
static const char *const list_name[] = {"off", "queue", "busy"};

void m_print_world(const struct m_world *w, const char *title)
{
	const struct m_request *rq = &w->rq;

	printf("  %s: %s request, list %s, tag %d, lock %s, disk %d, end_io %d, errors %d\n", title,
	       type_name[rq->type], list_name[rq->list], rq->tag, w->lock_held ? "held" : "free",
	       rq->has_disk, rq->has_end_io, rq->errors);
	printf("    sector %lu hard_sector %lu nr_sectors %u hard_nr_sectors %u\n", rq->sector,
	       rq->hard_sector, rq->nr_sectors, rq->hard_nr_sectors);
	printf("    current_nr_sectors %u hard_cur_sectors %u buffer %#lx data_len %u "
	       "(orig %u) written %#x\n",
	       rq->current_nr_sectors, rq->hard_cur_sectors, rq->buffer, rq->data_len,
	       w->orig_data_len, w->written);
	printf("    rq->bio = %d, %u bytes left\n", rq->bio, m_bytes_left(w));
	for (int i = 0; i < rq->nbios; i++) {
		const struct m_bio *b = &rq->bios[i];

		printf("    bio %d: size %u idx %d sector %lu uptodate %d done %u endio %d/%d:", i,
		       b->size, b->idx, b->sector, b->uptodate, b->done, b->endio_calls,
		       b->endio_error);
		for (int v = 0; v < b->vcnt; v++)
			printf(" [%u+%u]", b->vec[v].offset, b->vec[v].len);
		printf("\n");
	}
	printf("    obs: ended %d end_io %d err %d rq_errors %d freed %d tags %d rand %d "
	       "in_flight %d bug %#x race %#x uaf %d hang %d cb %d\n",
	       w->o.ended, w->o.end_io_calls, w->o.end_io_error, w->o.end_io_rq_errors, w->o.freed,
	       w->o.tags_released, w->o.randomness, w->o.in_flight, w->o.bug, w->o.race, w->o.uaf,
	       w->o.hang, w->o.cb_calls);
}
