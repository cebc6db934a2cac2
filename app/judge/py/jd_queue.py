# jd_queue: queue.Queue as the world sees it (jd_world): every put and get
# recorded with who sends to whom and what, blocking visible to the deadlock
# check, an inbox's capacity the judge's (unbounded, N, or 0 = rendezvous),
# and under a perturbed schedule a get that may take any message no other
# one in the queue happened before.
import collections
import queue
import time

from jd_world import WORLD, JudgeAbort, Msg, OrigQueue, is_int
from jd_world import _before_clock as _before


def split_item(item, ctx):
    """(src, dst, first) of a message put on a queue: src and dst from the
    Communicator call when there was one; first, the int an item tuple starts
    with (the exercise's (src, data), or an (owner, shard) put directly)."""
    src = dst = first = None
    if ctx is not None and ctx[0] == "send":
        src, dst = ctx[1], ctx[2]
    if isinstance(item, tuple) and len(item) >= 2 and is_int(item[0]):
        first = int(item[0])
    return src, dst, first


class JQueue(OrigQueue):
    """queue.Queue, seen by the world.  The module's Queue, queue.Queue and
    queue.SimpleQueue are this class during a run.  An inbox (a queue found in
    a Communicator) takes the judge's capacity: None unbounded (the exercise's
    Queue()), N, or 0, where a put waits until its item is taken."""

    def __init__(self, maxsize=0):
        OrigQueue.__init__(self, maxsize)
        w = WORLD
        self.j_items = collections.deque()   # Msgs, in the order put
        self.j_putters = collections.deque() # Msgs waiting for room (bounded)
        self.j_index = None                  # the rank whose inbox it is
        self.j_seen = None                   # the rank seen receiving from it
        self.j_cap = maxsize if maxsize > 0 else None
        if w.active and maxsize <= 0:
            self.j_cap = w.capacity      # a channel made during the run: the judge's
        with w.cond:
            self.j_id = len(w.queues)
            w.queues.append(self)

    # Queue's own storage is not used; `q.queue` (which some candidates peek
    # at) is a copy of what the queue holds
    def _init(self, maxsize):
        pass

    @property
    def queue(self):
        with WORLD.cond:
            return collections.deque(m.item for m in self.j_items)

    def j_inbox(self, index, capacity):
        self.j_index = index
        self.j_cap = capacity

    # the messages a get may take: the oldest, or under a perturbed schedule
    # any one that no other message here happened before
    def j_candidates(self):
        items = self.j_items
        if not items:
            return []
        w = WORLD
        if not (w.active and w.settle) or len(items) == 1:
            return [items[0]]
        out = []
        for m in items:
            first = True
            for o in items:
                if o is not m and _before(o.clock, m.clock):
                    first = False
                    break
            if first:
                out.append(m)
        return out

    def j_deliverable(self):
        c = self.j_candidates()
        if not c:
            return None
        w = WORLD
        if len(c) == 1 or w.policy == "fifo":
            return c[0]
        if w.policy == "reverse":
            return max(c, key=lambda m: (m.src if m.src is not None else -1, -m.seq))
        return c[w.rng.randrange(len(c))]

    # ---- put ---------------------------------------------------------------

    def put(self, item, block=True, timeout=None):
        w = WORLD
        w.perturb()
        ctx = w.ctx()
        src, dst, first = split_item(item, ctx)
        label, owner, csum, nbytes, shape = (None, None, None, 0, None)
        if w.active and w.identify is not None:
            label, owner, nbytes, shape = w.identify(item)
            csum = w.checksum(item)
        with w.cond:
            w.raise_if_aborted()
            me = w.me()
            if dst is None:
                dst = self.j_index if self.j_index is not None else self.j_seen
            if src is None:
                # a worker thread sends as its own rank (an (owner, shard) put
                # directly starts with the owner); the caller, by the item
                mine = me.rank_hint if me.rank_hint is not None else me.rank
                if mine is not None and not me.caller:
                    src = mine
                    if first is not None and owner is None:
                        owner = first
                else:
                    src = first if first is not None else mine
            if src is not None and me.rank is None:
                me.rank = src
            m = Msg()
            m.item, m.src, m.dst, m.sender, m.q = item, src, dst, me, self
            m.seq = w.msg_seq
            w.msg_seq += 1
            m.label, m.owner, m.csum, m.nbytes, m.shape = label, owner, csum, nbytes, shape
            m.taken = m.queued = False
            me.clock[me.seq] += 1
            m.clock = dict(me.clock)
            m.send_ev = w.record("send", me, src, dst, m, w.now()) if w.active else None
            if w.active:
                w.msgs.append(m)
            cap = self.j_cap
            if cap is None or (cap > 0 and len(self.j_items) < cap and not self.j_putters):
                self.j_items.append(m)
                m.queued = True
                self._j_wake_getters()
                self._j_done(m.send_ev)
                return
            if not block:
                raise queue.Full
            if cap == 0:
                self.j_items.append(m)       # offered: a get takes it
                self._j_wake_getters()
                done = lambda: m.taken
            else:
                self.j_putters.append(m)
                done = lambda: m.queued
            self._j_block(me, "send", m, "sends to rank %s" % _r(dst), done, timeout,
                          lambda: self._j_withdraw(m))
            self._j_done(m.send_ev)

    def put_nowait(self, item):
        self.put(item, block=False)

    # ---- get ---------------------------------------------------------------

    def get(self, block=True, timeout=None):
        w = WORLD
        w.perturb()
        with w.cond:
            w.raise_if_aborted()
            me = w.me()
            if self.j_index is not None:
                me.rank = self.j_index
            t_begin = w.now()
            if w.active and w.settle and block and timeout is None:
                w.settle_wait(me, self)
            m = self.j_deliverable()
            if m is None:
                if not block:
                    raise queue.Empty
                self._j_block(me, "recv", self, "receives", lambda: self.j_deliverable()
                              is not None, timeout, None)
                m = self.j_deliverable()
            return self._j_take(me, m, t_begin)

    def get_nowait(self):
        return self.get(block=False)

    def _j_take(self, me, m, t_begin):
        w = WORLD
        self.j_items.remove(m)
        m.taken = True
        if m.sender.state == "send" and m.sender.wait is m:
            m.sender.woken = True
        if self.j_putters and (self.j_cap is None or len(self.j_items) < self.j_cap):
            p = self.j_putters.popleft()
            self.j_items.append(p)
            p.queued = True
            if p.sender.state == "send":
                p.sender.woken = True
            self._j_wake_getters()
        for k, v in m.clock.items():
            if me.clock.get(k, 0) < v:
                me.clock[k] = v
        me.clock[me.seq] += 1
        if w.active and m.send_ev is not None:
            ctx = w.ctx()
            rank = self.j_index
            if rank is None and ctx is not None and ctx[0] == "recv" and is_int(ctx[2]):
                rank = int(ctx[2])
            if rank is None:
                rank = me.rank if me.rank is not None else me.rank_hint
            if me.rank is None:
                me.rank = rank
            if self.j_seen is None:
                self.j_seen = rank
            ev = w.record("recv", me, rank, m.src, m, t_begin)
            if w.checksum is not None and m.csum is not None and w.checksum(m.item) != m.csum:
                label, owner, _, _ = w.identify(m.item)
                ev["mutated"] = label
            self._j_done(ev)
        w.changed()
        return m.item

    # ---- waiting -----------------------------------------------------------

    def _j_wake_getters(self):
        w = WORLD
        for t in w.infos:
            if t.state in ("recv", "settle") and t.wait is self:
                t.woken = True
        w.changed()

    def _j_withdraw(self, m):
        if m in self.j_items:
            self.j_items.remove(m)
        if m in self.j_putters:
            self.j_putters.remove(m)

    def _j_block(self, me, state, what, words, done, timeout, withdraw):
        """Waits (under the lock) until done(); a wait without a timeout is a
        visible block, one with a timeout is polling, which only a timeout
        ends."""
        w = WORLD
        deadline = None if timeout is None else time.monotonic() + max(0.0, timeout)
        me.state = state if timeout is None else "poll"
        me.wait = what
        me.wait_what = words
        me.woken = False
        w.changed()
        if timeout is None:
            w.check()
        try:
            while not done():
                if w.active and w.aborted:
                    raise JudgeAbort()
                if deadline is None:
                    w.cond.wait()
                else:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        if withdraw:
                            withdraw()
                        raise queue.Full if state == "send" else queue.Empty
                    w.cond.wait(left)
                me.woken = False
        finally:
            me.state = "run"
            me.wait = None
            me.woken = False
            w.changed()

    def _j_done(self, ev):
        if ev is not None:
            ev["t1"] = WORLD.now()

    # ---- the rest of Queue's interface -----------------------------------

    def qsize(self):
        with WORLD.cond:
            return len(self.j_items)

    def empty(self):
        return self.qsize() == 0

    def full(self):
        with WORLD.cond:
            return self.j_cap is not None and len(self.j_items) >= max(self.j_cap, 1)

    def task_done(self):
        pass

    def join(self):
        pass

    def j_left(self):
        """The messages never taken."""
        with WORLD.cond:
            return list(self.j_items) + list(self.j_putters)


def _r(x):
    return "?" if x is None else str(x)
