// SPDX-License-Identifier: GPL-2.0-only
/// Convert the 2.6.24 block completion calls (end_that_request_first/chunk/
/// last, end_request, end_queued_request, end_dequeued_request) to the 2.6.25
/// API (__blk_end_request, blk_end_request, blk_end_request_callback).
///
/// A first/chunk + last pair becomes one call: __blk_end_request where the
/// queue lock is provably held (the request_fn given to blk_init_queue, after
/// spin_lock* on the queue lock or on the lock given to blk_init_queue, or a
/// helper every caller of which holds it); blk_end_request where the lock is
/// taken only around the dequeue/end_that_request_last part (that lock/unlock
/// pair goes; work done between the data part and the final step moves into a
/// blk_end_request_callback callback).  The old uptodate value u becomes the
/// error value exactly: 1 -> 0, 0 -> -EIO, -Exxx -> -Exxx, a condition c ->
/// c ? 0 : -EIO, anything else (u) > 0 ? 0 : ((u) ? (u) : -EIO).
/// Every site it cannot convert safely is left alone and reported (report and
/// org modes) with the reason; report mode also lists what patch mode changes.
//
// Confidence: Moderate
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: run blkmig_facts.cocci over the whole tree first and give both
//  the same -D facts=FILE: request functions, queue locks and ops tables set
//  up in other files then count.  Without it each file is decided alone.
//  Report mode also prints blkmig/preexisting_lock_bug for an old lock bug
//  at a converted call.
// Options: --no-includes --include-headers
// Keywords: end_that_request_first, end_that_request_last, end_request, blk_end_request
// Requires: 1.1.1

// The parts, in rule order, one concern each (each part's header says what
// it owns).  This file is the manifest cocci/assemble.py reads: it inlines
// the parts after the virtual lines below into cocci/blk_end_request.cocci,
// the one file users, coccicheck and `make install` use.  (spatch 1.1.1
// cannot run this file itself: it looks for an included .cocci in its
// working directory, not beside the including file, and wants a rule of the
// including file's own after the includes.)
#include "decide.cocci"
#include "guards.cocci"
#include "collect.cocci"
#include "wrappers.cocci"
#include "hoist.cocci"
#include "callbacks_gen.cocci"
#include "convert.cocci"
#include "wrapper_rewrite.cocci"
#include "report.cocci"

virtual patch
virtual context
virtual report
virtual org
