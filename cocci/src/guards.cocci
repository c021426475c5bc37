// SPDX-License-Identifier: GPL-2.0-only
/// Part of blk_end_request.cocci: version guards and the lock state on every
/// path to a call (issue 20 items 2 and 3).  Version guards: the file's
/// #if/#ifdef/#ifndef/#elif/#else/#endif structure read from its text (the
/// analyzer's facts/version_guard.c reads it the same way): a call compiled
/// only for kernels before 2.6.25, or inside the file's own #define of a
/// legacy or 2.6.25 name or its own definition of a 2.6.25 function, is
/// compat code (compat_branch); a call of a file with LINUX_VERSION_CODE
/// tests that is compiled for kernels on both sides of 2.6.25 is left
/// (multi_version): a bare 2.6.25 call would break the older builds.  Lock
/// state: every path to a call, from the function's own lock operations and
/// from its entry (request_fn: held; interrupt handler, timer, tasklet, work
/// function, kthread: not held; else each caller in the file, recursively).
//
// Confidence: Moderate
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: not a semantic patch on its own: cocci/assemble.py inlines it
//  into cocci/blk_end_request.cocci.
// Options: --no-includes --include-headers
// Requires: 1.1.1

@initialize:python@
@@
V2625 = 0x020619
VER_END = 1 << 24
API_NEW = ("blk_end_request", "__blk_end_request", "blk_end_request_callback",
           "blk_end_request_all", "__blk_end_request_all", "blk_end_request_cur",
           "__blk_end_request_cur", "blk_end_request_err", "__blk_end_request_err")
API_OLD = ("end_that_request_first", "end_that_request_chunk", "end_that_request_last",
           "end_request", "end_queued_request", "end_dequeued_request")
VG_DIR_RE = re.compile(r"^\s*\x23\s*(if|ifdef|ifndef|elif|else|endif|define)\b(.*)$")
VG_TOK_RE = re.compile(r"\s*(&&|\|\||==|!=|<=|>=|<<|>>|[()!<>,+*-]|[A-Za-z_]\w*|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\S)")


def vg_clean_lines(text):
    """The file's lines, comments and strings blanked, continuations joined
    onto the first line of the directive (the others become empty)."""
    def blank(m):
        s = m.group(0)
        if s[:1] in (chr(34), chr(39)):
            return " 0 "
        return " " + "\n" * s.count("\n")
    t = re.sub(r"\x2f\*.*?\*\x2f|\x2f\x2f[^\n]*|\x22(?:\\.|[^\x22\\\n])*\x22|\x27(?:\\.|[^\x27\\\n])*\x27",
               blank, text, flags=re.S)
    lines = t.split("\n")
    out = []
    i = 0
    while i < len(lines):
        l = lines[i]
        n = 1
        while l.endswith(chr(92)) and i + n < len(lines):
            l = l[:-1] + " " + lines[i + n]
            n += 1
        out.append(l)
        out.extend([""] * (n - 1))
        i += n
    return out


class VgExpr(object):
    """Three-valued evaluation of a #if expression at one version code:
    True, False or None (a term that constrains nothing)."""

    def __init__(self, text):
        self.toks = [t for t in VG_TOK_RE.findall(text) if t]
        self.lvc = "LINUX_VERSION_CODE" in self.toks

    def value(self, v):
        self.v = v
        self.i = 0
        try:
            r = self.orx()
        except (IndexError, ValueError):
            return None
        return r

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def orx(self):
        a = self.andx()
        while self.peek() == "||":
            self.i += 1
            b = self.andx()
            a = True if (a is True or b is True) else (False if (a is False and b is False) else None)
        return a

    def andx(self):
        a = self.cmp()
        while self.peek() == "&&":
            self.i += 1
            b = self.cmp()
            a = False if (a is False or b is False) else (True if (a is True and b is True) else None)
        return a

    def num(self):
        """A version operand: LINUX_VERSION_CODE, KERNEL_VERSION(a,b,c), a
        number; None for anything else (the term then constrains nothing)."""
        t = self.peek()
        if t == "(":
            save = self.i
            self.i += 1
            x = self.num()
            if x is not None and self.peek() == ")":
                self.i += 1
                return x
            self.i = save
            return None
        if t == "LINUX_VERSION_CODE":
            self.i += 1
            return self.v
        if t == "KERNEL_VERSION" and self.toks[self.i + 1] == "(":
            args, depth, j, cur = [], 0, self.i + 1, []
            while j < len(self.toks):
                x = self.toks[j]
                if x == "(":
                    depth += 1
                    if depth == 1:
                        j += 1
                        continue
                elif x == ")":
                    depth -= 1
                    if depth == 0:
                        break
                if x == "," and depth == 1:
                    args.append(cur)
                    cur = []
                else:
                    cur.append(x)
                j += 1
            args.append(cur)
            self.i = j + 1
            try:
                a, b, c = [int(re.sub(r"[uUlL]+$", "", "".join(x)), 0) for x in args]
            except ValueError:
                return None
            return (a << 16) + (b << 8) + c
        if t is not None and re.match(r"^(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$", t):
            self.i += 1
            return int(re.sub(r"[uUlL]+$", "", t), 0)
        return None

    def cmp(self):
        t = self.peek()
        if t == "!":
            self.i += 1
            a = self.cmp()
            return None if a is None else not a
        save = self.i
        x = self.num()
        op = self.peek()
        if x is not None and op in ("<", "<=", ">", ">=", "==", "!="):
            self.i += 1
            y = self.num()
            if y is not None:
                return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y,
                        "==": x == y, "!=": x != y}[op]
            self.skip_term()
            return None
        if x is not None and op in (None, ")", "&&", "||"):
            return x != 0
        self.i = save
        if t == "(":
            self.i += 1
            a = self.orx()
            if self.peek() == ")":
                self.i += 1
            return a
        self.skip_term()
        return None

    def skip_term(self):
        """Any other term (defined(X), a macro, arithmetic): up to the next
        && or || or unbalanced ) at this level."""
        depth = 0
        while self.i < len(self.toks):
            t = self.toks[self.i]
            if t == "(":
                depth += 1
            elif t == ")":
                if depth == 0:
                    return
                depth -= 1
            elif depth == 0 and t in ("&&", "||"):
                return
            self.i += 1


def vg_tri_not(a):
    return None if a is None else not a


def vg_tri_and(a, b):
    if a is False or b is False:
        return False
    if a is True and b is True:
        return True
    return None


def vguard(f):
    """Per line of f (1-based): the version sample points it may be compiled
    for, the compat branch holding it, the #define holding it; and the lines
    of the file's LINUX_VERSION_CODE tests."""
    if f in VG:
        return VG[f]
    raw = file_text(f).split("\n")
    lines = vg_clean_lines(file_text(f))
    consts = set([0, VER_END - 1, V2625, V2625 - 1])
    for l in lines:
        for m in re.finditer(r"KERNEL_VERSION\s*\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)", l):
            try:
                c = (int(m.group(1), 0) << 16) + (int(m.group(2), 0) << 8) + int(m.group(3), 0)
            except ValueError:
                continue
            consts.update((c - 1, c, c + 1))
        if "LINUX_VERSION_CODE" in l:
            for m in re.finditer(r"\b(0[xX][0-9a-fA-F]+|\d+)", l):
                c = int(m.group(1), 0)
                if c < VER_END:
                    consts.update((c - 1, c, c + 1))
    points = sorted(c for c in consts if 0 <= c < VER_END)
    ALL = dict((v, None) for v in points)       # v -> truth (None: unknown)
    stack = []   # frames: dict(prev=[truth per v of earlier branches], cur, line, if_line, kind, group)
    info = [None] * (len(lines) + 2)
    lvc = []
    defines = []   # (name, first line, last line)
    groups = []
    for no, l in enumerate(lines, 1):
        m = VG_DIR_RE.match(l)
        d = m.group(1) if m else None
        if d in ("if", "ifdef", "ifndef"):
            if d == "if":
                e = VgExpr(m.group(2))
                cur = dict((v, e.value(v)) for v in points)
                if e.lvc:
                    lvc.append(no)
            else:
                cur = dict(ALL)
            g = len(groups)
            groups.append([])
            fr = {"prev": dict((v, False) for v in points), "cur": cur, "line": no,
                  "if_line": no, "kind": "\x23" + d, "group": g}
            groups[g].append(fr)
            stack.append(fr)
        elif d == "elif" and stack:
            fr = stack[-1]
            e = VgExpr(m.group(2))
            if e.lvc:
                lvc.append(no)
            prev = dict((v, vg_tri_or(fr["prev"][v], fr["cur"][v])) for v in points)
            cur = dict((v, e.value(v)) for v in points)
            nf = {"prev": prev, "cur": cur, "line": no, "if_line": fr["if_line"],
                  "kind": "\x23elif", "group": fr["group"]}
            groups[fr["group"]].append(nf)
            stack[-1] = nf
        elif d == "else" and stack:
            fr = stack[-1]
            prev = dict((v, vg_tri_or(fr["prev"][v], fr["cur"][v])) for v in points)
            nf = {"prev": prev, "cur": dict((v, True) for v in points), "line": no,
                  "if_line": fr["if_line"], "kind": "\x23else", "group": fr["group"]}
            groups[fr["group"]].append(nf)
            stack[-1] = nf
        elif d == "endif" and stack:
            stack.pop()
        elif d == "define":
            dm = re.match(r"\s*([A-Za-z_]\w*)", m.group(2))
            end = no
            while end < len(raw) and raw[end - 1].rstrip().endswith(chr(92)):
                end += 1
            if dm:
                defines.append((dm.group(1), no, end))
        info[no] = list(stack)
    VG[f] = {"info": info, "points": points, "lvc": lvc, "defines": defines,
             "groups": groups}
    return VG[f]


def vg_tri_or(a, b):
    if a is True or b is True:
        return True
    if a is False and b is False:
        return False
    return None


def vg_branch_may(fr, v):
    """May the branch of frame fr be taken at version v?"""
    return vg_tri_and(vg_tri_not(fr["prev"][v]), fr["cur"][v]) is not False


def vg_versions(g, stack):
    return [v for v in g["points"] if all(vg_branch_may(fr, v) for fr in stack)]


def vg_words(fr):
    s = "%s at line %d" % (fr["kind"], fr["line"])
    if fr["line"] != fr["if_line"]:
        s += " of the \x23if at line %d" % fr["if_line"]
    return s


def vg_ranges(vs, points):
    """Sample points as version ranges, for a reason."""
    def ver(c):
        return "%d.%d.%d" % (c >> 16, (c >> 8) & 255, c & 255)
    out, start, prev = [], None, None
    for v in points:
        if v in vs:
            if start is None:
                start = v
            prev = v
        elif start is not None:
            out.append((start, prev))
            start = None
    if start is not None:
        out.append((start, prev))
    return ", ".join("%s..%s" % (ver(a), ver(b)) if b < VER_END - 1 else "%s and later" % ver(a)
                     for a, b in out)


def vg_hold(k, lg_name=None):
    """(code, reason) when the call at key k is left for the version guards
    of its file (compat_branch, multi_version), else None."""
    f, line = k[0], k[1]
    g = vguard(f)
    info = g["info"]
    if not 0 < line < len(info):
        return None
    stack = info[line] or []
    vs = vg_versions(g, stack)
    if vs and all(v < V2625 for v in vs):
        for i, fr in enumerate(stack):
            if all(v < V2625 for v in vg_versions(g, stack[:i + 1])):
                new = next((o for o in g["groups"][fr["group"]]
                            if any(v >= V2625 for v in vg_versions(g, stack[:i] + [o]))), None)
                why = "in the branch for kernels before 2.6.25 (%s), which keeps the legacy API on purpose; " % vg_words(fr)
                if new is not None:
                    why += "the file's branch for 2.6.25 and later (%s) is what runs on newer kernels" % vg_words(new)
                else:
                    why += "on 2.6.25 and later this code is not compiled"
                return ("compat_branch", why + ": nothing to convert")
    for (name, a, b) in g["defines"]:
        if a <= line <= b and (name in API_OLD or name in API_NEW):
            if name in API_NEW:
                return ("compat_branch", "in this file's own \x23define of %s (line %d), its stand-in for the newer call on kernels that lack it, written with the legacy API on purpose: nothing to convert" % (name, a))
            return ("compat_branch", "in this file's own \x23define of %s (line %d), the legacy API as the file spells it for the kernels it supports: it stays as it is: nothing to convert" % (name, a))
    lg = LEGACY.get(k)
    func = lg["func"] if lg else None
    if func in API_NEW:
        return ("compat_branch", "in this file's own definition of %s, its stand-in for the newer call on kernels that lack it, written with the legacy API on purpose: nothing to convert" % func)
    if g["lvc"] and any(v < V2625 for v in vs) and any(v >= V2625 for v in vs):
        where = "this call is outside every version guard" if len(vs) == len(g["points"]) \
            else "this call is compiled for %s" % vg_ranges(set(vs), g["points"])
        tests = ", ".join(str(x) for x in g["lvc"][:8]) + (", ..." if len(g["lvc"]) > 8 else "")
        n = lg_name or (lg["name"] if lg else "this call")
        keep = " or keep the call (%s() exists up to 2.6.30)" % n if n in WRAPPERS else \
            " with this call in its \x23else (%s() is gone in 2.6.25, so the file needs both)" % n
        return ("multi_version", "%s, and this file also builds for kernels before 2.6.25 (LINUX_VERSION_CODE tests at line%s %s), where the 2.6.25 calls do not exist: put the conversion under the file's own `\x23if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)`%s" % (where, "s" if len(g["lvc"]) > 1 else "", tests, keep))
    return None


def vg_blocks(k):
    """Is the call at k (or a call it is converted with) held by the guards?"""
    if vg_hold(k):
        return True
    k1 = P2.get(k, k)
    pr = PAIRS.get(k1)
    if pr is not None and (vg_hold(k1) or vg_hold(pr["k2"])):
        return True
    return False


# --- the lock state on every path to a call (issue 20 item 2) ----------------
ASYNC_REGS = (("request_irq", 1, "an interrupt handler (request_irq)"),
              ("setup_timer", 1, "a timer function (setup_timer)"),
              ("tasklet_init", 1, "a tasklet (tasklet_init)"),
              ("DECLARE_TASKLET", 1, "a tasklet (DECLARE_TASKLET)"),
              ("INIT_WORK", 1, "a work function (INIT_WORK)"),
              ("PREPARE_WORK", 1, "a work function (PREPARE_WORK)"),
              ("INIT_DELAYED_WORK", 1, "a work function (INIT_DELAYED_WORK)"),
              ("DECLARE_WORK", 1, "a work function (DECLARE_WORK)"),
              ("DECLARE_DELAYED_WORK", 1, "a work function (DECLARE_DELAYED_WORK)"),
              ("kthread_run", 0, "a kthread (kthread_run)"),
              ("kthread_create", 0, "a kthread (kthread_create)"),
              ("kernel_thread", 0, "a kernel thread (kernel_thread)"))


def async_text(f):
    """Functions f's code registers to run without the queue lock."""
    if f in ASYNC_TXT:
        return ASYNC_TXT[f]
    toks = [t for (t, n) in code_tokens(file_text(f))]
    out = {}
    regs = dict((r[0], r) for r in ASYNC_REGS)
    for i, t in enumerate(toks):
        if t not in regs or i + 1 >= len(toks) or toks[i + 1] != "(":
            continue
        want, how = regs[t][1], regs[t][2]
        depth, arg, cur = 0, 0, []
        for x in toks[i + 1:]:
            if x == "(":
                depth += 1
                if depth == 1:
                    continue
            elif x == ")":
                depth -= 1
                if depth == 0:
                    break
            if x == "," and depth == 1:
                if arg == want:
                    break
                arg += 1
                cur = []
                continue
            if arg == want:
                cur.append(x)
        # (type) casts and & before the name
        while len(cur) > 2 and cur[0] == "(":
            j = cur.index(")") if ")" in cur else -1
            if j <= 0:
                break
            cur = cur[j + 1:]
        if cur and cur[0] == "&":
            cur = cur[1:]
        if len(cur) == 1 and re.match(r"^[A-Za-z_]\w*$", cur[0]):
            out.setdefault(cur[0], how)
    ASYNC_TXT[f] = out
    return out


def async_how(f, func):
    return ASYNC.get((f, func)) or async_text(f).get(func)


def path_states(k, depth=0):
    """{state: [paths]} of the call at k: 'held', 'not' or 'unknown'."""
    mk = (k, depth)
    if mk in LOCKV:
        return LOCKV[mk]
    LOCKV[mk] = {"unknown": ["(a recursive call)"]}
    f, func = k[0], FUNC_OF.get(k)
    S = {}
    if k in AL:
        S.setdefault("held", []).append("%s, after its own spin_lock of the queue lock" % func)
    if k in AU:
        S.setdefault("not", []).append("%s, after its own spin_unlock of the queue lock" % func)
    if k in EU0:
        for st, ws in entry_states(f, func, depth).items():
            S.setdefault(st, []).extend(ws)
    if not S:
        S["held"] = ["%s, after its own spin_lock of the queue lock" % func]
    LOCKV[mk] = S
    return S


def entry_states(f, func, depth):
    if func is None:
        return {"unknown": ["code outside a function"]}
    if func in RQFN.get(f, set()):
        return {"held": ["%s, the request_fn" % func]}
    how = async_how(f, func)
    if how:
        return {"not": ["%s, %s" % (func, how)]}
    if depth > MAX_CALL_DEPTH or (f, func) in NONCALL:
        return {"unknown": ["%s, called from elsewhere" % func]}
    sites = CALLS.get((f, func), [])
    if not sites:
        return {"unknown": ["%s, no caller in this file" % func]}
    out = {}
    for s in sites:
        sub = path_states(s, depth + 1)
        here = "%s at line %d" % (FUNC_OF.get(s), s[1])
        if "mixed" in sub or ("held" in sub and "not" in sub):
            out.setdefault("mixed", []).append(here)
            continue
        for st, ws in sub.items():
            if st == "unknown":
                out.setdefault(st, []).extend(ws)
            else:
                out.setdefault(st, []).append(here)
    return out


def lock_verdict(k):
    """('held'|'not'|'mixed'|'unknown', paths): 'not' when the queue lock is
    provably not held on any path to k; 'mixed' when it is held on some and
    not on others (whatever the unknown paths)."""
    S = path_states(k)
    if "mixed" in S or ("held" in S and "not" in S):
        return ("mixed", S)
    if set(S) == set(["not"]):
        return ("not", S)
    if set(S) == set(["held"]):
        return ("held", S)
    return ("unknown", S)


def uniq(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


LOCK_MIXED = "the queue lock is held on some paths"


def lock_mixed_reason(k, name):
    v, S = lock_verdict(k)
    if v != "mixed":
        return None
    paths = []
    if S.get("held"):
        paths.append("held from %s" % "; ".join(uniq(S["held"])))
    if S.get("not"):
        paths.append("not held from %s" % "; ".join(uniq(S["not"])))
    if S.get("mixed"):
        paths.append("both from %s (itself reached with and without it)" % "; ".join(uniq(S["mixed"])))
    return LOCK_MIXED + " to this %s and not on others: %s: no one 2.6.25 call is right on every path; decide whether to take the lock where it is not held (then __blk_end_request) or to release it where it is (then blk_end_request)" % (
        name, "; ".join(paths))


def lock_fixed(k):
    """The paths on which the old call ran without the queue lock it needed,
    when no path to it holds the lock: the new call is blk_end_request."""
    v, S = lock_verdict(k)
    if v != "not":
        return None
    return "; ".join(uniq(S["not"]))
