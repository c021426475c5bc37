// SPDX-License-Identifier: GPL-2.0-only
/// A deliberately wrong semantic patch for the migrate tests: the unlocked
/// variant everywhere (a deadlock under the queue lock) and an error value
/// that loses a negative uptodate.  migrate must refute both from its own
/// analysis and take the analyzer's exact rewrite instead.
// Comments: test input only; never install.
// Options: --no-includes --include-headers

virtual patch

@@
expression rq, u;
@@
- end_request(rq, u)
+ blk_end_request(rq, u ? 0 : -EIO, blk_rq_cur_bytes(rq))
