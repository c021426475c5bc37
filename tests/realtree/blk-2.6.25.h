/*
 * tests/realtree/blk-2.6.25.h — the 2.6.25 completion API over a 2.6.24 tree.
 *
 * Force-included (-include, after kbuild's own autoconf.h) when compile-check.sh compiles
 * a converted file against the 2.6.24 tree.  It declares the 2.6.25 functions exactly as
 * 2.6.25's include/linux/blkdev.h does (../shared/API-SEMANTICS.md), and makes every use
 * of a legacy completion function that 2.6.25 removed a compile error.
 *
 * Why the `unavailable` attribute and not macros: the legacy names are also struct member
 * names (ide.h's `drive->end_request`) and are declared by the tree's own blkdev.h, which
 * the file includes after this header.  A macro would rename the member and the tree's
 * declaration alike; an attribute on the function declaration marks the function only,
 * survives the tree's compatible redeclaration (attributes merge), and makes any call or
 * address-taking of it an error, even under -fsyntax-only (gcc >= 12).
 */
#ifndef BLKMIG_BLK_2_6_25_H
#define BLKMIG_BLK_2_6_25_H

struct request;

/* 2.6.25 include/linux/blkdev.h */
extern int blk_end_request(struct request *rq, int error, int nr_bytes);
extern int __blk_end_request(struct request *rq, int error, int nr_bytes);
extern int blk_end_request_callback(struct request *rq, int error, int nr_bytes,
				    int (drv_callback)(struct request *));
extern unsigned int blk_rq_bytes(struct request *rq);
extern unsigned int blk_rq_cur_bytes(struct request *rq);

/* 2.6.25 kept end_request(), end_queued_request() and end_dequeued_request() as
 * wrappers of __blk_end_request() (gone in 2.6.31): a site left for its lock context
 * alone keeps its old call, which 2.6.25 compiles. */
extern void end_request(struct request *, int);
extern void end_queued_request(struct request *, int);
extern void end_dequeued_request(struct request *, int);

/* 2.6.24's other legacy calls, same prototypes as its blkdev.h, now unusable. */
#define BLKMIG_LEGACY(name) \
	__attribute__((unavailable("legacy " #name "() left after conversion to the 2.6.25 API")))
extern int end_that_request_first(struct request *, int, int) BLKMIG_LEGACY(end_that_request_first);
extern int end_that_request_chunk(struct request *, int, int) BLKMIG_LEGACY(end_that_request_chunk);
extern void end_that_request_last(struct request *, int) BLKMIG_LEGACY(end_that_request_last);
#undef BLKMIG_LEGACY

#endif /* BLKMIG_BLK_2_6_25_H */
