# jd_world: the world a candidate's run lives in.  One candidate thread runs
# at a time; the next one is chosen only at the points the world sees (a
# queue's put and get and size, a thread's start, end and join, a lock's
# acquire and release, a condition's wait, a sleep), by the schedule seed:
#   0  the caller goes first, then the highest rank that can go, at every
#      point ("reversed": rank 0 hears from rank n - 1 first, the highest
#      rank ends first, and a caller that does not join returns before its
#      threads ran); a thread that passes SPIN points without blocking (a
#      loop that polls a queue's size) lets the next one go once;
#   s  at every point a choice among the threads that can go, from a PRNG
#      seeded with s.
# So every run of one seed is the same run, and a deadlock is a fact (no
# thread can go and none waits with a time limit), never a timeout's guess.
# Waits with a time limit (a sleep, a get or a join with a timeout) run on a
# virtual clock that jumps to the first deadline when nothing else can go.
# A loop that waits without a call the world sees (spinning on a variable)
# keeps the turn: only the run's time limit ends it.
#
# The world records nothing itself: jd_run's recorder (WORLD.rec) is told of
# each thread and message, and WORLD.on_deadlock ends the run.
import _thread
import inspect
import numbers
import queue
import random
import sys
import threading
import time

OrigThread = threading.Thread
OrigLock = threading.Lock
OrigCondition = threading.Condition
OrigEvent = threading.Event
orig_sleep = time.sleep

# a thread's state, as the run's records name it (proto.c lists the same)
NEW, READY, RUNNING, RECV, SEND, JOIN, LOCK, COND, SLEEP, DONE = range(10)
SPIN = 64


class Abort(BaseException):
    """Ends a parked thread's wait once the run is over (never caught by a
    candidate's `except Exception`)."""


def is_int(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


class T:
    """One candidate thread: its turn is its own lock, released by the
    thread that hands the turn over."""

    def __init__(self, tid, name, hint, parent, caller=False):
        self.tid, self.name, self.hint, self.parent, self.caller = tid, name, hint, parent, caller
        self.rank = hint          # for seed 0's choice: the rank it acts for, as last seen
        self.turn = _thread.allocate_lock()
        self.turn.acquire()
        self.state, self.streak = NEW, 0   # streak: points passed in a row with the turn
        self.ready = self.until = None     # a blocked thread: what lets it go on; a timed
        self.timed_out = self.notified = False   # wait's deadline on the virtual clock
        self.wait = self.ident = None      # the message, queue, lock or thread it waits on
        self.ctx = None           # the Communicator call it is in: ("send", src, dst), ("recv", dst)


class World:
    def __init__(self):
        self.threads, self.by_ident, self.queues = [], {}, []
        self.clock, self.vtime = 0, 0.0   # scheduling points so far: the run's time
        self.seed, self.rng, self.n = 0, random.Random(0), 0
        self.capacity = None      # the judge's: None unbounded, 0 rendezvous, N
        self.rec = self.on_deadlock = None
        self.profile = None       # set in every thread the world starts (jd_run's)
        self.over = False

    def me(self):
        return self.by_ident.get(_thread.get_ident())

    def new_thread(self, name, hint, parent, caller=False):
        t = T(len(self.threads), name, hint, parent, caller)
        self.threads.append(t)
        if self.rec:
            self.rec.thread(t)
        return t

    def adopt(self, t):
        """The calling OS thread is t from now on."""
        t.ident = _thread.get_ident()
        self.by_ident[t.ident] = t

    def can_go(self, t):
        if t.state in (NEW, READY, RUNNING):
            return True
        return t.state != DONE and (t.timed_out or t.ready())

    def pick(self, me):
        while True:
            live = [t for t in self.threads if t.state != DONE]
            go = [t for t in live if self.can_go(t)]
            if go:
                break
            timed = [t for t in live if t.until is not None]
            if not timed:
                self.on_deadlock(me)          # records the waits and ends the run
            t = min(timed, key=lambda t: (t.until, t.tid))
            self.vtime = max(self.vtime, t.until)
            t.until, t.timed_out = None, True
        if self.seed:
            return go[self.rng.randrange(len(go))]
        order = sorted(go, key=lambda t: (t.caller, -1 if t.rank is None else t.rank, -t.tid))
        best = order[-1]
        if best is me and me.streak >= SPIN and len(order) > 1:
            best = order[-2]
        return best

    def switch(self, me):
        """A point: the schedule picks who goes on; returns when me has the
        turn again (at once when it is me)."""
        self.clock += 1
        nxt = self.pick(me)
        me.streak += 1
        if nxt is not me:
            nxt.streak = 0
            nxt.turn.release()
            if me.state == DONE:
                return
            me.turn.acquire()
        if self.over:
            raise Abort()

    def point(self):
        me = self.me()
        if me is not None:
            if me.state == RUNNING:
                me.state = READY
            self.switch(me)
            me.state = RUNNING

    def block(self, state, ready, timeout=None, wait=None):
        """Waits until ready() while the others go; False when the timeout
        (virtual) came first."""
        me = self.me()
        me.state, me.ready, me.wait, me.timed_out = state, ready, wait, False
        me.until = None if timeout is None else self.vtime + max(0.0, timeout)
        try:
            while not ready() and not me.timed_out:
                self.switch(me)
        finally:
            me.state, me.ready, me.until, me.wait = RUNNING, None, None, None
        return ready() or not me.timed_out

    def end_thread(self, t):
        t.state = DONE
        self.switch(t)


WORLD = World()


def _orig_event():
    """An Event of the original primitives: Thread.start waits on it while
    the new OS thread, not yet in the world, sets it."""
    e = OrigEvent.__new__(OrigEvent)
    e._cond, e._flag = OrigCondition(OrigLock()), False
    return e


class JThread(OrigThread):
    def __init__(self, *a, **k):
        OrigThread.__init__(self, *a, **k)
        self._started = _orig_event()

    def start(self):
        w = WORLD
        me = w.me()
        if me is None:
            return OrigThread.start(self)
        hint = [int(v) for v in list(self._args) + list(self._kwargs.values())
                if is_int(v) and 0 <= int(v) < w.n] + [None]
        t = self._j = w.new_thread(self.name, hint[0], me.tid)
        run = self.run

        def body():
            w.adopt(t)
            t.turn.acquire()
            try:
                if w.over:
                    return
                t.state = RUNNING
                if w.profile:
                    sys.setprofile(w.profile)
                run()
            except Abort:
                return
            except BaseException as e:  # the candidate's: recorded, the thread ends
                w.rec.exception(t, e)
            w.end_thread(t)
        self.run = body
        OrigThread.start(self)
        w.point()

    def join(self, timeout=None):
        w = WORLD
        t = getattr(self, "_j", None)
        if t is None or w.me() is None:
            return OrigThread.join(self, timeout)
        if t is w.me():
            raise RuntimeError("cannot join current thread")
        w.point()
        w.block(JOIN, lambda: t.state == DONE, timeout, t)
        if t.state == DONE:
            OrigThread.join(self)    # its OS thread is ending: no turn needed


class JLock:
    """threading.Lock: acquire and release are points; a held lock blocks."""

    def __init__(self):
        self._owner, self._count = None, 0

    def acquire(self, blocking=True, timeout=-1):
        w = WORLD
        me = w.me()
        if me is not None:
            w.point()
        if self._owner is not None and not (self.reentrant and self._owner is me and me):
            if not blocking or me is None:
                return False
            if not w.block(LOCK, lambda: self._owner is None,
                           None if timeout is None or timeout < 0 else timeout, self):
                return False
        self._owner = me if me is not None else self
        self._count += 1
        return True

    reentrant = False
    _at_fork_reinit = __init__  # what concurrent.futures registers for a fork

    def release(self):
        if self._owner is None:
            raise RuntimeError("release unlocked lock")
        self._count -= 1
        if self._count == 0:
            self._owner = None
        WORLD.point()

    def locked(self):
        return self._owner is not None

    def _save(self):
        c, self._owner, self._count = self._count, None, 0
        return c

    def _restore(self, count):
        self.acquire()
        self._count = count

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()


class JRLock(JLock):
    reentrant = True


class JCondition:
    def __init__(self, lock=None):
        self._lock = lock if lock is not None else JRLock()
        self.acquire, self.release = self._lock.acquire, self._lock.release
        self._waiters = []

    def __enter__(self):
        return self._lock.acquire()

    def __exit__(self, *exc):
        self._lock.release()

    def wait(self, timeout=None):
        me = WORLD.me()
        saved = self._lock._save()
        me.notified = False
        self._waiters.append(me)
        try:
            return WORLD.block(COND, lambda: me.notified, timeout, self)
        finally:
            if me in self._waiters:
                self._waiters.remove(me)
            self._lock._restore(saved)

    def wait_for(self, predicate, timeout=None):
        end = None if timeout is None else WORLD.vtime + timeout
        result = predicate()
        while not result:
            left = None if end is None else end - WORLD.vtime
            if left is not None and left <= 0:
                break
            self.wait(left)
            result = predicate()
        return result

    def notify(self, n=1):
        for t in self._waiters[:n]:
            t.notified = True
            self._waiters.remove(t)

    def notify_all(self):
        self.notify(len(self._waiters))

    notifyAll = notify_all


def _sleep(secs):
    w = WORLD
    if w.me() is None:
        return orig_sleep(secs)
    if secs <= 0:
        return w.point()
    w.block(SLEEP, lambda: False, secs)


def patch():
    """Every Queue, Thread, lock and condition made from now on is the
    world's (Event, Barrier and Semaphore are made of the last two), and so
    is time.sleep."""
    import jd_queue
    queue.Queue = queue.SimpleQueue = jd_queue.JQueue
    threading.Thread, threading.Lock, threading.RLock = JThread, JLock, JRLock
    threading.Condition, time.sleep = JCondition, _sleep


def wrap_communicator(mod):
    """The module's Communicator, the same API: its queues become inboxes
    (the index is the rank whose inbox it is), and send and recv say whom a
    message is from and for."""
    C = getattr(mod, "Communicator", None)
    if not isinstance(C, type):
        return

    def tag(obj):
        for v in list(getattr(obj, "__dict__", {}).values()):
            items = v.items() if isinstance(v, dict) else enumerate(v) \
                if isinstance(v, (list, tuple)) else ()
            for key, q in items:
                if hasattr(q, "j_index") and is_int(key):
                    q.j_index = int(key)

    def wrapped(fn, op):
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            sig = None

        def method(self, *a, **k):
            vals = list(a)
            try:
                vals = list(sig.bind(self, *a, **k).arguments.values())[1:]
            except (TypeError, AttributeError):
                pass
            me = WORLD.me() or T(-1, "", None, -1)
            prev, me.ctx = me.ctx, (op,) + tuple(int(v) if is_int(v) else None
                                                 for v in (vals + [None, None])[:2])
            try:
                return fn(self, *a, **k)
            finally:
                me.ctx = prev
        return method

    def init(self, *a, **k):
        C.__init__(self, *a, **k)
        tag(self)
    ns = {"__init__": init}
    for name in ("send", "recv"):
        if callable(getattr(C, name, None)):
            ns[name] = wrapped(getattr(C, name), name)
    try:
        J = type(C.__name__, (C,), ns)
    except TypeError:
        return
    J.__qualname__, J.__module__ = getattr(C, "__qualname__", C.__name__), C.__module__
    mod.Communicator = J
    for v in list(vars(mod).values()):
        if isinstance(v, C):
            tag(v)
