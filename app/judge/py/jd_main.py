# jd_main: the judge's harness, run by distmm-tui as `python3 -c BOOT` with
# its modules and the job on standard input (app/judge/child.c).  It reads
# the whole job, checks numpy, loads the candidate's file once in a probe
# process, then runs every case under its schedule seeds, each run in a
# forked process of its own, and passes each run's records on to
# distmm-tui inside a frame it alone writes.  It judges nothing: the
# records are facts, and distmm-tui decides (app/judge/proto.c has both
# formats; the run's records are jd_run.py's).
#
# A run never holds this process's protocol descriptor: its records reach
# distmm-tui only inside the frame ("run <TAB> id <TAB> seed <TAB> status <TAB>
# bytes"), so no record of its can pass for one of the harness's.
#
# Confined (app/judge/sandbox.c), this process is the PID namespace's init:
# the candidate's processes cannot signal it, and after every run it kills
# every other process of the namespace and reaps them, so that nothing a run
# starts outlives it; each run's process gets the rlimits distmm-tui chose
# (DISTMM_JUDGE_LIMITS) before the candidate's code.
import os
import resource
import select
import signal
import sys
import time

ANSWER_GRACE = 3.0         # a run that has not answered this long after its limit is killed
LOAD_LIMIT_MIN = 2.0
RUN_MAX_BYTES = 256 << 20  # a run that writes more is stopped
PROTO = 2
FNS = ("dp_mat_mul", "fsdp_mat_mul", "tp_col_mat_mul", "tp_row_mat_mul")  # the load record's order

INIT = os.getpid() == 1 and "DISTMM_JUDGE_LIMITS" in os.environ
LIMIT_NAMES = {"as": resource.RLIMIT_AS, "cpu": resource.RLIMIT_CPU,
               "nproc": resource.RLIMIT_NPROC, "fsize": resource.RLIMIT_FSIZE,
               "nofile": resource.RLIMIT_NOFILE}
LIMITS = [(LIMIT_NAMES[k], int(v)) for k, v in
          (x.split(":") for x in os.environ.get("DISTMM_JUDGE_LIMITS", "").split(",") if x)]


def set_limits():
    """In a run's process, before the candidate's code: soft and hard; CPU's
    hard limit a second later, so that SIGXCPU comes first."""
    for res, v in LIMITS:
        _, hard = resource.getrlimit(res)
        top = v + 1 if res == resource.RLIMIT_CPU else v
        if hard != resource.RLIM_INFINITY:
            v, top = min(v, hard), min(top, hard)
        resource.setrlimit(res, (v, top))


def sweep():
    """After a run, as the namespace's init: every other process dies and
    is reaped."""
    try:
        os.kill(-1, signal.SIGKILL) if INIT else None
        while INIT:
            os.waitpid(-1, 0)
    except (ChildProcessError, ProcessLookupError):
        pass


def out(fd, *fields, body=b""):
    data = ("\t".join(str(f).replace("\t", " ").replace("\n", " ") for f in fields) + "\n")
    data = data.encode("utf-8", "replace") + body
    while data:
        try:
            data = data[os.write(fd, data):]
        except OSError:
            os._exit(1)   # distmm-tui is gone


def read_job(r):
    head = r.readline().decode().rstrip("\n").split("\t")
    if len(head) != 6 or head[0] != "job":
        raise ValueError("bad job line")
    job = {"path": head[1], "display": head[2], "timeout": int(head[3]) / 1000.0,
           "schedule": int(head[4])}
    cases = []
    for _ in range(int(head[5])):
        f = r.readline().decode().rstrip("\n").split("\t")
        if len(f) != 9 or f[0] != "case":
            raise ValueError("bad case line")
        n, M, K, N = (int(x) for x in f[3:7])
        a, b = r.read(M * K * 8), r.read(K * N * 8)
        if len(a) != M * K * 8 or len(b) != K * N * 8:
            raise ValueError("matrices cut short")
        cases.append({"id": int(f[1]), "fn": f[2], "n": n, "M": M, "K": K, "N": N,
                      "cap": None if f[7] == "u" else int(f[7]), "a": a, "b": b})
    return job, cases


def fork_and_read(work, limit):
    """work(wfd) in a child process: what it wrote (up to RUN_MAX_BYTES),
    and how it ended ("exit:N", "signal:N", "late" when killed after limit,
    "big" when it wrote too much)."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        try:
            set_limits()
            work(wfd)
        finally:
            os._exit(0)
    os.close(wfd)
    chunks, size, status = [], 0, None
    deadline = time.monotonic() + limit
    while status is None:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([rfd], [], [], left)[0]:
            status = "late" if left <= 0 else None
            continue
        data = os.read(rfd, 1 << 16)
        if not data:
            break
        chunks.append(data)
        size += len(data)
        status = "big" if size > RUN_MAX_BYTES else None
    os.close(rfd)
    if status is not None:
        os.kill(pid, signal.SIGKILL)
    _, st = os.waitpid(pid, 0)
    sweep()
    if status is None:
        status = "exit:%d" % os.WEXITSTATUS(st) if os.WIFEXITED(st) else \
            "signal:%d" % os.WTERMSIG(st)
    return b"".join(chunks), status


def probe(job, code, proto):
    """Loads the module once, in a process of its own and in the world (a
    driver at its top level runs there): what it defines, or one line."""
    import traceback
    import jd_run
    import jd_world as W

    def work(wfd):
        os.close(proto)
        jd_run.set_pdeathsig()
        rec = jd_run.Recorder(-1, job["path"])

        def answer(text):
            os.write(wfd, text.encode("utf-8", "replace"))
            os._exit(0)

        def hung(me):
            t = W.WORLD.threads[0]
            line = jd_run.where(traceback.extract_stack(sys._current_frames()[t.ident]),
                                rec.path)[0]
            answer("error\t%s: loading it did not finish: its top level waits for ever%s "
                   "(a driver at the top level? put it under if __name__ == \"__main__\":)"
                   % (job["display"], " at line %d" % line if line else ""))
        jd_run.enter_world(0, None, 2, rec, hung)
        try:
            mod = jd_run.load_module(job["path"], code)
        except SystemExit:
            answer("error\t%s: the module exits while it loads (sys.exit at its top level?)"
                   % job["display"])
        except BaseException as e:
            line = jd_run.where(traceback.extract_tb(e.__traceback__), rec.path)[0]
            answer("error\t%s%s: %s: %s (while loading it)" % (
                job["display"], ":%d" % line if line else "", type(e).__name__, e))
        answer("ok\t" + "\t".join(str(int(callable(getattr(mod, f, None)))) for f in FNS))
    limit = max(job["timeout"], LOAD_LIMIT_MIN)
    data, status = fork_and_read(work, limit)
    if data:
        return data.decode("utf-8", "replace").split("\t", 2)
    if status == "late":
        return ["error", "%s: loading it did not finish in %g s (does its top level run "
                "something? put a driver under if __name__ == \"__main__\":)"
                % (job["display"], limit)]
    return ["error", "%s: loading it ended the interpreter (%s)" % (job["display"], status)]


def run_case(job, case, code, proto):
    import numpy as np
    import jd_run
    c = dict(case, A=np.frombuffer(case["a"], "<f8").reshape(case["M"], case["K"]).copy(),
             B=np.frombuffer(case["b"], "<f8").reshape(case["K"], case["N"]).copy())
    seeds = [job["schedule"]] if job["schedule"] >= 0 else [0, 1, 2] if case["n"] > 1 else [0]
    for seed in seeds:
        def work(wfd, seed=seed):
            os.close(proto)
            jd_run.child_main(job, c, seed, code, wfd)
        data, status = fork_and_read(work, job["timeout"] + ANSWER_GRACE)
        out(proto, "run", case["id"], seed, status, len(data), body=data)
        if status != "exit:0":
            break


def main():
    if INIT:
        # no KeyboardInterrupt a run could raise here, and not dumpable: a
        # run's process (same uid) cannot ptrace it or write its memory
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)   # PR_SET_DUMPABLE, 0
    job, cases = read_job(sys.stdin.buffer)
    proto = os.dup(1)
    try:
        import numpy  # noqa: F401 (whether it is there)
    except ImportError as e:
        out(proto, "nonumpy", e)
        return
    for fd in (0, 1):
        os.dup2(os.open(os.devnull, os.O_RDWR), fd)
    os.set_inheritable(proto, False)
    out(proto, "hello", PROTO, sys.version.split()[0])
    try:
        with open(job["path"], "rb") as fp:
            code = compile(fp.read(), job["path"], "exec", dont_inherit=True)
    except OSError as e:
        return out(proto, "load", "error", "cannot read %s: %s" % (job["display"], e.strerror))
    except SyntaxError as e:
        return out(proto, "load", "error", "%s:%s: SyntaxError: %s" % (job["display"], e.lineno,
                                                                          e.msg))
    except (ValueError, UnicodeDecodeError) as e:
        return out(proto, "load", "error", "%s: %s" % (job["display"], e))
    ans = probe(job, code, proto)
    if ans[0] != "ok":
        return out(proto, "load", "error", "\t".join(ans[1:]))
    flags = "\t".join(ans[1:]).split("\t")
    if len(flags) != len(FNS):
        return out(proto, "load", "error", "%s: its loading answered oddly" % job["display"])
    has = {f: v == "1" for f, v in zip(FNS, flags)}
    if not any(has.values()):
        return out(proto, "load", "error", "%s defines none of %s" % (job["display"],
                                                                     ", ".join(FNS)))
    out(proto, "load", "ok", *flags)
    for case in cases:
        if has[case["fn"]]:
            out(proto, "begin", case["id"])
            run_case(job, case, code, proto)
            out(proto, "end", case["id"])
    out(proto, "done")


main()
