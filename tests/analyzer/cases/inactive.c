/*
 * Code the compiler never sees (#if 0) has no AST: there the lexer's guess
 * decides, and it errs toward a call.  The prototype after a return type
 * is not a site; the call behind a macro is reported for manual review
 * (regression: it was taken for a declaration and lost).
 */
#include <linux/blkdev.h>

#define IN_TRACE_DONE

#if 0
void end_request(struct request *, int);

static void in_old_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	IN_TRACE_DONE
	end_request(rq, 1);
}
#endif

int in_unused;

/*
 * check-exit: 1
 * check-brief-start
 * inactive.c:19:2 in_old_request end_request manual unclassified lock=unknown uptodate=none reason=unparsed
 * check-brief-end
 */
