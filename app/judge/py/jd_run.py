# jd_run: one run of one case under one schedule seed, in a process of its
# own (forked by jd_main): load the candidate's module in the world, call the
# function, and record what happened as facts on the run's pipe, in the
# records app/judge/proto.c documents and parses.  Nothing here judges: the
# arrays go as raw bytes (the messages' payloads, what the function returned,
# A and B as it left them) and distmm-tui checks them against its own.
#
# What only Python can see is said here: exceptions at the candidate's own
# line (its frames only), where each thread waits when nothing can go on, the
# stacks at the time limit, a payload's checksum at its send, its receive and
# the end, the threads still running when the function returned, and what it
# printed.  The process ends with os._exit: 0 when nothing of that went wrong,
# 3 when something did (jd_main runs no further schedule then).
import ctypes
import io
import os
import sys
import traceback
import types
import zlib

import numpy as np

import jd_world as W
from jd_world import WORLD

RAW_BUDGET = 64 << 20      # payload bytes sent raw a run; beyond, shapes alone
OUT_MAX = 64 << 10         # what is kept of the candidate's printed output
# the run's end, as the end record says it
RETURNED, RAISED, DEADLOCK, TIMEOUT, LOAD_FAILED = range(5)


def set_pdeathsig():
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


def arrays_in(item, depth=0):
    """The arrays in a message, each with the int just before it in the
    tuple or list that holds it (an (owner, shard) pair's owner); a
    top-level (src, data) does not count its src."""
    if isinstance(item, np.ndarray):
        return [(item, -1)]
    out = []
    if depth > 3 or not isinstance(item, (tuple, list)):
        return out
    last = -1
    for i, v in enumerate(item):
        if isinstance(v, np.ndarray):
            out.append((v, last))
        elif isinstance(v, (tuple, list)):
            out.extend(arrays_in(v, depth + 1))
        elif W.is_int(v) and not (depth == 0 and i == 0 and isinstance(item, tuple)):
            last = int(v)
    return out


def checksum(item, depth=0):
    if isinstance(item, np.ndarray):
        try:
            return zlib.crc32(np.ascontiguousarray(item).tobytes(),
                              zlib.crc32(repr((item.shape, item.dtype.str)).encode()))
        except (TypeError, ValueError):
            return 1
    if isinstance(item, (tuple, list)) and depth < 4:
        c = len(item)
        for v in item:
            c = zlib.crc32(str(checksum(v, depth + 1)).encode(), c)
        return c
    return zlib.crc32(repr(item)[:200].encode("utf-8", "replace"))


def where(frames, path):
    """The innermost frame in the candidate's file: (line, file, function,
    source), or (0, "", "", "") when none is."""
    mine = [f for f in frames if os.path.abspath(f.filename) == path]
    if not mine:
        return 0, "", "", ""
    f = mine[-1]
    return f.lineno or 0, f.filename, f.name, (f.line or "").strip()


class Recorder:
    def __init__(self, fd, path):
        self.fd, self.path = fd, os.path.abspath(path)
        self.lock = W.OrigLock()
        self.on = False           # the call has begun: messages count
        self.budget = RAW_BUDGET
        self.msgs = []
        self.closed = False
        self.ending = False
        self.watcher = None

    def pack(self, tag, ints, strs=()):
        bs = [s if isinstance(s, bytes) else str(s).encode("utf-8", "replace") for s in strs]
        head = " ".join([tag] + [str(int(i)) for i in ints] + [str(len(b)) for b in bs])
        return (head + "\n").encode() + b"".join(bs)

    def write(self, *records, final=False):
        data = b"".join(records)
        if self.fd < 0:
            return
        with self.lock:
            if self.closed:
                return
            self.closed = final
            while data:
                try:
                    data = data[os.write(self.fd, data):]
                except OSError:
                    os._exit(1)   # the harness is gone

    def arr(self, x, tag, raw=True):
        x = np.asarray(x) if not isinstance(x, np.ndarray) else x
        dims = (list(x.shape) + [0, 0, 0, 0])[:4]
        data = b""
        if raw and x.ndim == 2 and x.dtype.kind in "fiub":
            data = np.ascontiguousarray(x, dtype="<f8").tobytes()
        return self.pack("arr", [tag, x.ndim] + dims, [x.dtype.str, data])

    def payload(self, item):
        found = arrays_in(item)
        size = sum(int(a.nbytes) for a, _ in found)
        raw = size <= self.budget
        if raw:
            self.budget -= size
        return len(found), [self.arr(a, tag, raw) for a, tag in found]

    def thread(self, t):
        self.write(self.pack("thr", [t.tid, t.parent, -1 if t.hint is None else t.hint,
                                     int(t.caller)], [t.name]))

    def send(self, m, q):
        m.csum = checksum(m.item)
        m.mid = len(self.msgs) if self.on else -1
        if m.mid < 0:
            return
        self.msgs.append(m)
        me = WORLD.me()
        ctx = me.ctx if me.ctx and me.ctx[0] == "send" else ("", None, None)
        first = m.item[0] if isinstance(m.item, tuple) and m.item and W.is_int(m.item[0]) else -1
        narr, arrs = self.payload(m.item)
        cap = -1 if q.j_cap is None else q.j_cap
        self.write(self.pack("snd", [m.mid, me.tid, WORLD.clock, _i(ctx[1]), _i(ctx[2]),
                                     int(first), q.j_id, _i(q.j_index), cap, m.csum, narr]), *arrs)

    def sent(self, m, ok):
        if m.mid >= 0:
            self.write(self.pack("sent", [m.mid, WORLD.clock, int(ok)]))

    def received(self, m, q, t0):
        if m.mid < 0:
            return
        me = WORLD.me()
        ctx = me.ctx if me.ctx and me.ctx[0] == "recv" else ("", None)
        c = checksum(m.item)
        narr, arrs = self.payload(m.item) if c != m.csum else (0, [])
        self.write(self.pack("rcv", [m.mid, me.tid, t0, WORLD.clock, _i(ctx[1]), q.j_id,
                                     _i(q.j_index), c, narr]), *arrs)

    def exception(self, t, e, load=False):
        line, fname, func, src = where(traceback.extract_tb(e.__traceback__), self.path)
        try:
            msg = str(e) if not isinstance(e, SystemExit) else "sys.exit(%s)" % (e.code,)
        except Exception:  # noqa: BLE001 (its __str__ raised)
            msg = "(its message could not be read)"
        self.write(self.pack("exc", [t.tid, line, int(load)],
                             [type(e).__name__, msg[:2000], fname, func, src]))

    def claim(self):
        """Whether this thread ends the run (the call's end, a deadlock
        and the time limit race for it; the others wait to be ended)."""
        with self.lock:
            first, self.ending = not self.ending, True
        if not first and W._thread.get_ident() != self.watcher:
            W._orig_event().wait()
        return first

    def waits(self, live):
        """Where each live thread is, at a deadlock, a time limit or a stop."""
        frames = sys._current_frames()
        recs = []
        for t in live:
            f = frames.get(t.ident) if getattr(t, "ident", None) else None
            stack = traceback.extract_stack(f) if f is not None else []
            line, fname, func, src = where(stack, self.path)
            w = t.wait
            mid = getattr(w, "mid", -1) if t.state == W.SEND else -1
            if t.state == W.LOCK:      # the thread that holds the lock
                w = getattr(w, "_owner", None)
            target = w.tid if t.state in (W.JOIN, W.LOCK) and isinstance(w, W.T) else -1
            qid = w.j_id if t.state == W.RECV else -1
            cap = -1
            if t.state == W.SEND:
                q = next((q for q in WORLD.queues if any(x is w for x in q.j_items)), None)
                cap = -1 if q is None or q.j_cap is None else q.j_cap
            recs.append(self.pack("wait", [t.tid, t.state, mid, target, qid, cap, line],
                                  [fname, func, src]))
        self.write(*recs)

    def finish(self, outcome, code):
        """The end record (once), then the process ends."""
        self.write(self.pack("end", [outcome, WORLD.clock]), final=True)
        os._exit(code)


def _i(x):
    return -1 if x is None else int(x)


class Output(io.TextIOBase):
    """The candidate's prints, kept up to OUT_MAX."""

    def __init__(self):
        self.buf, self.cut = [], False
        self.size = 0

    def write(self, s):
        s = str(s)
        if self.size + len(s) > OUT_MAX:
            s, self.cut = s[:max(0, OUT_MAX - self.size)], True
        self.buf.append(s)
        self.size += len(s)
        return len(s)

    def writable(self):
        return True


def load_module(path, code):
    mod = types.ModuleType("distmm_candidate")
    mod.__file__ = path
    sys.modules["distmm_candidate"] = mod
    exec(code, mod.__dict__)
    return mod


def enter_world(seed, capacity, n, rec, on_deadlock):
    """This process's world: patched, with the calling thread as thread 0
    (it loads the module and calls the function)."""
    W.patch()
    WORLD.rng.seed(seed)
    WORLD.seed, WORLD.capacity, WORLD.n = seed, capacity, n
    WORLD.rec, WORLD.on_deadlock = rec, on_deadlock
    t = WORLD.new_thread("the caller", None, -1, caller=True)
    t.state = W.RUNNING
    WORLD.adopt(t)
    return t


def child_main(job, case, seed, code, wfd):
    set_pdeathsig()
    rec = Recorder(wfd, job["path"])
    out = Output()
    sys.stdout = sys.stderr = out
    done = W.OrigEvent()
    A, B = case["A"], case["B"]
    a_in, b_in = A.copy(), B.copy()

    def deadlocked(me):
        rec.claim()
        rec.waits([t for t in WORLD.threads if t.state != W.DONE])
        rec.write(rec.pack("out", [int(out.cut)], ["".join(out.buf)]))
        rec.finish(DEADLOCK, 3)

    def watch():
        rec.watcher = W._thread.get_ident()
        if done.wait(job["timeout"]) or not rec.claim():
            return
        rec.waits([t for t in WORLD.threads if t.state != W.DONE])
        rec.write(rec.pack("out", [int(out.cut)], ["".join(out.buf)]))
        rec.finish(TIMEOUT, 3)

    def profile(frame, event, arg):
        """A rank's function returning with all of B in hand (an all-gather
        before one product): the array is kept for distmm-tui to compare."""
        if event != "return" or frame.f_code.co_filename != job["path"]:
            return
        for v in list(frame.f_locals.values()):
            if isinstance(v, np.ndarray) and v.shape == B.shape and v is not b_in and \
                    v.base is not b_in:
                me = WORLD.me()
                if me is not None and me.tid not in held:
                    held.add(me.tid)
                    rec.write(rec.pack("hold", [me.tid]), rec.arr(v, -1))
                return

    held = set()
    if case["fn"] == "fsdp_mat_mul" and case["n"] > 1:
        WORLD.profile = profile
    rec.write(rec.pack("hi", [1]))
    W.OrigThread(target=watch, daemon=True).start()   # before the patch: its own Event
    caller = enter_world(seed, case["cap"], case["n"], rec, deadlocked)
    try:
        mod = load_module(job["path"], code)
    except BaseException as e:
        rec.exception(caller, e, load=True)
        rec.finish(LOAD_FAILED, 3)
    W.wrap_communicator(mod)
    fn = getattr(mod, case["fn"])
    out.buf, out.size, out.cut = [], 0, False
    rec.on = True
    outcome, ret = RETURNED, None
    try:
        ret = fn(a_in, b_in, case["n"])
    except BaseException as e:
        rec.exception(caller, e)
        outcome = RAISED
    done.set()
    rec.claim()
    WORLD.over = True
    live = [t for t in WORLD.threads if t.state != W.DONE and t is not caller]
    recs = [rec.pack("live", [t.tid, t.state]) for t in live]
    if outcome == RETURNED:
        recs += report_result(rec, ret)
    recs += [rec.pack("inp", [0]), rec.arr(a_in, -1), rec.pack("inp", [1]), rec.arr(b_in, -1)]
    for m in rec.msgs:
        c = checksum(m.item)
        if m.taken and c != m.csum:
            narr, arrs = rec.payload(m.item)
            recs += [rec.pack("fin", [m.mid, c, narr])] + arrs
    recs.append(rec.pack("out", [int(out.cut)], ["".join(out.buf)]))
    rec.write(*recs)
    rec.finish(outcome, 0 if outcome == RETURNED and not live else 3)


def report_result(rec, ret):
    """What the function returned: its kind, and the array it is (or the
    one it converts to)."""
    if ret is None:
        return [rec.pack("ret", [0, 0, 0, 0], ["NoneType"])]
    name = type(ret).__name__
    if isinstance(ret, np.ndarray):
        return [rec.pack("ret", [1, 0, 0, 1], [name]), rec.arr(ret, -1)]
    if isinstance(ret, (list, tuple)):
        allarr = bool(ret) and all(isinstance(x, np.ndarray) for x in ret)
        try:
            conv = np.asarray(ret, dtype=np.float64)
        except (TypeError, ValueError):
            conv = None
        arrs = [rec.arr(conv, -1)] if conv is not None else []
        return [rec.pack("ret", [2, len(ret), int(allarr), len(arrs)], [name])] + arrs
    return [rec.pack("ret", [3, 0, 0, 0], [name])]
