# jd_queue: queue.Queue (and SimpleQueue) as the world sees it: every put
# and get a point, each message told to the recorder (who put it, on which
# queue, inside which Communicator call, what it carries), and the judge's
# capacity on every queue made without a maxsize: None unbounded (the
# exercise's Queue()), N, or 0, where a put waits until its item is taken.
import collections
import queue

from jd_world import RECV, SEND, WORLD


class Msg:
    __slots__ = ("mid", "item", "taken", "csum", "q")


class JQueue:
    def __init__(self, maxsize=0):
        w = WORLD
        self.maxsize = maxsize
        self.j_items = collections.deque()
        self.j_id = len(w.queues)
        self.j_index = None       # the rank whose inbox it is (a Communicator's)
        self.j_cap = maxsize if maxsize > 0 else w.capacity
        w.queues.append(self)

    @property
    def queue(self):
        return collections.deque(m.item for m in self.j_items)

    def put(self, item, block=True, timeout=None):
        w = WORLD
        w.point()
        cap = self.j_cap
        if not block and cap is not None and len(self.j_items) >= max(cap, 1):
            raise queue.Full
        m = Msg()
        m.item, m.taken = item, False
        w.rec.send(m, self)
        if cap is None or (cap > 0 and len(self.j_items) < cap):
            self.j_items.append(m)
            ok = True
        elif cap == 0:
            self.j_items.append(m)    # offered: a get takes it, and then the put ends
            ok = w.block(SEND, lambda: m.taken, timeout, m)
        else:
            ok = w.block(SEND, lambda: len(self.j_items) < cap, timeout, m)
            if ok:
                self.j_items.append(m)
        if not ok and m in self.j_items:
            self.j_items.remove(m)
        w.rec.sent(m, ok)
        if not ok:
            raise queue.Full

    def get(self, block=True, timeout=None):
        w = WORLD
        w.point()
        t0 = w.clock
        me = w.me()
        if me is not None and self.j_index is not None:
            me.rank = self.j_index
        if not self.j_items:
            if not block or not w.block(RECV, lambda: bool(self.j_items), timeout, self):
                raise queue.Empty
        m = self.j_items.popleft()
        m.taken = True
        w.rec.received(m, self, t0)
        return m.item

    def qsize(self):
        WORLD.point()
        return len(self.j_items)

    put_nowait = lambda self, item: self.put(item, False)  # noqa: E731
    get_nowait = lambda self: self.get(False)  # noqa: E731
    empty = lambda self: self.qsize() == 0  # noqa: E731
    full = lambda self: self.j_cap is not None and self.qsize() >= max(self.j_cap, 1)  # noqa
    task_done = join = lambda self: None  # noqa: E731 (no task accounting: nothing waits)
