# jd_run: one run of one case under one schedule seed, in a process of its
# own (forked by jd_main): load the candidate's module in the world, call the
# function, and record what happened as facts on the run's pipe, in the
# records app/judge/proto.c documents and parses.  Nothing here judges: the
# arrays go as raw values (the messages' payloads, what the function
# returned, A and B as it left them) and distmm-tui checks them itself.
#
# What only Python can see is said here: exceptions at the candidate's own
# line (its frames only), where each thread waits when nothing can go on, the
# stacks at the time limit, a payload's checksum at its send, its receive and
# the end, the threads still running when the function returned, an array of
# B's shape a rank kept, and what it printed.  The process ends with
# os._exit: 0 when none of that went wrong, 3 when it did (then jd_main runs
# no further seed).
import ctypes
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
ITEMS_MAX = 4096           # the items of a returned list sent (rec.c's REC_ITEMS_MAX)
RETURNED, RAISED, DEADLOCK, TIMEOUT, LOAD_FAILED = range(5)   # the end record's


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
    out, last = [], -1
    if depth > 3 or not isinstance(item, (tuple, list)):
        return out
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
    f = ([f for f in frames if os.path.abspath(f.filename) == path] or [None])[-1]
    return (f.lineno or 0, f.filename, f.name, (f.line or "").strip()) if f else (0, "", "", "")


def _i(x):
    return -1 if x is None else int(x)


class Recorder:
    def __init__(self, fd, path):
        self.fd, self.path = fd, os.path.abspath(path)
        self.lock = W.OrigLock()
        self.on = False           # the call has begun: messages count
        self.budget = RAW_BUDGET
        self.msgs = []
        self.closed = self.ending = False
        self.watcher = None
        self.out, self.out_size, self.out_cut = [], 0, False

    def pack(self, tag, ints, strs=()):
        bs = [s if isinstance(s, bytes) else str(s).encode("utf-8", "replace") for s in strs]
        head = " ".join([tag] + [str(int(i)) for i in ints] + [str(len(b)) for b in bs])
        return (head + "\n").encode() + b"".join(bs)

    def write(self, *records, final=False):
        data = b"".join(records)
        with self.lock:
            if self.closed or self.fd < 0:
                return
            self.closed = final
            while data:
                try:
                    data = data[os.write(self.fd, data):]
                except OSError:
                    os._exit(1)   # the harness is gone

    def arr(self, x, tag, raw=True):
        x = x if isinstance(x, np.ndarray) else np.asarray(x)
        data = b""
        if raw and x.ndim == 2 and x.dtype.kind in "fiub":
            data = np.ascontiguousarray(x, dtype="<f8").tobytes()
        return self.pack("arr", [tag, x.ndim] + (list(x.shape) + [0] * 4)[:4], [x.dtype.str, data])

    def payload(self, item):
        found = arrays_in(item)
        size = sum(int(a.nbytes) for a, _ in found)
        raw = size <= self.budget
        self.budget -= size if raw else 0
        return len(found), [self.arr(a, tag, raw) for a, tag in found]

    def thread(self, t):
        self.write(self.pack("thr", [t.tid, t.parent, _i(t.hint), int(t.caller)], [t.name]))

    def send(self, m, q):
        m.csum, m.mid, m.q = checksum(m.item), len(self.msgs) if self.on else -1, q
        if m.mid < 0:
            return
        self.msgs.append(m)
        me = WORLD.me()
        ctx = me.ctx if me.ctx and me.ctx[0] == "send" else ("", None, None)
        first = m.item[0] if isinstance(m.item, tuple) and m.item and W.is_int(m.item[0]) else -1
        narr, arrs = self.payload(m.item)
        self.write(self.pack("snd", [m.mid, me.tid, WORLD.clock, _i(ctx[1]), _i(ctx[2]),
                                     int(first), q.j_id, _i(q.j_index), _i(q.j_cap), m.csum,
                                     narr]), *arrs)

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

    def print(self, s):
        s = str(s)
        if self.out_size + len(s) > OUT_MAX:
            s, self.out_cut = s[:max(0, OUT_MAX - self.out_size)], True
        self.out.append(s)
        self.out_size += len(s)
        return len(s)

    def stop(self, outcome, records=()):
        """Ends the run once: the call's end, a deadlock and the time limit
        race for it, and the losers wait to be ended (the watchdog returns).
        Writes the waits of the live threads (but at the call's end), the
        records, what it printed and the end record; the process ends."""
        with self.lock:
            first, self.ending = not self.ending, True
        if not first:
            if W._thread.get_ident() == self.watcher:
                return
            W._orig_event().wait()
        WORLD.over = True
        frames = sys._current_frames() if outcome != RETURNED else {}
        for t in [t for t in WORLD.threads if t.state != W.DONE and frames]:
            f = frames.get(t.ident)
            line, fname, func, src = where(traceback.extract_stack(f) if f else [], self.path)
            st, w = t.state, t.wait   # at the time limit the turn's holder may move on
            owner = getattr(w, "_owner", None) if st == W.LOCK else w
            q = getattr(w, "q", None) if st == W.SEND else w
            self.write(self.pack("wait", [
                t.tid, st, getattr(w, "mid", -1) if st == W.SEND else -1,
                owner.tid if st in (W.JOIN, W.LOCK) and isinstance(owner, W.T) else -1,
                getattr(q, "j_id", -1) if st == W.RECV else -1,
                _i(getattr(q, "j_cap", None)) if st == W.SEND else -1, line], [fname, func, src]))
        self.write(*records, self.pack("out", [int(self.out_cut)], ["".join(self.out)]))
        live = any(t.state != W.DONE and not t.caller for t in WORLD.threads)
        self.write(self.pack("end", [outcome, WORLD.clock]), final=True)
        os._exit(0 if outcome == RETURNED and not live else 3)


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
    sys.stdout = sys.stderr = types.SimpleNamespace(write=rec.print, flush=lambda: None)
    t = WORLD.new_thread("the caller", None, -1, caller=True)
    t.state = W.RUNNING
    WORLD.adopt(t)
    return t


def child_main(job, case, seed, code, wfd):
    set_pdeathsig()
    rec = Recorder(wfd, job["path"])
    done = W.OrigEvent()
    A, B = case["A"], case["B"]
    a_in, b_in = A.copy(), B.copy()
    held = set()

    def watch():
        rec.watcher = W._thread.get_ident()
        if not done.wait(job["timeout"]):
            rec.stop(TIMEOUT)

    def profile(frame, event, arg):
        """A rank's function returning with an array of B's shape in hand
        (all of B gathered before one product?): kept for distmm-tui."""
        if event != "return" or frame.f_code.co_filename != job["path"]:
            return
        for v in list(frame.f_locals.values()):
            if isinstance(v, np.ndarray) and v.shape == B.shape and v is not b_in and \
                    v.base is not b_in and WORLD.me() and WORLD.me().tid not in held:
                held.add(WORLD.me().tid)
                rec.write(rec.pack("hold", [WORLD.me().tid]), rec.arr(v, -1))
                return

    if case["fn"] == "fsdp_mat_mul" and case["n"] > 1:
        WORLD.profile = profile
    rec.write(rec.pack("hi", [1]))
    W.OrigThread(target=watch, daemon=True).start()   # before the patch: its own Event
    caller = enter_world(seed, case["cap"], case["n"], rec, lambda me: rec.stop(DEADLOCK))
    try:
        mod = load_module(job["path"], code)
    except BaseException as e:
        rec.exception(caller, e, load=True)
        rec.stop(LOAD_FAILED)
    W.wrap_communicator(mod)
    rec.out, rec.out_size, rec.out_cut, rec.on = [], 0, False, True
    outcome, ret = RETURNED, None
    try:
        ret = getattr(mod, case["fn"])(a_in, b_in, case["n"])
    except BaseException as e:
        rec.exception(caller, e)
        outcome = RAISED
    done.set()
    recs = [rec.pack("live", [t.tid, t.state]) for t in WORLD.threads
            if t.state != W.DONE and t is not caller]
    if outcome == RETURNED:
        recs += report_result(rec, ret)
    recs += [rec.pack("inp", [0]), rec.arr(a_in, -1), rec.pack("inp", [1]), rec.arr(b_in, -1)]
    for m in rec.msgs:
        c = checksum(m.item)
        if m.taken and c != m.csum:
            narr, arrs = rec.payload(m.item)
            recs += [rec.pack("fin", [m.mid, c, narr])] + arrs
    rec.stop(outcome, recs)


def report_result(rec, ret):
    """What the function returned: its kind, and the array it is (or the
    one it converts to)."""
    name = type(ret).__name__
    if ret is None or isinstance(ret, np.ndarray):
        return [rec.pack("ret", [int(ret is not None), 0, 0, int(ret is not None)], [name])] + \
            ([rec.arr(ret, -1)] if ret is not None else [])
    if not isinstance(ret, (list, tuple)):
        return [rec.pack("ret", [3, 0, 0, 0], [name])]
    allarr = bool(ret) and all(isinstance(x, np.ndarray) for x in ret)
    try:
        arrs = [rec.arr(np.asarray(ret, dtype=np.float64), -1)]
    except (TypeError, ValueError):
        arrs = []
    items = []   # each item too (tp_row_mat_mul returns every rank's C)
    for i, x in enumerate(ret[:ITEMS_MAX]):
        raw = isinstance(x, np.ndarray) and x.nbytes <= rec.budget
        rec.budget -= x.nbytes if raw else 0
        try:
            items += [rec.pack("item", [i]), rec.arr(x, -1, raw)]
        except (TypeError, ValueError):
            items += [rec.pack("item", [i]), rec.arr(np.asarray(repr(type(x))), -1, False)]
    return [rec.pack("ret", [2, len(ret), int(allarr), len(arrs)], [name])] + arrs + items
