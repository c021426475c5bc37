// SPDX-License-Identifier: GPL-2.0-only
/// Part of blk_end_request.cocci: driver wrappers whose parameter flows into
/// uptodate (floppy_end_request(req, uptodate), next_request(success), ...),
/// decided on the original file, after collect.cocci.  The rule is the
/// analyzer's (analyzer/facts/wrappers.c): the parameter becomes `error`,
/// the legacy calls take it as is, tests on it are flipped (!uptodate ->
/// error, if (uptodate) -> if (!error)) and every caller's argument is
/// converted (1 -> 0, 0 -> -EIO, a condition c -> its error value, the
/// exact form for errno-capable values).  A parameter passed on to another
/// wrapper joins its group; a group converts all at once or not at all (a
/// non-static wrapper, a function used other than by a call, a use of the
/// parameter that is not one of those, a caller argument with side effects
/// or one that may be negative where a test is flipped, a site of the group
/// left, a function spatch did not parse): then each site maps the
/// parameter exactly at the call, as before.  The rewrites themselves are
/// wrapper_rewrite.cocci's, after convert.cocci.
//
// Confidence: Moderate
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: not a semantic patch on its own: cocci/assemble.py inlines it
//  into cocci/blk_end_request.cocci; it uses the helpers and the facts of
//  decide.cocci and collect.cocci.
// Options: --no-includes --include-headers
// Requires: 1.1.1

@initialize:python@
@@
# The wrapper groups of the current file: {"file", "ready", "conv": {(func,
# param name): True}, "idx": {(func, param name): index}, "why": {...}}.
WR = {"file": None}


def wr_strip(toks):
    return strip_parens([t for t in toks])


def wr_text(toks):
    return paren(toks) if toks else ""


def wr_defs(f):
    """The function definitions of file f, from its code tokens: name ->
    dict(params: [names], static, body: (first, last) token indexes), and
    every call in a body: (caller, callee, [argument token lists]); the
    names used other than as a call or a definition."""
    toks = [t for t, _ in code_tokens(file_text(f))]
    defs, calls, refs = {}, [], []
    i, n, depth = 0, len(toks), 0
    while i < n:
        t = toks[i]
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        elif depth == 0 and is_ident(t) and t not in C_KEYWORDS and \
                i + 1 < n and toks[i + 1] == "(":
            j = match_fwd([(x,) for x in toks], i + 1)
            if j + 1 < n and toks[j + 1] == "{":
                params, cur, d = [], [], 0
                for x in toks[i + 2:j]:
                    if x in "([":
                        d += 1
                    elif x in ")]":
                        d -= 1
                    if x == "," and d == 0:
                        params.append(cur)
                        cur = []
                    else:
                        cur.append(x)
                if cur:
                    params.append(cur)
                names = []
                for pt in params:
                    ids = [x for x in pt if is_ident(x) and x not in C_KEYWORDS]
                    names.append(ids[-1] if len(ids) >= 2 or (ids and len(pt) > 1) else "")
                head, h = [], i - 1
                while h >= 0 and (is_ident(toks[h]) or toks[h] == "*"):
                    head.append(toks[h])
                    h -= 1
                end = match_fwd([(x,) for x in toks], j + 1)
                defs[t] = {"params": names, "static": "static" in head,
                           "body": (j + 1, end), "ptoks": (i + 2, j)}
                i = end + 1
                continue
        i += 1
    for name, d in defs.items():
        a, b = d["body"]
        for i in range(a, b):
            t = toks[i]
            if not is_ident(t) or t in C_KEYWORDS or toks[i - 1] in (".", "->"):
                continue
            if toks[i + 1] == "(" and toks[i - 1] != "&":
                j = match_fwd([(x,) for x in toks], i + 1)
                args, cur, dd = [], [], 0
                for x in toks[i + 2:j]:
                    if x in "([":
                        dd += 1
                    elif x in ")]":
                        dd -= 1
                    if x == "," and dd == 0:
                        args.append(cur)
                        cur = []
                    else:
                        cur.append(x)
                if cur or args:
                    args.append(cur)
                calls.append((name, t, args, i))
            else:
                refs.append((name, t, i))
    # a defined function's name outside any body and not its definition
    # (an ops table, a macro body) is a use other than a call
    inside = set()
    for d in defs.values():
        inside.update(range(d["body"][0], d["body"][1] + 1))
        inside.update(range(d["ptoks"][0] - 2, d["ptoks"][1] + 1))
    for i, t in enumerate(toks):
        if t in defs and i not in inside:
            refs.append((None, t, i))
    return toks, defs, calls, refs


def wr_bool_local(toks, d, name):
    """A local of the function d whose every store is 0, 1 or a condition
    (no other write, no address taken)."""
    a, b = d["body"]
    seen = False
    for i in range(a, b):
        if toks[i] != name or toks[i - 1] in (".", "->"):
            continue
        nx, pv = toks[i + 1], toks[i - 1]
        if pv in ("++", "--", "&") and toks[i - 2] not in (")", "]") and \
                not is_ident(toks[i - 2]) and not re.match(r"^\d", toks[i - 2]):
            return False
        if nx in ("++", "--") or (nx.endswith("=") and nx not in ("==", "!=", "<=", ">=", "=")):
            return False
        if nx == "=":
            j, dd = i + 2, 0
            while j < b and not (dd == 0 and toks[j] in (";", ",")):
                if toks[j] in "([":
                    dd += 1
                elif toks[j] in ")]":
                    dd -= 1
                j += 1
            rhs = " ".join(toks[i + 2:j])
            ok = value01(rhs) if "value01" in globals() else \
                (err_value(rhs) in ("0", "-EIO") or bool_valued(tokens(rhs)))
            if not ok:
                return False
            seen = True
    return seen


def wr_arg_value(f, caller, arg, toks=None, defs=None):
    """(error value, 0-or-1?) of a caller's argument, or (None, why)."""
    s = wr_strip(list(arg))
    a = wr_text(s)
    if not s:
        return (None, "an empty argument")
    if has_side_effects("".join(s)):
        return (None, "the argument '%s' has side effects" % a)
    if len(s) == 1 and is_ident(s[0]) and toks is not None and caller in defs and \
            (CURFILE[0], caller, s[0]) not in PARAMS and \
            s[0] in LOCALS.get((CURFILE[0], caller), set()) and \
            wr_bool_local(toks, defs[caller], s[0]):
        return ("%s ? 0 : -EIO" % s[0], True)
    v = err_value(a)
    if v is None:
        return (None, "the argument '%s' cannot be turned into an error value" % a)
    j = "".join(s)
    b01 = value01(a) if "value01" in globals() else \
        (bool_valued(s) or re.match(r"^\d+[uUlL]*$", j) is not None)
    nonneg = b01 or re.match(r"^(\d+[uUlL]*|0[xX][0-9a-fA-F]+[uUlL]*|true|false)$", j) is not None
    return (v, nonneg)


def wr_compute(f):
    if WR.get("file") == f and WR.get("ready"):
        return WR
    WR.clear()
    WR.update({"file": f, "ready": False, "conv": {}, "why": {}, "idx": {}})
    if failed():
        WR["ready"] = True
        return WR
    try:
        wr_compute1(f)
    except Exception as e:
        WR["conv"] = {}
        WR["error"] = "%s: %s" % (type(e).__name__, e)
    WR["ready"] = True
    return WR


def wr_compute1(f):
    toks, defs, calls, refs = wr_defs(f)
    members, parent = [], {}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def add(m):
        if m not in parent:
            parent[m] = m
            members.append(m)
            return True
        return False

    for k, lg in LEGACY.items():
        if k[0] != f or lg.get("macro") or lg["func"] not in defs:
            continue
        u = wr_strip(tokens(lg["U"]))
        ps = defs[lg["func"]]["params"]
        if len(u) == 1 and u[0] in ps:
            add((lg["func"], ps.index(u[0])))
    grew = True
    while grew:
        grew = False
        for caller, g, args, _ in calls:
            if g not in defs or re.match(LEGACY_RE, g) or caller not in defs:
                continue
            for m in list(members):
                if m[0] != g or m[1] >= len(args):
                    continue
                a = wr_strip(args[m[1]])
                cps = defs[caller]["params"]
                if len(a) == 1 and a[0] in cps:
                    c = (caller, cps.index(a[0]))
                    grew |= add(c)
                    parent[find(m)] = find(c)
    groups = {}
    for m in members:
        groups.setdefault(find(m), []).append(m)
    for r, ms in groups.items():
        why = None
        for m in ms:
            why = wr_check(f, toks, defs, calls, refs, ms, m)
            if why:
                break
        for m in ms:
            pn = defs[m[0]]["params"][m[1]]
            WR["idx"][(m[0], pn)] = m[1]
            if why:
                WR["why"][(m[0], pn)] = why
            else:
                WR["conv"][(m[0], pn)] = True


def wr_check(f, toks, defs, calls, refs, ms, m):
    """Why member m = (function, parameter index) of the group ms cannot
    become error, or None."""
    fn, pi = m
    d = defs[fn]
    pn = d["params"][pi]
    if not pn:
        return "%s(): unnamed parameter" % fn
    if not d["static"]:
        return "%s() passes its parameter '%s' on as uptodate, but it is not static: callers outside this file would keep passing uptodate" % (fn, pn)
    if (f, fn) in NONCALL or any(t == fn for (_, t, _) in refs):
        return "%s() passes '%s' on as uptodate and is used other than by a call (a function pointer)" % (fn, pn)
    if (f, fn) not in FUNCS_SEEN:
        return "%s() was not parsed by spatch" % fn
    a, b = d["body"]
    p0, p1 = d["ptoks"]
    for i in list(range(p0, p1)) + list(range(a, b)):
        if toks[i] == "error" and pn != "error" and toks[i - 1] not in (".", "->") and \
                not (toks[i - 1] == "goto") and \
                not (toks[i + 1] == ":" and toks[i - 1] in (";", "{", "}")):
            return "%s() already uses the name 'error'" % fn
    flips = False
    nlegacy = 0
    for i in range(a, b):
        if toks[i] != pn or toks[i - 1] in (".", "->"):
            continue
        pv, nx = toks[i - 1], toks[i + 1]
        # an argument of a call: which call, which argument
        call = None
        for caller, g, args, ci in calls:
            if caller != fn or not (ci + 1 < i):
                continue
            j = match_fwd([(x,) for x in toks], ci + 1)
            if j < i:
                continue
            # position i inside this call's parentheses: the innermost wins
            if call is None or ci > call[3]:
                call = (caller, g, args, ci)
        if call is not None and pv in ("(", ",") and nx in (")", ","):
            g, args, ci = call[1], call[2], call[3]
            # the argument index of token i
            k, dd = 0, 0
            for x in range(ci + 2, i):
                if toks[x] in "([":
                    dd += 1
                elif toks[x] in ")]":
                    dd -= 1
                elif toks[x] == "," and dd == 0:
                    k += 1
            if wr_strip(args[k]) == [pn]:
                if re.match(LEGACY_RE, g) and k == 1:
                    nlegacy += 1
                    continue
                if (g, k) in ms:
                    continue
        # !uptodate is 0 or 1 and error is 0 or -EIO: the same only as a
        # test, so only as the whole condition of an if or a while
        if pv == "!" and toks[i - 2] == "(" and toks[i - 3] in ("if", "while") and nx == ")":
            flips = True
            continue
        if pv == "(" and toks[i - 2] in ("if", "while") and nx == ")":
            flips = True
            continue
        return "%s(): the parameter '%s' is used in a way that is not converted to an error value" % (fn, pn)
    sites = [k for k, lg in LEGACY.items() if k[0] == f and lg["func"] == fn
             and wr_strip(tokens(lg["U"])) == [pn]]
    if len(sites) != nlegacy:
        return "%s(): a legacy call with '%s' was not analysed" % (fn, pn)
    for k in sites:
        if any(k in (k1, lo["k2"], lo["k3"]) for k1, lo in LEFTOVER.items()):
            return "%s(): the leftover shape maps '%s' itself" % (fn, pn)
        if not site_ok(k):
            return "another completion through the same wrapper parameter (line %d) is left" % k[1]
    mine = [c for c in calls if c[1] == fn]
    if len(mine) != len([c for c in CALLS.get((f, fn), []) if FUNC_OF.get(c)]):
        return "a call of %s() is in a function spatch did not parse" % fn
    for caller, g, args, ci in mine:
        if pi >= len(args):
            return "a call of %s() lacks the argument" % fn
        a1 = wr_strip(args[pi])
        if len(a1) == 1 and caller in defs and a1[0] in defs[caller]["params"] and \
                (caller, defs[caller]["params"].index(a1[0])) in ms:
            continue
        v, ok = wr_arg_value(f, caller, args[pi], toks, defs)
        if v is None:
            return "the argument of %s() in %s(): %s" % (fn, caller, ok)
        if flips and not ok:
            return "%s() tests '%s' and %s() passes '%s', which may be negative: the flipped test would read it differently" % (fn, pn, caller, wr_text(a1))
    return None


def wr_param(func, uv):
    """Is uv the parameter of func that patch mode renames to error?"""
    w = WR if WR.get("file") == CURFILE[0] and WR.get("ready") else None
    return w is not None and not failed() and w["conv"].get((str(func), str(uv)), False)


def wr_error(k, u):
    """"error" for the uptodate value u of the legacy call k when u is a
    converted wrapper parameter, else None."""
    lg = LEGACY.get(k)
    if lg is None or WR.get("file") != k[0] or not WR.get("ready"):
        return None
    s = wr_strip(tokens(u))
    if len(s) == 1 and wr_param(lg["func"], s[0]):
        return "error"
    return None


def wr_callee(g):
    return WR.get("ready") and any(fn == str(g) for (fn, _) in WR["conv"])


def wr_new_arg(caller, g, n, A):
    """The converted argument A at index n of a call of the converted
    wrapper g in caller, or None (not that parameter, or the caller's own
    parameter of the group, renamed with it)."""
    g, caller = str(g), str(caller)
    pn = next((p for (fn, p), i in WR["idx"].items() if fn == g and i == n
               and WR["conv"].get((fn, p))), None)
    if pn is None or failed():
        return None
    a = wr_strip(tokens(A))
    if len(a) == 1 and WR["conv"].get((caller, a[0])):
        return None
    if "defs" not in WR:
        WR["defs"] = wr_defs(CURFILE[0])
    toks, defs, _, _ = WR["defs"]
    v, ok = wr_arg_value(CURFILE[0], caller, tokens(A), toks, defs)
    return v


def wr_nargs(es):
    """The number of expressions in the text of an expression list."""
    t = tokens(es)
    if not t:
        return 0
    n, d = 1, 0
    for x in t:
        if x in "([{":
            d += 1
        elif x in ")]}":
            d -= 1
        elif x == "," and d == 0:
            n += 1
    return n


def wr_why(k):
    """Why the wrapper parameter of site k stays an uptodate value, or None."""
    lg = LEGACY.get(k)
    if lg is None or WR.get("file") != k[0]:
        return None
    s = wr_strip(tokens(lg["U"]))
    return WR["why"].get((lg["func"], s[0])) if len(s) == 1 else None

// The groups, once everything of the original file is collected.
@wrfin depends on has_legacy@
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
p << wrfin.p;
@@
wr_compute(CURFILE[0])
