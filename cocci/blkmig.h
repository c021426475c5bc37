/*
 * blkmig.h - macro hints for spatch when parsing 2.6.24-era block drivers.
 *
 * Pass with --macro-file (it adds to spatch's own standard.h).  Each entry
 * tells the parser what a control-flow or declaration macro of the old block
 * layer looks like, so that functions using it are parsed (and converted)
 * instead of skipped.
 */
#define rq_for_each_bio(_bio, rq) for (_bio = (rq)->bio; _bio; _bio = _bio->bi_next)
#define __rq_for_each_bio(_bio, rq) for (_bio = (rq)->bio; _bio; _bio = _bio->bi_next)
#define rq_for_each_segment(bvl, _rq, _iter) for (bvl = 0; bvl; )
#define bio_for_each_segment(bvl, bio, i) for (i = 0; i < 1; i++)
#define __bio_for_each_segment(bvl, bio, i, start_idx) for (i = 0; i < 1; i++)
#define blk_queue_for_each_tag(q, tag) for (tag = 0; tag < 1; tag++)
