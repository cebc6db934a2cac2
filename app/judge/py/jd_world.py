# jd_world: the instrumented world a candidate's run lives in: one lock and
# condition for every queue, thread start, join and wait, so that the state of
# every candidate thread (running, blocked in a send, a receive or a join) is
# known at once and a deadlock is a fact, not a timeout guess.
#
# Design: a run is one forked process (jd_main), so the world is a module
# global.  Each thread carries a vector clock (start, join and every message
# carry it along) so that a perturbed schedule only reorders messages that
# were sent concurrently: a reordering is always one a real run could make.
import queue
import random
import threading
import time

OrigThread = threading.Thread
OrigQueue = queue.Queue
OrigSimpleQueue = getattr(queue, "SimpleQueue", None)
OrigCondition = threading.Condition
OrigLock = threading.Lock
OrigRLock = threading.RLock
orig_sleep = time.sleep

# how long a settling receiver waits for the others to block, at most: only
# locks, barriers and sleeps the world cannot see make it run out
SETTLE_CAP = 0.25

BLOCKED = ("recv", "send", "join")


class JudgeAbort(BaseException):
    """Raised inside a blocked call to end a run that deadlocked or failed.
    A BaseException, so that a candidate's `except Exception` lets it by."""


class TInfo:
    """What the world knows about one thread of the candidate."""

    def __init__(self, seq, name, caller=False):
        self.seq = seq            # the order threads were started in
        self.name = name
        self.caller = caller      # the thread that called dp_mat_mul/fsdp_mat_mul
        self.ident = None
        self.state = "run"        # run, poll, settle, recv, send, join, xwait, done
        self.woken = False        # something it waits for happened: runnable
        self.wait = None          # the queue, message or thread it waits on
        self.wait_what = ""       # words for the wait
        self.rank = None          # the rank its calls act for (last one seen)
        self.rank_hint = None     # from the thread's arguments
        self.clock = {seq: 0}
        self.prio = None          # settle priority
        self.steps = 0            # transfers it has made, for the words


class Msg:
    __slots__ = ("item", "src", "dst", "sender", "clock", "seq", "csum", "label",
                 "owner", "send_ev", "taken", "queued", "q", "nbytes", "shape")


class World:
    def __init__(self):
        self.cond = threading.Condition(threading.Lock())
        self.active = False
        self.threads = {}         # ident -> TInfo
        self.infos = []           # every TInfo, in start order
        self.by_thread = {}       # Thread object -> TInfo
        self.harness = set()      # idents of the harness's own threads
        self.events = []          # send/recv records (dicts), in order
        self.queues = []
        self.msgs = []            # every message sent during the run
        self.msg_seq = 0
        self.aborted = False
        self.deadlock = None      # the waits, when it deadlocked
        self.exceptions = []      # (TInfo, exception, traceback)
        self.capacity = None      # None unbounded, 0 rendezvous, N
        self.settle = False
        self.policy = "fifo"      # fifo, reverse, random
        self.rng = random.Random(0)
        self.delay = 0.0          # the longest delay injected before a send or recv
        self.unsettled = 0
        self.n = 0
        self.t0 = time.monotonic_ns()
        self.identify = None      # payload -> (label, owner); set by jd_run
        self.checksum = None
        self.local = threading.local()
        self.on_end = None        # called (under the lock) when the run may be over

    # ---- threads -----------------------------------------------------------

    def now(self):
        return time.monotonic_ns() - self.t0

    def me(self):
        ident = threading.get_ident()
        t = self.threads.get(ident)
        if t is None:
            # a thread the world did not start (made before the patch): known
            # from now on, but see unknown_threads()
            t = TInfo(len(self.infos), threading.current_thread().name)
            t.ident = ident
            self.threads[ident] = t
            self.infos.append(t)
        return t

    def register_caller(self):
        with self.cond:
            t = TInfo(len(self.infos), "the caller", caller=True)
            t.ident = threading.get_ident()
            self.threads[t.ident] = t
            self.infos.append(t)
            return t

    def thread_started(self, th, rank_hint):
        with self.cond:
            parent = self.me()
            t = TInfo(len(self.infos), th.name)
            t.rank_hint = rank_hint
            parent.clock[parent.seq] += 1
            t.clock.update({k: v for k, v in parent.clock.items()})
            t.clock[t.seq] = 0
            self.infos.append(t)
            self.by_thread[th] = t
            self.changed()
            return t

    def thread_body(self, t, run):
        with self.cond:
            t.ident = threading.get_ident()
            self.threads[t.ident] = t
        try:
            if self.settle:
                # a perturbed schedule also orders the threads' starts: each
                # waits until the others are blocked and goes in the
                # schedule's order (reversed: the highest rank first), so
                # that results gathered through shared memory in the order
                # threads finish are reordered too
                with self.cond:
                    if t.rank is None:
                        t.rank = t.rank_hint
                    self.settle_wait(t, None, "starts")
            run()
        except JudgeAbort:
            pass
        except BaseException as e:  # the candidate's exception: the case's result
            with self.cond:
                self.exceptions.append((t, e, e.__traceback__))
                self.changed()
        finally:
            with self.cond:
                t.state = "done"
                for o in self.infos:
                    if o.state == "join" and o.wait is t:
                        o.woken = True
                self.changed()
                self.check()

    def unknown_threads(self):
        """Live threads the world neither started nor owns: while there is one,
        no deadlock can be claimed (it could still send)."""
        for th in threading.enumerate():
            if th.ident in self.harness or not th.is_alive():
                continue
            t = self.threads.get(th.ident)
            if t is None and th not in self.by_thread:
                return True
        return False

    def live(self):
        return [t for t in self.infos if t.state != "done"]

    # ---- state changes -------------------------------------------------------

    def changed(self):
        self.cond.notify_all()

    def runnable(self, t):
        """Whether t can go on without another thread's help."""
        if t.woken or t.state not in BLOCKED:
            return True
        if t.state == "recv":
            return t.wait.j_deliverable() is not None
        if t.state == "send":
            m = t.wait
            return m.taken or m.queued
        if t.state == "join":
            return t.wait.state == "done"
        return True

    def check(self):
        """Called under the lock whenever a thread blocks or ends: every live
        thread blocked in a visible wait and none runnable is a deadlock."""
        if not self.active or self.aborted:
            return
        live = self.live()
        if not live:
            if self.on_end:
                self.on_end()
            return
        for t in live:
            if self.runnable(t):
                return
        if self.unknown_threads():
            return
        self.deadlock = [{"t": t, "state": t.state, "wait": t.wait, "rank": t.rank}
                         for t in live]
        self.abort()

    def abort(self):
        self.aborted = True
        self.changed()
        if self.on_end:
            self.on_end()

    def raise_if_aborted(self):
        if self.active and self.aborted:
            raise JudgeAbort()

    # ---- settling: a perturbed receive waits until the others are blocked --

    def quiet(self, me):
        for t in self.live():
            # a wait the world cannot see (a lock, a barrier, a sleep) is quiet
            # enough to settle on, though never proof of a deadlock
            if t is me or t.state in ("settle", "xwait"):
                continue
            if self.runnable(t):
                return False
        return True

    def settle_wait(self, me, q, what="receives"):
        me.state = "settle"
        me.wait = q
        me.wait_what = what
        if self.policy == "reverse":
            me.prio = (-(me.rank if me.rank is not None else -1), me.seq)
        elif self.policy == "random":
            me.prio = (self.rng.random(), me.seq)
        else:
            me.prio = (me.rank if me.rank is not None else -1, me.seq)
        self.changed()
        deadline = time.monotonic() + SETTLE_CAP
        while not self.aborted:
            if self.quiet(me):
                settlers = [t for t in self.live() if t.state == "settle"]
                if min(settlers, key=lambda t: t.prio) is me:
                    break
            left = deadline - time.monotonic()
            if left <= 0:
                self.unsettled += 1
                break
            self.cond.wait(left)
        me.state = "run"
        me.woken = False
        self.changed()
        self.raise_if_aborted()

    def perturb(self):
        """A small seeded delay before a send or a receive (outside the lock)."""
        if self.active and self.delay > 0:
            with self.cond:
                d = self.rng.uniform(0, self.delay)
            orig_sleep(d)

    # ---- the record --------------------------------------------------------

    def record(self, op, t, rank, peer, msg, t_begin):
        ev = {"op": op, "tid": t.seq, "thread": t.name, "rank": rank, "peer": peer,
              "msg": msg.seq, "t0": t_begin, "t1": None, "label": msg.label,
              "owner": msg.owner, "nbytes": msg.nbytes, "shape": msg.shape,
              "q": msg.q.j_id, "qindex": msg.q.j_index, "mutated": None}
        self.events.append(ev)
        return ev

    def ctx(self):
        return getattr(self.local, "ctx", None)


WORLD = World()


def _before_clock(a, b):
    """Vector clock a happened before b."""
    le = True
    for k, v in a.items():
        if v > b.get(k, 0):
            le = False
            break
    return le and a != b


def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool) or type(x).__name__ in (
        "int64", "int32", "intc", "int_", "int16", "int8", "uint64", "uint32")


def _rank_hint(args, kwargs, n):
    for v in list(args) + list(kwargs.values()):
        if is_int(v) and 0 <= int(v) < n:
            return int(v)
    for k in ("rank", "r", "device", "dev", "idx", "i"):
        if k in kwargs and is_int(kwargs[k]):
            return int(kwargs[k])
    return None


class JThread(OrigThread):
    """threading.Thread, seen by the world: its start, end, exception and join."""

    def start(self):
        w = WORLD
        if not w.active:
            return OrigThread.start(self)
        args = getattr(self, "_args", ()) or ()
        kwargs = getattr(self, "_kwargs", {}) or {}
        t = w.thread_started(self, _rank_hint(args, kwargs, w.n))
        run = self.run
        self.run = lambda: w.thread_body(t, run)
        # start() waits for the thread to begin: that wait is the world's own,
        # and the starter runs on right after, so it must not look quiet
        w.local.no_xwait = True
        try:
            OrigThread.start(self)
        except BaseException:
            with w.cond:
                t.state = "done"
                w.changed()
            raise
        finally:
            w.local.no_xwait = False

    def join(self, timeout=None):
        w = WORLD
        t = w.by_thread.get(self)
        if not w.active or t is None:
            return OrigThread.join(self, timeout)
        with w.cond:
            me = w.me()
            if timeout is None:
                me.state, me.wait = "join", t
                me.wait_what = "waits in join for %s" % _thread_words(t)
                me.woken = False
                w.changed()
                w.check()
                try:
                    while t.state != "done":
                        if w.aborted:
                            raise JudgeAbort()
                        w.cond.wait()
                finally:
                    me.state, me.wait, me.woken = "run", None, False
                    w.changed()
                for k, v in t.clock.items():
                    if me.clock.get(k, 0) < v:
                        me.clock[k] = v
            else:
                me.state = "poll"
                end = time.monotonic() + max(0.0, timeout)
                while t.state != "done" and time.monotonic() < end and not w.aborted:
                    w.cond.wait(end - time.monotonic())
                me.state = "run"
                w.changed()
                if t.state != "done":
                    return None
        return OrigThread.join(self)


def _thread_words(t):
    if t.rank is not None:
        return "rank %d's thread" % t.rank
    if t.rank_hint is not None:
        return "rank %d's thread" % t.rank_hint
    return "thread %s" % t.name


def thread_words(t):
    return "the caller" if t.caller else _thread_words(t)


def xwaiting(fn, *a, **k):
    """Runs a wait the world cannot see through (a lock, a condition, and so
    an event, a barrier or a semaphore, a sleep), marked as such."""
    w = WORLD
    t = None
    if w.active and not getattr(w.local, "no_xwait", False):
        with w.cond:
            t = w.threads.get(threading.get_ident())   # never a thread not known yet
            if t is not None and t.state == "run":
                t.state = "xwait"
                w.changed()
            else:
                t = None
    try:
        return fn(*a, **k)
    finally:
        if t is not None:
            with w.cond:
                if t.state == "xwait":
                    t.state = "run"
                w.changed()


class JCondition(OrigCondition):
    def wait(self, timeout=None):
        return xwaiting(OrigCondition.wait, self, timeout)

    def wait_for(self, predicate, timeout=None):
        return xwaiting(OrigCondition.wait_for, self, predicate, timeout)


class JLock:
    """threading.Lock(), its blocking acquire marked (see xwaiting)."""

    def __init__(self, inner=None):
        self._j = inner if inner is not None else OrigLock()

    def acquire(self, blocking=True, timeout=-1):
        if self._j.acquire(False):
            return True
        if not blocking:
            return False
        return xwaiting(self._j.acquire, True, timeout)

    def release(self):
        self._j.release()

    def locked(self):
        return self._j.locked()

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self._j.release()


class JRLock(JLock):
    def __init__(self):
        JLock.__init__(self, OrigRLock())

    def locked(self):
        return self._j._is_owned()

    # what Condition uses with a reentrant lock
    def _is_owned(self):
        return self._j._is_owned()

    def _release_save(self):
        return self._j._release_save()

    def _acquire_restore(self, state):
        xwaiting(self._j._acquire_restore, state)


def _sleep(secs):
    xwaiting(orig_sleep, secs)
