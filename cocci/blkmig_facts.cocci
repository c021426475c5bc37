// SPDX-License-Identifier: GPL-2.0-only
/// Collect the tree-wide facts that blk_end_request.cocci needs to decide the
/// queue-lock context of a legacy completion call whose driver spreads over
/// several files: request functions given to blk_init_queue and the lock
/// given with them (also a lock that arrives as a parameter of the function
/// that calls blk_init_queue, and what its callers pass), locals copied from
/// a queue_lock, static definitions, and functions stored in ops tables or
/// used through pointers.  Nothing is changed: the facts are appended, one
/// tab-separated line each, to the file given with -D facts=FILE.
//
// Confidence: High
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: run over the whole tree first (--dir), then run
//  blk_end_request.cocci with the same -D facts=FILE.  The file is
//  appended to, so parallel jobs (--jobs) are fine; remove it before a new
//  run.  Without -D facts this patch does nothing.
// Options: --no-includes --include-headers
// Output: facts only (the file of -D facts=FILE, else $BLKMIG_FACTS); no file changes
// Keywords: blk_init_queue, queue_lock, end_request
// Requires: 1.1.1

virtual facts
// coccicheck and blkmig migrate pass one of these; the facts pass changes
// nothing in any mode.
virtual patch
virtual context
virtual report
virtual org

@initialize:python@
@@
import os
import re

FACTS_OUT = [None]


def facts_path():
    """The value of -D facts=FILE (spatch 1.1.1 gives no virtual values to
    script rules, so read our own command line), else $BLKMIG_FACTS."""
    try:
        argv = open("/proc/self/cmdline", "rb").read().split(b"\0")
        argv = [a.decode("utf-8", "replace") for a in argv]
    except OSError:
        argv = []
    for i, a in enumerate(argv):
        v = None
        if a == "-D" and i + 1 < len(argv):
            v = argv[i + 1]
        elif a.startswith("-D") and len(a) > 2:
            v = a[2:]
        if v and v.startswith("facts="):
            return v[len("facts="):]
    return os.environ.get("BLKMIG_FACTS") or None


def run_root():
    """The --dir of this run: facts name files relative to it."""
    try:
        argv = open("/proc/self/cmdline", "rb").read().split(b"\0")
        argv = [a.decode("utf-8", "replace") for a in argv]
    except OSError:
        return None
    for i, a in enumerate(argv):
        if a == "--dir" and i + 1 < len(argv):
            return os.path.normpath(argv[i + 1])
    return None


ROOT = [run_root()]


def rel(f):
    f = os.path.normpath(f)
    r = ROOT[0]
    if r and (f == r or f.startswith(r + "/")):
        return os.path.relpath(f, r)
    return f


def emit(kind, f, *fields):
    if FACTS_OUT[0] is None:
        FACTS_OUT[0] = facts_path() or ""
    if not FACTS_OUT[0]:
        return
    fields = (kind, rel(f)) + fields
    line = "\t".join(" ".join(str(x).split()) for x in fields) + "\n"
    # one short write in append mode: whole lines even with --jobs
    fd = os.open(FACTS_OUT[0], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in str(s):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out

// Only files that set up a queue, complete requests or name a queue lock.
@relevant@
expression E;
@@
(
blk_init_queue(...)
|
blk_init_queue_node(...)
|
end_that_request_first(...)
|
end_that_request_chunk(...)
|
end_that_request_last(...)
|
end_request(...)
|
end_queued_request(...)
|
end_dequeued_request(...)
|
E.end_request
|
E->end_request
|
E->queue_lock
)

// A request function and its lock; the lock may be a parameter of the
// function that calls blk_init_queue (mmc_init_queue(mq, card, lock)).
@rf depends on relevant@
identifier fn;
expression L;
position p;
@@
(
blk_init_queue@p(fn, L)
|
blk_init_queue_node@p(fn, L, ...)
)

@script:python@
fn << rf.fn;
L << rf.L;
p << rf.p;
@@
emit("rqfn", p[0].file, fn, L, p[0].current_element)

@lp depends on relevant@
identifier F, P;
type T;
parameter list[n] ps;
expression fn;
position p;
@@
F(ps, T P, ...) {
<+...
(
blk_init_queue@p(fn, P)
|
blk_init_queue_node@p(fn, P, ...)
)
...+>
}

@script:python@
F << lp.F;
P << lp.P;
n << lp.n;
p << lp.p;
@@
emit("lockparam", p[0].file, F, n, P)

// What every call passes: only arguments that look like a lock are kept
// (the loader matches them against the lock parameters above).
@ca depends on relevant@
identifier F;
expression list args;
position p;
@@
F@p(args)

@script:python@
F << ca.F;
args << ca.args;
p << ca.p;
@@
for i, a in enumerate(split_args(args)):
    if re.search(r"lock\w*\s*$", a):
        emit("lockarg", p[0].file, F, i, a, p[0].current_element)

@qa depends on relevant@
identifier X;
expression E;
position p;
@@
X@p = E->queue_lock

@script:python@
X << qa.X;
p << qa.p;
@@
emit("qlockvar", p[0].file, X, p[0].current_element)

// Static definitions: a static function cannot be called from elsewhere.
@st depends on relevant@
identifier F;
position p;
@@
static F@p(...) { ... }

@script:python@
F << st.F;
p << st.p;
@@
emit("static", p[0].file, F)

// Functions stored in an ops table or a function pointer (IDE:
// drive->end_request, .end_request = ...): their callers are unknown.
@ops depends on relevant@
identifier F, fld;
expression E;
position p;
@@
(
E->fld = F@p;
|
E.fld = F@p;
)

@script:python@
F << ops.F;
fld << ops.fld;
p << ops.p;
@@
emit("ops", p[0].file, F, fld)

@opsi depends on relevant@
identifier F, fld, s;
identifier I;
position p;
@@
struct s I = { ..., .fld = F@p, ... };

@script:python@
F << opsi.F;
fld << opsi.fld;
p << opsi.p;
@@
emit("ops", p[0].file, F, fld)

