# jd_trace: a candidate's run as the program's own event log, the JSON Lines
# `distmm-tui -b --trace` writes (evlog.c's ev_format_json), so that a correct
# run replays with `-b --replay` and a wrong one shows its wrong writes and
# messages.  Phases are the schedule's: FSDP compute s = 2s, the transfer
# after it 2s + 1, the gather 2n - 1; DP compute 0, gather 1.  The rank's
# k-th transfer send and receive make transfer k, in the order it made them;
# its compute at step s uses the shard it held then and writes where that
# product was found in C (Facts.placed_at: a shard held twice, its own
# columns at the first step).  Rank 0's gather is in the order the blocks
# came, then by where they went.
#
# What the candidate did that the program's schedule has no place for is
# kept where it fits best: transfers past n - 1 go into the gather phase;
# messages that scatter the inputs (rows of A, B in DP) are left out, as the
# program's run starts with them in place.  A gather made through shared
# memory (threads writing into a list the caller stacks) is written as the
# program's gather, since the stacking is one.  Held and peak bytes follow
# the engine's accounting model (device.c), not the candidate's memory.

F8 = 8


def _span(cols):
    return (min(cols), max(cols) + 1) if cols else None


class _Ev(dict):
    pass


def _ev(phase, step, op, rank, peer, shard, rows, cols, nbytes, t0, t1, key=None, trunc=False):
    e = _Ev(phase=phase, step=step, op=op, rank=rank, peer=peer, shard=shard, r0=rows[0],
            r1=rows[1], c0=cols[0], c1=cols[1], bytes=int(nbytes), t0=int(max(t0, 0)),
            t1=int(max(t1, t0, 0)), trunc=trunc)
    e.keys_ = set([key]) if key else set()
    return e


def build(f):
    """The events (dicts) of the run, in phase order."""
    cat, n = f.cat, f.n
    K, N = cat.K, cat.N
    evs = []
    last_phase = 2 * n - 1 if f.mode == "fsdp" else 1
    if f.mode == "fsdp":
        for r in range(n):
            rows = cat.rows[r]
            steps = n if f.complete else min(f.steps_reached(r), n)
            for s in range(steps):
                k = f.held_at(r, s)
                if k is None or k < 0:
                    k = (r - s) % n
                W = f.placed_at(r, s, k)
                span = _span([c for c, _, _ in W])
                if span is None:
                    c0 = cat.cols[k][0]
                    span = cat.cols[k] if f.R is None else (c0, c0)
                trunc = any(t for _, _, t in W)
                t0 = f.recvs[r][s - 1]["recv"]["t1"] if 0 < s <= len(f.recvs[r]) else 0
                t1 = f.sends[r][s]["send"]["t0"] if s < len(f.sends[r]) else t0
                evs.append(_ev(2 * s, s, "compute", r, None, k, rows, span,
                               (rows[1] - rows[0]) * (span[1] - span[0]) * F8, t0, t1,
                               ("compute", r, s), trunc))
            for which, lst in (("send", f.sends[r]), ("recv", f.recvs[r])):
                for s, m in enumerate(lst):
                    ev = m[which]
                    peer = m["dst"] if which == "send" else m["src"]
                    if ev is None or ev["t1"] is None or peer is None or not 0 <= peer < n:
                        continue
                    lab = m["label"]
                    if lab[0] == "B":
                        shard, rr, cc = lab[1], (0, K), cat.cols[lab[1]]
                    elif lab[0] == "B*":
                        shard, rr, cc = -1, (0, K), (0, N)
                    else:
                        shard, rr, cc = -1, (0, 0), (0, 0)
                    phase = 2 * s + 1 if s < n - 1 else last_phase
                    e = _ev(phase, min(s, n - 1), which, r, peer, shard, rr, cc, ev["nbytes"],
                            ev["t0"], ev["t1"], (which, r, s))
                    e.keys_.add((which + "-msg", m["id"]))
                    evs.append(e)
    else:
        for r in range(n):
            if f.complete or f.gsends[r] or r == 0:
                t1 = f.gsends[r][0]["send"]["t0"] if f.gsends[r] else 0
                evs.append(_ev(0, 0, "compute", r, None, -1, cat.rows[r], (0, N),
                               (cat.rows[r][1] - cat.rows[r][0]) * N * F8, 0, t1,
                               ("compute", r, 0)))
    _gather(f, evs, last_phase)
    # a rank's calls in the order it made them (its compute first: the
    # harness sees no compute's time), rank 0's gather in the order the
    # blocks came, then by where they went
    order = {"compute": 0, "recv": 1, "send": 1, "gather": 3}
    evs.sort(key=lambda e: (e["phase"], e["rank"], order[e["op"]], e["t0"], e["r0"]))
    _account(f, evs)
    return evs


def _placement(f, j):
    """Where rank j's rows are in the result, or its own rows."""
    b, e = f.cat.rows[j]
    for (p0, p1, q0) in f.row_blocks():
        if q0 == b and e > b:
            return (p0, min(p1, p0 + e - b))
    return (b, e)


def _gather(f, evs, phase):
    cat, n, N = f.cat, f.n, f.cat.N
    step = n - 1 if f.mode == "fsdp" else 0
    t_end = max([e["t1"] for e in evs] + [0])
    got = set()
    for r in range(1, n):
        for m in f.gsends[r]:
            s = m["send"]
            if s["t1"] is None or m["dst"] is None or not 0 <= m["dst"] < n:
                continue
            lab = m["label"]
            rows = cat.rows[lab[1]] if lab[0] == "C" else cat.rows[r]
            e = _ev(phase, step, "send", r, m["dst"], -1, rows, (0, N), s["nbytes"], s["t0"],
                    s["t1"], ("gsend", r))
            e.keys_.add(("send-msg", m["id"]))
            evs.append(e)
    for m in f.gathered:
        q = m["recv"]
        src = m["src"]
        if src is None or not 0 <= src < n:
            continue
        lab = m["label"]
        j = lab[1] if lab[0] == "C" else src
        got.add(src)
        e = _ev(phase, step, "gather", 0, src, -1, _placement(f, j), (0, N),
                0 if src == 0 else q["nbytes"], q["t0"], q["t1"], ("gather", j))
        e.keys_.add(("recv-msg", m["id"]))
        evs.append(e)
    if not got and f.complete and f.R is None:
        # the result is not C: rank 0 placed its own rows at most (DP without
        # the gather returns them), and nothing else is known to be placed
        ret, b, e = f.run.ret, cat.rows[0][0], cat.rows[0][1]
        if getattr(ret, "shape", None) == (e - b, N) and e > b:
            evs.append(_ev(phase, step, "gather", 0, 0, -1, (b, e), (0, N), 0, t_end, t_end,
                           ("gather", 0)))
        return
    if got or f.complete:
        # rank 0's own rows, and (shared memory) everyone's when no message carried them
        for r in range(n):
            if r in got or (got and r != 0):
                continue
            rows = _placement(f, r)
            if r:
                evs.append(_ev(phase, step, "send", r, 0, -1, cat.rows[r], (0, N),
                               (rows[1] - rows[0]) * N * F8, t_end, t_end, ("gsend", r)))
            evs.append(_ev(phase, step, "gather", 0, r, -1, rows, (0, N),
                           0 if r == 0 else (rows[1] - rows[0]) * N * F8, t_end, t_end,
                           ("gather", r)))


def _account(f, evs):
    cat, n, K, N = f.cat, f.n, f.cat.K, f.cat.N
    hold, peak = [], []
    for r in range(n):
        h = (cat.rows[r][1] - cat.rows[r][0]) * (K + N) * F8
        w = N if f.mode == "dp" else cat.cols[r][1] - cat.cols[r][0]
        h += K * w * F8
        hold.append(h)
        peak.append(h)
    shard_bytes = [K * (cat.cols[r][1] - cat.cols[r][0]) * F8 for r in range(n)]
    gathered = [False] * n
    for e in evs:
        r = e["rank"]
        if e["op"] == "recv":
            peak[r] = max(peak[r], hold[r] + e["bytes"])
            hold[r] += e["bytes"] - shard_bytes[r]
            shard_bytes[r] = e["bytes"]
        elif e["op"] == "gather" and not gathered[r]:
            gathered[r] = True
            hold[r] += cat.M * N * F8
        elif e["op"] == "send" and e["shard"] == -1 and e["r1"] > e["r0"] and e["c1"] == N \
                and e["phase"] == (2 * n - 1 if f.mode == "fsdp" else 1):
            hold[r] = max(0, hold[r] - e["bytes"])
        hold[r] = max(hold[r], 0)
        peak[r] = max(peak[r], hold[r])
        e["held"], e["peak"] = hold[r], peak[r]


def lines(f, evs):
    """The JSON Lines, events then one summary a rank."""
    out = []
    sent = [0] * f.n
    recv = [0] * f.n
    peak = [0] * f.n
    for e in evs:
        peer = ""
        if e["op"] == "send":
            peer = ',"dst":%d' % e["peer"]
            sent[e["rank"]] += e["bytes"]
        elif e["op"] in ("recv", "gather"):
            peer = ',"src":%d' % e["peer"]
            if e["op"] == "recv" or e["peer"] != e["rank"]:
                recv[e["rank"]] += e["bytes"]
        peak[e["rank"]] = e["peak"]
        out.append('{"phase":%d,"step":%d,"op":"%s","rank":%d%s,"shard":%d,"row_begin":%d,'
                   '"row_end":%d,"col_begin":%d,"col_end":%d,"bytes":%d,"held_bytes":%d,'
                   '"peak_bytes":%d%s,"t_begin_ns":%d,"t_end_ns":%d}' % (
                       e["phase"], e["step"], e["op"], e["rank"], peer, e["shard"], e["r0"],
                       e["r1"], e["c0"], e["c1"], e["bytes"], e["held"], e["peak"],
                       ',"truncated":true' if e["trunc"] else "", e["t0"], e["t1"]))
    for r in range(f.n):
        out.append('{"op":"summary","rank":%d,"peak_bytes":%d,"sent_bytes":%d,"recv_bytes":%d}'
                   % (r, peak[r], sent[r], recv[r]))
    return out


def first_wrong(evs, key):
    """The index of the event a verdict's key names, or -1."""
    if key is None:
        return -1
    for i, e in enumerate(evs):
        if key in e.keys_:
            return i
    if key[0] == "gather":       # no gather event: the send that should have made it
        for i, e in enumerate(evs):
            if ("gsend", key[1]) in e.keys_:
                return i
    return -1
