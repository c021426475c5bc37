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

virtual patch
virtual context
virtual report
virtual org

// ---------------------------------------------------------------------------
// Python helpers and per-file state.  Every key carries the file name, so
// several files in one run never mix.
// ---------------------------------------------------------------------------
@initialize:python@
@@
import re


def guard(fn):
    """Collection helpers: an internal error marks the file as failed (left
    untouched, every site reported) instead of aborting the whole run."""
    def wrapped(p, *args):
        try:
            return fn(p, *args)
        except Exception as e:
            FAILED[p[0].file] = "%s in %s: %s" % (type(e).__name__, fn.__name__, e)
    return wrapped

LEGACY_RE = r"^(end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request)$"
RELEVANT_RE = r"^(end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request|add_disk_randomness|blkdev_dequeue_request|blk_queue_end_tag|spin_(un)?lock(_irq|_irqsave|_irqrestore|_bh)?)$"
WRAPPERS = ("end_request", "end_queued_request", "end_dequeued_request")
MAX_CB_STMTS = 6
# Callers followed up from a completion helper to a function whose lock
# state is known (sx8: carm_interrupt -> ... -> carm_end_request_queued is 5).
MAX_CALL_DEPTH = 7
C_KEYWORDS = set("""auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while typeof
__typeof__ NULL true false""".split())

RQFN = {}        # file -> request_fn names given to blk_init_queue
QLOCK = {}       # file -> lock expressions given to blk_init_queue
EU = set()       # call keys reachable from function entry without the lock
AU = set()       # call keys reachable from an unlock without a relock
AL = set()       # call keys reachable from a lock without an unlock
CALLS = {}       # (file, callee) -> [call keys]
FUNC_OF = {}     # key -> enclosing function
NONCALL = set()  # (file, name) of functions used other than by a call
ASYNC = {}       # (file, name) -> how it runs (interrupt handler, timer, ...)
LOCKID = {}      # lock expression -> (struct type, field): its identity
PARTIAL = {}     # data-only first/chunk key -> first key of the loop after it
LEFTOVER = {}    # first/chunk key of the leftover shape -> its parts
NONFS = set()    # chunk keys passing R->data_len where R is not a fs request
LEGACY = {}      # key -> dict(name, R, U, N, func, file)
PAIRS = {}       # first/chunk key -> pair dict
P2 = {}          # last key -> first key
AROUND = {}      # last key -> dict(lock, unlock keys, lock expr)
STMTS = {}       # (file, func) -> [dict(start, end, text, key, decl)]
LOCALS = {}      # (file, func) -> set of parameter and local names
VARS = {}        # (file, func, name) -> candidate uptodate variable
DECISION = {}    # key -> (action, reason)


def norm(s):
    return "".join(str(s).split())


def key(p):
    return (p[0].file, int(p[0].line), int(p[0].column))


def endkey(p):
    return (p[0].file, int(p[0].line_end), int(p[0].column_end))


def is_qlock(l, f=None):
    l = norm(l)
    if l.endswith("->queue_lock"):
        return True
    if f is None:
        locks = set().union(*QLOCK.values()) if QLOCK else set()
    else:
        locks = QLOCK.get(f, set())
    if l in locks:
        return True
    # the same lock spelled through another pointer of the same type:
    # &dev->lock where blk_init_queue got &ubd_dev->lock (both struct ubd)
    ident = LOCKID.get(l)
    return ident is not None and any(LOCKID.get(q) == ident for q in locks)


TOKEN_RE = re.compile(r"\s*(->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:,()\[\].;{}]|[A-Za-z_]\w*|\d\w*|'(?:\\.|[^'])*'|\"(?:\\.|[^\"])*\"|\S)")


def tokens(s):
    return [t for t in TOKEN_RE.findall(str(s)) if t]


def strip_parens(toks):
    while len(toks) >= 2 and toks[0] == "(" and toks[-1] == ")":
        depth = 0
        for i, t in enumerate(toks):
            if t in "([":
                depth += 1
            elif t in ")]":
                depth -= 1
                if depth == 0 and i != len(toks) - 1:
                    return toks
        toks = toks[1:-1]
    return toks


def top_level(toks):
    """Operators at parenthesis depth 0."""
    out, depth = [], 0
    for t in toks:
        if t in ("(", "["):
            depth += 1
        elif t in (")", "]"):
            depth -= 1
        elif depth == 0:
            out.append(t)
    return out


def is_simple(toks):
    """identifier, constant, field chain or call: no operator at top level."""
    toks = strip_parens(toks)
    if not toks:
        return False
    ops = top_level(toks)
    for t in ops:
        if t in ("->", "."):
            continue
        if re.match(r"^[A-Za-z_]\w*$|^\d\w*$", t):
            continue
        return False
    return True


def has_side_effects(s):
    toks = tokens(s)
    for i, t in enumerate(toks):
        if t in ("++", "--", "=", "+=", "-=", "*=", "/=", "|=", "&=", "^=", "<<=", ">>="):
            return True
        if t == "(" and i > 0 and re.match(r"^[A-Za-z_]\w*$", toks[i - 1]) \
                and toks[i - 1] not in C_KEYWORDS:
            return True
    return False


def is_rq_expr(s):
    return re.match(r"^[A-Za-z_]\w*((->|\.)[A-Za-z_]\w*)*$", norm(s)) is not None


def root(s):
    m = re.match(r"^\s*\(*\s*([A-Za-z_]\w*)", str(s))
    return m.group(1) if m else None


def bool_valued(toks):
    toks = strip_parens(toks)
    top = top_level(toks)
    if any(t in ("?", ",", "=") or (t.endswith("=") and t not in ("==", "!=", "<=", ">="))
           for t in top):
        return False
    if "&&" in top or "||" in top:
        return True
    if any(t in ("|", "^", "&") for t in top):
        return False
    if any(t in ("==", "!=", "<", ">", "<=", ">=") for t in top):
        return True
    if toks and toks[0] == "!" and is_simple(toks[1:]) or \
            (toks and toks[0] == "!" and toks[1:2] == ["("] and strip_parens(toks[1:]) != toks[1:]):
        return True
    return False


def split_ternary(toks):
    """c ? a : b at top level -> (c, a, b) token lists, else None."""
    toks = strip_parens(toks)
    depth, q, c = 0, None, None
    for i, t in enumerate(toks):
        if t in ("(", "["):
            depth += 1
        elif t in (")", "]"):
            depth -= 1
        elif depth == 0 and t == "?" and q is None:
            q = i
        elif depth == 0 and t == ":" and q is not None and c is None:
            c = i
    if q is None or c is None:
        return None
    return toks[:q], toks[q + 1:c], toks[c + 1:]


def paren(toks):
    s = " ".join(toks)
    s = re.sub(r"\s*(->|\.)\s*", r"\1", s)
    s = re.sub(r"\(\s+", "(", s)
    s = re.sub(r"\s+\)", ")", s)
    s = re.sub(r"\s+,", ",", s)
    s = re.sub(r"!\s+", "!", s)
    s = re.sub(r"(^|[(,?:]\s*)-\s+", r"\1-", s)
    return s


def err_value(u):
    """The 2.6.25 error value for an old uptodate expression u, or None."""
    toks = strip_parens(tokens(u))
    s = "".join(toks)
    if re.match(r"^\d+[uUlL]*$", s) or re.match(r"^0[xX][0-9a-fA-F]+[uUlL]*$", s):
        return "-EIO" if int(re.sub(r"[uUlL]+$", "", s), 0) == 0 else "0"
    if re.match(r"^-\(?E[A-Z0-9]+\)?$", s) or re.match(r"^-\d+$", s):
        return paren(toks)
    if s in ("true", "false"):
        return "0" if s == "true" else "-EIO"
    tern = split_ternary(toks)
    if tern:
        c, a, b = tern
        ea, eb = "".join(strip_parens(a)), "".join(strip_parens(b))
        if (ea, eb) == ("1", "0") and not has_side_effects("".join(c)):
            return "%s ? 0 : -EIO" % paren(c)
        if (ea, eb) == ("0", "1") and not has_side_effects("".join(c)):
            return "%s ? -EIO : 0" % paren(c)
    if bool_valued(toks):
        return "%s ? 0 : -EIO" % paren(toks)
    if has_side_effects(s):
        return None
    x = paren(toks)
    return "(%s) > 0 ? 0 : ((%s) ? (%s) : -EIO)" % (x, x, x)


def sectors_to_bytes(n, r):
    t = norm(n)
    r = norm(r)
    if t in (r + "->hard_nr_sectors", r + "->nr_sectors"):
        return "blk_rq_bytes(%s)" % r
    if t in (r + "->current_nr_sectors", r + "->hard_cur_sectors"):
        return "blk_rq_cur_bytes(%s)" % r
    toks = tokens(n)
    if is_simple(toks):
        return "%s << 9" % paren(strip_parens(toks))
    return "(%s) << 9" % paren(strip_parens(toks))


# --- lock context ----------------------------------------------------------
def entry_held(f, func, depth=0):
    if func in RQFN.get(f, set()):
        return True
    if depth > MAX_CALL_DEPTH or (f, func) in NONCALL:
        return False
    sites = CALLS.get((f, func), [])
    if not sites:
        return False
    return all(held(k, depth + 1) for k in sites)


def held(k, depth=0):
    if k in AU:
        return False
    if k not in EU:
        return True
    return entry_held(k[0], FUNC_OF.get(k), depth)


def unlocked(k):
    if k in AL:
        return False
    if k in EU and entry_held(k[0], FUNC_OF.get(k)):
        return False
    return True


# --- statements between the data part and the final step ---------------------
def before(a, b):
    return (a[1], a[2]) < (b[1], b[2])


def window(lo, hi, f, func, lo_incl=False):
    """Maximal statements starting after lo and ending before hi."""
    c = []
    for s in STMTS.get((f, func), []):
        st, en = s["start"], s["end"]
        if (before(lo, st) or (lo_incl and st == lo)) and before(en, hi):
            c.append(s)
    out = []
    for s in c:
        inner = any(o is not s and not before(s["start"], o["start"]) and
                    not before(o["end"], s["end"]) and
                    (o["start"], o["end"]) != (s["start"], s["end"]) for o in c)
        if not inner:
            out.append(s)
    out.sort(key=lambda s: (s["start"][1], s["start"][2]))
    return out


def is_housekeeping(text, r):
    t = norm(text)
    r = norm(r)
    return t in ("add_disk_randomness(%s->rq_disk);" % r,
                 "blkdev_dequeue_request(%s);" % r) or \
        re.match(r"^blk_queue_end_tag\([^;]*,%s\);$" % re.escape(r), t) is not None


def mentions(text, name):
    return re.search(r"(?<![\w.>])%s\b" % re.escape(name), str(text)) is not None


def free_locals(text, f, func, allowed):
    toks = tokens(text)
    loc = LOCALS.get((f, func), set())
    used = set()
    for i, t in enumerate(toks):
        if not re.match(r"^[A-Za-z_]\w*$", t) or t in C_KEYWORDS:
            continue
        if i > 0 and toks[i - 1] in ("->", "."):
            continue
        if t in loc and t != allowed:
            used.add(t)
    return sorted(used)


def control_flow(text):
    return any(t in ("return", "goto", "break", "continue") for t in tokens(text))


def decide_pair(k1):
    if k1 in DECISION:
        return DECISION[k1]
    d = decide_pair_uncached(k1)
    DECISION[k1] = d
    return d


def decide_pair_uncached(k1):
    pr = PAIRS[k1]
    f, func, R, U = k1[0], pr["func"], pr["R"], pr["U"]
    if not is_rq_expr(R):
        return ("report", "the request expression '%s' is not a plain variable or field: it would be evaluated more than once" % one_line(R))
    if norm(U) != norm(pr["U2"]):
        return ("report", "end_that_request_first and end_that_request_last pass different uptodate values (%s, %s)" % (U, pr["U2"]))
    if err_value(U) is None:
        return ("report", "the uptodate value '%s' has side effects and cannot be turned into an error value exactly" % one_line(U))
    k2 = pr["k2"]
    ar = AROUND.get(k2)
    hi = (f, k2[1], k2[2])
    lo = pr["wstart"]
    # Not provably held, but no lock operation between the data part and
    # end_that_request_last, which needed the queue lock: the lock state is
    # the same at both, and __blk_end_request keeps that contract (if the
    # old code ran without the lock, so does the new: the driver's bug).
    contract = not held(k1) and ar is None and not any(
        re.search(r"\bspin_(un)?lock", s["text"]) for s in window(lo, hi, f, func))
    if contract:
        pr["contract"] = True
    if held(k1) or contract:
        if ar is not None:
            return ("report", "the queue lock is taken around end_that_request_last although it is already held at the data completion")
        for s in window(lo, hi, f, func):
            if is_housekeeping(s["text"], R):
                continue
            cd = cond_dequeue_in(s, R, f, func)
            if cd is not None:
                # ide-io: if (dequeue) { if (!list_empty(&rq->queuelist))
                # blkdev_dequeue_request(rq); ... }: the final step dequeues
                # a request that is still queued; the rest stays after it
                pr.setdefault("drop", set()).add(cd["key"])
                s = dict(s, text=norm(s["text"]).replace(norm(cd["text"]), "", 1))
            alias = next((a for a in aliases_of(f, func, root(R))
                          if mentions(s["text"], a)), None)
            if alias:
                return ("report", "'%s' between the data completion and end_that_request_last uses '%s', which was taken from the request; __blk_end_request may free it: move that work by hand" % (one_line(s["text"]), alias))
            if s["decl"] or re.search(r"(add_disk_randomness|blkdev_dequeue_request|blk_queue_end_tag)", s["text"]):
                return ("report", "'%s' between the data completion and end_that_request_last uses the request, which __blk_end_request may free: hoist that read before the call by hand" % one_line(s["text"]))
            if mentions(s["text"], root(R)):
                chains = hoistable_reads(s["text"], R) \
                    if pr["shape"] in ("exit", "block") else None
                if not chains:
                    return ("report", "'%s' between the data completion and end_that_request_last uses the request, which __blk_end_request may free: hoist that read before the call by hand" % one_line(s["text"]))
                for c in chains:
                    if c in pr.setdefault("hoist", {}):
                        return ("report", "'%s' is read more than once after the data completion: hoist it by hand" % c)
                    pr["hoist"][c] = None
        if pr.get("hoist"):
            name_hoists(f, func, pr)
        return ("held", None)
    if ar is not None and unlocked(k1):
        inside = window(ar["lock_end"], hi, f, func)
        for s in inside:
            if not is_housekeeping(s["text"], R):
                return ("report", "'%s' runs under the queue lock next to end_that_request_last; blk_end_request cannot keep it there" % one_line(s["text"]))
        outside = [s for s in window(lo, ar["lock"], f, func)
                   if not is_housekeeping(s["text"], R)]
        # ubd: struct ubd *dev = req->rq_disk->private_data; unsigned long
        # flags; used only by the lock pair that goes: they go too.
        keep = []
        for s in outside:
            name = lock_only_decl(s, f, func, ar)
            if name:
                pr.setdefault("dropdecl", set()).add(name)
            else:
                keep.append(s)
        outside = keep
        if not outside:
            return ("around", None)
        if not re.match(r"^[A-Za-z_]\w*$", norm(R)):
            return ("report", "work between the data completion and the final step needs a blk_end_request_callback callback, but the request '%s' is not a plain variable" % R)
        for s in outside:
            if s["decl"]:
                return ("report", "a declaration between the data completion and the final step cannot move into a callback")
            if control_flow(s["text"]):
                return ("report", "'%s' between the data completion and the final step changes control flow; it cannot move into a callback" % one_line(s["text"]))
            loc = free_locals(s["text"], f, func, norm(R))
            if loc:
                return ("report", "'%s' between the data completion and the final step uses local state (%s): it cannot move into a blk_end_request_callback callback" % (one_line(s["text"]), ", ".join(loc)))
        if len(outside) > MAX_CB_STMTS:
            return ("report", "more than %d statements between the data completion and the final step" % MAX_CB_STMTS)
        pr["cb"] = [s["text"] for s in outside]
        pr["cbkeys"] = [s["key"] for s in outside]
        return ("callback", None)
    if ar is not None:
        return ("report", "the queue lock is taken around end_that_request_last, but the lock state at the data completion is not provably released")
    lks = [one_line(s["text"]) for s in window(lo, hi, f, func)
           if re.search(r"\bspin_(un)?lock", s["text"])]
    if lks:
        return ("report", "'%s' between the data completion and end_that_request_last takes or releases a lock not known to be the queue lock (the facts pass over the whole tree names the locks given to blk_init_queue): decide whether it is the queue lock" % lks[0])
    return ("report", "lock context unknown: the queue lock is neither provably held here (request_fn given to blk_init_queue, spin_lock on the queue lock, or a helper only called so) nor taken only around end_that_request_last")


def lock_only_decl(s, f, func, ar):
    """The name a declaration statement s declares when only the lock pair
    at ar uses it (and its initializer has no side effects), else None."""
    if not s["decl"]:
        return None
    m = re.match(r"^[^=;,]*?\b([A-Za-z_]\w*)\s*(=\s*([^;,]*))?;$",
                 " ".join(tokens(s["text"])))
    if not m or (m.group(3) and has_side_effects(m.group(3))):
        return None
    name = m.group(1)
    stmts = STMTS.get((f, func), [])
    for o in stmts:
        if o is s or o["start"] in (ar["lock"], ar["unlock"]):
            continue
        leaf = not any(i is not o and not before(i["start"], o["start"]) and
                       not before(o["end"], i["end"]) and
                       (i["start"], i["end"]) != (o["start"], o["end"])
                       for i in stmts)
        if leaf and mentions(o["text"], name):
            return None
    return name


def cond_dequeue_in(s, R, f, func):
    """A conditional dequeue 'if (C) blkdev_dequeue_request(R);' (C without
    side effects: ide-io's !list_empty(&rq->queuelist), ll_rw_blk's
    dequeue flag) inside s or s itself, or None.  The final step dequeues a
    request that is still queued, and a request not dequeued here must be
    off the queue already (end_that_request_last required it)."""
    tail = "blkdev_dequeue_request(%s);" % norm(R)
    if tail not in norm(s["text"]):
        return None
    for o in STMTS.get((f, func), []):
        t = norm(o["text"])
        m = re.match(r"^if\((.*)\)%s$" % re.escape(tail), t)
        if m and (not has_side_effects(m.group(1)) or m.group(1) ==
                  "!list_empty(&%s->queuelist)" % norm(R)) and \
                not before(o["start"], s["start"]) and not before(s["end"], o["end"]):
            return o
    return None


def aliases_of(f, func, r):
    """Locals assigned or initialised from an expression that uses r."""
    out = set()
    for s in STMTS.get((f, func), []):
        t = paren(tokens(s["text"]))
        for m in re.finditer(r"\b([A-Za-z_]\w*)\s*=(?!=)\s*([^;,]*)", t):
            rhs = norm(m.group(2))
            # a plain access path from the request (maybe cast, maybe &):
            # the result of a call (a status, a count) is not an alias
            rhs = re.sub(r"^\((struct)?[A-Za-z_][\w*]*\)", "", rhs)
            if m.group(1) != r and re.match(
                    r"^&?%s((->|\.)[A-Za-z_]\w*)*$" % re.escape(r), rhs):
                out.add(m.group(1))
    return sorted(out)


def hoistable_reads(text, r):
    """The read-only access paths through the request r in a statement, or
    None when r is used otherwise (passed whole, written, address taken,
    a function pointer called through it)."""
    r = norm(r)
    if not re.match(r"^[A-Za-z_]\w*$", r):
        return None
    t = norm(text)
    chains = []
    pat = re.compile(r"(?<![\w.>])%s((?:->|\.)[A-Za-z_]\w*)+" % re.escape(r))
    uses = len(re.findall(r"(?<![\w.>])%s\b" % re.escape(r), t))
    for m in pat.finditer(t):
        after, before = t[m.end():m.end() + 2], t[max(0, m.start() - 2):m.start()]
        if after[:1] in ("(", "[") or (after[:1] == "=" and after != "==") or \
                after in ("++", "--") or after[:1] in ("+", "-", "*", "/", "|", "&", "^") and after[1:2] == "=" or \
                before.endswith("&") or before in ("++", "--"):
            return None
        chains.append(m.group(0))
    if len(chains) != uses or not chains:
        return None
    return chains


def name_hoists(f, func, pr):
    """A local name for each hoisted read: its last field, made unique."""
    words = set(LOCALS.get((f, func), set()))
    for s in STMTS.get((f, func), []):
        toks = tokens(s["text"])
        words |= set(t for i, t in enumerate(toks)
                     if re.match(r"^[A-Za-z_]\w*$", t) and
                     not (i and toks[i - 1] in ("->", ".")))
    for c in list(pr["hoist"]):
        base = re.split(r"->|\.", c)[-1]
        name, n = base, 1
        while name in words or name in C_KEYWORDS:
            n += 1
            name = "%s_%d" % (base, n)
        words.add(name)
        pr["hoist"][c] = name


def hoist_pair(p):
    k = key(p)
    return not failed() and k in PAIRS and converted_pair(k) and \
        bool(PAIRS[k].get("hoist"))


def hoist_name(p1, e):
    return PAIRS[key(p1)]["hoist"].get(norm(e))


def in_hoist_window(p1, pe):
    pr = PAIRS[key(p1)]
    return before(pr["wstart"], key(pe)) and before(key(pe), pr["k2"])


def one_line(t):
    t = paren(tokens(t))
    t = re.sub(r"\(\s*([A-Za-z_]\w*(\s+[*])?)\s*\)\s*", r"(\1)", t)
    t = re.sub(r"\s+;", ";", t)
    t = re.sub(r"(\w)\s+\(", r"\1(", t)
    return t if len(t) < 60 else t[:57] + "..."


def pair_action(k1):
    if k1 not in PAIRS:
        return None
    return decide_pair(k1)[0]


def converted_pair(k1):
    if failed():
        return False
    return pair_action(k1) in ("held", "around", "callback")


def decide_partial(k0):
    """X = first/chunk(rq, u, n) completing part of the data, followed on
    every path by a converted 'while (X) X = ...' loop whose pair ends the
    request (mmc's good blocks before its error loop).  The new call returns
    1 while bytes remain, so the loop still ends the request, with its own
    error: two calls, with the bytes left between them."""
    k1 = PARTIAL.get(k0)
    lg = LEGACY[k0]
    if k1 is None or k1 not in PAIRS:
        return ("report", None)
    if not converted_pair(k1) or pair_action(k1) != "held":
        return ("report", "the loop at line %d that ends this request is not converted: convert both by hand" % k1[1])
    if norm(lg["R"]) != norm(PAIRS[k1]["R"]) or not is_rq_expr(lg["R"]):
        return ("report", "the loop at line %d ends another request expression" % k1[1])
    if not held(k0):
        return ("report", "the queue lock is not provably held here (the loop at line %d runs under it): decide __blk_end_request or blk_end_request" % k1[1])
    if err_value(lg["U"]) is None:
        return ("report", "the uptodate value '%s' has side effects and cannot be turned into an error value exactly" % one_line(lg["U"]))
    return ("convert", None)


def decide_leftover(k1):
    """scsi_end_request: if (chunk(rq, u, n)) { leftover; if (C) chunk(rq,
    0, leftover); else { [requeue;] return; } } randomness; lock; [tag];
    last(rq, u); unlock.  Becomes if (blk_end_request(rq, E(u), n)) { ...
    if (C) blk_end_request(rq, E(u2), leftover); else ... }: the final
    step now runs inside the call that completes the last bytes, so its
    error must be the one the old final step got."""
    lo = LEFTOVER[k1]
    lg = LEGACY[k1]
    U, U2, C = lg["U"], lo["U2"], lo["C"]
    if any(o[0] == k1[0] and LEGACY[o]["func"] == lg["func"] and
           o not in (k1, lo["k2"], lo["k3"]) for o in LEGACY):
        return ("report", "other legacy calls in this function: convert it by hand")
    if not is_rq_expr(lg["R"]):
        return ("report", "the request expression '%s' is not a plain variable or field" % one_line(lg["R"]))
    if not lo["S3"]:
        return ("report", "when '%s' is false the leftover bytes stay and the old code still ran end_that_request_last, ending the request with bios pending; 2.6.25 cannot end a request that still has bytes: decide whether to complete the leftover (with which error) or to keep the request" % one_line(lo["C"]))
    if not is_exit(lo["S3"]):
        return ("report", "the branch that keeps the leftover ('%s') does not leave the function: the old code then ended the request with bytes pending, which 2.6.25 cannot do; decide how the request ends" % one_line(lo["S3"]))
    if err_value(U) is None or err_value(U2) is None:
        return ("report", "an uptodate value has side effects")
    conj = [norm(c) for c in " ".join(strip_parens(tokens(C))).split("&&")]
    same = norm(U2) == norm(U) or \
        (err_value(U2) == "-EIO" and "!" + norm(U) in conj)
    if not same:
        return ("report", "the leftover is completed with uptodate %s but the final step gets %s, which can differ under '%s': 2.6.25 runs the final step inside the call that completes the leftover; decide which error the request ends with" % (one_line(U2), one_line(U), one_line(C)))
    if not is_qlock(lo["L"], k1[0]):
        return ("report", "the lock taken around end_that_request_last (%s) is not provably the queue lock" % one_line(lo["L"]))
    if not unlocked(k1):
        return ("report", "the queue lock may be held at the data completion: blk_end_request would take it again")
    return ("convert", None)


def leftover_func(p):
    """Is p in a function whose leftover shape converts?"""
    if failed():
        return False
    func = p[0].current_element
    return any(k[0] == CURFILE[0] and LEGACY[k]["func"] == func and
               decide_leftover(k)[0] == "convert" for k in LEFTOVER)


def partial_call(k0):
    lg = LEGACY[k0]
    r = norm(lg["R"])
    b = sectors_to_bytes(lg["N"], r) if lg["name"] == "end_that_request_first" else lg["N"]
    return "__blk_end_request(%s, %s, %s)" % (r, E_of(k0, lg["U"]), b)


def converted_shape(k1):
    if k1 in PARTIAL and k1 not in PAIRS:
        return "partial" if not failed() and decide_partial(k1)[0] == "convert" else None
    if not converted_pair(k1):
        return None
    return PAIRS[k1]["shape"]


def pair_newfn(k1):
    a = pair_action(k1)
    return {"held": "__blk_end_request", "around": "blk_end_request",
            "callback": "blk_end_request_callback"}[a]


def decide_wrapper(k):
    lg = LEGACY[k]
    if lg.get("macro"):
        return ("report", "inside a macro definition: convert the macro by hand")
    if not is_rq_expr(lg["R"]):
        return ("report", "the request expression '%s' is not a plain variable or field: it would be evaluated more than once" % one_line(lg["R"]))
    if err_value(lg["U"]) is None:
        return ("report", "the uptodate value '%s' has side effects and cannot be turned into an error value exactly" % one_line(lg["U"]))
    return ("convert", None)


def decide_last_only(k):
    if any(k == lo["k3"] for lo in LEFTOVER.values()):
        return ("report", "part of a leftover shape")
    return decide_last_only1(k)


def decide_last_only1(k):
    """end_that_request_last with no data completion in its function.  The
    new call is __blk_end_request(rq, E(u), blk_rq_bytes(rq)): never 0
    bytes, which would leave a request that still carries bios pending."""
    lg = LEGACY[k]
    f, func = k[0], lg["func"]
    data = [o for o, l in LEGACY.items() if o[0] == f and l["func"] == func
            and l["name"] in ("end_that_request_first", "end_that_request_chunk")]
    if data:
        o = sorted(data, key=lambda q: (q[1], q[2]))[0]
        return ("report", "%s at line %d of this function also completes this request's data, in a shape this patch does not pair with this call: decide which new call ends the request" % (LEGACY[o]["name"], o[1]))
    if not is_rq_expr(lg["R"]):
        return ("report", "the request expression '%s' is not a plain variable or field: it would be evaluated more than once" % one_line(lg["R"]))
    if err_value(lg["U"]) is None:
        return ("report", "the uptodate value '%s' has side effects and cannot be turned into an error value exactly" % one_line(lg["U"]))
    if re.search(r"\bbio_endio\s*\(", file_text(f)):
        return ("report", "this driver ends bios itself (bio_endio in this file) without advancing the request: blk_rq_bytes(rq) would complete them a second time and 0 bytes would leave the request pending; decide whether to drop the driver's own bio completion and pass blk_rq_bytes(rq)")
    return ("convert", None)


def site_ok(k):
    """Does patch mode convert (or fold away) the legacy call at k?"""
    if failed():
        return False
    lg = LEGACY.get(k)
    if lg is None or lg.get("macro"):
        return False
    n = lg["name"]
    if n in WRAPPERS:
        return decide_wrapper(k)[0] == "convert"
    for k1, lo in LEFTOVER.items():
        if k in (k1, lo["k2"], lo["k3"]):
            return decide_leftover(k1)[0] == "convert"
    if n in ("end_that_request_first", "end_that_request_chunk"):
        if k in PARTIAL and k not in PAIRS:
            return decide_partial(k)[0] == "convert"
        return k in PAIRS and converted_pair(k)
    if k in P2:
        return converted_pair(P2[k])
    return decide_last_only(k)[0] == "convert"


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
    if any(k in (a, lo["k2"], lo["k3"]) for a, lo in LEFTOVER.items()):
        return None
    if k1 in AU and k1 not in AL:
        return "on a path after the queue lock is released"
    how = ASYNC.get((k[0], lg["func"]))
    if how and k1 in EU and k1 not in AL:
        return "in %s, %s" % (lg["func"], how)
    return None


def site_decision(k):
    """(converted?, rule, message) for any legacy call key."""
    if GROUPED:
        return (False, "group", "several files named on one spatch command line are processed together; run one file at a time or use --dir (nothing converted)")
    if k[0] in FAILED:
        return (False, "internal", "blkmig internal error, nothing converted in this file (%s)" % FAILED[k[0]])
    lg = LEGACY.get(k)
    if lg is None:
        return (False, "unknown", "not analysed")
    n = lg["name"]
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
            return (True, "wrapper", "%s -> __blk_end_request(%s, %s, %s)" % (
                n, r, e,
                "blk_rq_cur_bytes(%s)" % r if n == "end_request" else "blk_rq_bytes(%s)" % r))
        return (False, "wrapper", "%s not converted: %s" % (n, why))
    if n in ("end_that_request_first", "end_that_request_chunk"):
        if k in PAIRS:
            a, why = decide_pair(k)
            if a == "report":
                return (False, "pair", "%s/end_that_request_last pair not converted: %s" % (n, why))
            hz = PAIRS[k].get("hoist") or {}
            extra = " (hoisted before it: %s)" % ", ".join(
                "%s = %s" % (v, c) for c, v in sorted(hz.items())) if hz else ""
            if PAIRS[k].get("contract") and a == "held":
                return (True, "pair-contract", "%s + end_that_request_last -> %s%s (the queue lock is not provably held here, but end_that_request_last needed it and no lock operation lies between: the same contract)" % (n, pair_newfn(k), extra))
            return (True, "pair-" + a, "%s + end_that_request_last -> %s%s" % (n, pair_newfn(k), extra))
        if k in PARTIAL:
            a, why = decide_partial(k)
            if a == "convert":
                return (True, "partial", "%s -> %s (part of the data; the loop at line %d ends the request with its own error)" % (n, partial_call(k), PARTIAL[k][1]))
            if why:
                return (False, "partial", "%s not converted: %s" % (n, why))
        lasts = sorted((o for o, l in LEGACY.items() if o[0] == k[0] and
                        l["func"] == lg["func"] and l["name"] == "end_that_request_last"
                        and norm(l["R"]) == norm(lg["R"])), key=lambda q: (q[1], q[2]))
        if lasts:
            if whole_request(n, lg["N"] or "", lg["R"]) or k in NONFS:
                why = "that call is not reached on every path after this one"
            else:
                why = "this call completes '%s', not provably the whole request, so the request may still have bytes when that call ends it" % one_line(lg["N"] or "")
            return (False, "data-only", "%s is not paired with end_that_request_last of the same request at line %d: %s; the new call would run the final step here when the bytes run out: decide where the request ends" % (n, lasts[0][1], why))
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
        if PAIRS[k1].get("contract") and a == "held":
            return (True, "pair-contract", "end_that_request_last folded into %s (same lock contract)" % pair_newfn(k1))
        return (True, "pair-" + a, "end_that_request_last folded into %s" % pair_newfn(k1))
    a, why = decide_last_only(k)
    if a == "convert":
        r = one_line(lg["R"])
        return (True, "last-only", "end_that_request_last -> __blk_end_request(%s, %s, blk_rq_bytes(%s)) (the final step; bytes the driver did not complete are completed first, never left pending)" % (r, E_of(k, lg["U"]), r))
    return (False, "last-only", "end_that_request_last not converted: %s" % why)


# --- uptodate variables (item 10) ---------------------------------------------
def var_converted(f, func, name):
    v = VARS.get((f, func, name))
    if v is None:
        return False
    if "ok" in v:
        return v["ok"]
    ok = True
    if not v["feeds"]:
        ok = False
    for k in v["feeds"]:
        if not site_ok(k):
            ok = False
    allowed = set(v["feeds_args"]) | set(v["assign_lhs"])
    for u in v["uses"]:
        if u not in allowed:
            ok = False
    for e in v["values"]:
        if assign_value(e) is None:
            ok = False
    v["ok"] = ok
    return ok


def assign_value(e):
    """New value for an assignment to an uptodate variable, or None."""
    toks = strip_parens(tokens(e))
    s = "".join(toks)
    if s in ("0", "1", "true", "false") or re.match(r"^-E[A-Z0-9]+$", s) or \
            split_ternary(toks) is not None and err_value(e) is not None and \
            not err_value(e).startswith("(") or bool_valued(toks):
        return err_value(e)
    return None


def E_of(k, u):
    func = FUNC_OF.get(k) or LEGACY.get(k, {}).get("func")
    n = norm(u)
    if re.match(r"^[A-Za-z_]\w*$", n) and var_converted(k[0], func, n):
        return n
    return err_value(u)


# --- recording (called by the collection rules) -------------------------------
PARAMS = set()
INTEREST_CACHE = {}
PLAN = {}


def interesting(fn):
    """Legacy calls and calls of functions that (transitively) make them."""
    if re.match(LEGACY_RE, fn):
        return True
    if "set" not in INTEREST_CACHE:
        funcs = set()
        frontier = set(n for (f, n) in CALLS if re.match(LEGACY_RE, n))
        for _ in range(MAX_CALL_DEPTH + 1):
            nxt = set()
            for (f, n), ks in CALLS.items():
                if n in frontier:
                    for k in ks:
                        c = FUNC_OF.get(k)
                        if c and c not in funcs:
                            nxt.add(c)
            funcs |= nxt
            frontier = nxt
        INTEREST_CACHE["set"] = funcs
    return fn in INTEREST_CACHE["set"]


def CALL_KEYS():
    if "calls" not in INTEREST_CACHE:
        INTEREST_CACHE["calls"] = set(k for ks in CALLS.values() for k in ks)
    return INTEREST_CACHE["calls"]


def record_legacy(p, name, R, U, N, pu):
    k = key(p)
    func = p[0].current_element
    # Outside any function (a macro body, an initializer) spatch reports
    # "something_else": such sites are left for the maintainer.
    macro = func in ("something_else", "", None)
    LEGACY[k] = {"name": name, "R": str(R), "U": str(U),
                 "N": None if N is None else str(N), "func": func,
                 "ukey": key(pu), "macro": macro}
    FUNC_OF.setdefault(k, func)
    u = norm(U)
    if re.match(r"^[A-Za-z_]\w*$", u) and (p[0].file, func, u) not in PARAMS \
            and u in LOCALS.get((p[0].file, func), set()):
        v = VARS.setdefault((p[0].file, func, u), {
            "feeds": [], "feeds_args": [], "assign_lhs": [], "values": [],
            "uses": [], "sites": []})
        v["feeds"].append(k)
        v["feeds_args"].append(key(pu))


FUNCS_SEEN = set()


def record_pair(p1, p2, U2, shape, wstart):
    k1, k2 = key(p1), key(p2)
    if k1 in PAIRS or k2 in P2 or k1 not in LEGACY:
        return
    lg = LEGACY[k1]
    PAIRS[k1] = {"k2": k2, "shape": shape, "wstart": wstart, "R": lg["R"],
                 "U": lg["U"], "U2": str(U2), "N": lg["N"], "name": lg["name"],
                 "func": lg["func"]}
    P2[k2] = k1
    DECISION.clear()
    PLAN.clear()


def is_exit(s):
    t = norm(s)
    while t.startswith("{") and t.endswith("}"):
        t = t[1:-1]
    m = re.search(r"(return[^;]*;|BUG\(\);|goto\w+;|break;|continue;)$", t)
    if not m:
        return False
    prev = t[:m.start()]
    return prev == "" or prev.endswith(";") or prev.endswith("}") or prev.endswith("{")


def whole_request(name, n, r):
    t, r = norm(n), norm(r)
    if name == "end_that_request_first":
        return t in (r + "->hard_nr_sectors", r + "->nr_sectors")
    return t in (r + "->hard_nr_sectors<<9", r + "->nr_sectors<<9",
                 "(" + r + "->hard_nr_sectors<<9)", "blk_rq_bytes(%s)" % r)


def lock_pair_matches(lk, ulk):
    a = lk[len("spin_lock"):]
    b = ulk[len("spin_unlock"):]
    return {"": "", "_irq": "_irq", "_irqsave": "_irqrestore", "_bh": "_bh"}.get(a) == b


def in_pair_func(ps):
    f, func = CURFILE[0], ps[0].current_element
    return any(k[0] == f and pr["func"] == func for k, pr in PAIRS.items())


def record_stmt(ps, text, decl):
    f, func = ps[0].file, ps[0].current_element
    FUNC_OF.setdefault(key(ps), func)
    STMTS.setdefault((f, func), []).append({
        "start": key(ps), "end": endkey(ps), "text": str(text),
        "key": key(ps), "decl": decl})
    DECISION.clear()
    PLAN.clear()


def VAR_NAMES():
    return set(k[2] for k in VARS)


def var_event(p, x, kind, e):
    f, func = p[0].file, p[0].current_element
    v = VARS.get((f, func, x))
    if v is None:
        return
    if kind == "use":
        v["uses"].append(key(p))
    elif kind == "assign":
        v.setdefault("asg", []).append(key(p))
        v["assign_lhs"].append(key(p))
        v["values"].append(str(e))
        v["sites"].append(key(p))
    elif kind == "init":
        v.setdefault("init", []).append(key(p))
        v["values"].append(str(e))
        v["sites"].append(key(p))
    v.pop("ok", None)


def var_site_converts(p, name):
    if failed():
        return False
    k = orig_key(p, name)
    for (vf, vfunc, x), v in VARS.items():
        if k in v["sites"]:
            return var_converted(vf, vfunc, x)
    return False


# --- the plan of one file: what patch mode removes ----------------------------
def plan(f):
    if f in PLAN:
        return PLAN[f]
    pl = {"hk": set(), "locks": set(), "lasts": set(), "moved": set(),
          "flags": set()}
    for k1, pr in list(PAIRS.items()):
        if k1[0] != f or not converted_pair(k1):
            continue
        a = pair_action(k1)
        k2 = pr["k2"]
        pl["lasts"].add(k2)
        for s in window(pr["wstart"], k2, f, pr["func"]):
            if is_housekeeping(s["text"], pr["R"]):
                pl["hk"].add(s["key"])
        if a in ("around", "callback"):
            ar = AROUND[k2]
            for st in STMTS.get((f, pr["func"]), []):
                m = re.match(r"^spin_lock_irqsave\(.*,([A-Za-z_]\w*)\);$", norm(st["text"]))
                if st["start"] == ar["lock"] and m:
                    pl["flags"].add((pr["func"], m.group(1)))
            for name in pr.get("dropdecl", ()):
                pl["flags"].add((pr["func"], name))
            pl["locks"].add(ar["lock"])
            pl["locks"].add(ar["unlock"])
            for s in window(ar["lock_end"], k2, f, pr["func"]):
                pl["hk"].add(s["key"])
        if a == "callback":
            pl["moved"] |= set(pr["cbkeys"])
        pl["moved"] |= set(pr.get("drop", ()))
    PLAN[f] = pl
    return pl


def in_plan(p, what, name):
    if failed():
        return False
    return orig_key(p, name) in plan(CURFILE[0])[what]


def new_call(k1):
    if k1 not in PAIRS:
        return partial_call(k1)
    pr = PAIRS[k1]
    fn = pair_newfn(k1)
    r = norm(pr["R"])
    if pr["name"] == "end_that_request_first":
        b = sectors_to_bytes(pr["N"], r)
    else:
        b = pr["N"]
    args = [r, E_of(k1, pr["U"]), b]
    if fn == "blk_end_request_callback":
        args.append(cb_name_k(k1))
    return "%s(%s)" % (fn, ", ".join(args))


def cb_name_k(k1):
    return "%s_end_cb" % PAIRS[k1]["func"]


def cb_count(k):
    if failed():
        return 0
    if k in PAIRS and pair_action(k) == "callback":
        return len(PAIRS[k]["cb"])
    return 0


def cb_name(p):
    return cb_name_k(key(p))


def cb_param(p):
    return norm(PAIRS[key(p)]["R"])


def cb_stmts(p):
    return PAIRS[key(p)]["cb"]


def is_var_name(n):
    return n in VAR_NAMES()


# --- stable keys across the re-parses of patch mode ----------------------------
# After each rule that changes the file, spatch re-parses it (a new temporary
# name, new line numbers).  Rules that transform therefore find their targets
# by (function, callee or statement kind, ordinal within the function): a
# match-only "snapshot" rule right before each transforming rule records the
# current positions, and the plan (made on the original file) is kept in the
# same terms.
CURFILE = [None]
SNAP = {}
CALLEE = {}


GROUPED = set()


def reset_for(f):
    """A new file.  spatch applies each rule to all the files named on one
    command line together (a group); the per-file state here cannot follow
    that, so such a group is left untouched and reported."""
    if CURFILE[0] == f or f in GROUPED:
        return
    if CURFILE[0] is not None and not CALLS:
        GROUPED.add(CURFILE[0])
        GROUPED.add(f)
        return
    CURFILE[0] = f
    for d in (RQFN, QLOCK, CALLS, FUNC_OF, LEGACY, PAIRS, P2, AROUND, STMTS, ASYNC, LOCKID, PARTIAL, LEFTOVER,
              LOCALS, VARS, DECISION, SNAP, CALLEE, PLAN, INTEREST_CACHE, FAILED):
        d.clear()
    for s in (EU, AU, AL, NONCALL, PARAMS, FUNCS_SEEN, ERROR_USED, FINAL, NONFS):
        s.clear()
    seed_from_facts(f)


def okey(k, name):
    """Original key -> (function, name, ordinal)."""
    func = FUNC_OF.get(k) or LEGACY.get(k, {}).get("func")
    if name.startswith("#"):
        ks = sorted((s["start"] for s in STMTS.get((k[0], func), [])
                     if s["decl"] == (name == "#decl")),
                    key=lambda x: (x[1], x[2]))
    else:
        ks = sorted((c for c in CALLS.get((k[0], name), []) if FUNC_OF.get(c) == func),
                    key=lambda x: (x[1], x[2]))
    return (func, name, ks.index(k)) if k in ks else None


def snap(p, name):
    f, func = p[0].file, p[0].current_element
    SNAP.setdefault((f, func, name), set()).add((int(p[0].line), int(p[0].column)))


def cur_okey(p, name):
    f, func = p[0].file, p[0].current_element
    ks = sorted(SNAP.get((f, func, name), set()))
    here = (int(p[0].line), int(p[0].column))
    return (func, name, ks.index(here)) if here in ks else None


def orig_key(p, name):
    """The original key of the call/statement at p of the current version."""
    ok = cur_okey(p, name)
    if ok is None:
        return None
    build_okeys()
    return PLAN["okeys"].get(ok)


def build_okeys():
    if "okeys" not in PLAN:
        m = {}
        for k in list(LEGACY) + [s["start"] for v in STMTS.values() for s in v]:
            for n in ([CALLEE.get(k)] if CALLEE.get(k) else []) + ["#stmt", "#decl"]:
                o = okey(k, n)
                if o is not None:
                    m[o] = k
        for k, n in CALLEE.items():
            if not re.match(RELEVANT_RE, n):
                continue
            o = okey(k, n)
            if o is not None:
                m[o] = k
        for (vf, vfunc, x), v in VARS.items():
            for kind in ("asg", "init"):
                for i, k in enumerate(sorted(set(v.get(kind, [])), key=lambda q: (q[1], q[2]))):
                    m[(vfunc, "#%s:%s" % (kind, x), i)] = k
        PLAN["okeys"] = m


ERROR_USED = set()


def renames(p, uv):
    if failed():
        return False
    func = p[0].current_element
    if func in ERROR_USED:
        return False
    return var_converted(CURFILE[0], func, uv)


def flags_candidate(p, name):
    """A flags variable whose spin_lock_irqsave/restore pair patch mode removed."""
    return (p[0].current_element, name) in plan(CURFILE[0])["flags"]


def flags_unused(p, name):
    func = p[0].current_element
    return not failed() and flags_candidate(p, name) and \
        not SNAP.get((p[0].file, func, "#flaguse:" + name))

# --- one consistent decision per file -----------------------------------------
# All decisions are made once, before the first rewrite, so that an internal
# error can never leave a file half converted: the file is then left alone
# and every site is reported.
FINAL = set()
FAILED = {}


def finalize(f):
    if f in FINAL:
        return
    FINAL.add(f)
    try:
        for k in list(LEGACY):
            if k[0] == f:
                site_decision(k)
        for (vf, vfunc, x) in list(VARS):
            if vf == f:
                var_converted(vf, vfunc, x)
        plan(f)
        build_okeys()
    except Exception as e:  # keep the file untouched, report why
        FAILED[f] = "%s: %s" % (type(e).__name__, e)


def failed():
    return CURFILE[0] in FAILED or bool(GROUPED)



# --- tree-wide facts (blkmig_facts.cocci, -D facts=FILE) ----------------------
# The facts pass runs over the whole tree first; here they seed the per-file
# request_fns and queue locks, so a driver whose lock or request_fn is set up
# in another file (IDE: ide_lock in ide-probe.c; mmc: the lock handed to
# mmc_init_queue) is decided like one set up in the same file.
import os


def facts_path():
    """-D facts=FILE (spatch 1.1.1 gives virtual values to no script rule,
    so read our own command line), else $BLKMIG_FACTS; None without."""
    try:
        argv = [a.decode("utf-8", "replace") for a in
                open("/proc/self/cmdline", "rb").read().split(b"\0")]
    except OSError:
        argv = []
    for i, a in enumerate(argv):
        v = argv[i + 1] if a == "-D" and i + 1 < len(argv) else \
            (a[2:] if a.startswith("-D") else None)
        if v and v.startswith("facts="):
            return v[len("facts="):]
    return os.environ.get("BLKMIG_FACTS") or None


TREE = {"rqfn": [], "lockparam": {}, "lockarg": [], "static": set(),
        "ops": set(), "qlockvar": [], "loaded": False, "error": None}


def load_facts():
    if TREE["loaded"]:
        return
    TREE["loaded"] = True
    path = facts_path()
    if not path:
        return
    try:
        fh = open(path, errors="replace")
    except OSError as e:
        TREE["error"] = str(e)
        return
    with fh:
        for line in fh:
            f = line.rstrip("\n").split("\t")
            if f[0] == "rqfn" and len(f) >= 5:
                TREE["rqfn"].append((f[1], f[2], norm(f[3])))
            elif f[0] == "lockparam" and len(f) >= 5:
                TREE["lockparam"][(f[2], int(f[3]))] = f[1]
            elif f[0] == "lockarg" and len(f) >= 5:
                TREE["lockarg"].append((f[1], f[2], int(f[3]), norm(f[4])))
            elif f[0] == "static" and len(f) >= 3:
                TREE["static"].add((f[1], f[2]))
            elif f[0] == "ops" and len(f) >= 3:
                TREE["ops"].add((f[1], f[2]))
            elif f[0] == "qlockvar" and len(f) >= 3:
                TREE["qlockvar"].append((f[1], norm(f[2])))


def same_file(fact, f):
    """A fact names a file relative to the facts run's --dir."""
    f = os.path.normpath(f)
    return f == fact or f.endswith("/" + fact)


def file_text(f):
    try:
        with open(f, errors="replace") as fh:
            return fh.read()
    except OSError:
        return ""


def defines_static_lock(f, x):
    return re.search(r"\bstatic\s+(DEFINE_SPINLOCK\s*\(\s*%s\s*\)|spinlock_t\s+%s\b)"
                     % (re.escape(x), re.escape(x)), file_text(f)) is not None


def seed_from_facts(f):
    """Request functions and queue locks of file f known from the tree."""
    load_facts()
    here = set()
    for (ff, fn, lock) in TREE["rqfn"]:
        if same_file(ff, f):
            RQFN.setdefault(f, set()).add(fn)
            here.add(lock)
        elif not any(same_file(sf, f) for (sf, sfn) in TREE["static"]
                     if sfn == fn) and re.search(r"\b%s\s*\(" % re.escape(fn),
                                                 file_text(f)):
            # a non-static request_fn defined here, registered elsewhere
            RQFN.setdefault(f, set()).add(fn)
        m = re.match(r"^&([A-Za-z_]\w*)$", lock)
        if m and not same_file(ff, f) and not defines_static_lock(f, m.group(1)):
            # a global lock (ide_lock) given to blk_init_queue in another file
            here.add(lock)
    for (af, callee, i, expr) in TREE["lockarg"]:
        if same_file(af, f) and (callee, i) in TREE["lockparam"]:
            here.add(expr)          # mmc_init_queue(&mq, card, &md->lock)
    for (qf, x) in TREE["qlockvar"]:
        if same_file(qf, f):
            here.add(x)
    here.discard("NULL")
    if here:
        QLOCK.setdefault(f, set()).update(here)
    for (of, fn) in TREE["ops"]:
        if same_file(of, f):
            NONCALL.add((f, fn))

# (Not decorator syntax: a line starting with "@" would end the SmPL block.)
record_legacy = guard(record_legacy)
record_pair = guard(record_pair)
record_stmt = guard(record_stmt)
var_event = guard(var_event)

// ---------------------------------------------------------------------------
// 0. Token prefilter: every other rule depends on this one, so a file
//    without a legacy call is skipped and never touched.
// ---------------------------------------------------------------------------
@has_legacy@
position p;
@@
(
end_that_request_first@p(...)
|
end_that_request_chunk@p(...)
|
end_that_request_last@p(...)
|
end_request@p(...)
|
end_queued_request@p(...)
|
end_dequeued_request@p(...)
)

@script:python@
p << has_legacy.p;
@@
reset_for(p[0].file)

// ---------------------------------------------------------------------------
// 1. Facts about the file: request_fns, queue locks, calls, lock state.
// ---------------------------------------------------------------------------
@rf depends on has_legacy@
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
RQFN.setdefault(p[0].file, set()).add(fn)
QLOCK.setdefault(p[0].file, set()).add(norm(L))

// The identity of a lock field: the struct type it lives in and its name.
// Two spellings with the same identity are the same lock when the driver
// keeps one such struct per queue (the lock given to blk_init_queue).
@lid1 depends on has_legacy@
type T;
T *E;
identifier fld;
position p;
@@
E@p->fld

@script:python@
T << lid1.T;
E << lid1.E;
fld << lid1.fld;
@@
if str(T).startswith("struct "):
    LOCKID[norm("&%s->%s" % (E, fld))] = (norm(T), str(fld))

@lid2 depends on has_legacy@
type T;
T E;
identifier fld;
position p;
@@
E@p.fld

@script:python@
T << lid2.T;
E << lid2.E;
fld << lid2.fld;
@@
if str(T).startswith("struct "):
    LOCKID[norm("&%s.%s" % (E, fld))] = (norm(T), str(fld))

// A local pointer copied from the queue lock is the queue lock too.
@qa depends on has_legacy@
identifier X;
expression E;
position p;
@@
X@p = E->queue_lock

@script:python@
X << qa.X;
p << qa.p;
@@
QLOCK.setdefault(p[0].file, set()).add(norm(X))

@calls depends on has_legacy@
identifier fn;
position p;
@@
fn@p(...)

@script:python@
fn << calls.fn;
p << calls.p;
@@
FUNC_OF[key(p)] = p[0].current_element
CALLEE[key(p)] = fn
FUNCS_SEEN.add((p[0].file, p[0].current_element))
CALLS.setdefault((p[0].file, fn), []).append(key(p))
INTEREST_CACHE.clear()

// Calls reachable from the function entry without taking the queue lock.
@eu depends on has_legacy exists@
identifier f;
identifier fn : script:python() { interesting(fn) };
identifier lk =~ "^spin_lock(_irq|_irqsave|_bh)?$";
expression L : script:python() { is_qlock(L) };
position p;
@@
f(...) {
... when != lk(L, ...)
    when any
fn@p(...)
... when any
}

@script:python@
p << eu.p;
@@
EU.add(key(p))

// Calls reachable from an unlock of the queue lock without a relock.
@au depends on has_legacy exists@
identifier fn : script:python() { interesting(fn) };
identifier lk =~ "^spin_lock(_irq|_irqsave|_bh)?$";
identifier ulk =~ "^spin_unlock(_irq|_irqrestore|_bh)?$";
expression L : script:python() { is_qlock(L) };
position p;
@@
ulk(L, ...);
... when != lk(L, ...)
    when any
fn@p(...)

@script:python@
p << au.p;
@@
AU.add(key(p))

// Calls reachable from a lock of the queue lock without an unlock.
@al depends on has_legacy exists@
identifier fn : script:python() { interesting(fn) };
identifier lk =~ "^spin_lock(_irq|_irqsave|_bh)?$";
identifier ulk =~ "^spin_unlock(_irq|_irqrestore|_bh)?$";
expression L : script:python() { is_qlock(L) };
position p;
@@
lk(L, ...);
... when != ulk(L, ...)
    when any
fn@p(...)

@script:python@
p << al.p;
@@
AL.add(key(p))

// Functions used other than by a direct call (function pointers, exports):
// their callers are unknown, so their entry lock state is unknown.
@ref depends on has_legacy@
identifier fn : script:python() { interesting(fn) };
position p;
@@
fn@p

@script:python@
fn << ref.fn;
p << ref.p;
@@
if key(p) not in FUNC_OF or norm(p[0].current_element) == "":
    NONCALL.add((p[0].file, fn))
elif key(p) not in CALL_KEYS():
    NONCALL.add((p[0].file, fn))

// Functions the kernel calls without the queue lock: interrupt handlers,
// timers, tasklets (a legacy call there that needs the lock is an old bug).
@async depends on has_legacy@
identifier fn;
expression E;
position p;
@@
(
request_irq(E, fn@p, ...)
|
setup_timer(E, fn@p, ...)
|
E.function = fn@p
|
E->function = fn@p
|
tasklet_init(E, fn@p, ...)
)

@script:python@
fn << async.fn;
p << async.p;
@@
ASYNC[(p[0].file, fn)] = "an interrupt handler (request_irq)" \
    if "request_irq" in open(p[0].file, errors="replace").read().splitlines()[int(p[0].line) - 1] \
    else "a timer or tasklet function"

// Parameters and locals of every function.
@prm depends on has_legacy@
identifier f, x;
type T;
position p;
@@
f@p(..., T x, ...) { ... }

@script:python@
f << prm.f;
x << prm.x;
p << prm.p;
@@
LOCALS.setdefault((p[0].file, f), set()).add(x)
PARAMS.add((p[0].file, f, x))

@lcl depends on has_legacy@
identifier x;
type T;
position p;
@@
(
T x@p;
|
T x@p = ...;
)

@script:python@
x << lcl.x;
p << lcl.p;
@@
LOCALS.setdefault((p[0].file, p[0].current_element), set()).add(x)

// ---------------------------------------------------------------------------
// 2. The legacy calls.
// ---------------------------------------------------------------------------
@lg3 depends on has_legacy@
identifier ln =~ "^end_that_request_(first|chunk)$";
expression R, U, N;
position p, pu;
@@
ln@p(R, U@pu, N)

@script:python@
ln << lg3.ln;
R << lg3.R;
U << lg3.U;
N << lg3.N;
p << lg3.p;
pu << lg3.pu;
@@
record_legacy(p, ln, R, U, N, pu)

@lg2 depends on has_legacy@
identifier ln =~ "^(end_that_request_last|end_request|end_queued_request|end_dequeued_request)$";
expression R, U;
position p, pu;
@@
ln@p(R, U@pu)

@script:python@
ln << lg2.ln;
R << lg2.R;
U << lg2.U;
p << lg2.p;
pu << lg2.pu;
@@
record_legacy(p, ln, R, U, None, pu)

// ---------------------------------------------------------------------------
// 3. Pairs: a data completion whose "all done" path reaches
//    end_that_request_last of the same request in the same function.
// ---------------------------------------------------------------------------
// if (!end_that_request_first(rq, u, n)) { ...; end_that_request_last(rq, u); ... }
// rq->data_len is the whole request (blk_rq_bytes) when rq is not a
// filesystem request (ide-cd: the else branch of if (blk_fs_request(rq))).
@nonfs depends on has_legacy@
expression R, U;
statement S;
position p;
@@
if (blk_fs_request(R)) S else { <... end_that_request_chunk@p(R, U, R->data_len) ...> }

@script:python@
p << nonfs.p;
@@
NONFS.add(key(p))

@s1 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N;
position p1, p2;
@@
if (!fst@p1(R, U, N)) {
  ...
  end_that_request_last@p2(R, U2);
  ...
}

@script:python@
p1 << s1.p1;
p2 << s1.p2;
U2 << s1.U2;
@@
record_pair(p1, p2, U2, "block", endkey(p1))

// if (end_that_request_first(rq, u, n)) return; ...; end_that_request_last(rq, u);
@s2 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N;
statement S;
position p1, p2, pw;
@@
if (fst@p1(R, U, N)) S@pw
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s2.p1;
p2 << s2.p2;
pw << s2.pw;
S << s2.S;
U2 << s2.U2;
@@
if is_exit(S):
    record_pair(p1, p2, U2, "exit", endkey(pw))

// while (end_that_request_chunk(rq, u, n)); ...; end_that_request_last(rq, u);
@s3 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N;
statement S;
position p1, p2, pw;
@@
while (fst@p1(R, U, N)) S@pw
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s3.p1;
p2 << s3.p2;
pw << s3.pw;
S << s3.S;
U2 << s3.U2;
@@
if norm(S) in (";", "{}"):
    record_pair(p1, p2, U2, "loop", endkey(pw))

// ret = end_that_request_first(...); ... if (!ret) { ... end_that_request_last(...); ... }
@s4a depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N, X;
position p1, p2;
@@
X = fst@p1(R, U, N);
... when != X
if (!X) {
  ...
  end_that_request_last@p2(R, U2);
  ...
}

@script:python@
p1 << s4a.p1;
p2 << s4a.p2;
U2 << s4a.U2;
@@
record_pair(p1, p2, U2, "var-block", endkey(p1))

// ret = end_that_request_first(...); if (ret) return; ... end_that_request_last(...);
@s4b depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N, X;
statement S;
position p1, p2, pw;
@@
X = fst@p1(R, U, N);
... when != X
if (X) S@pw
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s4b.p1;
p2 << s4b.p2;
pw << s4b.pw;
S << s4b.S;
U2 << s4b.U2;
@@
if is_exit(S):
    record_pair(p1, p2, U2, "var-exit", endkey(pw))

// while (ret) ret = end_that_request_chunk(...); ... end_that_request_last(...);
@s5 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N, X;
position p1, p2;
@@
while (X)
(
  X = fst@p1(R, U, N);
|
  { X = fst@p1(R, U, N); }
)
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s5.p1;
p2 << s5.p2;
U2 << s5.U2;
@@
record_pair(p1, p2, U2, "var-loop", endkey(p1))

// Part of the data, then a loop that ends the request (mmc):
// X = chunk(rq, 1, good_bytes); ... while (X) X = chunk(rq, 0, ...); ... last(rq, 0);
@s5p depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier fst2 =~ "^end_that_request_(first|chunk)$";
expression R, U, N, X, U3, N3;
position p0, p1;
@@
X = fst@p0(R, U, N);
...
while (X)
(
  X = fst2@p1(R, U3, N3);
|
  { X = fst2@p1(R, U3, N3); }
)

@script:python@
p0 << s5p.p0;
p1 << s5p.p1;
@@
if key(p0) != key(p1):
    PARTIAL.setdefault(key(p0), key(p1))
    DECISION.clear()
    PLAN.clear()

// Whole request with the result ignored or kept:
// [ret =] end_that_request_first(rq, u, rq->hard_nr_sectors); ... end_that_request_last(rq, u);
@s6 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N;
position p1, p2;
@@
fst@p1(R, U, N);
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s6.p1;
p2 << s6.p2;
U2 << s6.U2;
R << s6.R;
N << s6.N;
@@
if whole_request(LEGACY[key(p1)]["name"], N, R) or key(p1) in NONFS:
    record_pair(p1, p2, U2, "ignored", endkey(p1))

@s6b depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N, X;
position p1, p2;
@@
X = fst@p1(R, U, N);
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s6b.p1;
p2 << s6b.p2;
U2 << s6b.U2;
R << s6b.R;
N << s6b.N;
@@
if whole_request(LEGACY[key(p1)]["name"], N, R) or key(p1) in NONFS:
    record_pair(p1, p2, U2, "var-whole", endkey(p1))

// The queue lock taken only around end_that_request_last of a pair.
@ar depends on has_legacy@
identifier lk =~ "^spin_lock(_irq|_irqsave|_bh)?$";
identifier ulk =~ "^spin_unlock(_irq|_irqrestore|_bh)?$";
expression L : script:python() { is_qlock(L) };
expression R, U;
position pl, pu, p2;
@@
lk@pl(L, ...);
...
end_that_request_last@p2(R, U);
ulk@pu(L, ...);

@script:python@
lk << ar.lk;
ulk << ar.ulk;
pl << ar.pl;
pu << ar.pu;
p2 << ar.p2;
@@
if key(p2) in P2 and lock_pair_matches(lk, ulk) and \
        before(PAIRS[P2[key(p2)]]["wstart"], key(pl)):
    AROUND[key(p2)] = {"lock": key(pl), "lock_end": endkey(pl), "unlock": key(pu)}

// Statements, declarations, parameters and locals of functions with pairs.
@st depends on has_legacy@
statement S;
position ps : script:python() { in_pair_func(ps) };
@@
S@ps

@script:python@
S << st.S;
ps << st.ps;
@@
record_stmt(ps, S, False)

@dc depends on has_legacy@
declaration D;
position pd : script:python() { in_pair_func(pd) };
@@
D@pd

@script:python@
D << dc.D;
pd << dc.pd;
@@
record_stmt(pd, D, True)

// ---------------------------------------------------------------------------
// 4. uptodate-style local variables that only feed the completion calls.
// ---------------------------------------------------------------------------
@vuse depends on has_legacy@
identifier uv : script:python() { is_var_name(uv) };
position p;
@@
uv@p

@script:python@
uv << vuse.uv;
p << vuse.p;
@@
var_event(p, uv, "use", None)

@vasg depends on has_legacy@
identifier uv : script:python() { is_var_name(uv) };
expression E;
position p;
@@
uv@p = E

@script:python@
uv << vasg.uv;
E << vasg.E;
p << vasg.p;
@@
var_event(p, uv, "assign", E)

// Functions that already use the name error (no rename there).
@errid depends on has_legacy@
identifier e =~ "^error$";
position p;
@@
e@p

@script:python@
p << errid.p;
@@
ERROR_USED.add(p[0].current_element)

// All decisions, once per file, before anything changes.
// The scsi_end_request shape: data part with leftover and requeue, the
// final step under a lock taken around it.
@sl depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier fst2 =~ "^end_that_request_(first|chunk)$";
expression R, U, N, U2, LO, C, L, Q;
identifier fl;
statement S3;
position p1, p2, p3;
@@
if (fst@p1(R, U, N)) {
  ...
  if (C)
    fst2@p2(R, U2, LO);
  else S3
}
add_disk_randomness(R->rq_disk);
spin_lock_irqsave(L, fl);
? if (blk_rq_tagged(R)) blk_queue_end_tag(Q, R);
end_that_request_last@p3(R, U);
spin_unlock_irqrestore(L, fl);

@script:python@
p1 << sl.p1;
p2 << sl.p2;
p3 << sl.p3;
U2 << sl.U2;
C << sl.C;
S3 << sl.S3;
L << sl.L;
@@
LEFTOVER[key(p1)] = {"k2": key(p2), "k3": key(p3), "U2": str(U2),
                     "C": str(C), "S3": str(S3), "L": str(L)}
DECISION.clear()
PLAN.clear()

// The same without the branch that keeps the leftover (i2o_block).
@sl2 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier fst2 =~ "^end_that_request_(first|chunk)$";
expression R, U, N, U2, LO, C;
position p1, p2, p3;
@@
if (fst@p1(R, U, N)) {
  ...
  if (C)
    fst2@p2(R, U2, LO);
}
...
end_that_request_last@p3(R, U);

@script:python@
p1 << sl2.p1;
p2 << sl2.p2;
p3 << sl2.p3;
U2 << sl2.U2;
C << sl2.C;
@@
LEFTOVER.setdefault(key(p1), {"k2": key(p2), "k3": key(p3), "U2": str(U2),
                              "C": str(C), "S3": "", "L": ""})
DECISION.clear()
PLAN.clear()

@fin depends on has_legacy@
position p;
@@
(
end_that_request_first@p(...)
|
end_that_request_chunk@p(...)
|
end_that_request_last@p(...)
|
end_request@p(...)
|
end_queued_request@p(...)
|
end_dequeued_request@p(...)
)

@script:python@
p << fin.p;
@@
finalize(CURFILE[0])

// ---------------------------------------------------------------------------
// 5. Patch mode: the conversions.
// ---------------------------------------------------------------------------
// Item 3: reads through the request after the data completion, which may
// now free it, are hoisted into a local taken before the call.  This is the
// first rewrite, so the positions are still those of the original file.
@hzx depends on has_legacy && (patch) exists@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier R;
expression U, N, E;
statement S;
position p1 : script:python() { hoist_pair(p1) };
position pe;
@@
if (fst@p1(R, U, N)) S
...
E@pe

@script:python hzxv@
p1 << hzx.p1;
E << hzx.E;
v;
@@
n = hoist_name(p1, E)
coccinelle.v = cocci.make_ident(n if n else "blkmig_unused")

@depends on has_legacy && (patch) exists@
identifier hzx.fst, hzx.R;
expression hzx.U, hzx.N, hzx.E;
statement hzx.S;
position hzx.pe;
position p1 : script:python(E, pe) { hoist_pair(p1) and hoist_name(p1, E) is not None and in_hoist_window(p1, pe) };
identifier hzxv.v;
@@
+ typeof(E) v = E;
  if (fst@p1(R, U, N)) S
  ...
- E@pe
+ v

@hzb depends on has_legacy && (patch) exists@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier R;
expression U, N, E;
position p1 : script:python() { hoist_pair(p1) };
position pe;
@@
if (!fst@p1(R, U, N)) { <+... E@pe ...+> }

@script:python hzbv@
p1 << hzb.p1;
E << hzb.E;
v;
@@
n = hoist_name(p1, E)
coccinelle.v = cocci.make_ident(n if n else "blkmig_unused")

@depends on has_legacy && (patch) exists@
identifier hzb.fst, hzb.R;
expression hzb.U, hzb.N, hzb.E;
position hzb.pe;
position p1 : script:python(E, pe) { hoist_pair(p1) and hoist_name(p1, E) is not None and in_hoist_window(p1, pe) };
identifier hzbv.v;
@@
+ typeof(E) v = E;
  if (!fst@p1(R, U, N)) {
  <...
- E@pe
+ v
  ...>
  }

// uptodate variables: assignments and initialisers take error values (the
// pattern x = E also matches the initialiser of a declaration).
@snapva depends on has_legacy && (patch)@
identifier uv : script:python() { is_var_name(uv) };
expression E;
position p;
@@
uv@p = E

@script:python@
uv << snapva.uv;
p << snapva.p;
@@
snap(p, "#asg:" + uv)

@vfix depends on has_legacy && (patch)@
identifier uv;
expression E;
position p : script:python(uv) { var_site_converts(p, "#asg:" + uv) };
@@
uv@p = E

@script:python vfixv@
E << vfix.E;
e;
@@
coccinelle.e = cocci.make_expr(assign_value(E))

@depends on has_legacy && (patch)@
identifier vfix.uv;
expression vfix.E;
position vfix.p;
expression vfixv.e;
@@
uv@p =
- E
+ e

// Work between the data part and the final step moves into a
// blk_end_request_callback callback: create the callback before the
// function (one rule per statement count), then drop the statements.
// BEGIN generated callback rules (cocci/gen_callback_rules.py)
@snapcb1 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapcb1.fst;
p << snapcb1.p;
@@
snap(p, fst)

@cbmk1 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p : script:python(fst) { cb_count(orig_key(p, fst)) == 1 };
@@
fst@p(...)

@script:python cbv1@
p << cbmk1.p;
fst << cbmk1.fst;
fn; cb; par; b1;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)
k1 = orig_key(p, fst)
coccinelle.cb = cocci.make_ident(cb_name_k(k1))
coccinelle.par = cocci.make_ident(norm(PAIRS[k1]["R"]))
stmts = PAIRS[k1]["cb"]
coccinelle.b1 = cocci.make_stmt(stmts[0])

@depends on has_legacy && (patch)@
identifier cbv1.fn, cbv1.cb, cbv1.par;
statement cbv1.b1;
@@
+ static int cb(struct request *par)
+ {
+	b1
+	return 0;
+ }
+
  fn(...) { ... }

@snapcb2 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapcb2.fst;
p << snapcb2.p;
@@
snap(p, fst)

@cbmk2 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p : script:python(fst) { cb_count(orig_key(p, fst)) == 2 };
@@
fst@p(...)

@script:python cbv2@
p << cbmk2.p;
fst << cbmk2.fst;
fn; cb; par; b1; b2;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)
k1 = orig_key(p, fst)
coccinelle.cb = cocci.make_ident(cb_name_k(k1))
coccinelle.par = cocci.make_ident(norm(PAIRS[k1]["R"]))
stmts = PAIRS[k1]["cb"]
coccinelle.b1 = cocci.make_stmt(stmts[0])
coccinelle.b2 = cocci.make_stmt(stmts[1])

@depends on has_legacy && (patch)@
identifier cbv2.fn, cbv2.cb, cbv2.par;
statement cbv2.b1, cbv2.b2;
@@
+ static int cb(struct request *par)
+ {
+	b1
+	b2
+	return 0;
+ }
+
  fn(...) { ... }

@snapcb3 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapcb3.fst;
p << snapcb3.p;
@@
snap(p, fst)

@cbmk3 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p : script:python(fst) { cb_count(orig_key(p, fst)) == 3 };
@@
fst@p(...)

@script:python cbv3@
p << cbmk3.p;
fst << cbmk3.fst;
fn; cb; par; b1; b2; b3;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)
k1 = orig_key(p, fst)
coccinelle.cb = cocci.make_ident(cb_name_k(k1))
coccinelle.par = cocci.make_ident(norm(PAIRS[k1]["R"]))
stmts = PAIRS[k1]["cb"]
coccinelle.b1 = cocci.make_stmt(stmts[0])
coccinelle.b2 = cocci.make_stmt(stmts[1])
coccinelle.b3 = cocci.make_stmt(stmts[2])

@depends on has_legacy && (patch)@
identifier cbv3.fn, cbv3.cb, cbv3.par;
statement cbv3.b1, cbv3.b2, cbv3.b3;
@@
+ static int cb(struct request *par)
+ {
+	b1
+	b2
+	b3
+	return 0;
+ }
+
  fn(...) { ... }

@snapcb4 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapcb4.fst;
p << snapcb4.p;
@@
snap(p, fst)

@cbmk4 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p : script:python(fst) { cb_count(orig_key(p, fst)) == 4 };
@@
fst@p(...)

@script:python cbv4@
p << cbmk4.p;
fst << cbmk4.fst;
fn; cb; par; b1; b2; b3; b4;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)
k1 = orig_key(p, fst)
coccinelle.cb = cocci.make_ident(cb_name_k(k1))
coccinelle.par = cocci.make_ident(norm(PAIRS[k1]["R"]))
stmts = PAIRS[k1]["cb"]
coccinelle.b1 = cocci.make_stmt(stmts[0])
coccinelle.b2 = cocci.make_stmt(stmts[1])
coccinelle.b3 = cocci.make_stmt(stmts[2])
coccinelle.b4 = cocci.make_stmt(stmts[3])

@depends on has_legacy && (patch)@
identifier cbv4.fn, cbv4.cb, cbv4.par;
statement cbv4.b1, cbv4.b2, cbv4.b3, cbv4.b4;
@@
+ static int cb(struct request *par)
+ {
+	b1
+	b2
+	b3
+	b4
+	return 0;
+ }
+
  fn(...) { ... }

@snapcb5 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapcb5.fst;
p << snapcb5.p;
@@
snap(p, fst)

@cbmk5 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p : script:python(fst) { cb_count(orig_key(p, fst)) == 5 };
@@
fst@p(...)

@script:python cbv5@
p << cbmk5.p;
fst << cbmk5.fst;
fn; cb; par; b1; b2; b3; b4; b5;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)
k1 = orig_key(p, fst)
coccinelle.cb = cocci.make_ident(cb_name_k(k1))
coccinelle.par = cocci.make_ident(norm(PAIRS[k1]["R"]))
stmts = PAIRS[k1]["cb"]
coccinelle.b1 = cocci.make_stmt(stmts[0])
coccinelle.b2 = cocci.make_stmt(stmts[1])
coccinelle.b3 = cocci.make_stmt(stmts[2])
coccinelle.b4 = cocci.make_stmt(stmts[3])
coccinelle.b5 = cocci.make_stmt(stmts[4])

@depends on has_legacy && (patch)@
identifier cbv5.fn, cbv5.cb, cbv5.par;
statement cbv5.b1, cbv5.b2, cbv5.b3, cbv5.b4, cbv5.b5;
@@
+ static int cb(struct request *par)
+ {
+	b1
+	b2
+	b3
+	b4
+	b5
+	return 0;
+ }
+
  fn(...) { ... }

@snapcb6 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapcb6.fst;
p << snapcb6.p;
@@
snap(p, fst)

@cbmk6 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p : script:python(fst) { cb_count(orig_key(p, fst)) == 6 };
@@
fst@p(...)

@script:python cbv6@
p << cbmk6.p;
fst << cbmk6.fst;
fn; cb; par; b1; b2; b3; b4; b5; b6;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)
k1 = orig_key(p, fst)
coccinelle.cb = cocci.make_ident(cb_name_k(k1))
coccinelle.par = cocci.make_ident(norm(PAIRS[k1]["R"]))
stmts = PAIRS[k1]["cb"]
coccinelle.b1 = cocci.make_stmt(stmts[0])
coccinelle.b2 = cocci.make_stmt(stmts[1])
coccinelle.b3 = cocci.make_stmt(stmts[2])
coccinelle.b4 = cocci.make_stmt(stmts[3])
coccinelle.b5 = cocci.make_stmt(stmts[4])
coccinelle.b6 = cocci.make_stmt(stmts[5])

@depends on has_legacy && (patch)@
identifier cbv6.fn, cbv6.cb, cbv6.par;
statement cbv6.b1, cbv6.b2, cbv6.b3, cbv6.b4, cbv6.b5, cbv6.b6;
@@
+ static int cb(struct request *par)
+ {
+	b1
+	b2
+	b3
+	b4
+	b5
+	b6
+	return 0;
+ }
+
  fn(...) { ... }

// END generated callback rules

@snapst depends on has_legacy && (patch)@
statement S;
position p : script:python() { in_pair_func(p) };
@@
S@p

@script:python@
p << snapst.p;
@@
snap(p, "#stmt")

@depends on has_legacy && (patch)@
statement S;
position p : script:python() { in_plan(p, "moved", "#stmt") };
@@
- S@p

// Housekeeping the new calls do themselves, the lock pair around the final
// step, and end_that_request_last itself.
@snaphk depends on has_legacy && (patch)@
identifier hk =~ "^(add_disk_randomness|blkdev_dequeue_request|blk_queue_end_tag)$";
position p;
@@
hk@p(...)

@script:python@
hk << snaphk.hk;
p << snaphk.p;
@@
snap(p, hk)

@depends on has_legacy && (patch)@
identifier hk =~ "^(add_disk_randomness|blkdev_dequeue_request|blk_queue_end_tag)$";
position p : script:python(hk) { in_plan(p, "hk", hk) };
@@
- hk@p(...);

@snaplk depends on has_legacy && (patch)@
identifier lk =~ "^spin_(un)?lock(_irq|_irqsave|_irqrestore|_bh)?$";
position p;
@@
lk@p(...)

@script:python@
lk << snaplk.lk;
p << snaplk.p;
@@
snap(p, lk)

@depends on has_legacy && (patch)@
identifier lk =~ "^spin_(un)?lock(_irq|_irqsave|_irqrestore|_bh)?$";
position p : script:python(lk) { in_plan(p, "locks", lk) };
@@
- lk@p(...);

@snaplast depends on has_legacy && (patch)@
position p;
@@
end_that_request_last@p(...)

@script:python@
p << snaplast.p;
@@
snap(p, "end_that_request_last")

@depends on has_legacy && (patch)@
position p : script:python() { in_plan(p, "lasts", "end_that_request_last") };
@@
- end_that_request_last@p(...);

// A flags variable only the removed irqsave/irqrestore pair used goes too.
@snapfl depends on has_legacy && (patch)@
identifier fl;
position p : script:python(fl) { flags_candidate(p, fl) };
@@
fl@p

@script:python@
fl << snapfl.fl;
p << snapfl.p;
@@
snap(p, "#flaguse:" + fl)

@depends on has_legacy && (patch)@
identifier fl;
type T;
position p : script:python(fl) { flags_unused(p, fl) };
@@
- T fl@p;

@depends on has_legacy && (patch)@
identifier fl;
type T;
expression E;
position p : script:python(fl) { flags_unused(p, fl) };
@@
- T fl@p = E;

// The leftover shape (matched again here: positions have moved).
@slt depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier fst2 =~ "^end_that_request_(first|chunk)$";
expression R, U, N, U2, LO, C, L, Q;
identifier fl;
statement S3;
position p : script:python() { leftover_func(p) };
@@
if (fst@p(R, U, N)) {
  ...
  if (C)
    fst2(R, U2, LO);
  else S3
}
add_disk_randomness(R->rq_disk);
spin_lock_irqsave(L, fl);
? if (blk_rq_tagged(R)) blk_queue_end_tag(Q, R);
end_that_request_last(R, U);
spin_unlock_irqrestore(L, fl);

@script:python sltv@
U << slt.U;
U2 << slt.U2;
e1;
e2;
@@
coccinelle.e1 = cocci.make_expr(err_value(U))
coccinelle.e2 = cocci.make_expr(err_value(U2))

@depends on has_legacy && (patch)@
identifier slt.fst, slt.fst2;
expression slt.R, slt.U, slt.N, slt.U2, slt.LO, slt.C, slt.L, slt.Q;
identifier slt.fl;
statement slt.S3;
position slt.p;
expression sltv.e1, sltv.e2;
@@
- if (fst@p(R, U, N)) {
+ if (blk_end_request(R, e1, N)) {
  ...
  if (C)
-   fst2(R, U2, LO);
+   blk_end_request(R, e2, LO);
  else S3
}
- add_disk_randomness(R->rq_disk);
- spin_lock_irqsave(L, fl);
- if (blk_rq_tagged(R)) blk_queue_end_tag(Q, R);
- end_that_request_last(R, U);
- spin_unlock_irqrestore(L, fl);

@depends on has_legacy && (patch)@
identifier slt.fl;
identifier fn;
type T;
@@
fn(...) {
  ... when != fl
- T fl;
  ... when != fl
}

// The data completion becomes the new call.
@snapfst depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapfst.fst;
p << snapfst.p;
@@
snap(p, fst)

@fst1 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, N;
position p : script:python(fst) { converted_shape(orig_key(p, fst)) == "ignored" };
@@
fst@p(R, U, N)

@script:python fst1v@
p << fst1.p;
fst << fst1.fst;
c;
@@
coccinelle.c = cocci.make_expr(new_call(orig_key(p, fst)))

@depends on has_legacy && (patch)@
identifier fst1.fst;
expression fst1.R, fst1.U, fst1.N;
position fst1.p;
expression fst1v.c;
@@
- fst@p(R, U, N);
+ if (c)
+ 	BUG();

@fst2 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, N;
position p : script:python(fst) { converted_shape(orig_key(p, fst)) not in (None, "ignored") };
@@
fst@p(R, U, N)

@script:python fst2v@
p << fst2.p;
fst << fst2.fst;
c;
@@
coccinelle.c = cocci.make_expr(new_call(orig_key(p, fst)))

@depends on has_legacy && (patch)@
identifier fst2.fst;
expression fst2.R, fst2.U, fst2.N;
position fst2.p;
expression fst2v.c;
@@
- fst@p(R, U, N)
+ c

// if (!__blk_end_request(...)) {} left by the removals -> a plain call.
@depends on has_legacy && (patch)@
identifier nf =~ "^(__blk_end_request|blk_end_request|blk_end_request_callback)$";
expression list es;
@@
- if (!nf(es)) {}
+ nf(es);

@depends on has_legacy && (patch)@
identifier X;
@@
- if (!X) {}

// "if (__blk_end_request(...)) return;" as the last statement of a function
// returning nothing is just the call.
@depends on has_legacy && (patch)@
identifier nf =~ "^(__blk_end_request|blk_end_request|blk_end_request_callback)$";
identifier f;
expression list es;
@@
void f(...) {
...
- if (nf(es))
-	return;
+ nf(es);
}

// end_request, end_queued_request, end_dequeued_request.
@snapwr depends on has_legacy && (patch)@
identifier w =~ "^(end_request|end_queued_request|end_dequeued_request)$";
position p;
@@
w@p(...)

@script:python@
w << snapwr.w;
p << snapwr.p;
@@
snap(p, w)

@wr depends on has_legacy && (patch)@
identifier w =~ "^(end_request|end_queued_request|end_dequeued_request)$";
expression R, U;
position p : script:python(w) { site_ok(orig_key(p, w)) };
@@
w@p(R, U)

@script:python wrv@
p << wr.p;
w << wr.w;
R << wr.R;
U << wr.U;
e;
b;
@@
coccinelle.e = cocci.make_expr(E_of(orig_key(p, w), U))
coccinelle.b = cocci.make_expr(("blk_rq_cur_bytes(%s)" if w == "end_request" else "blk_rq_bytes(%s)") % norm(R))

@depends on has_legacy && (patch)@
identifier wr.w;
expression wr.R, wr.U;
position wr.p;
expression wrv.e, wrv.b;
@@
- w@p(R, U)
+ __blk_end_request(R, e, b)

// end_that_request_last alone (no data completion in its function).
@snaplo depends on has_legacy && (patch)@
position p;
@@
end_that_request_last@p(...)

@script:python@
p << snaplo.p;
@@
snap(p, "end_that_request_last")

@lo depends on has_legacy && (patch)@
expression R, U;
position p : script:python() { site_ok(orig_key(p, "end_that_request_last")) };
@@
end_that_request_last@p(R, U)

@script:python lov@
p << lo.p;
R << lo.R;
U << lo.U;
e;
b;
@@
coccinelle.e = cocci.make_expr(E_of(orig_key(p, "end_that_request_last"), U))
coccinelle.b = cocci.make_expr("blk_rq_bytes(%s)" % norm(R))

@depends on has_legacy && (patch)@
expression lo.R, lo.U;
position lo.p;
expression lov.e, lov.b;
@@
- end_that_request_last@p(R, U)
+ __blk_end_request(R, e, b)

// A converted uptodate variable now holds an error value: call it error.
@rn1 depends on has_legacy && (patch)@
identifier uv;
type T;
position p : script:python(uv) { renames(p, uv) };
@@
T uv@p;

@script:python rn1v@
uv << rn1.uv;
en;
@@
coccinelle.en = cocci.make_ident("error")

@depends on has_legacy && (patch)@
identifier rn1.uv;
type rn1.T;
position rn1.p;
identifier rn1v.en;
@@
T
- uv@p
+ en
;

@rn2 depends on has_legacy && (patch)@
identifier uv;
type T;
expression E;
position p : script:python(uv) { renames(p, uv) };
@@
T uv@p = E;

@script:python rn2v@
uv << rn2.uv;
en;
@@
coccinelle.en = cocci.make_ident("error")

@depends on has_legacy && (patch)@
identifier rn2.uv;
type rn2.T;
expression rn2.E;
position rn2.p;
identifier rn2v.en;
@@
T
- uv@p
+ en
= E;

@rn3 depends on has_legacy && (patch)@
identifier uv;
position p : script:python(uv) { renames(p, uv) };
@@
uv@p

@script:python rn3v@
uv << rn3.uv;
en;
@@
coccinelle.en = cocci.make_ident("error")

@depends on has_legacy && (patch)@
identifier rn3.uv;
position rn3.p;
identifier rn3v.en;
@@
- uv@p
+ en

// ---------------------------------------------------------------------------
// 6. Context, report and org modes: every legacy call, with what patch mode
//    does to it or why it leaves it.
// ---------------------------------------------------------------------------
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
how = lock_bug(key(p))
if how:
    coccilib.report.print_report(p[0], "WARNING blkmig/preexisting_lock_bug: %s runs here without the queue lock %s; the old call needed the lock too: converted to __blk_end_request (same contract), take the queue lock around it" % (LEGACY[key(p)]["name"], how))

@script:python depends on org@
p << rp.p;
@@
ok, rule, msg = site_decision(key(p))
coccilib.org.print_todo(p[0], "%s blkmig/%s: %s" % ("INFO" if ok else "WARNING", rule, msg))

