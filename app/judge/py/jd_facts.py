# jd_facts: what a finished run did, read off the world's record and the
# result: the messages paired and classified, each rank's transfers in order,
# the shard it held at each step (its own at step 0, then the one it last
# received), and where each product ended up in the result (by content).
#
# Precision: a write is known by its content in the final C, attributed to
# the step at which the rank held that shard; a write that a later one
# covered is not seen (the later one is), and a rank that held one shard at
# two steps is said to have written it at the first.
import numpy as np

TRANSFER, GATHER, INPUT = "transfer", "gather", "input"


def _kind(label, mode, cat, shape):
    k = label[0]
    if k in ("A", "A*"):
        return INPUT
    if k in ("C", "P", "Cpart", "C*"):
        return GATHER
    if mode == "dp":
        return INPUT if k in ("B", "B*", "Brows") else GATHER
    if k == "unknown" and shape and len(shape) == 2 and shape[1] == cat.N and shape[0] != cat.K:
        return GATHER
    return TRANSFER


class Facts:
    def __init__(self, run):
        self.run = run
        cat = self.cat = run.cat
        self.n = n = cat.n
        self.mode = run.mode
        w = run.world
        # messages, paired by id
        by_id = {}
        for ev in w.events:
            m = by_id.setdefault(ev["msg"], {"send": None, "recv": None})
            m[ev["op"]] = ev
        self.msgs = []
        for mid in sorted(by_id):
            m = by_id[mid]
            s = m["send"] or m["recv"]
            m["id"] = mid
            m["label"] = s["label"] or ("unknown", ())
            m["owner"] = s["owner"]
            m["kind"] = _kind(m["label"], self.mode, cat, s["shape"])
            m["src"] = m["send"]["rank"] if m["send"] else m["recv"]["peer"]
            m["dst"] = m["send"]["peer"] if m["send"] else None
            if m["recv"] is not None:
                m["dst"] = m["recv"]["rank"]
            self.msgs.append(m)
        self.sends = [[] for _ in range(n)]   # transfer messages a rank sent, in order
        self.recvs = [[] for _ in range(n)]   # and received
        self.gathered = []                    # gather messages received, in order
        self.gsends = [[] for _ in range(n)]
        self.unranked = 0
        for m in sorted(self.msgs, key=lambda m: m["send"]["t0"] if m["send"] else 0):
            src = m["src"]
            if m["kind"] == TRANSFER:
                if m["send"] is not None:
                    if _ok(src, n):
                        self.sends[src].append(m)
                    else:
                        self.unranked += 1
            elif m["kind"] == GATHER and m["send"] is not None and _ok(src, n):
                self.gsends[src].append(m)
        for m in sorted((m for m in self.msgs if m["recv"] is not None),
                        key=lambda m: m["recv"]["t0"]):
            dst = m["recv"]["rank"]
            if m["kind"] == TRANSFER and _ok(dst, n):
                self.recvs[dst].append(m)
            elif m["kind"] == GATHER:
                self.gathered.append(m)
        self.held = [self._held(r) for r in range(n)]
        # the result
        self.complete = run.returned and not run.exceptions and not run.deadlock \
            and not run.timeout
        self.R = None
        ret = run.ret
        if isinstance(ret, np.ndarray) and ret.shape == (cat.M, cat.N):
            try:
                self.R = np.asarray(ret, dtype=np.float64)
            except (TypeError, ValueError):
                self.R = None
        self.ok = self.R is not None and bool(np.allclose(self.R, cat.P)) and \
            not np.isnan(self.R).any()
        self.int_result = isinstance(ret, np.ndarray) and ret.dtype.kind in "iub"
        big = cat.M * cat.N * max(cat.N, cat.M) > 4e8
        self.rmap = self.cmap = None
        self.writes = [dict() for _ in range(n)]
        if self.R is not None and not big:
            self.rmap = cat.row_map(self.R)
            # a rank's writes are read where its rows ended up (a gather in the
            # wrong order moves them whole), so that its steps are still seen
            own = self.R.copy()
            for p, q in enumerate(self.rmap):
                if q >= 0 and q != p:
                    own[q] = self.R[p]
            self.cmap = [cat.col_map(own, r, self.int_result) for r in range(n)]
            for r in range(n):
                for c, what in enumerate(self.cmap[r] or ()):
                    if what[0] in ("P", "T"):
                        k = cat.shard_of_col(what[1])
                        self.writes[r].setdefault(k, []).append((c, what[1], what[0] == "T"))

    def _held(self, r):
        """The shard rank r holds at each step it reached: its own at step 0
        (or what it sent first, when it sent before it received), then the
        one it received last.  None when the message was not a shard."""
        out = [r]
        s0 = self.sends[r][0] if self.sends[r] else None
        q0 = self.recvs[r][0] if self.recvs[r] else None
        if s0 is not None and s0["label"][0] == "B" and (
                q0 is None or s0["send"]["t0"] <= q0["recv"]["t0"]):
            out[0] = s0["label"][1]
        for m in self.recvs[r]:
            lab = m["recv"]["mutated"] or m["label"]   # what it got, not what was sent
            out.append(lab[1] if lab[0] == "B" else (-2 if lab[0] == "B*" else None))
        return out

    def steps_reached(self, r):
        if self.complete:
            return max(self.n, len(self.held[r]))
        return min(len(self.held[r]), max(self.n, 1))

    def held_at(self, r, s):
        h = self.held[r]
        return h[s] if s < len(h) else None

    def steps_of(self, r, k):
        return [s for s, h in enumerate(self.held[r][:self.n]) if h == k]

    def step_of(self, r, k):
        for s, h in enumerate(self.held[r]):
            if h == k:
                return s
        return None

    def placed(self, r, k):
        """Where rank r's product with shard k is in its rows of the result:
        [(column, product column, cut to integers)]."""
        return self.writes[r].get(k, [])

    def placed_at(self, r, s, k):
        """What rank r wrote at step s, when it held shard k: placed(r, k),
        but for a shard held at several steps its product in its own columns
        is the first step's write, the rest the second's, none the others'."""
        W = self.placed(r, k)
        held_at = self.steps_of(r, k)
        if len(held_at) < 2:
            return W
        if s == held_at[0]:
            return [x for x in W if x[0] == x[1]]
        if s == held_at[1]:
            return [x for x in W if x[0] != x[1]]
        return []

    def row_blocks(self):
        """The result's rows in runs that are consecutive rows of A @ B:
        [(p0, p1, q0)], q0 = -1 for rows that are no row of it."""
        out = []
        if self.rmap is None:
            return out
        p = 0
        M = self.cat.M
        while p < M:
            q = self.rmap[p]
            e = p + 1
            while e < M and ((q < 0 and self.rmap[e] < 0) or
                             (q >= 0 and self.rmap[e] == q + (e - p))):
                e += 1
            out.append((p, e, q))
            p = e
        return out

    def zero_rows(self, r):
        b, e = self.cat.rows[r]
        return self.R is not None and e > b and bool(np.all(self.R[b:e] == 0))


def _ok(r, n):
    return r is not None and 0 <= r < n
