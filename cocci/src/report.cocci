// SPDX-License-Identifier: GPL-2.0-only
/// Part of blk_end_request.cocci: context, report and org modes: every
/// legacy call, with what patch mode does to it or why it leaves it, and the
/// old lock bugs at converted calls (blkmig/preexisting_lock_bug).  The
/// messages are made here (site_decision) from the decisions of decide.cocci.
//
// Confidence: Moderate
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: not a semantic patch on its own: cocci/assemble.py inlines it
//  into cocci/blk_end_request.cocci.
// Options: --no-includes --include-headers
// Requires: 1.1.1

// ---------------------------------------------------------------------------
// 6. Context, report and org modes: every legacy call, with what patch mode
//    does to it or why it leaves it.
// ---------------------------------------------------------------------------
@initialize:python@
@@
def lock_bug(k):
    """A converted call that needs the queue lock, reachable without it from
    the entry of a function the kernel runs without it (an interrupt
    handler, a timer, a tasklet): the old call had the same bug."""
    lg = LEGACY.get(k)
    if lg is None or not site_ok(k):
        return None
    k1 = P2.get(k, k)
    if k1 in PAIRS and pair_newfn(k1) != "__blk_end_request":
        return None     # blk_end_request takes the lock itself
    if k1 not in PAIRS and single_newfn(k) != "__blk_end_request":
        return None
    if any(k in (a, lo["k2"], lo["k3"]) for a, lo in LEFTOVER.items()):
        return None
    if k1 in AU and k1 not in AL:
        return "on a path after the queue lock is released"
    how = ASYNC.get((k[0], lg["func"]))
    if how and k1 in EU and k1 not in AL:
        return "in %s, %s" % (lg["func"], how)
    return None


def lock_fixed_note(k):
    """The old race a converted call fixes: (the call that needed the lock,
    the paths that ran without it), or None."""
    lg = LEGACY.get(k)
    if lg is None or not site_ok(k):
        return None
    k1 = P2.get(k, k)
    if k1 in PAIRS:
        if pair_newfn(k1) != "blk_end_request" or not PAIRS[k1].get("unheld"):
            return None
        pr = PAIRS[k1]
        what = "end_that_request_last (line %d, the final step of this %s)" % (pr["k2"][1], pr["name"]) \
            if k == k1 else "end_that_request_last"
        return (what, pr["unheld"])
    if lg["name"] in WRAPPERS or lg["name"] == "end_that_request_last":
        if single_newfn(k) == "blk_end_request":
            return (lg["name"], lock_fixed(k))
    return None


def one_arg_last(f, line):
    """The request of a one-argument end_that_request_last (the form of
    kernels before 2.6.16) on that line of f, or None."""
    lines = file_text(f).split("\n")
    if not 0 < line <= len(lines):
        return None
    m = re.search(r"\bend_that_request_last\s*\(\s*([^,()]+?)\s*\)", lines[line - 1])
    return m.group(1) if m else None


def one_arg_last_after(k, r):
    """Line of a one-argument end_that_request_last of request r after the
    call at k, in the same function (up to the next closing brace in column
    0), or None."""
    lines = file_text(k[0]).split("\n")
    for i in range(k[1], len(lines)):
        if lines[i].startswith("}"):
            return None
        if one_arg_last(k[0], i + 1) is not None and norm(one_arg_last(k[0], i + 1)) == norm(r):
            return i + 1
    return None


def result_tested(k, name):
    """Is the result of the legacy call at k tested where it is made
    (if/while condition, possibly negated)?  Read from the original line."""
    lines = file_text(k[0]).split("\n")
    if not 0 < k[1] <= len(lines):
        return False
    head = lines[k[1] - 1][:k[2]]
    return re.search(r"\b(if|while)\s*\(\s*!?\s*$", head) is not None


def site_decision(k):
    """(converted?, rule, message) for any legacy call key; a call left
    because the lock is held on some paths to it and not on others is
    blkmig/lock_mixed whatever its shape."""
    ok, rule, msg = site_decision0(k)
    if not ok and LOCK_MIXED in msg:
        rule = "lock_mixed"
    return (ok, rule, msg)


def site_decision0(k):
    """(converted?, rule, message) for any legacy call key."""
    if GROUPED:
        return (False, "group", "several files named on one spatch command line are processed together; run one file at a time or use --dir (nothing converted)")
    if k[0] in FAILED:
        return (False, "internal", "blkmig internal error, nothing converted in this file (%s)" % FAILED[k[0]])
    h = vg_hold(k)
    lg = LEGACY.get(k)
    in_macro = lg is None or lg.get("macro")
    if h and not (h[0] == "multi_version" and in_macro):
        return (False, h[0], h[1])
    if lg is None:
        r = one_arg_last(k[0], k[1])
        if r is not None:
            d = next(("in the \x23define of %s (line %d), " % (n, a) for (n, a, b) in vguard(k[0])["defines"]
                      if a <= k[1] <= b), "")
            return (False, "last-only", "%send_that_request_last(%s) with one argument, the form of kernels before 2.6.16 (no uptodate): a final step; with the data completion before it this is one 2.6.25 call, but that call gives end_io an error where this one gave none: decide the error, then convert both by hand" % (d, r))
        return (False, "unknown", "not analysed")
    n = lg["name"]
    k1 = P2.get(k, k)
    if not in_macro and k1 in PAIRS:
        o = PAIRS[k1]["k2"] if k1 == k else k1
        h2 = vg_hold(o)
        if h2:
            return (False, h2[0], "paired with line %d: %s" % (o[1], h2[1]))
    if lg.get("macro"):
        return (False, "macro", "%s inside a macro definition: convert the macro by hand" % n)
    for k1, lo in LEFTOVER.items():
        if k in (k1, lo["k2"], lo["k3"]):
            a, why = decide_leftover(k1)
            if a == "convert":
                return (True, "leftover", "%s -> blk_end_request (data part with leftover and requeue; the final step taken under the lock around end_that_request_last at line %d now runs inside the call)" % (n, lo["k3"][1]))
            return (False, "leftover", "%s not converted: %s" % (n, why))
    if n in WRAPPERS:
        a, why = decide_wrapper(k)
        if a == "convert":
            r = one_line(lg["R"])
            e = E_of(k, lg["U"])
            if var_converted(k[0], lg["func"], norm(lg["U"])) and \
                    lg["func"] not in ERROR_USED:
                e = "error"
            # a macro request argument expanding to a call: read once (once_local)
            l = once_local(k, lg["R"])
            u = l or r
            new = "%s(%s, %s, %s)" % (
                single_newfn(k), u, e,
                cur_bytes(k[0], u) if n == "end_request" else "blk_rq_bytes(%s)" % u)
            if l:
                new = "{ struct request *%s = %s; %s; }" % (l, r, new)
            return (True, "wrapper", "%s -> %s%s%s" % (n, new, bytes_note(k[0], n, None, u),
                                                         err_note(k)))
        return (False, "wrapper", "%s not converted: %s" % (n, why))
    if n in ("end_that_request_first", "end_that_request_chunk"):
        if k in PAIRS:
            a, why = decide_pair(k)
            if a == "report":
                return (False, "pair", "%s/end_that_request_last pair not converted: %s" % (n, why))
            hz = PAIRS[k].get("hoist") or {}
            extra = " (hoisted before it: %s)" % ", ".join(
                "%s = %s" % (v, c) for c, v in sorted(hz.items())) if hz else ""
            extra += bytes_note(k[0], n, lg["N"], lg["R"])
            if PAIRS[k].get("unheld") and a == "held":
                return (True, "pair-unheld", "%s + end_that_request_last -> blk_end_request%s (the queue lock is held on no path here; end_that_request_last needed it: blk_end_request takes it itself)" % (n, extra))
            if PAIRS[k].get("contract") and a == "held":
                return (True, "pair-contract", "%s + end_that_request_last -> %s%s (the queue lock is not provably held here, but end_that_request_last needed it and no lock operation lies between: the same contract)" % (n, pair_newfn(k), extra))
            return (True, "pair-" + a, "%s + end_that_request_last -> %s%s" % (n, pair_newfn(k), extra))
        if k in PARTIAL:
            a, why = decide_partial(k)
            if a == "convert":
                return (True, "partial", "%s -> %s (part of the data; the loop at line %d ends the request with its own error)%s" % (n, partial_call(k), PARTIAL[k][1], bytes_note(k[0], n, lg["N"], lg["R"])))
            if why:
                return (False, "partial", "%s not converted: %s" % (n, why))
        lasts = sorted((o for o, l in LEGACY.items() if o[0] == k[0] and
                        l["func"] == lg["func"] and l["name"] == "end_that_request_last"
                        and norm(l["R"]) == norm(lg["R"])), key=lambda q: (q[1], q[2]))
        if lasts:
            if result_tested(k, n):
                why = "the path on which this call reports the request done (returns 0) does not lead straight to that call (it leaves through a break, return or goto first, e.g. to a later state of a state machine)"
                return (False, "data-only", "%s is not paired with end_that_request_last of the same request at line %d: %s; the new call would run the final step here when the bytes run out: decide whether the request may end here, and drop that end_that_request_last and its dequeue (nothing between may use the request)" % (n, lasts[0][1], why))
            if (whole_request(n, lg["N"] or "", lg["R"]) or k in NONFS) and \
                    whole_reason(k[0], n, lg["N"] or "", lg["R"]):
                why = whole_reason(k[0], n, lg["N"] or "", lg["R"])
            elif whole_request(n, lg["N"] or "", lg["R"]) or k in NONFS:
                why = "that call is not reached on every path after this one"
            else:
                why = "this call completes '%s', not provably the whole request, so the request may still have bytes when that call ends it" % one_line(lg["N"] or "")
            return (False, "data-only", "%s is not paired with end_that_request_last of the same request at line %d: %s; the new call would run the final step here when the bytes run out: decide where the request ends" % (n, lasts[0][1], why))
        one = one_arg_last_after(k, lg["R"])
        if one:
            return (False, "data-only", "%s is followed by end_that_request_last(%s) with one argument at line %d, the form of kernels before 2.6.16: together they end the request like end_request(%s, %s) (one 2.6.25 call, %s where the queue lock is held), but that final step gave end_io no error where the new call gives E(%s): decide the error, then convert both by hand" % (
                n, one_line(lg["R"]), one, one_line(lg["R"]), one_line(lg["U"]),
                "__blk_end_request(%s, E(%s), %s)" % (one_line(lg["R"]), one_line(lg["U"]), sectors_to_bytes(lg["N"], norm(lg["R"]), k[0]) if n == "end_that_request_first" else one_line(lg["N"])),
                one_line(lg["U"])))
        if not any(o[0] == k[0] and l["func"] == lg["func"] and
                   l["name"] == "end_that_request_last" for o, l in LEGACY.items()):
            return (False, "data-only", "%s completes bytes only and nothing in this function ends the request (no end_that_request_last): every new call also runs the final step when the bytes run out; decide whether the request should end here or where it is ended now" % n)
        return (False, "data-only", "%s without a matching end_that_request_last on every completion path of this function: the new call would also run the final step here; convert by hand" % n)
    # end_that_request_last
    if k in P2:
        k1 = P2[k]
        a, why = decide_pair(k1)
        if a == "report":
            return (False, "pair", "end_that_request_last not converted: %s" % why)
        if PAIRS[k1].get("unheld") and a == "held":
            return (True, "pair-unheld", "end_that_request_last folded into blk_end_request (the queue lock is held on no path here: blk_end_request takes it itself)")
        if PAIRS[k1].get("contract") and a == "held":
            return (True, "pair-contract", "end_that_request_last folded into %s (same lock contract)" % pair_newfn(k1))
        return (True, "pair-" + a, "end_that_request_last folded into %s" % pair_newfn(k1))
    a, why = decide_last_only(k)
    if a == "convert":
        r = one_line(lg["R"])
        return (True, "last-only", "end_that_request_last -> %s(%s, %s, blk_rq_bytes(%s)) (the final step; bytes the driver did not complete are completed first, never left pending)" % (single_newfn(k), r, E_of(k, lg["U"]), r))
    return (False, "last-only", "end_that_request_last not converted: %s" % why)

@ctx depends on has_legacy && (context)@
identifier ln =~ "^(end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request)$";
@@
* ln(...)

@rp depends on has_legacy && (report || org)@
identifier ln =~ "^(end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request)$";
position p;
@@
ln@p(...)

@script:python depends on report@
p << rp.p;
@@
ok, rule, msg = site_decision(key(p))
coccilib.report.print_report(p[0], "%s blkmig/%s: %s" % ("INFO" if ok else "WARNING", rule, msg))
fx = lock_fixed_note(key(p))
if fx:
    coccilib.report.print_report(p[0], "INFO blkmig/old_lock_bug_fixed: %s ran here without the queue lock, which the 2.6.24 API required for it (a race), on every path: %s; blk_end_request takes the lock itself for the final step, so converting to it ends the race" % fx)
how = lock_bug(key(p))
if how:
    coccilib.report.print_report(p[0], "WARNING blkmig/preexisting_lock_bug: %s runs here without the queue lock %s; the old call needed the lock too: converted to __blk_end_request (same contract), take the queue lock around it" % (LEGACY[key(p)]["name"], how))

@script:python depends on org@
p << rp.p;
@@
ok, rule, msg = site_decision(key(p))
coccilib.org.print_todo(p[0], "%s blkmig/%s: %s" % ("INFO" if ok else "WARNING", rule, msg))
