/*
 * facts.c - the model against known behaviour, one hand-built request each:
 * what the property tests cannot see, because old and new share the data
 * part (a bug there would be the same on both sides).  Each fact is what
 * API-SEMANTICS.md and the 2.6.24 source say the kernel does.
 */
#include <stdio.h>
#include <string.h>

#include "props.h"

static int facts_failed;

/* an fs (or other) request: bios given as bvec lengths, 0 ends a bio, -1 ends the list */
static void build(struct m_world *w, enum m_type t, const int *lens)
{
	struct m_request *rq = &w->rq;
	unsigned long sector = 1000;
	unsigned int total = 0;
	int b = 0;

	memset(w, 0, sizeof(*w));
	rq->type = t;
	rq->tag = -1;
	rq->list = M_ON_QUEUE;
	rq->has_disk = true;
	rq->has_end_io = true;
	w->lock_held = true;
	for (; *lens >= 0; b++, lens++) {
		struct m_bio *bio = &rq->bios[b];

		bio->uptodate = true;
		bio->sector = sector;
		for (; *lens > 0; lens++) {
			bio->vec[bio->vcnt].page =
			    (unsigned long)(b + 1) << 20 | (unsigned long)bio->vcnt << 14;
			bio->vec[bio->vcnt++].len = (unsigned int)*lens;
			bio->size += (unsigned int)*lens;
		}
		sector += bio->size >> 9;
		total += bio->size;
	}
	rq->nbios = b;
	rq->bio = b ? 0 : -1;
	rq->sector = rq->hard_sector = 1000;
	rq->nr_sectors = rq->hard_nr_sectors = (t == M_FS || !b ? total : rq->bios[0].size) >> 9;
	rq->current_nr_sectors = rq->hard_cur_sectors = m_bio_cur_sectors(rq, rq->bio);
	rq->buffer = m_bio_data(rq, rq->bio);
	rq->data_len = total;
}

static int cb_one(struct m_world *w)
{
	(void)w;
	return 1;
}

static void fact(const char *name, bool ok, const struct m_world *w)
{
	if (ok) {
		printf("PASS %s (1 hand-built request)\n", name);
		return;
	}
	facts_failed++;
	printf("FAIL %s: the model does not do what the kernel does\n", name);
	m_print_world(w, "after");
}

int run_facts(void)
{
	static const int two_bios[] = {1024, 512, 0, 2048, 0, -1};
	static const int one_bio[] = {1024, 512, 0, -1};
	static const int none[] = {-1};
	struct m_world w;
	int r;

	/* a segment: the first bvec, the cursor moves to the next one */
	build(&w, M_FS, two_bios);
	r = end_that_request_first(&w, 1, 2);
	fact("M-first-one-bvec",
	     r == 1 && w.rq.bios[0].done == 1024 && !w.rq.bios[0].endio_calls &&
		 w.rq.bios[0].idx == 1 && w.rq.sector == 1002 && w.rq.hard_nr_sectors == 5 &&
		 w.rq.current_nr_sectors == 1 && w.rq.buffer == w.rq.bios[0].vec[1].page &&
		 !w.o.ended,
	     &w);

	/* part of a bvec: the bvec shrinks, the cursor's segment is now under a sector */
	build(&w, M_FS, one_bio);
	r = end_that_request_chunk(&w, 1, 700);
	fact("M-chunk-part-of-bvec",
	     r == 1 && w.rq.bios[0].done == 700 && w.rq.bios[0].size == 836 &&
		 w.rq.bios[0].vec[0].offset == 700 && w.rq.bios[0].vec[0].len == 324 &&
		 w.rq.hard_sector == 1001 && w.rq.current_nr_sectors == 0,
	     &w);

	/* the whole request: every bio ends, chunk says done, nothing else happens */
	build(&w, M_FS, two_bios);
	r = end_that_request_chunk(&w, 1, 3584);
	fact("M-chunk-all-not-ended",
	     r == 0 && w.rq.bios[0].endio_calls == 1 && w.rq.bios[1].endio_calls == 1 &&
		 w.rq.bio == -1 && !w.o.ended && w.rq.list == M_ON_QUEUE,
	     &w);

	/* an error sticks to its bio: a later success still ends it with -EIO */
	build(&w, M_FS, one_bio);
	end_that_request_chunk(&w, 0, 512);
	end_that_request_chunk(&w, 1, 1024);
	fact("M-bio-error-sticks",
	     w.rq.bios[0].endio_calls == 1 && w.rq.bios[0].endio_error == -M_EIO, &w);

	/* end_that_request_last on a queued request without end_io: BUG in the release */
	build(&w, M_SPECIAL, none);
	w.rq.has_end_io = false;
	end_that_request_last(&w, 1);
	fact("M-last-while-queued-bug", (w.o.bug & M_BUG_FREE_ON_LIST) && w.o.freed == 1, &w);

	/* end_request completes hard_cur_sectors, whatever the PIO cursor says */
	build(&w, M_FS, two_bios);
	w.rq.current_nr_sectors = 0; /* hd.c counted the segment down */
	end_request(&w, 1);
	fact("M-end_request-hard_cur", w.rq.bios[0].done == 1024 && !w.o.ended, &w);

	/* ... and 2.6.25 with 0 bytes leaves a request with bios pending */
	build(&w, M_FS, two_bios);
	w.rq.current_nr_sectors = 0;
	r = __blk_end_request(&w, 0, (int)blk_rq_cur_bytes(&w));
	fact("M-zero-bytes-not-ended", r == 1 && !w.o.ended && w.rq.bios[0].done == 0, &w);

	/* a special request: no data part, errors kept, ended with its error */
	build(&w, M_SPECIAL, none);
	w.rq.errors = 3;
	r = __blk_end_request(&w, -M_ENOMEM, 12345);
	fact("M-special-no-data-part",
	     r == 0 && w.o.end_io_calls == 1 && w.o.end_io_error == -M_ENOMEM &&
		 w.o.end_io_rq_errors == 3 && w.o.randomness == 1 && w.rq.list == M_OFF_LIST,
	     &w);

	/* ... while 2.6.24's data part clears errors of every non-packet request */
	build(&w, M_SPECIAL, none);
	w.rq.errors = 3;
	end_request(&w, 1);
	fact("M-2624-clears-errors", w.o.end_io_calls == 1 && w.o.end_io_rq_errors == 0, &w);

	/* the final step releases the tag and takes the request off the busy list */
	build(&w, M_FS, one_bio);
	w.rq.tag = 7;
	w.rq.list = M_ON_BUSY;
	r = __blk_end_request(&w, 0, 1536);
	fact("M-final-releases-tag",
	     r == 0 && w.o.tags_released == 1 && w.o.end_list == M_OFF_LIST && w.o.ended, &w);

	/* blk_end_request takes the lock: with it held, a deadlock */
	build(&w, M_FS, one_bio);
	blk_end_request(&w, 0, 1536);
	fact("M-blk_end_request-deadlock", (w.o.bug & M_BUG_DEADLOCK) && !w.o.ended, &w);

	/* ... without it, the final step runs under it and it is released after */
	build(&w, M_FS, one_bio);
	w.lock_held = false;
	blk_end_request(&w, 0, 1536);
	fact("M-blk_end_request-locks-final",
	     w.o.ended && w.o.end_io_locked && !w.lock_held && !w.o.race, &w);

	/* a callback returning 1: the data done, the request not ended */
	build(&w, M_PC, one_bio);
	w.lock_held = false;
	r = blk_end_request_callback(&w, 0, 1536, cb_one);
	fact("M-callback-keeps-request",
	     r == 1 && !w.o.ended && w.o.cb_calls == 1 && w.rq.bios[0].endio_calls == 1 &&
		 !w.o.randomness && !w.lock_held && !w.o.race,
	     &w);

	/* blk_rq_bytes / blk_rq_cur_bytes of a packet request */
	build(&w, M_PC, two_bios);
	w.rq.data_len = 100; /* a residual count */
	fact("M-pc-helpers",
	     blk_rq_bytes(&w) == 100 && blk_rq_cur_bytes(&w) == 1536 && w.rq.hard_cur_sectors == 2,
	     &w);

	/* a use of the request after it ended is recorded */
	build(&w, M_SPECIAL, none);
	__blk_end_request(&w, 0, 0);
	(void)blk_rq_bytes(&w);
	fact("M-use-after-end", w.o.uaf, &w);
	return facts_failed;
}
