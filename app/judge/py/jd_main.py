# jd_main: the judge's harness, run by distmm-tui as `python3 -c BOOT` with
# its modules and the job on standard input (app/judge/child.c).  It reads the
# whole job first, checks numpy, loads the candidate's file once in a probe
# process, then runs every case under each schedule in a forked process of
# its own and reports on its standard output.
#
# The protocol (also in app/judge/proto.c).  In, after the modules:
#   job <TAB> path <TAB> display name <TAB> timeout ms <TAB> cases
#   case <TAB> id <TAB> dp_mat_mul|fsdp_mat_mul <TAB> n <TAB> M <TAB> K <TAB> N
#        <TAB> capacity (u or a number) <TAB> ints|floats
#   then A (M*K) and B (K*N) as little-endian float64, row-major.
# Out, one record a line, fields split by tabs, the last one free text:
#   boot                           (the bootstrap, before the modules)
#   nonumpy <TAB> why              this python has no numpy (and nothing else)
#   hello <TAB> 1 <TAB> version
#   load <TAB> ok <TAB> dp 0|1 <TAB> fsdp 0|1
#   load <TAB> error <TAB> one line (with Python's line number)
#   begin <TAB> id
#   ev <TAB> id <TAB> a JSON Lines trace line (events, then summaries)
#   note <TAB> id <TAB> a detail line
#   wait <TAB> id <TAB> rank <TAB> send|recv <TAB> peer (-1 anyone) <TAB> shard (-1)
#   case <TAB> id <TAB> verdict <TAB> first wrong event or -1 <TAB> schedule
#        <TAB> runs made <TAB> headline
#   done
# The candidate's prints go to /dev/null; the protocol has a descriptor of
# its own, so no print can break it.
#
# Confined (app/judge/sandbox.c), this process is the PID namespace's init:
# the candidate's processes cannot signal it (init gets only the signals it
# handles), and after every run it kills every other process of the
# namespace and reaps them, so that nothing a run starts (a setsid daemon, a
# fork bomb) outlives it; each run's process gets the rlimits distmm-tui
# chose (DISTMM_JUDGE_LIMITS) before the candidate's code.
import json
import os
import resource
import select
import signal
import sys
import time

# a run that has not answered this long after its time limit is killed
ANSWER_GRACE = 3.0
LOAD_LIMIT_MIN = 2.0

# The deterministic schedule first, so that a failure reads the same every
# time: every receive waits until the others are blocked (settles), then takes
# the message of the highest rank that may come first (concurrent messages
# only), which reverses the natural arrival order at rank 0.  Then a seeded
# order with small delays in send and receive, then the free run.
SCHEDULES = [
    ("reversed", {"settle": True, "policy": "reverse", "delay": 0.0}),
    ("seeded", {"settle": True, "policy": "random", "delay": 3e-4}),
    ("free", {"settle": False, "policy": "fifo", "delay": 0.0}),
]

PROTO = 1

# pid 1 only under bwrap --as-pid-1: unconfined, kill(-1) would reach every
# process of the user
INIT = os.getpid() == 1 and "DISTMM_JUDGE_LIMITS" in os.environ

LIMIT_NAMES = {"as": resource.RLIMIT_AS, "cpu": resource.RLIMIT_CPU,
               "nproc": resource.RLIMIT_NPROC, "fsize": resource.RLIMIT_FSIZE,
               "nofile": resource.RLIMIT_NOFILE}


def read_limits(spec):
    """DISTMM_JUDGE_LIMITS ("as:B,cpu:S,...") as (resource, value) pairs."""
    out = []
    for item in spec.split(",") if spec else ():
        name, value = item.split(":")
        out.append((LIMIT_NAMES[name], int(value)))
    return out


LIMITS = read_limits(os.environ.get("DISTMM_JUDGE_LIMITS", ""))


def set_limits():
    """In a run's process, before the candidate's code: soft and hard (it
    cannot raise them again); CPU's hard limit a second later, so that SIGXCPU
    comes first.  Never above what this process was given."""
    for res, v in LIMITS:
        _, hard = resource.getrlimit(res)
        top = v + 1 if res == resource.RLIMIT_CPU else v
        if hard != resource.RLIM_INFINITY:
            v, top = min(v, hard), min(top, hard)
        resource.setrlimit(res, (v, top))


def sweep():
    """After a run, as the namespace's init: every other process dies (a
    fork during kill(-1) fails, so none escapes) and is reaped."""
    if not INIT:
        return
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass      # nobody else was left
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def clean(s):
    s = str(s).replace("\t", " ").replace("\r", " ").replace("\n", " ")
    return s if len(s) <= 2000 else s[:1997] + "..."


class Out:
    def __init__(self, fd):
        self.fd = fd

    def rec(self, *fields):
        data = ("\t".join(clean(f) for f in fields) + "\n").encode("utf-8", "replace")
        while data:
            try:
                k = os.write(self.fd, data)
            except OSError:
                os._exit(1)   # distmm-tui is gone: nothing to report to
            data = data[k:]


def read_job(r):
    head = r.readline().decode().rstrip("\n").split("\t")
    if len(head) != 5 or head[0] != "job":
        raise ValueError("bad job line")
    job = {"path": head[1], "display": head[2], "timeout": int(head[3]) / 1000.0}
    cases = []
    for _ in range(int(head[4])):
        f = r.readline().decode().rstrip("\n").split("\t")
        if len(f) != 9 or f[0] != "case":
            raise ValueError("bad case line")
        n, M, K, N = (int(x) for x in f[3:7])
        cap = None if f[7] == "u" else int(f[7])
        a = r.read(M * K * 8)
        b = r.read(K * N * 8)
        if len(a) != M * K * 8 or len(b) != K * N * 8:
            raise ValueError("matrices cut short")
        cases.append({"id": int(f[1]), "fn": f[2], "n": n, "M": M, "K": K, "N": N, "cap": cap,
                      "values": f[8], "a": a, "b": b})
    return job, cases


def read_until(fd, deadline):
    """Everything from fd until EOF or the deadline; (bytes, reached EOF)."""
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"".join(chunks), False
        try:
            ready, _, _ = select.select([fd], [], [], left)
        except InterruptedError:
            continue
        if not ready:
            continue
        data = os.read(fd, 65536)
        if not data:
            return b"".join(chunks), True
        chunks.append(data)


def fork_and_read(work, limit):
    """Runs work(wfd) in a child process; its answer (JSON) or None, and how
    the child ended."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            set_limits()
            work(wfd)
        finally:
            os._exit(0)
    os.close(wfd)
    data, eof = read_until(rfd, time.monotonic() + limit)
    os.close(rfd)
    if not eof:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    sweep()
    try:
        return json.loads(data.decode()) if data else None, eof, status
    except ValueError:
        return None, eof, status


def probe(job, code, out):
    """Loads the module once, in a process of its own: what it defines."""
    import traceback
    import jd_patch
    import jd_run

    def work(wfd):
        jd_run.set_pdeathsig()
        jd_patch.patch_modules()
        try:
            mod = jd_run.load_module(job["path"], code)
            ans = {"dp": callable(getattr(mod, "dp_mat_mul", None)),
                   "fsdp": callable(getattr(mod, "fsdp_mat_mul", None))}
        except SystemExit:
            ans = {"error": "%s: the module exits while it loads (sys.exit at its top level?)"
                   % job["display"]}
        except BaseException as e:
            frames = traceback.extract_tb(e.__traceback__)
            mine = [f for f in frames if os.path.abspath(f.filename) ==
                    os.path.abspath(job["path"])]
            line = ":%d" % mine[-1].lineno if mine else ""
            ans = {"error": "%s%s: %s: %s (while loading it)" % (job["display"], line,
                                                               type(e).__name__, e)}
        os.write(wfd, json.dumps(ans).encode())
    limit = max(job["timeout"], LOAD_LIMIT_MIN)
    ans, eof, status = fork_and_read(work, limit)
    if ans is None:
        if not eof:
            return {"error": "%s: loading it did not finish in %g s (does its top level run "
                    "something? put a driver under if __name__ == \"__main__\":)"
                    % (job["display"], limit)}
        return {"error": "%s: loading it ended the interpreter (status %d)"
                % (job["display"], status)}
    return ans


def run_case(job, case, code, out):
    import numpy as np
    import jd_run
    c = dict(case)
    c["A"] = np.frombuffer(case["a"], dtype="<f8").reshape(case["M"], case["K"]).copy()
    c["B"] = np.frombuffer(case["b"], dtype="<f8").reshape(case["K"], case["N"]).copy()
    scheds = SCHEDULES if case["n"] > 1 else SCHEDULES[:1]
    first = None
    runs = 0
    for name, sched in scheds:
        s = dict(sched)
        s["seed"] = 1000 + case["id"]
        ans, eof, status = fork_and_read(
            lambda wfd: jd_run.child_main(job, c, name, s, code, wfd),
            job["timeout"] + ANSWER_GRACE)
        runs += 1
        if ans is None:
            why = ("the run did not answer %g s after its time limit and was killed (a loop "
                   "that holds the interpreter?)" % ANSWER_GRACE) if not eof else (
                "the run's process died (status %d)" % status)
            ans = {"verdict": "timeout" if not eof else "error", "headline": why,
                   "details": [], "first_wrong": -1, "events": [], "schedule": name}
        if first is None:
            first = ans
        if ans["verdict"] != "pass":
            first = ans
            break
    cid = str(case["id"])
    for line in first["events"]:
        out.rec("ev", cid, line)
    for d in first["details"]:
        out.rec("note", cid, d)
    for w in first.get("waits", ()):
        out.rec("wait", cid, *w)
    out.rec("case", cid, first["verdict"], first["first_wrong"], first["schedule"], runs,
            first["headline"])


def main():
    if INIT:
        # no KeyboardInterrupt a run could raise here with kill(1, SIGINT), and
        # not dumpable: a run's process (same uid) cannot ptrace it or write
        # its memory through /proc
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)   # PR_SET_DUMPABLE, 0
    r = sys.stdin.buffer
    job, cases = read_job(r)
    proto = os.dup(1)
    out = Out(proto)
    try:
        import numpy  # noqa: F401 (whether it is there)
    except ImportError as e:
        out.rec("nonumpy", e)
        return
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    out.rec("hello", PROTO, sys.version.split()[0])
    try:
        with open(job["path"], "rb") as fp:
            src = fp.read()
        code = compile(src, job["path"], "exec", dont_inherit=True)
    except OSError as e:
        out.rec("load", "error", "cannot read %s: %s" % (job["display"], e.strerror))
        return
    except SyntaxError as e:
        out.rec("load", "error", "%s:%s: SyntaxError: %s" % (job["display"], e.lineno, e.msg))
        return
    except (ValueError, UnicodeDecodeError) as e:
        out.rec("load", "error", "%s: %s" % (job["display"], e))
        return
    ans = probe(job, code, out)
    if "error" in ans:
        out.rec("load", "error", ans["error"])
        return
    if not ans["dp"] and not ans["fsdp"]:
        out.rec("load", "error", "%s defines neither dp_mat_mul nor fsdp_mat_mul"
                % job["display"])
        return
    out.rec("load", "ok", int(ans["dp"]), int(ans["fsdp"]))
    for case in cases:
        if not ans[case["fn"][:-len("_mat_mul")]]:
            continue
        out.rec("begin", case["id"])
        run_case(job, case, code, out)
    out.rec("done")


main()
