#!/usr/bin/python3
"""phases: the wall-time breakdown of one batch run, from `perf script -F
tid,time,event,ip` of the uprobes profile.sh puts on the entry and the
return of the functions below, with the process's exec and exit, cpu-clock
samples (user or kernel by their address) and page faults; given several
recordings, each figure's median over them (and the wall time's range).  Only calls made
on the main thread at the top level count for their part (run_new inside
the DP-vs-FSDP table is the table's); the gather is the devices' in the run
itself (their first device_gather to their last return), shown inside the
run."""
import argparse
import re
import statistics
import sys

# function -> the part it starts; the first that applies, in this order
PARTS = [
    ("inputs_load", "inputs (generate or load A and B)"),
    ("inputs_load_dc", "inputs (generate or load A and B)"),
    ("run_new", "scatter (run_new: devices' A and B, threads)"),
    ("run_finish", "run (run_finish: every phase)"),
    ("mat_matmul", "reference product (A @ B, for the exact check)"),
    ("verify_check", "verification"),
    ("report_verify", "verification"),
    ("report_train_verify", "verification"),
    ("report_train_compare", "DP-vs-FSDP table"),
    ("report_train_intro", "printing"),
    ("report_train_events", "printing"),
    ("report_train_summary", "printing"),
    ("report_train_write", "writing -o / --trace"),
    ("report_compare", "DP-vs-FSDP table"),
    ("report_header", "printing"),
    ("report_events", "printing"),
    ("report_summary", "printing"),
    ("report_write_outputs", "writing -o / --trace"),
]
DEVICE = ["device_gather"]
LINE = re.compile(r"^\s*(\d+)\s+([\d.]+):\s+(\S+):\s*([0-9a-f]+)?")


def parse(lines):
    """[(tid, time, event, ip or None)] of one `perf script` output."""
    ev = []
    for line in lines:
        m = LINE.match(line)
        if m:
            ip = int(m.group(4), 16) if m.group(4) else None
            # "cpu-clock/period=250000/" is the event cpu-clock
            ev.append((int(m.group(1)), float(m.group(2)), m.group(3).split("/")[0], ip))
    return ev


def breakdown(lines, group, period):
    """[(part, {wall, user, sys, faults})] of one recorded run, in order, with
    its total; user and sys are every thread's CPU seconds in the part (the
    cpu-clock samples, PERIOD seconds each, while the main thread was in it),
    faults the page faults every thread took then."""
    ev = parse(lines)
    if not any(e == "sched:sched_process_exec" for _, _, e, _ in ev):
        return None
    main_tid = next(t for t, _, e, _ in ev if e == "sched:sched_process_exec")
    t_exec = next(ts for t, ts, e, _ in ev if e == "sched:sched_process_exec")
    t_exit = max(ts for t, ts, e, _ in ev if e == "sched:sched_process_exit" and t == main_tid)
    label = dict(PARTS)
    spans = []  # (start, end, part) of the main thread's top-level calls
    depth, start = 0, None
    t_main = None
    g0, g1 = None, None
    for tid, ts, e, _ in ev:
        if ":" not in e or not re.match(re.escape(group) + (":" if group else r"dmprof\d+:"), e):
            continue
        fn = e.split(":", 1)[1]
        ret = fn.endswith("__return")  # perf's name for a return probe
        fn = fn[:-len("__return")] if ret else fn
        if fn == "main":
            if tid == main_tid and not ret:
                t_main = ts
            continue
        in_run = depth > 0 and start and start[0] == "run_finish"
        if fn in DEVICE:
            if not in_run:
                continue
            if not ret:
                g0 = ts if g0 is None else min(g0, ts)
            else:
                g1 = ts if g1 is None else max(g1, ts)
            continue
        if tid != main_tid or fn not in label:
            continue
        if not ret:
            if depth == 0:
                start = (fn, ts)
            depth += 1
        else:
            depth -= 1
            if depth == 0 and start and start[0] == fn:
                spans.append((start[1], ts, label[fn]))
    START, EXIT, OTHER = ("start-up (exec to main)", "exit (frees, joins, exit)",
                          "other (arguments, between the parts)")
    GATHER, WHOLE = "  of which the gather", "whole process (exec to exit)"
    if t_main is not None:
        spans.insert(0, (t_exec, t_main, START))
    if spans and spans[-1][2] != START:
        spans.append((spans[-1][1], t_exit, EXIT))
    if g0 is not None and g1 is not None:
        spans.append((g0, g1, GATHER))  # inside the run: not in the sums below
    order = []
    parts = {}

    def part(name):
        if name not in parts:
            parts[name] = {"wall": 0.0, "user": 0.0, "sys": 0.0, "faults": 0}
            order.append(name)
        return parts[name]

    for t0, t1, name in spans:
        part(name)["wall"] += t1 - t0
    for tid, ts, e, ip in ev:
        if e not in ("cpu-clock", "page-faults") or not t_exec <= ts <= t_exit:
            continue
        # the part the main thread was in, and the gather inside the run
        inside = [n for t0, t1, n in spans if t0 <= ts <= t1]
        top = [n for n in inside if not n.startswith("  ")][:1] or [OTHER]
        for name in top + [n for n in inside if n == GATHER]:
            r = part(name)
            if e == "page-faults":
                r["faults"] += 1
            elif ip is not None and ip >= 0xffff800000000000:  # a kernel address
                r["sys"] += period
            else:
                r["user"] += period
    total = t_exit - t_exec
    counted = sum(r["wall"] for n, r in parts.items() if not n.startswith("  "))
    part(OTHER)["wall"] += total - counted
    whole = {"wall": total, "faults": sum(r["faults"] for n, r in parts.items()
                                          if not n.startswith("  "))}
    for k in ("user", "sys"):
        whole[k] = sum(r[k] for n, r in parts.items() if not n.startswith("  "))
    rows = []
    for name in order:
        if name == GATHER or name == OTHER:
            continue
        rows.append((name, parts[name]))
        if name.startswith("run ") and GATHER in parts:
            rows.append((GATHER, parts[GATHER]))
    rows.append((OTHER, parts[OTHER]))
    rows.append((WHOLE, whole))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--functions", action="store_true", help="list the functions to probe")
    ap.add_argument("--group", default="",
                    help="the probes' group (default: any profile.sh's, dmprofPID)")
    ap.add_argument("--period", type=float, default=0.001,
                    help="seconds of CPU a cpu-clock sample stands for (profile.sh: 1 ms)")
    ap.add_argument("runs", nargs="*", help="perf script outputs, one a run (else stdin)")
    a = ap.parse_args()
    if a.functions:
        print(" ".join(["main"] + sorted({f for f, _ in PARTS}) + DEVICE))
        return 0
    runs, names = [], []
    for path in a.runs or ["-"]:
        lines = sys.stdin if path == "-" else open(path)
        r = breakdown(lines, a.group, a.period)
        if r:
            runs.append(dict(r))
            names += [k for k, _ in r if k not in names]
    if not runs:
        print("phases: no events recorded")
        return 1
    # each figure's median over the runs (a part one run lacks counts 0
    # there); the wall time's range shows how much one run says
    zero = {"wall": 0.0, "user": 0.0, "sys": 0.0, "faults": 0}

    def med(k, f):
        return statistics.median(r.get(k, zero)[f] for r in runs)

    total = med("whole process (exec to exit)", "wall")
    print("  %-46s %9s %6s %13s %8s %8s %7s" % (
        "median of %d run%s" % (len(runs), "" if len(runs) == 1 else "s"), "wall", "",
        "min..max", "user", "kernel", "faults"))
    for k in names:
        v = [r.get(k, zero)["wall"] for r in runs]
        share = "" if k.startswith("whole") else "%5.1f%%" % (100 * med(k, "wall") / total
                                                              if total else 0)
        print("  %-46s %7.1fms %6s %13s %6.0fms %6.0fms %7d" % (
            k, med(k, "wall") * 1e3, share, "%.1f..%.1f" % (min(v) * 1e3, max(v) * 1e3),
            med(k, "user") * 1e3, med(k, "sys") * 1e3, med(k, "faults")))
    print("  wall: the main thread's time in the part; user, kernel: every thread's CPU")
    print("  time meanwhile (cpu-clock samples of %.0f us); faults: every thread's page"
          % (a.period * 1e6))
    print("  faults meanwhile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
