# jd_verdict: the verdict of one run, in words a candidate can act on: the
# first step at which a rank's writes or messages differ from the ring, with
# the formula and the real numbers.  Verdicts, most telling first:
# exception, deadlock, timeout, wrong-shape, mutated-payload, mutated-input,
# wrong-neighbour, wrong-result, not-a-ring, left-messages, pass.
import os
import traceback

import numpy as np

from jd_facts import Facts, TRANSFER
from jd_world import thread_words


class Verdict:
    def __init__(self, code, headline, details=(), key=None):
        self.code = code
        self.headline = headline
        self.details = list(details)
        self.key = key          # the trace event of the first wrong step, if any


def _c(b, e, c0, c1):
    return "C[%d:%d, %d:%d]" % (b, e, c0, c1)


def _who(rank, t=None):
    if rank is not None:
        return "rank %d" % rank
    return thread_words(t) if t is not None else "a thread"


# ---- exceptions, deadlocks, timeouts ---------------------------------------

def where(run, tb_or_frames):
    frames = tb_or_frames
    if not isinstance(frames, list):
        frames = traceback.extract_tb(frames)
    mine = [f for f in frames if _same_file(f.filename, run.path)]
    f = mine[-1] if mine else (frames[-1] if frames else None)
    if f is None:
        return ""
    name = run.display if mine else f.filename
    line = (f.line or "").strip()
    return " at %s:%d in %s()%s" % (name, f.lineno, f.name, ": `%s`" % line if line else "")


def _same_file(a, b):
    try:
        return os.path.abspath(a) == os.path.abspath(b)
    except (TypeError, ValueError):
        return False


def exception_verdict(run, f):
    t, e, tb = run.exceptions[0]
    msg = str(e).replace("\n", " ")
    if len(msg) > 160:
        msg = msg[:157] + "..."
    head = "%s raised %s%s%s" % (thread_words(t) if not t.caller else "the function",
                                 type(e).__name__, ": " + msg if msg else "", where(run, tb))
    det = []
    for t2, e2, tb2 in run.exceptions[1:4]:
        det.append("also: %s raised %s%s" % (thread_words(t2), type(e2).__name__, where(run, tb2)))
    if run.deadlock:
        det.append("then the other threads deadlocked, waiting for it: " +
                   "; ".join(_wait_words(run, f, d) for d in run.deadlock))
    elif run.timeout:
        det.append("then the other threads hung (they waited for it)")
    return Verdict("exception", head, det)


def _wait_words(run, f, d):
    t, state, wait, rank = d["t"], d["state"], d["wait"], d["rank"]
    who = _who(rank, t)
    if state == "recv":
        got = len(f.recvs[rank]) if rank is not None and 0 <= rank < f.n else 0
        return "%s waits to receive from anyone%s" % (
            who, " (the shard for step %d)" % (got + 1) if f.mode == "fsdp" and got + 1 < f.n
            else "")
    if state == "send":
        what = f.cat.words(wait.label, wait.owner) if wait.label else "a message"
        why = ""
        cap = wait.q.j_cap
        if cap == 0:
            why = " (capacity 0: until rank %s receives it)" % _r(wait.dst)
        elif cap is not None:
            why = " (rank %s's inbox is full: %d message%s)" % (_r(wait.dst), cap,
                                                               "" if cap == 1 else "s")
        return "%s waits to send %s to rank %s%s" % (who, what, _r(wait.dst), why)
    if state == "join":
        return "%s waits in join for %s" % ("the caller" if t.caller else who,
                                            thread_words(wait))
    return "%s %s" % (who, state)


def _r(x):
    return "?" if x is None else str(x)


def wait_list(run):
    """The ranks blocked when the run ended, for the screen's panels:
    [rank, "send", dst, shard or -1] or [rank, "recv", -1, -1] (a receive
    takes from anyone)."""
    out = []
    for d in run.deadlock or ():
        rank, w = d["rank"], d["wait"]
        if rank is None or d["state"] not in ("send", "recv"):
            continue
        if d["state"] == "recv":
            out.append([rank, "recv", -1, -1])
            continue
        lab = w.label or ("unknown",)
        out.append([rank, "send", -1 if w.dst is None else w.dst,
                    lab[1] if lab[0] == "B" else -1])
    return sorted(out)


def deadlock_verdict(run, f):
    order = sorted(run.deadlock, key=lambda d: (d["t"].caller, d["rank"] is None,
                                                d["rank"] if d["rank"] is not None else 0))
    waits = [_wait_words(run, f, d) for d in order]
    blocked = [d for d in run.deadlock if d["state"] in ("send", "recv")]
    sends = [d for d in blocked if d["state"] == "send"]
    det = list(waits)
    cycle = ""
    selfs = []
    if sends and len(sends) == len(blocked):
        nxt = {d["rank"]: d["wait"].dst for d in sends}
        r = min(k for k in nxt if k is not None) if any(k is not None for k in nxt) else None
        seen, path = set(), []
        while r is not None and r not in seen:
            seen.add(r)
            path.append(str(r))
            r = nxt.get(r)
        if r is not None:
            path.append(str(r))
            cycle = "the cycle of waits: " + " -> ".join(path)
        cap0 = all(d["wait"].q.j_cap == 0 for d in sends)
        selfs = [d["rank"] for d in sends if d["rank"] is not None and d["wait"].dst == d["rank"]]
        if selfs:
            det.append("rank %d sends to itself and waits for that send to be received, which "
                       "only it could do%s: keep its own block instead of sending it" % (
                           selfs[0], " (capacity 0)" if cap0 else " (its inbox is full)"))
    if sends and len(sends) == len(blocked) and not selfs:
        cap0 = all(d["wait"].q.j_cap == 0 for d in sends)
        det.append(("every rank sends first and a send with capacity 0 ends only when it "
                    "is received, so none is receiving" if cap0 else
                    "every rank sends into a full inbox and none is receiving") +
                   ": alternate by rank parity (even ranks send first, odd ranks receive "
                   "first), or start the receive (a thread) before the send")
    elif blocked and not sends:
        det.append("every rank waits to receive and no message is on the way: nobody sends "
                   "first (with the exercise's Queue() a send never blocks: send, then "
                   "receive)")
    head = "deadlock: " + "; ".join(waits[:4]) + ("; ..." if len(waits) > 4 else "")
    if cycle:
        det.insert(0, cycle)
    return Verdict("deadlock", head, det)


def timeout_verdict(run, f):
    head = ("timeout: no result after %g s and no deadlock the judge can see (a lock, "
            "a barrier, a sleep, a polling loop or a loop that never ends)" % run.limit)
    return Verdict("timeout", head, run.stacks)


# ---- the result ------------------------------------------------------------

def shape_verdict(run, f):
    cat, ret = f.cat, run.ret
    want = "C = A @ B is %dx%d" % (cat.M, cat.N)
    if ret is None:
        if f.mode == "dp":
            return Verdict("wrong-shape", "returned None: rank 0 never assembled C (the gather "
                           "to rank 0 is missing: it must receive every rank's rows and stack "
                           "them, and result[0] must be set)", key=("gather", 0))
        return Verdict("wrong-shape", "returned None; %s" % want)
    if not isinstance(ret, np.ndarray):
        try:
            arr = np.asarray(ret, dtype=np.float64)
        except (TypeError, ValueError):
            arr = None
        kind = type(ret).__name__
        if isinstance(ret, (list, tuple)) and ret and all(isinstance(x, np.ndarray) for x in ret):
            return Verdict("wrong-shape", "returned a %s of %d arrays, not one array: stack "
                           "them (np.vstack)" % (kind, len(ret)))
        if arr is not None and arr.shape == (cat.M, cat.N):
            return Verdict("wrong-shape", "returned a %s, not a numpy array (%s)" % (kind, want))
        return Verdict("wrong-shape", "returned a %s; %s" % (kind, want))
    label = cat.identify(ret) if ret.ndim == 2 else ("unknown", ret.shape)
    shape = "x".join(str(d) for d in ret.shape)
    if label[0] == "C":
        r = label[1]
        b, e = cat.rows[r]
        return Verdict("wrong-shape", "returned only rank %d's rows (%s = C[%d:%d]); %s: the "
                       "gather to rank 0 is missing" % (r, shape, b, e, want), key=("gather", r))
    if label[0] in ("B", "P", "Cpart", "A", "B*"):
        return Verdict("wrong-shape", "returned %s (%s); %s" % (cat.words(label), shape, want))
    return Verdict("wrong-shape", "returned a %s array; %s" % (shape, want))


def mutation_verdicts(run, f):
    out = []
    for m in f.msgs:
        q = m["recv"]
        if q is None or q["mutated"] is None:
            continue
        s = m["send"]
        step = ""
        if m["kind"] == TRANSFER and s is not None and m["src"] is not None and \
                0 <= m["src"] < f.n and m in f.sends[m["src"]]:
            step = " at the transfer after step %d" % f.sends[m["src"]].index(m)
        out.append(Verdict(
            "mutated-payload",
            "rank %s sent %s to rank %s%s, then changed that array before rank %s received "
            "it (it then held %s): a queue passes a reference, so send a copy or a new array, "
            "and do not reuse the buffer" % (
                _r(m["src"]), f.cat.words(m["label"], m["owner"]), _r(m["dst"]), step,
                _r(m["dst"]), f.cat.words(q["mutated"])),
            key=("send-msg", m["id"])))
    by_id = {m["id"]: m for m in f.msgs}
    for lm in run.late:
        m = by_id.get(lm.seq)
        if m is None or (m["recv"] is not None and m["recv"]["mutated"] is not None):
            continue
        step = ""
        if m["kind"] == TRANSFER and m["src"] is not None and 0 <= m["src"] < f.n and \
                m in f.sends[m["src"]]:
            step = " at the transfer after step %d" % f.sends[m["src"]].index(m)
        label, owner, _, _ = run.world.identify(lm.item)
        out.append(Verdict(
            "mutated-payload",
            "rank %s sent %s to rank %s%s, and that array changed after it was sent (it ended "
            "as %s): the receiver holds the very array the sender went on to reuse (a queue "
            "passes a reference); send a copy or a new array" % (
                _r(m["src"]), f.cat.words(m["label"], m["owner"]), _r(m["dst"]), step,
                f.cat.words(label)), key=("send-msg", m["id"])))
    for name, what in (("A", run.a_mut), ("B", run.b_mut)):
        if what:
            out.append(Verdict("mutated-input", "%s was changed in place (%s): np.array_split "
                               "gives views, so writing into a chunk or a shard writes into %s; "
                               "receive into a new array" % (name, what, name)))
    return out


def _disc(out, phase, order, rank, code, text, key):
    out.append(((phase, order, rank if rank is not None else -1), code, text, key))


def _gather_discs(f, out, phase):
    """The result's rows against the ranks': blocks in the wrong place, or
    missing."""
    cat = f.cat
    blocks = f.row_blocks()
    order = [m["label"][1] for m in f.gathered if m["label"][0] == "C"]
    seq_ranks = [cat.rank_of_row(q) if q >= 0 else -1 for (_, _, q) in blocks]
    arrival = seq_ranks == order or seq_ranks == [0] + [r for r in order if r != 0]
    bad_ranks = set()
    moved = []
    for (p0, p1, q0) in blocks:
        if q0 >= 0 and q0 != p0:
            j = cat.rank_of_row(q0)
            bad_ranks.add(cat.rank_of_row(p0))
            t = order.index(j) if j in order else len(order) + p0
            moved.append((t, j, p0, p1, q0))
        elif q0 < 0:
            j = cat.rank_of_row(p0)
            if f.zero_rows(j) and cat.rows[j] == (p0, p1):
                bad_ranks.add(j)
                _disc(out, phase, 100 + j, 0, "wrong-result",
                      "C[%d:%d] is zero: rank %d's rows never reached the result (the gather "
                      "to rank 0 is missing them)" % (p0, p1, j), ("gather", j))
    for i, (t, j, p0, p1, q0) in enumerate(sorted(moved)):
        text = "the gather: rank %d's rows (C[%d:%d]) ended up at C[%d:%d]" % (
            j, q0, q0 + p1 - p0, p0, p1)
        if i == 0 and arrival and len(order) > 1:
            text += ("; the blocks were stacked in the order they arrived at rank 0 (rank "
                     "%d's came first), not by rank: place each at its sender's rows (the src "
                     "that recv returns)" % order[0])
        elif i == 0 and not order:
            text += ("; the rows were put together in the order the threads finished, not "
                     "by rank: place each rank's rows at its own offset")
        _disc(out, phase, t, 0, "wrong-result", text, ("gather", j))
    return bad_ranks


def fsdp_discs(f):
    cat, n = f.cat, f.n
    out = []
    bad = _gather_discs(f, out, 2 * n - 1)
    for r in range(n):
        if r in bad:
            continue
        b, e = cat.rows[r]
        for s, m in enumerate(f.sends[r][:n - 1]):
            dst, lab = m["dst"], m["label"]
            exp = (r + 1) % n
            what = cat.words(lab, m["owner"])
            if dst != exp:
                _disc(out, 2 * s + 1, 0, r, "wrong-neighbour",
                      "step %d: rank %d sent %s to rank %s; the ring passes it right, to "
                      "(%d + 1) mod %d = %d (with (r - s) mod n the shards must travel right)"
                      % (s, r, what, _r(dst), r, n, exp), ("send", r, s))
                continue
            h = f.held_at(r, s)
            if lab[0] != "B":
                _disc(out, 2 * s + 1, 1, r, "wrong-result",
                      "step %d: rank %d sent %s to rank %d; the ring passes on the one shard "
                      "it holds" % (s, r, what, dst), ("send", r, s))
            elif h is not None and h >= 0 and lab[1] != h:
                _disc(out, 2 * s + 1, 1, r, "wrong-result",
                      "step %d: rank %d sent shard %d but holds shard %d then: the ring "
                      "passes on the shard it holds (the one it received last)"
                      % (s, r, lab[1], h), ("send", r, s))
        if f.complete and len(f.sends[r]) < n - 1:
            s = len(f.sends[r])
            _disc(out, 2 * s + 1, 0, r, "wrong-result",
                  "step %d: rank %d sent nothing; the ring has n - 1 = %d transfers"
                  % (s, r, n - 1), ("compute", r, s))
        if e == b or f.cmap is None or f.cmap[r] is None:
            continue
        for s in range(min(f.steps_reached(r), n)):
            k = f.held_at(r, s)
            if k is None or k < 0:
                continue
            c0, c1 = cat.cols[k]
            if c1 == c0:
                continue
            ring = (r - s) % n
            holds = ("shard %d = (%d - %d) mod %d" % (k, r, s, n)) if k == ring else \
                ("shard %d (the ring has it hold (%d - %d) mod %d = %d)" % (k, r, s, n, ring))
            # a shard held at several steps: its product in its own columns is
            # the first step's write, the rest the later steps'
            W = f.placed_at(r, s, k)
            held_at = f.steps_of(r, k)
            if len(held_at) > 1 and s != held_at[0] and not W:
                continue
            cols = sorted(c for c, _, _ in W)
            exact = cols == list(range(c0, c1)) and all(c == j for c, j, _ in W)
            cut = any(t for _, _, t in W)
            if exact and not cut:
                continue
            if W and cut and exact:
                _disc(out, 2 * s, 0, r, "wrong-result",
                      "step %d, rank %d wrote its product with shard %d into %s cut to whole "
                      "numbers: an integer accumulator; accumulate in float "
                      "(np.zeros((rows, N)))" % (s, r, k, _c(b, e, c0, c1)),
                      ("compute", r, s))
            elif W:
                w0, w1 = cols[0], cols[-1] + 1
                j = cat.shard_of_col(w0)
                jw = cat.cols[j]
                target = "shard %d" % j if (w0, w1) == jw else "part of shard %d's columns" % j
                _disc(out, 2 * s, 0, r, "wrong-result",
                      "step %d, rank %d wrote %s (%s) but holds %s"
                      % (s, r, _c(b, e, w0, w1), target, holds), ("compute", r, s))
            else:
                there = f.cmap[r][c0:c1]
                if all(x[0] == "zero" for x in there):
                    _disc(out, 2 * s, 2, r, "wrong-result",
                          "step %d, rank %d holds %s but never wrote its product: %s is zero"
                          % (s, r, holds, _c(b, e, c0, c1)), ("compute", r, s))
                elif not any(x[0] in ("P", "T") for x in there):
                    _disc(out, 2 * s, 2, r, "wrong-result",
                          "step %d, rank %d holds %s, but %s holds no product of its rows with "
                          "a shard of B" % (s, r, holds, _c(b, e, c0, c1)), ("compute", r, s))
        for k in range(n):
            c0, c1 = cat.cols[k]
            if c1 > c0 and k not in f.held[r] and all(
                    x[0] == "zero" for x in f.cmap[r][c0:c1]):
                s = (r - k) % n
                _disc(out, 2 * s, 3, r, "wrong-result",
                      "rank %d never held shard %d (it received %d shard%s): %s is zero; at "
                      "step %d the ring has it hold (%d - %d) mod %d = %d" % (
                          r, k, len(f.recvs[r]), "" if len(f.recvs[r]) == 1 else "s",
                          _c(b, e, c0, c1), s, r, s, n, k), ("compute", r, s))
    return out


def dp_discs(f):
    cat, n = f.cat, f.n
    out = []
    for r in range(n):
        for m in f.gsends[r]:
            lab = m["label"]
            if lab[0] == "C" and lab[1] != r:
                _disc(out, 0, 0, r, "wrong-result",
                      "rank %d computed and sent rank %d's rows (C[%d:%d]): its chunk of A is "
                      "a_chunks[%d]" % ((r, lab[1]) + cat.rows[lab[1]] + (r,)), ("compute", r, 0))
            elif lab[0] not in ("C", "C*"):
                _disc(out, 1, 0, r, "wrong-result",
                      "rank %d sent %s to rank %s, not its rows of C" % (
                          r, cat.words(lab, m["owner"]), _r(m["dst"])), ("gsend", r))
    _gather_discs(f, out, 1)
    return out


def result_verdict(run, f):
    discs = fsdp_discs(f) if f.mode == "fsdp" else dp_discs(f)
    if discs:
        discs.sort(key=lambda d: d[0])
        _, code, text, key = discs[0]
        det = [d[2] for d in discs[1:4]]
        if len(discs) > 4:
            det.append("and %d more" % (len(discs) - 4))
        return Verdict(code, text, det, key)
    R, P = f.R, f.cat.P
    bad = ~np.isclose(R, P)
    i, j = [int(x) for x in np.argwhere(bad)[0]]
    text = "wrong result: %d of %d elements differ from A @ B; the first, C[%d, %d], is %.6g, " \
           "not %.6g" % (int(bad.sum()), R.size, i, j, R[i, j], P[i, j])
    if f.int_result and run.values == "floats":
        text += " (the result is an integer array: an integer accumulator cuts off fractions)"
    return Verdict("wrong-result", text)


# ---- the ring, when the numbers are right -----------------------------------

def ring_verdict(f):
    n = f.n
    transfers = [m for m in f.msgs if m["kind"] == TRANSFER and m["send"] is not None]
    if not transfers:
        return Verdict("not-a-ring", "not a ring: no rank sent a shard of B, so every rank used "
                       "all of B (FSDP holds one shard at a time and passes it round the ring)",
                       key=("compute", 0, 1))
    for m in transfers:
        if m["label"][0] == "B*":
            return Verdict("not-a-ring", "not a ring: rank %s sent all of B to rank %s (FSDP "
                           "moves one shard a step)" % (_r(m["src"]), _r(m["dst"])),
                           key=("send-msg", m["id"]))
    succ = {}
    for r in range(n):
        peers = sorted({m["dst"] for m in f.sends[r] if m["dst"] is not None})
        if len(peers) > 1:
            return Verdict("not-a-ring", "not a ring: rank %d sent shards to ranks %s (in a ring "
                           "each rank passes to one neighbour)" % (r, ", ".join(map(str, peers))),
                           key=("send", r, 0))
        if len(f.recvs[r]) < n - 1:
            return Verdict("not-a-ring", "not a ring: rank %d received %d of the n - 1 = %d "
                           "shards and took the others from B directly" % (
                               r, len(f.recvs[r]), n - 1), key=("compute", r, len(f.recvs[r]) + 1))
        if peers:
            succ[r] = peers[0]
    r, seen = 0, []
    while r in succ and r not in seen:
        seen.append(r)
        r = succ[r]
    if len(seen) != n or r != 0:
        return Verdict("not-a-ring", "not a ring: the shards go round %s, not through all %d "
                       "ranks" % (" -> ".join(map(str, seen + [r])), n))
    return None


def pass_notes(f):
    notes = []
    n = f.n
    if f.mode == "fsdp" and n > 1:
        if all(f.sends[r] and f.sends[r][0]["dst"] == (r - 1) % n for r in range(n)) and n > 2:
            notes.append("the shards travel left, to (r - 1) mod n, and every rank places each "
                         "by what it holds: correct; the exercise passes them right")
        extra = max(len(f.sends[r]) for r in range(n)) - (n - 1)
        if extra > 0:
            notes.append("each rank made %d transfer%s; the ring needs n - 1 = %d" % (
                n - 1 + extra, "" if n - 1 + extra == 1 else "s", n - 1))
    return notes


def judge(run):
    f = Facts(run)
    if run.exceptions:
        return exception_verdict(run, f), f
    if run.deadlock:
        return deadlock_verdict(run, f), f
    if run.timeout:
        return timeout_verdict(run, f), f
    if f.R is None:
        v = shape_verdict(run, f)
        return v, f
    muts = mutation_verdicts(run, f)
    if not f.ok:
        res = result_verdict(run, f)
        if muts:
            muts[0].details.append("the result: " + res.headline)
            return muts[0], f
        return res, f
    if muts:
        return muts[0], f
    if f.mode == "fsdp" and f.n > 1:
        v = ring_verdict(f)
        if v is not None:
            return v, f
    if run.leftovers:
        det = []
        for m in run.leftovers[:4]:
            owner = m.q.j_index if m.q.j_index is not None else (
                m.dst if m.dst is not None else m.q.j_seen)
            det.append("rank %s's inbox still holds %s from rank %s" % (
                _r(owner),
                f.cat.words(m.label, m.owner) if m.label else "a message", _r(m.src)))
        return Verdict("left-messages", "the result is right, but %d message%s sent never "
                       "received: %s (an extra send at the end?)" % (
                           len(run.leftovers), " was" if len(run.leftovers) == 1 else "s were",
                           det[0]), det[1:], key=("send-msg", run.leftovers[0].seq)), f
    return Verdict("pass", "pass", pass_notes(f)), f
