// SPDX-License-Identifier: GPL-2.0-only
/// Part of blk_end_request.cocci: the Python state of one file and the
/// decisions made from it (error values, byte counts, lock context, pairs and
/// the real shapes, callbacks, stable keys across patch mode's re-parses, the
/// tree-wide facts read from -D facts=FILE).  The rules of collect.cocci feed
/// it; convert.cocci and report.cocci ask it.
//
// Confidence: Moderate
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: not a semantic patch on its own: cocci/assemble.py inlines it
//  into cocci/blk_end_request.cocci (see cocci/src/blk_end_request.cocci
//  for the order of the parts).
// Options: --no-includes --include-headers
// Requires: 1.1.1


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
EU0 = set()      # ... without any lock or unlock of the queue lock
LOCKV = {}       # (key, depth) -> {lock state: [paths]} (guards.cocci)
VG = {}          # file -> its version guard structure (guards.cocci)
ASYNC_TXT = {}   # file -> {function: how it runs without the queue lock}
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


# The block layer's request tests and accessors of 2.6.24 (macros or inline
# functions that only read): a call of one has no side effects.
PURE_CALLS = set("""blk_fs_request blk_pc_request blk_special_request blk_sense_request
blk_pm_request blk_pm_suspend_request blk_pm_resume_request blk_barrier_rq blk_fua_rq
blk_sorted_rq blk_failfast_rq blk_rq_started blk_rq_tagged blk_bidi_rq blk_discard_rq
rq_data_dir rq_is_sync blk_rq_bytes blk_rq_cur_bytes likely unlikely""".split())
# those that are 0 or 1
PRED_CALLS = set("""blk_fs_request blk_pc_request blk_special_request blk_sense_request
blk_pm_request blk_pm_suspend_request blk_pm_resume_request""".split())


def has_side_effects(s):
    toks = tokens(s)
    for i, t in enumerate(toks):
        if t in ("++", "--", "=", "+=", "-=", "*=", "/=", "|=", "&=", "^=", "<<=", ">>="):
            return True
        if t == "(" and i > 0 and re.match(r"^[A-Za-z_]\w*$", toks[i - 1]) \
                and toks[i - 1] not in C_KEYWORDS and toks[i - 1] not in PURE_CALLS:
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
    if len(toks) > 2 and toks[0] in PRED_CALLS and toks[1] == "(" and \
            match_paren(toks, 1) == len(toks) - 1 and not has_side_effects("".join(toks[2:-1])):
        return True
    if toks and toks[0] == "!" and is_simple(toks[1:]) or \
            (toks and toks[0] == "!" and toks[1:2] == ["("] and strip_parens(toks[1:]) != toks[1:]):
        return True
    return False


def match_paren(toks, i):
    """Index of the ) closing the ( at toks[i], or -1."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == "(":
            depth += 1
        elif toks[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


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


INT_RE = r"^(\d+|0[xX][0-9a-fA-F]+)[uUlL]*$"
CONSTS = {}      # file -> {NAME: its value, for the file's own #define NAME <int>}
MACROS = set()   # every object-like or function-like macro name read so far


def int_const(s):
    """The value of an integer literal s (joined tokens), or None."""
    if not re.match(INT_RE, s):
        return None
    s = re.sub(r"[uUlL]+$", "", s)
    try:
        return int(s, 8) if re.match(r"^0\d+$", s) else int(s, 0)
    except ValueError:  # 08: no number
        return None


def blank_code(m):
    """CODE_RE's match -> blanks: comments keep their newlines, a string or a
    character constant is one token that is no number."""
    t = m.group(0)
    if t[:1] == "\x2f":
        return "\n" * t.count("\n")
    if t[:1] in ("\x22", "\x27"):
        return " " + STRING_TOKEN + " "
    return " "


def include_dirs():
    """spatch's -I DIR (and -IDIR) from our own command line (see facts_path)."""
    try:
        argv = [x.decode("utf-8", "replace") for x in
                open("/proc/self/cmdline", "rb").read().split(b"\0")]
    except OSError:
        argv = []
    out = []
    for i, x in enumerate(argv):
        if x == "-I" and i + 1 < len(argv):
            out.append(argv[i + 1])
        elif x.startswith("-I") and len(x) > 2:
            out.append(x[2:])
    return out


def included_headers(f, text):
    """The headers f includes that can be found: "x.h" beside it, <x/y.h> in
    an include/ directory of the tree above it (the kernel tree's) or in a
    directory given to spatch with -I.  Not followed further."""
    out = local_headers(f, text)
    for m in re.finditer(r"(?m)^[ \t]*\x23[ \t]*include[ \t]*<([^>]+)>", text):
        d = os.path.dirname(os.path.abspath(f))
        cands = []
        while True:
            cands.append(os.path.join(d, "include", m.group(1)))
            up = os.path.dirname(d)
            if up == d:
                break
            d = up
        cands += [os.path.join(i, m.group(1)) for i in include_dirs()]
        for h in cands:
            if os.path.isfile(h):
                out.append(h)
                break
    return out


def read_consts(text, defs, bad):
    """Add the object-like #define NAME <int constant> of text to defs."""
    text = CODE_RE.sub(blank_code, text)
    for line in text.split("\n"):
        m = re.match(r"^\s*\x23\s*undef\s+([A-Za-z_]\w*)", line)
        if m:
            bad.add(m.group(1))
            continue
        m = re.match(r"^\s*\x23\s*define\s+([A-Za-z_]\w*)(.*)$", line)
        if not m:
            continue
        name, body = m.group(1), m.group(2)
        MACROS.add(name)
        if body[:1] == "(":          # function-like
            bad.add(name)
            continue
        b = "".join(strip_parens(tokens(body)))
        v = int_const(b)
        if v is None and re.match(r"^-\(?\d+\)?$", b):
            v = -int(b.strip("-()"))
        if v is None and re.match(r"^-\(?E[A-Z0-9]+\)?$", b):
            v = b
        if v is None or defs.get(name, v) != v:
            bad.add(name)
        else:
            defs[name] = v


def file_consts(f):
    """The object-like macros of the file and of the headers it includes
    (included_headers) whose body is an integer constant (0, 1, 0x2, -5,
    -EIO, in parentheses or not), each defined once (or always alike) and
    never #undef'd: NAME -> the value ("-Exxx" as text).  ps2esdi.c's FAIL
    (0, from <linux/ps2esdi.h>)."""
    if f is None:
        return {}
    if f not in CONSTS:
        text = file_text(f)
        defs, bad = {}, set()
        try:
            read_consts(text, defs, bad)
            for h in included_headers(f, CODE_RE.sub(blank_code, text)):
                read_consts(file_text(h), defs, bad)
        except Exception:  # never let a lookup stop the conversion
            defs = {}
        CONSTS[f] = dict((k, v) for k, v in defs.items() if k not in bad)
    return CONSTS[f]


def err_value(u):
    """The 2.6.25 error value for an old uptodate expression u, or None."""
    toks = strip_parens(tokens(u))
    s = "".join(toks)
    # a macro of the file that is a constant (ps2esdi.c: #define FAIL 0)
    c = file_consts(CURFILE[0]).get(s) if re.match(r"^[A-Za-z_]\w*$", s) else None
    if c is not None:
        return "-EIO" if c == 0 else "0" if not isinstance(c, str) and c > 0 else s
    if int_const(s) is not None:
        return "-EIO" if int_const(s) == 0 else "0"
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
        # !x -> x ? -EIO : 0 (what 2.6.25's developers wrote, and the analyzer)
        if toks[0] == "!" and (is_simple(toks[1:]) or
                               strip_parens(toks[1:]) != toks[1:]):
            inner = strip_parens(toks[1:])
            x = paren(inner)
            return ("%s ? -EIO : 0" if is_rq_expr(x) or inner == toks[1:]
                    else "(%s) ? -EIO : 0") % x
        return "%s ? 0 : -EIO" % paren(toks)
    if has_side_effects(s):
        return None
    x = paren(toks)
    # the exact mapping; an identifier or member chain needs no parentheses
    # (a macro may stand for any expression: it keeps them)
    file_consts(CURFILE[0])
    if is_rq_expr(x) and not (set(re.findall(r"[A-Za-z_]\w*", x)) & MACROS):
        return "%s > 0 ? 0 : (%s ? %s : -EIO)" % (x, x, x)
    return "(%s) > 0 ? 0 : ((%s) ? (%s) : -EIO)" % (x, x, x)


def sectors_to_bytes(n, r, f):
    """The bytes of end_that_request_first(r, u, n) in file f: a helper
    where n is the field it stands for and the fields are intact, else
    n << 9 as written."""
    kind = field_count(n, r)
    if kind in ("whole", "nr") and fields_intact(f):
        return "blk_rq_bytes(%s)" % norm(r)
    if kind == "cur" and fields_intact(f):
        return "blk_rq_cur_bytes(%s)" % norm(r)
    return literal_sectors(n)


# --- fields intact (issue 20 item 1) -------------------------------------------
# A helper (blk_rq_cur_bytes, blk_rq_bytes) stands for the old call's byte
# count only where the request fields it reads still hold what the old call
# used.  Per driver file F, "fields intact" holds when
#  (a) F assigns to no member named one of FIELD_NAMES (=, op=, ++, --),
#  (b) F makes no packet requests (none of PC_NAMES appears in its code),
#  (c) F passes no struct request * to a function neither defined in F nor
#      one of the block layer's own that do not write those fields.
# The file's text is scanned (comments and strings removed), so macro bodies
# and functions spatch could not parse count too; spatch adds, for (c), the
# arguments it knows to be a struct request * (rule rqarg of collect.cocci).
FIELD_NAMES = ("current_nr_sectors", "hard_cur_sectors", "nr_sectors",
               "hard_nr_sectors", "sector", "hard_sector", "buffer", "data_len")
# (not blk_queue_ordered: its flush requests are special unless the
# driver's own prepare_flush_fn makes them packet requests, which then names
# REQ_TYPE_BLOCK_PC; cdrom_ioctl passes SG_IO on to scsi_cmd_ioctl)
PC_NAMES = ("REQ_TYPE_BLOCK_PC", "scsi_cmd_ioctl", "blk_execute_rq",
            "blk_execute_rq_nowait", "blk_rq_map_user", "blk_rq_map_user_iov",
            "blk_rq_map_kern", "sg_io", "cdrom_ioctl")
RQ_SAFE_RE = r"^(blk_rq_|elv_|blk_queue_)"
RQ_SAFE = set("""blk_fs_request blk_pc_request blk_special_request blk_barrier_rq
blk_sense_request rq_data_dir rq_is_sync blkdev_dequeue_request
blk_requeue_request add_disk_randomness blk_complete_request blk_end_sync_rq
blk_insert_request blk_put_request __blk_put_request
end_request end_that_request_first end_that_request_chunk end_that_request_last
end_queued_request end_dequeued_request __blk_end_request blk_end_request
blk_end_request_callback blk_rq_bytes blk_rq_cur_bytes""".split())
ASSIGN_OPS = ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=",
              ">>=", "++", "--")
NOT_CALLEES = C_KEYWORDS | set("""defined __attribute__ __typeof__ __builtin_expect
asm __asm__ _Alignof alignof""".split())
# the block layer's loop macros (cocci/blkmig.h): loops that read the
# request's bios, not calls
ITERATOR_RE = r"^_*rq_for_each_"
STRING_TOKEN = "__blkmig_string__"   # a string literal, in code_tokens
FIELDS = {}      # file -> the fact: dict(a, b, c: None or (what, line))
RQARGS = {}      # file -> [(line, callee, argument)] from spatch's types
# tokens of C with every compound assignment operator kept whole
CTOKEN_RE = re.compile(r"\s*(->|\+\+|--|<<=|>>=|[-+*/%&|^]=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:,()\[\].;{}\x23]|[A-Za-z_]\w*|\d\w*|\S)")
CODE_RE = re.compile(r"\x2f\*.*?\*\x2f|\x2f\x2f[^\n]*|\x22(?:\\.|[^\x22\\\n])*\x22|\x27(?:\\.|[^\x27\\\n])*\x27|\\\n", re.S)


def code_tokens(text):
    """(token, line) of C code: comments, strings, character constants and
    line continuations removed, line numbers kept."""
    def blank(m):
        s = m.group(0)
        if s[:1] == chr(34):
            return " " + STRING_TOKEN + " "
        if s[:1] == chr(39):
            return " 0 "
        return "\n" * s.count("\n") if s != "\\\n" else " \n"
    text = CODE_RE.sub(blank, text)
    out = []
    for no, line in enumerate(text.split("\n"), 1):
        out.extend((t, no) for t in CTOKEN_RE.findall(line) if t)
    return out


def is_ident(t):
    return re.match(r"^[A-Za-z_]\w*$", t) is not None


def match_back(toks, j):
    """Index of the opener of the bracket closing at j."""
    close = toks[j][0]
    opener = "(" if close == ")" else "["
    depth = 0
    while j >= 0:
        if toks[j][0] == close:
            depth += 1
        elif toks[j][0] == opener:
            depth -= 1
            if depth == 0:
                return j
        j -= 1
    return 0


def match_fwd(toks, i):
    """Index of the bracket closing the one opening at i."""
    opener = toks[i][0]
    close = ")" if opener == "(" else ("]" if opener == "[" else "}")
    depth = 0
    for j in range(i, len(toks)):
        if toks[j][0] == opener:
            depth += 1
        elif toks[j][0] == close:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def postfix_start(toks, i):
    """Start of the postfix expression ending just before index i
    (identifiers, calls, subscripts, parentheses, -> and . chains)."""
    j = i - 1
    while j >= 0:
        if toks[j][0] in (")", "]"):
            j = match_back(toks, j) - 1
        elif is_ident(toks[j][0]):
            j -= 1
        else:
            break
        if j >= 0 and toks[j][0] in ("->", "."):
            j -= 1
            continue
        if j >= 0 and toks[j][0] in (")", "]") and toks[j + 1][0] in ("(", "["):
            continue
        if j >= 0 and is_ident(toks[j][0]) and toks[j + 1][0] == "(" and \
                toks[j][0] not in NOT_CALLEES:
            continue
        break
    return j + 1


def operand_end(toks, j):
    """Does the token at j end an operand (so a '*' after it multiplies)?"""
    t = toks[j][0]
    if t == ")":
        o = match_back(toks, j)
        return not (o > 0 and toks[o - 1][0] in ("if", "while", "for", "switch"))
    return t == "]" or re.match(r"^\d", t) is not None or \
        (is_ident(t) and t not in C_KEYWORDS)


def text_of(toks, a, b):
    return paren([t for t, _ in toks[a:b]])


def strip_casts(toks):
    """An argument without its parentheses and casts: (void *)(rq) -> rq."""
    toks = strip_parens(toks)
    while len(toks) > 2 and toks[0] == "(":
        depth = 0
        for i, t in enumerate(toks):
            depth += t == "("
            depth -= t == ")"
            if depth == 0:
                break
        inner = toks[1:i]
        if i + 1 < len(toks) and inner and all(
                is_ident(t) or t == "*" for t in inner) and \
                (inner[0] in ("struct", "void", "const", "unsigned") or "*" in inner):
            toks = strip_parens(toks[i + 1:])
        else:
            break
    return toks


def request_names(toks, f):
    """Expressions known to be a struct request *: names declared so, and
    the request of every legacy call of the file."""
    names = set(norm(lg["R"]) for k, lg in LEGACY.items() if k[0] == f)
    n = len(toks)
    for i in range(n - 3):
        if toks[i][0] == "struct" and toks[i + 1][0] == "request" and \
                toks[i + 2][0] == "*" and is_ident(toks[i + 3][0]):
            names.add(toks[i + 3][0])
            j, depth = i + 4, 0
            while j < n and not (depth == 0 and toks[j][0] in (";", "{", ")")):
                t = toks[j][0]
                if t in ("(", "["):
                    depth += 1
                elif t in (")", "]"):
                    depth -= 1
                elif depth == 0 and t == "," and j + 2 < n and \
                        toks[j + 1][0] == "*" and is_ident(toks[j + 2][0]):
                    names.add(toks[j + 2][0])
                j += 1
    return names


def text_facts(toks):
    """(a) and (b) over the tokens of one file: the first write of each
    field ({field: (text, line)}) and the first packet request marker."""
    writes, b = {}, None
    n = len(toks)
    for i, (t, line) in enumerate(toks):
        if t in ("->", ".") and i + 1 < n and toks[i + 1][0] in FIELD_NAMES and \
                i > 0 and (is_ident(toks[i - 1][0]) or toks[i - 1][0] in (")", "]")) \
                and toks[i + 1][0] not in writes:
            nxt = toks[i + 2][0] if i + 2 < n else ""
            s = postfix_start(toks, i)
            pre = toks[s - 1][0] if s > 0 else ""
            unary = pre in ("*", "&") and not (s >= 2 and operand_end(toks, s - 2))
            whole = nxt not in ("[", "->", ".", "(")
            if nxt in ("++", "--"):
                w = True                # rq->buffer++, *rq->buffer++
            elif nxt in ASSIGN_OPS:
                w = not (unary and pre == "*")  # *rq->buffer = x: the pointee
            elif pre in ("++", "--"):
                w = True
            else:
                w = unary and pre == "&" and whole  # &rq->sector
            if w:
                writes[toks[i + 1][0]] = (text_of(toks, s, i + 2), toks[i + 1][1])
        if b is None and t in PC_NAMES:
            b = (t, line)
    return writes, b


def local_headers(f, text):
    """The headers a file includes with quotes that sit beside it."""
    out = []
    for m in re.finditer(r"(?m)^[ \t]*\x23[ \t]*include[ \t]*\x22([^\x22]+)\x22", text):
        h = os.path.join(os.path.dirname(f), m.group(1))
        if os.path.isfile(h):
            out.append(h)
    return out


def fields_scan(f):
    text = file_text(f)
    toks = code_tokens(text)
    base = os.path.basename(f)
    c = None
    n = len(toks)
    # (a), (b): the file, then the quoted headers beside it
    writes, b = text_facts(toks)
    writes = dict((k, v + (base,)) for k, v in writes.items())
    if b:
        b = b + (base,)
    for h in local_headers(f, text):
        hw, hb = text_facts(code_tokens(file_text(h)))
        for k, v in hw.items():
            writes.setdefault(k, v + (os.path.basename(h),))
        if b is None and hb:
            b = hb + (os.path.basename(h),)
    a = min(writes.values(), key=lambda v: (v[2] != base, v[1])) if writes else None
    # functions (and macros) defined in the file
    defined = set()
    depth = 0
    for i, (t, _) in enumerate(toks):
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        elif depth == 0 and t == "(" and i and is_ident(toks[i - 1][0]):
            j = match_fwd(toks, i) + 1
            while j < n and toks[j][0] == "__attribute__":
                j = match_fwd(toks, j + 1) + 1 if j + 1 < n else n
            if j < n and toks[j][0] == "{":
                defined.add(toks[i - 1][0])
        elif t == "define" and i and toks[i - 1][0] == chr(35) and i + 1 < n:
            defined.add(toks[i + 1][0])
    rqn = request_names(toks, f)
    for i, (t, line) in enumerate(toks):
        # (c) a request passed to a function not known not to write them
        if c is None and t == "(" and i > 0 and \
                ((is_ident(toks[i - 1][0]) and toks[i - 1][0] not in NOT_CALLEES)
                 or toks[i - 1][0] == ")"):
            if toks[i - 1][0] == ")":
                o = match_back(toks, i - 1)
                if toks[o + 1][0] != "*":
                    continue       # a cast of a parenthesised expression
                callee = text_of(toks, o, i)
            else:
                callee = toks[i - 1][0]
                if re.match(ITERATOR_RE, callee):
                    continue
                if i > 1 and toks[i - 2][0] in ("->", "."):
                    callee = text_of(toks, postfix_start(toks, i - 1), i)
            if is_ident(callee) and (callee in defined or callee in RQ_SAFE or
                                     re.match(RQ_SAFE_RE, callee)):
                continue
            end = match_fwd(toks, i)
            args, cur, depth = [], [], 0
            for t2, _ in toks[i + 1:end]:
                if t2 in ("(", "[", "{"):
                    depth += 1
                elif t2 in (")", "]", "}"):
                    depth -= 1
                if t2 == "," and depth == 0:
                    args.append(cur)
                    cur = []
                else:
                    cur.append(t2)
            args.append(cur)
            for k, arg in enumerate(args):
                # after a format string: the variadic part of a printk-style
                # call, which only reads it
                if any(STRING_TOKEN in a2 for a2 in args[:k]):
                    break
                x = norm("".join(strip_casts(arg)))
                if x and x in rqn and not (i > 1 and toks[i - 2][0] in
                                           ("struct", "union", "enum")):
                    c = (callee, x, line)
                    break
    for (line, callee, arg, fmt) in sorted(RQARGS.get(f, [])):
        cl = norm(callee)
        if fmt:
            continue
        if is_ident(cl) and (cl in defined or cl in RQ_SAFE or re.match(RQ_SAFE_RE, cl)):
            continue
        if c is None or line < c[2]:
            c = (one_line(callee), norm(arg), line)
        break
    return {"a": a, "b": b, "c": c, "file": base, "writes": writes}


def fields_fact(f):
    """The fact of file f (computed once, on the original file)."""
    if f not in FIELDS:
        FIELDS[f] = fields_scan(f)
    return FIELDS[f]


def fields_intact(f):
    fa = fields_fact(f)
    return fa["a"] is None and fa["b"] is None and fa["c"] is None


def fields_why(f, which="abc"):
    """Why the fact does not hold: each of (a), (b), (c) that fails, with
    the first line that breaks it; None when it holds."""
    fa = fields_fact(f)
    out = []
    if "a" in which and fa["a"]:
        out.append("the driver writes %s (%s:%d)" % (fa["a"][0], fa["a"][2], fa["a"][1]))
    if "h" in which and "hard_nr_sectors" in fa["writes"]:
        w = fa["writes"]["hard_nr_sectors"]
        out.append("the driver writes %s (%s:%d)" % (w[0], w[2], w[1]))
    if "b" in which and fa["b"]:
        out.append("the driver makes packet requests (%s, %s:%d)" % (fa["b"][0], fa["b"][2], fa["b"][1]))
    if "c" in which and fa["c"]:
        out.append("the driver passes %s to %s(), which is not defined in this file (%s:%d)" % (
            fa["c"][1], fa["c"][0], fa["file"], fa["c"][2]))
    return "; ".join(out) or None


def field_count(n, r):
    """Which field form a sector count is: 'whole' (hard_nr_sectors),
    'nr' (nr_sectors), 'cur' (current_nr_sectors, hard_cur_sectors), or None."""
    t, r = norm(n), norm(r)
    if t in (r + "->hard_nr_sectors", "blk_rq_sectors(%s)" % r):
        return "whole"
    if t == r + "->nr_sectors":
        return "nr"
    if t in (r + "->current_nr_sectors", r + "->hard_cur_sectors",
             "blk_rq_cur_sectors(%s)" % r):
        return "cur"
    return None


def literal_sectors(n):
    toks = tokens(n)
    if is_simple(toks):
        return "%s << 9" % paren(strip_parens(toks))
    return "(%s) << 9" % paren(strip_parens(toks))


def whole_ok(f, name, n, r):
    """Does an unconditional data completion of n (sectors for first, bytes
    for chunk) cover every byte still left, so the final step after it may
    become one '__blk_end_request(...);' (it then always ends the request)?
    None when it does, else why not."""
    t, r = norm(n), norm(r)
    if name == "end_that_request_chunk":
        if t in (r + "->hard_nr_sectors<<9", "(" + r + "->hard_nr_sectors<<9)",
                 "blk_rq_bytes(%s)" % r):
            kind = "whole"
        elif t in (r + "->nr_sectors<<9", "(" + r + "->nr_sectors<<9)"):
            kind = "nr"
        else:
            kind = None
    else:
        kind = field_count(n, r)
    if kind == "whole":
        why = fields_why(f, "b")
        if why:
            return "packet requests: %s << 9 may be less than their data_len; %s" % (one_line(n), why)
        why = fields_why(f, "h")
        if why:
            return "%s is not provably every byte left: %s" % (one_line(n), why)
        return None
    if kind == "nr":
        why = fields_why(f, "ab")
        if why:
            return "%s is not provably every byte left: %s" % (one_line(n), why)
        return None
    return "'%s' is not the request's whole size (rq->hard_nr_sectors or an intact rq->nr_sectors)" % one_line(n)


def whole_reason(f, name, n, r):
    why = whole_ok(f, name, n, r)
    if why is None:
        return None
    return "the old code ended the request whether or not bytes remained (%s); 2.6.25 cannot end a request with bytes left: decide the byte count for those requests" % why


def end_io_error_ok(p):
    """Spell end_io_error() out here?  In a file with a converted site (a
    driver's own definition of it, a macro, stays: spatch sees no macro
    bodies)."""
    f = CURFILE[0]
    if failed() or f is None:
        return False
    return any(site_ok(k) for k in list(LEGACY) if k[0] == f)


def cur_bytes(f, r):
    """The byte count of end_request(r, u)."""
    r = norm(r)
    if fields_intact(f):
        return "blk_rq_cur_bytes(%s)" % r
    return "%s->hard_cur_sectors << 9" % (r if is_rq_expr(r) else "(%s)" % r)


# One evaluation per call (issue 22 point 1).  A request argument that is a
# macro of the file expanding to a call (#define CURRENT
# elv_next_request(QUEUE)) would be evaluated twice by the new call (as the
# request and in its byte count).  Where the old call is a statement on a
# line of its own in a block (after ;, {, } or a label's :), it becomes a
# C90 block that reads the request once into a local:
#     {
#         struct request *req = CURRENT;
#
#         __blk_end_request(req, -EIO, req->hard_cur_sectors << 9);
#     }
# The local is the first of req, rq, cur_req (then cur_req2, ...) that is no
# word of the file's code (comments and strings aside; a member x->req or
# x.req does not count, its declaration does).  The analyzer's
# rq_once_local() (analyzer/convert/rewrite.c) is the same rule.
ONCE_NAMES = ("req", "rq", "cur_req")


def once_blank(m):
    return "".join(c if c == "\n" else " " for c in m.group(0))


def object_macro_body(text, name):
    """The body of object-like macro NAME as the file defines it, or None."""
    m = re.search(r"^[ \t]*#[ \t]*define[ \t]+%s(?=[ \t\n])((?:[^\n\\]|\\\n|\\)*)" % re.escape(name),
                  text, re.M)
    return m.group(1).replace("\\\n", " ") if m else None


def word_used(text, w):
    for m in re.finditer(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(w), text):
        i = m.start()
        if i and text[i - 1] == ".":
            continue
        if i > 1 and text[i - 1] == ">" and text[i - 2] == "-":
            continue
        return True
    return False


def once_name(text):
    for w in ONCE_NAMES:
        if not word_used(text, w):
            return w
    i = 2
    while word_used(text, "cur_req%d" % i):
        i += 1
    return "cur_req%d" % i


def once_local(k, R):
    """The local's name when the call at original key k, whose request
    argument is R, reads its request once into a block; else None."""
    r = norm(R)
    if k is None or not re.match(r"^[A-Za-z_]\w*$", r):
        return None
    text = file_text(k[0])
    body = object_macro_body(text, r)
    if body is None or not has_side_effects(body):
        return None
    clean = CODE_RE.sub(once_blank, text)
    lines = text.split("\n")
    if k[1] < 1 or k[1] > len(lines):
        return None
    ls = sum(len(l) + 1 for l in lines[:k[1] - 1])
    off = ls + k[2]
    if text[ls:off].strip(" \t"):
        return None
    # the call, then its statement's ; and nothing else on the line
    q = clean.find("(", off)
    depth = 0
    while 0 <= q < len(clean):
        depth += clean[q] == "("
        depth -= clean[q] == ")"
        if depth == 0:
            break
        q += 1
    if q < 0 or q >= len(clean):
        return None
    q += 1
    while q < len(clean) and clean[q] in " \t":
        q += 1
    if q >= len(clean) or clean[q] != ";":
        return None
    e = text.find("\n", q)
    if text[q + 1:e if e >= 0 else len(text)].strip(" \t\r"):
        return None
    # a statement of a block: what comes before it (preprocessor lines skipped)
    q = ls - 1
    while True:
        while q >= 0 and clean[q] in " \t\r\n":
            q -= 1
        if q < 0:
            return None
        lq = clean.rfind("\n", 0, q) + 1
        if clean[lq:q + 1].lstrip(" \t").startswith("#"):
            q = lq - 1
            continue
        break
    if clean[q] not in ";{}:":
        return None
    return once_name(clean)


def bytes_note(f, name, n, r):
    """' (X, not HELPER(r): why)' where the fields fact makes a data
    completion keep its literal byte count instead of a helper, else ''."""
    if name == "end_request":
        if fields_intact(f):
            return ""
        return " (not blk_rq_cur_bytes(%s): %s)" % (norm(r), fields_why(f))
    if name != "end_that_request_first" or n is None:
        return ""
    kind = field_count(n, r)
    if kind is None or fields_intact(f):
        return ""
    helper = "blk_rq_cur_bytes" if kind == "cur" else "blk_rq_bytes"
    return " (bytes %s, not %s(%s): %s)" % (literal_sectors(n), helper, norm(r), fields_why(f))


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
    if pr["shape"] in ("ignored", "var-whole"):
        if k1 in NONFS:
            why = "for a request that is not a filesystem request '%s' is every byte left only while the driver never rewrites it, and it is not provably so" % one_line(pr["N"])
            why = "the old code ended the request whether or not bytes remained (%s); 2.6.25 cannot end a request with bytes left: decide the byte count for those requests" % why
        else:
            why = whole_reason(f, pr["name"], pr["N"], R)
        if why:
            return ("report", why)
    k2 = pr["k2"]
    h = vg_hold(k1) or vg_hold(k2)
    if h:
        return ("report", h[1])
    for k0, kl in PARTIAL.items():
        if kl == k1 and partial_error_differs(k0):
            return ("report", "the data completion at line %d before this loop is left (%s): this loop and its final step stay with it" % (k0[1], partial_error_differs(k0)))
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
    if ar is None and not held(k1):
        m = lock_mixed_reason(k2, "end_that_request_last")
        if m:
            return ("report", m)
        if contract and lock_fixed(k2):
            pr["unheld"] = lock_fixed(k2)
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
                    if hoist_type(c) is None:
                        return ("report", "'%s' between the data completion and end_that_request_last reads %s, which __blk_end_request may free, and its type is not known without the kernel's headers: hoist that read before the call by hand" % (one_line(s["text"]), c))
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
    """A local name for each hoisted read: saved_ and its last field (the
    analyzer's name), made unique."""
    words = set(LOCALS.get((f, func), set()))
    for s in STMTS.get((f, func), []):
        toks = tokens(s["text"])
        words |= set(t for i, t in enumerate(toks)
                     if re.match(r"^[A-Za-z_]\w*$", t) and
                     not (i and toks[i - 1] in ("->", ".")))
    for c in list(pr["hoist"]):
        base = "saved_" + re.split(r"->|\.", c)[-1]
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
    if partial_error_differs(k0):
        return ("report", partial_error_differs(k0))
    if not converted_pair(k1) or pair_action(k1) != "held":
        return ("report", "the loop at line %d that ends this request is not converted: convert both by hand" % k1[1])
    if norm(lg["R"]) != norm(PAIRS[k1]["R"]) or not is_rq_expr(lg["R"]):
        return ("report", "the loop at line %d ends another request expression" % k1[1])
    if not held(k0):
        return ("report", "the queue lock is not provably held here (the loop at line %d runs under it): decide __blk_end_request or blk_end_request" % k1[1])
    if partial_error_differs(k0):
        return ("report", partial_error_differs(k0))
    h = vg_hold(k0)
    if h:
        return ("report", h[1])
    if err_value(lg["U"]) is None:
        return ("report", "the uptodate value '%s' has side effects and cannot be turned into an error value exactly" % one_line(lg["U"]))
    return ("convert", None)


def partial_error_differs(k0):
    """X = chunk(rq, u, n) before a loop whose final step passes another
    uptodate: when this call completes the request's last bytes, the old code
    went on to end_that_request_last with that other value (the loop not
    entered); the new call ends the request here, with E(u)."""
    k1 = PARTIAL.get(k0)
    if k1 is None or k1 not in PAIRS:
        return None
    lg, pr = LEGACY[k0], PAIRS[k1]
    e, e2 = err_value(lg["U"]), err_value(pr["U2"])
    if e is None or e2 is None or norm(e) == norm(e2):
        return None
    return "when this call completes the request's last bytes it ends the request with error %s, where the old code went on to end_that_request_last(%s, %s) at line %d (end_io error %s): no 2.6.25 call completes these bytes and ends the request with the other error; decide which error the request ends with" % (
        e, one_line(pr["R"]), one_line(pr["U2"]), pr["k2"][1], e2)


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
    h = vg_hold(k1) or vg_hold(lo["k2"]) or vg_hold(lo["k3"])
    if h:
        return ("report", h[1])
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
    b = sectors_to_bytes(lg["N"], r, k0[0]) if lg["name"] == "end_that_request_first" else lg["N"]
    return "__blk_end_request(%s, %s, %s)" % (r, E_of(k0, lg["U"]), b)


def converted_shape(k1):
    if k1 in PARTIAL and k1 not in PAIRS:
        return "partial" if not failed() and decide_partial(k1)[0] == "convert" else None
    if not converted_pair(k1):
        return None
    return PAIRS[k1]["shape"]


def pair_newfn(k1):
    a = pair_action(k1)
    if a == "held" and PAIRS[k1].get("unheld"):
        return "blk_end_request"
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
    h = vg_hold(k)
    if h:
        return ("report", h[1])
    m = lock_mixed_reason(k, lg["name"])
    if m:
        return ("report", m)
    return ("convert", None)


def single_newfn(k):
    """The new call of a converted end_request-family or last-only call:
    blk_end_request where the queue lock is provably not held on any path
    (the old call's race is fixed), else __blk_end_request."""
    return "blk_end_request" if lock_fixed(k) else "__blk_end_request"


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
    # a call of bio_endio, not its declaration
    calls = [i + 1 for i, l in enumerate(file_text(f).split("\n"))
             if re.search(r"\bbio_endio\s*\(", l) and
             not re.match(r"\s*(extern\s+)?void\s+bio_endio\b", l)]
    h = vg_hold(k)
    if h:
        return ("report", h[1])
    m = lock_mixed_reason(k, "end_that_request_last")
    if m:
        return ("report", m)
    if calls:
        return ("report", "this driver ends bios itself (bio_endio at line %d of this file) without advancing the request: blk_rq_bytes(rq) would complete them a second time and 0 bytes would leave the request pending; decide whether to drop the driver's own bio completion and pass blk_rq_bytes(rq)" % calls[0])
    return ("convert", None)


def last_only_hk(p):
    """Is the call at p a last-only final step that patch mode converts (the
    housekeeping right before it then goes)?"""
    k = orig_key(p, "end_that_request_last")
    if k is None or k in P2 or failed():
        return False
    if any(k in (k1, lo["k2"], lo["k3"]) for k1, lo in LEFTOVER.items()):
        return False
    return site_ok(k)


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


# --- uptodate variables (item 10) ---------------------------------------------
def var_converted(f, func, name):
    """Renamed error: it may be (var_convertible) and no other local of the
    function may (two locals renamed error would clash: then none is; the
    analyzer's localvar.c decides alike)."""
    if not var_convertible(f, func, name):
        return False
    return not any(vf == f and vfunc == func and x != name and var_convertible(vf, vfunc, x)
                   for (vf, vfunc, x) in list(VARS))


def var_convertible(f, func, name):
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


def value01(e, depth=0, why=None):
    """Is the value of expression e always 0 or 1?  (a constant 0/1, also
    one of the file's macros or enum constants, a condition, c ? a : b of
    such values, a call of a function of the file whose every return is such
    a value (returns01); why, a list, gets the first such function's name)"""
    toks = strip_parens(tokens(e))
    s = "".join(toks)
    c = None
    if re.match(r"^[A-Za-z_]\w*$", s):
        c = file_consts(CURFILE[0]).get(s)
        if c is None:
            c = file_enums(CURFILE[0]).get(s)
    if c is None:
        c = int_const(s)
    if c is not None or s in ("true", "false"):
        return c in (0, 1) or s in ("true", "false")
    if bool_valued(toks):
        return True
    if depth >= 3:
        return False
    file_consts(CURFILE[0])     # reads the file's macros into MACROS
    if len(toks) > 2 and is_ident(toks[0]) and toks[0] not in C_KEYWORDS and \
            toks[0] not in MACROS and toks[1] == "(" and match_paren(toks, 1) == len(toks) - 1:
        if not returns01(CURFILE[0], toks[0], depth + 1):
            return False
        if why is not None and not why:
            why.append(toks[0])
        return True
    tern = split_ternary(toks)
    return tern is not None and \
        value01(" ".join(tern[1]), depth + 1, why) and value01(" ".join(tern[2]), depth + 1, why)


# --- value ranges: the file's own functions and enums (issue 22 point 1) ------
FUNCDEFS = {}    # file -> {name: the body's (token, line) list, None if defined twice}
ENUMS = {}       # file -> {enum constant: its value, where known}
RET01 = {}       # (file, name) -> does every return give 0 or 1


def file_code_tokens(f):
    """code_tokens of f without its preprocessor directives (they are no
    code of a function; their continuation lines go with them)."""
    out, cont = [], False
    for ln in file_text(f).split("\n"):
        d = cont or ln.lstrip().startswith("\x23")
        cont = d and ln.rstrip().endswith(chr(92))
        out.append("" if d else ln)
    return code_tokens("\n".join(out))


def file_funcdefs(f):
    """The function definitions of file f (top level `name(...) {`)."""
    if f is None:
        return {}
    if f not in FUNCDEFS:
        defs = {}
        try:
            toks = file_code_tokens(f)
            i = 0
            while i < len(toks):
                t = toks[i][0]
                if t == "{":
                    j = match_fwd(toks, i)
                    if i > 0 and toks[i - 1][0] == ")":
                        o = match_back(toks, i - 1)
                        name = toks[o - 1][0] if o > 0 else ""
                        if is_ident(name) and name not in C_KEYWORDS and \
                                name != "__attribute__":
                            defs[name] = None if name in defs else toks[i:j + 1]
                    i = j + 1 if j > i else i + 1
                    continue
                i += 1
        except Exception:  # never let a lookup stop the conversion
            defs = {}
        FUNCDEFS[f] = defs
    return FUNCDEFS[f]


def file_enums(f):
    """The enum constants of file f whose value is known: NAME [= integer],
    counted on from the last known value."""
    if f is None:
        return {}
    if f not in ENUMS:
        vals = {}
        try:
            toks = [t for t, _ in file_code_tokens(f)]
            for i, t in enumerate(toks):
                if t != "enum":
                    continue
                j = i + 1
                if j < len(toks) and is_ident(toks[j]):
                    j += 1
                if j >= len(toks) or toks[j] != "{":
                    continue
                end = toks.index("}", j)
                nxt = 0
                for item in " ".join(toks[j + 1:end]).split(","):
                    it = item.split()
                    if not it or not is_ident(it[0]):
                        continue
                    if len(it) > 1 and it[1] == "=":
                        v = "".join(it[2:])
                        n = int_const(v)
                        if n is None and re.match(r"^-\d+$", v):
                            n = int(v)
                        nxt = n
                    if nxt is not None:
                        vals[it[0]] = vals.get(it[0], nxt) if vals.get(it[0], nxt) == nxt else None
                        nxt += 1
        except Exception:
            vals = {}
        ENUMS[f] = dict((k, v) for k, v in vals.items() if v is not None)
    return ENUMS[f]


def returns01(f, name, depth):
    """Does every `return` of f's one definition of name give 0 or 1 by
    value01 (at least one, each with a value)?  A call of it then gives 0 or
    1: what a call gives is what the body returns, whoever else calls it."""
    if (f, name, depth) in RET01:
        return RET01[(f, name, depth)]
    body = file_funcdefs(f).get(name)
    ok = body is not None
    n = 0
    i = 0
    while ok and i < len(body):
        if body[i][0] == "return":
            j, d = i + 1, 0
            while j < len(body) and not (body[j][0] == ";" and d == 0):
                if body[j][0] in ("(", "[", "{"):
                    d += 1
                elif body[j][0] in (")", "]", "}"):
                    d -= 1
                j += 1
            e = " ".join(t for t, _ in body[i + 1:j])
            if not e.strip() or not value01(e, depth):
                ok = False
            n += 1
            i = j
        i += 1
    RET01[(f, name, depth)] = ok and n > 0
    return RET01[(f, name, depth)]


# integer types at least as wide as int (guard01: a constant stored and the
# one compared with convert alike)
WIDE_INT_WORDS = set("""int long unsigned signed u_int uint u32 s32 u64 s64 __u32 __s32
__u64 __s64 size_t ssize_t register volatile""".split())


def const_of(e):
    """The value of a constant expression e: an integer (also negative), one
    of the file's macros or enum constants; None otherwise."""
    s = "".join(strip_parens(tokens(e)))
    neg = s.startswith("-")
    b = "".join(strip_parens(tokens(s[1:]))) if neg else s
    v = None
    if is_ident(b):
        v = file_consts(CURFILE[0]).get(b)
        if v is None:
            v = file_enums(CURFILE[0]).get(b)
    if v is None:
        v = int_const(b)
    if v is None or isinstance(v, str):
        return None
    return -v if neg else v


def guard01(k, name):
    """Is local name 0 or 1 at the legacy call k because every value it is
    ever given is an integer constant, the call lies in the then branch of
    `if (name != C)` (or `C != name`) that writes no name, and the constants
    other than C are 0 or 1 (ps2esdi.c's ending: -1, FAIL and SUCCES under
    `if (ending != -1)`)?  Its declared type must be an integer at least as
    wide as int (WIDE_INT_WORDS).  Then the reason, else None.  (The
    analyzer's facts/uptodate_flow.c guard_01 decides alike.)"""
    f, line = k[0], k[1]
    lg = LEGACY.get(k, {})
    func = FUNC_OF.get(k) or lg.get("func")
    v = VARS.get((f, func, name))
    if v is None or v.get("mod") or not v["values"]:
        return None
    vals = [const_of(e) for e in v["values"]]
    if None in vals:
        return None
    body = file_funcdefs(f).get(func)
    if not body:
        return None
    at = [i for i, (t, l) in enumerate(body) if l == line and t == lg.get("name")]
    if len(at) != 1:
        return None
    c = at[0]
    # the declaration: TYPE-WORDS name [= ...] ; within the function
    decl = None
    for i in range(1, len(body) - 1):
        if body[i][0] == name and body[i + 1][0] in (";", "=", ",") and \
                is_ident(body[i - 1][0]) and body[i - 1][0] not in ("return", "case", "goto"):
            j = i - 1
            while j > 0 and body[j - 1][0] not in (";", "{", "}", ","):
                j -= 1
            decl = [t for t, _ in body[j:i]]
            break
    if not decl or not all(t in WIDE_INT_WORDS for t in decl):
        return None
    for i in range(c - 1, -1, -1):
        if body[i][0] != "if" or i + 1 >= len(body) or body[i + 1][0] != "(":
            continue
        m = match_fwd(body, i + 1)
        if m + 1 >= len(body):
            continue
        if body[m + 1][0] == "{":
            o, e = m + 1, match_fwd(body, m + 1)
        else:           # one statement: up to its ; (outside parentheses)
            o, e, d = m, m + 1, 0
            while e < len(body) and not (body[e][0] == ";" and d == 0):
                if body[e][0] in ("(", "[", "{"):
                    d += 1
                elif body[e][0] in (")", "]", "}"):
                    d -= 1
                e += 1
        if not (o < c < e):
            continue
        cond = strip_parens([t for t, _ in body[i + 2:m]])
        if "!=" not in cond:
            continue
        q = cond.index("!=")
        lhs, rhs = cond[:q], cond[q + 1:]
        if strip_parens(rhs) == [name]:
            lhs, rhs = rhs, lhs
        if strip_parens(lhs) != [name]:
            continue
        cv = const_of(" ".join(rhs))
        if cv is None:
            continue
        if any(body[j][0] == name and body[j + 1][0] == "=" for j in range(o + 1, e)):
            continue
        rest = [x for x in vals if x != cv]
        if not rest or any(x not in (0, 1) for x in rest):
            return None
        return "%s is 0 or 1: it is only given the constants %s and the call is guarded " \
            "by %s != %s" % (name, ", ".join(str(x) for x in sorted(set(vals))), name,
                             paren(rhs))
    return None


def switch01(k, name):
    """Is local name 0 or 1 at the legacy call k by the case labels of a
    switch on it (`switch (name)` or `switch (name = expr)`, pd.c's run_fsm):
    the call is in the switch's body, every label of that switch before it
    is `case K:` with K 0 or 1 (the file's macros and enum constants
    evaluated; no default, no case range), no goto label lies between the
    body's start and the call, and the local is never written but by its
    declaration and the switch's own condition?  Then the reason, else None.
    (The analyzer's facts/uptodate_flow.c switch_01 decides alike.)"""
    f, line = k[0], k[1]
    lg = LEGACY.get(k, {})
    func = FUNC_OF.get(k) or lg.get("func")
    v = VARS.get((f, func, name))
    if v is None or v.get("mod"):
        return None
    body = file_funcdefs(f).get(func)
    if not body:
        return None
    at = [i for i, (t, l) in enumerate(body) if l == line and t == lg.get("name")]
    if len(at) != 1:
        return None
    c = at[0]
    asg = v.get("asg", [])
    for i in range(c - 1, -1, -1):
        if body[i][0] != "switch" or i + 1 >= len(body) or body[i + 1][0] != "(":
            continue
        m = match_fwd(body, i + 1)
        if m + 1 >= len(body) or body[m + 1][0] != "{":
            continue
        o, e = m + 1, match_fwd(body, m + 1)
        if not (o < c < e):
            continue
        cond = strip_parens([t for t, _ in body[i + 2:m]])
        lines = (body[i + 1][1], body[m][1])
        if cond == [name]:
            if asg:
                continue
        elif len(cond) > 2 and cond[0] == name and cond[1] == "=":
            if len(asg) != 1 or not lines[0] <= asg[0][1] <= lines[1]:
                continue
        else:
            continue
        # the labels of this switch (not of switches nested in it) before the call
        nested, labels, ok = [], [], True
        j = o + 1
        while j < c and ok:
            t = body[j][0]
            if t == "switch" and j + 1 < len(body) and body[j + 1][0] == "(":
                m2 = match_fwd(body, j + 1)
                if m2 + 1 < len(body) and body[m2 + 1][0] == "{":
                    nested.append((m2 + 1, match_fwd(body, m2 + 1)))
            inner = any(a < j < b for a, b in nested)
            if t == "case" and not inner:
                q = j + 1
                while q < len(body) and body[q][0] != ":":
                    q += 1
                kt = [x for x, _ in body[j + 1:q]]
                ks = "".join(strip_parens(kt))
                val = file_consts(f).get(ks) if is_ident(ks) else None
                if val is None and is_ident(ks):
                    val = file_enums(f).get(ks)
                if val is None:
                    val = int_const(ks)
                if "..." in kt or "." in kt or val not in (0, 1) or isinstance(val, str):
                    ok = False
                labels.append("case " + " ".join(kt))
                j = q
            elif t == "default" and not inner:
                ok = False
            elif is_ident(t) and t not in C_KEYWORDS and j + 1 < c and \
                    body[j + 1][0] == ":" and body[j - 1][0] in (";", "{", "}", ":"):
                ok = False      # a goto label: a jump there passes no case
            j += 1
        if ok and labels:
            return "%s is 0 or 1: the call is reached only through %s of the switch on it" % (
                name, ", ".join(labels))
    return None


def var_range01(f, func, name):
    """A local only ever given 0 or 1 (every assignment and its initialiser;
    no other write, no address taken)."""
    v = VARS.get((f, func, name))
    return v is not None and not v.get("mod") and bool(v["values"]) and \
        all(value01(e) for e in v["values"])


def E_of(k, u):
    func = FUNC_OF.get(k) or LEGACY.get(k, {}).get("func")
    n = norm(u)
    # a wrapper's parameter that becomes error (wrappers.cocci)
    if "wr_error" in globals() and wr_error(k, u):
        return "error"
    if re.match(r"^[A-Za-z_]\w*$", n) and var_converted(k[0], func, n):
        return n
    # a local that is only ever 0 or 1 needs no three-way mapping
    if re.match(r"^[A-Za-z_]\w*$", n) and var_range01(k[0], func, n):
        why = []
        for e in VARS[(k[0], func, n)]["values"]:
            value01(e, 0, why)
        if why:
            E_WHY[k] = "%s is 0 or 1: %s() returns only 0 or 1" % (n, why[0])
        return "%s ? 0 : -EIO" % n
    # nor one that is 0 or 1 where the call is, by a switch's case labels
    if re.match(r"^[A-Za-z_]\w*$", n):
        why = switch01(k, n) or guard01(k, n)
        if why:
            E_WHY[k] = why
            return "%s ? 0 : -EIO" % n
    return err_value(u)


E_WHY = {}       # legacy call -> why its uptodate is taken as 0 or 1 (E_of)


def err_note(k):
    """The reason E_of took the call's uptodate as 0 or 1, for the report."""
    return " (%s)" % E_WHY[k] if k in E_WHY else ""


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
    """The shape of a whole-request completion (whether it covers every byte
    left is whole_ok's question)."""
    t, r = norm(n), norm(r)
    if name == "end_that_request_first":
        return field_count(n, r) in ("whole", "nr")
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
    elif kind == "mod":
        v["mod"] = True
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
        b = sectors_to_bytes(pr["N"], r, k1[0])
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
              LOCALS, VARS, DECISION, SNAP, CALLEE, PLAN, INTEREST_CACHE, FAILED,
              LOCKV, VG, ASYNC_TXT):
        d.clear()
    for d in (FIELDS, RQARGS, GONE):
        d.clear()
    for s in (EU, EU0, AU, AL, NONCALL, PARAMS, FUNCS_SEEN, ERROR_USED, FINAL, NONFS):
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
    # calls of this name a rule already replaced in an earlier version
    # (fst1's whole-request completions) no longer count in the ordinals
    gone = set(k for (v, func, n), ks in GONE.items()
               if v != p[0].file and func == ok[0] and n == name for k in ks)
    if gone:
        left = [k for (func, n, i), k in sorted(PLAN["okeys"].items(), key=lambda e: e[0][2])
                if func == ok[0] and n == name and k not in gone]
        return left[ok[2]] if ok[2] < len(left) else None
    return PLAN["okeys"].get(ok)


GONE = {}        # (version's file name, function, callee) -> original keys replaced there


def replaced(p, name, k):
    """The call at p (original key k) is replaced by this version's rule."""
    GONE.setdefault((p[0].file, p[0].current_element, name), set()).add(k)


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
        fields_fact(f)
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
