# jd_run: one run of one case under one schedule, in a process of its own
# (forked by jd_main): load the candidate's module, put the world's
# Communicator, queues and threads in place, call the function, wait for its
# threads, then judge and report one JSON object on the pipe, and _exit.
#
# The process is thrown away after the run, so nothing a candidate leaves
# behind (a thread stuck in a loop, a changed global) reaches the next run;
# a watchdog thread reports a timeout with every thread's stack.
import ctypes
import inspect
import json
import os
import sys
import threading
import time
import traceback
import types

import numpy as np

import jd_world as W
from jd_patch import patch_module_globals, patch_modules
from jd_queue import JQueue
import jd_trace
import jd_verdict
from jd_content import Catalogue, checksum, identify_item

# after an exception or a deadlock, how long the other threads get to end
GRACE = 1.0


def set_pdeathsig():
    """Die with the process that forked this one (Linux), so that no run
    outlives the judge even when it is killed outright."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


def load_module(path, code):
    mod = types.ModuleType("distmm_candidate")
    mod.__file__ = path
    sys.modules["distmm_candidate"] = mod
    d = os.path.dirname(os.path.abspath(path))
    if d not in sys.path:
        sys.path.insert(0, d)
    exec(code, mod.__dict__)
    return mod


def _ints(vals):
    return [int(v) for v in vals if W.is_int(v)]


def _ctx_method(fn, op):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    w = W.WORLD

    def method(self, *a, **k):
        vals = list(a)
        if sig is not None:
            try:
                args = sig.bind(self, *a, **k).arguments
                names = list(args)[1:]
                vals = [args[x] for x in names]
            except TypeError:
                pass
        ints = _ints(vals[:2])
        if op == "send":
            ctx = ("send", ints[0] if ints else None, ints[1] if len(ints) > 1 else None)
        else:
            ctx = ("recv", None, ints[0] if ints else None)
        prev = getattr(w.local, "ctx", None)
        w.local.ctx = ctx
        try:
            return fn(self, *a, **k)
        finally:
            w.local.ctx = prev
    method.__name__ = getattr(fn, "__name__", op)
    return method


def tag_inboxes(obj, cap):
    """The queues a Communicator holds are inboxes: index = the rank whose
    inbox it is, and the judge's capacity."""
    for v in list(getattr(obj, "__dict__", {}).values()):
        if isinstance(v, JQueue):
            v.j_inbox(v.j_index, cap)
        elif isinstance(v, (list, tuple)):
            for i, q in enumerate(v):
                if isinstance(q, JQueue):
                    q.j_inbox(i, cap)
                elif isinstance(q, (list, tuple)):
                    for q2 in q:
                        if isinstance(q2, JQueue):
                            q2.j_inbox(q2.j_index, cap)
        elif isinstance(v, dict):
            for key, q in v.items():
                if isinstance(q, JQueue):
                    q.j_inbox(int(key) if W.is_int(key) else q.j_index, cap)


def wrap_communicator(mod, cap):
    """The module's Communicator, with the same API: its queues become
    inboxes, its send and recv say who sends to whom."""
    C = getattr(mod, "Communicator", None)
    if not isinstance(C, type):
        return
    ns = {}

    def init(self, *a, **k):
        C.__init__(self, *a, **k)
        tag_inboxes(self, cap)
    ns["__init__"] = init
    for name in ("send", "recv"):
        f = getattr(C, name, None)
        if callable(f):
            ns[name] = _ctx_method(f, name)
    try:
        J = type(C.__name__, (C,), ns)
    except TypeError:
        return
    J.__qualname__ = getattr(C, "__qualname__", C.__name__)
    J.__module__ = C.__module__
    mod.Communicator = J
    for v in list(vars(mod).values()):
        if isinstance(v, C):
            tag_inboxes(v, cap)


def _changed_region(before, after):
    if after.shape != before.shape:
        return "its shape changed"
    diff = np.argwhere(~((after == before) | (np.isnan(after) & np.isnan(before))))
    if not len(diff):
        return None
    r0, c0 = diff.min(axis=0)
    r1, c1 = diff.max(axis=0) + 1
    return "rows %d:%d, columns %d:%d differ from what was passed" % (r0, r1, c0, c1)


class Run:
    """What judging a run needs (read by jd_facts and jd_verdict)."""

    def __init__(self, case, world, path, display, limit):
        self.case = case
        self.mode = case["fn"][:-len("_mat_mul")]
        self.values = case["values"]
        self.world = world
        self.path, self.display, self.limit = path, display, limit
        self.cat = None
        self.ret = None
        self.returned = False
        self.exceptions = world.exceptions
        self.deadlock = None
        self.timeout = False
        self.stacks = []
        self.a_mut = self.b_mut = None
        self.leftovers = []
        self.late = []            # messages whose arrays changed after they were sent
        self.reported = False


def _report(run, wfd, sched):
    try:
        run.deadlock = run.world.deadlock
        verdict, facts = jd_verdict.judge(run)
        evs = jd_trace.build(facts)
        out = {"verdict": verdict.code, "headline": verdict.headline,
               "details": verdict.details, "first_wrong": jd_trace.first_wrong(evs, verdict.key),
               "events": jd_trace.lines(facts, evs), "schedule": sched,
               "waits": jd_verdict.wait_list(run)}
    except BaseException as e:  # the judge's own failure, said as such
        tb = traceback.format_exc().strip().splitlines()
        out = {"verdict": "error", "headline": "the judge failed on this run: %s: %s (%s)" % (
            type(e).__name__, e, tb[-3].strip() if len(tb) >= 3 else ""),
            "details": [], "first_wrong": -1, "events": [], "schedule": sched}
    data = json.dumps(out).encode()
    while data:
        try:
            k = os.write(wfd, data)
        except OSError:
            break
        data = data[k:]
    os._exit(0)


def _stacks(run):
    frames = sys._current_frames()
    out = []
    for t in run.world.infos:
        if t.state == "done" or t.ident not in frames:
            continue
        stack = traceback.extract_stack(frames[t.ident])
        state = {"recv": "waits to receive", "send": "waits to send", "join": "waits in join",
                 "poll": "waits with a timeout (polling)", "settle": "receives",
                 "run": "runs"}.get(t.state, t.state)
        out.append("%s %s%s" % (W.thread_words(t), state, jd_verdict.where(run, stack)))
    return out


def child_main(job, case, sched_name, sched, code, wfd):
    set_pdeathsig()
    w = W.WORLD
    n = case["n"]
    patch_modules()
    limit = job["timeout"]
    run = Run(case, w, job["path"], job["display"], limit)
    A, B = case["A"], case["B"]
    w.n = n
    w.capacity = case["cap"]
    try:
        mod = load_module(job["path"], code)
    except BaseException as e:
        w.exceptions.append((W.TInfo(0, "loading", caller=True), e, e.__traceback__))
        run.cat = Catalogue(A, B, n)
        _report(run, wfd, sched_name)
    patch_module_globals(mod)
    wrap_communicator(mod, case["cap"])
    fn = getattr(mod, case["fn"])
    run.cat = cat = Catalogue(A, B, n)
    w.identify = lambda item: identify_item(cat, item)
    w.checksum = checksum
    w.settle = sched["settle"]
    w.policy = sched["policy"]
    w.delay = sched["delay"]
    w.rng.seed(sched["seed"])
    a_in, b_in = A.copy(), B.copy()
    deadline = time.monotonic() + limit
    ready = threading.Event()

    def watch():
        ready.set()
        with w.cond:
            while not run.reported and time.monotonic() < deadline:
                w.cond.wait(max(0.001, deadline - time.monotonic()))
            if run.reported:
                return
            run.reported = True
            run.timeout = True
        run.stacks = _stacks(run)
        _report(run, wfd, sched_name)

    dog = W.OrigThread(target=watch, daemon=True)
    dog.start()
    ready.wait()
    w.harness.add(dog.ident)
    w.t0 = time.monotonic_ns()
    w.active = True
    caller = w.register_caller()
    try:
        run.ret = fn(a_in, b_in, n)
        run.returned = True
    except W.JudgeAbort:
        pass
    except BaseException as e:
        with w.cond:
            w.exceptions.append((caller, e, e.__traceback__))
    with w.cond:
        caller.state = "done"
        w.changed()
        w.check()
        end = deadline
        while time.monotonic() < end and not run.reported:
            if all(t.state == "done" for t in w.infos):
                break
            if (w.aborted or w.exceptions) and end > time.monotonic() + GRACE:
                end = time.monotonic() + GRACE
            w.cond.wait(max(0.001, end - time.monotonic()))
        if run.reported:
            while True:           # the watchdog reports the timeout and exits
                w.cond.wait()
        run.reported = True
        if not all(t.state == "done" for t in w.infos) and not w.deadlock and \
                not w.exceptions:
            run.timeout = True
        w.active = False
    if run.timeout:
        run.stacks = _stacks(run)
    else:
        for q in w.queues:
            run.leftovers.extend(m for m in q.j_left() if m.send_ev is not None)
        # a payload that changed after its receive: the sender reused the array
        # the receiver still holds (a queue passes a reference)
        for m in w.msgs:
            if m.taken and m.csum is not None and checksum(m.item) != m.csum:
                run.late.append(m)
    run.a_mut = _changed_region(A, a_in)
    run.b_mut = _changed_region(B, b_in)
    _report(run, wfd, sched_name)
