#!/usr/bin/python3
"""phases: the wall-time breakdown of one batch run, from `perf script -F
tid,time,event` of the uprobes profile.sh puts on the entry and the return
of the functions below, with the process's exec and exit; given several
recordings, each part's median over them (and its range).  Only calls made
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
    ("run_new", "scatter (run_new: devices' A and B, threads)"),
    ("run_finish", "run (run_finish: every phase)"),
    ("mat_matmul", "reference product (A @ B, for the exact check)"),
    ("verify_check", "verification"),
    ("report_verify", "verification"),
    ("report_compare", "DP-vs-FSDP table"),
    ("report_header", "printing"),
    ("report_events", "printing"),
    ("report_summary", "printing"),
    ("report_write_outputs", "writing -o / --trace"),
]
DEVICE = ["device_gather"]
LINE = re.compile(r"^\s*(\d+)\s+([\d.]+):\s+(\S+):")


def breakdown(lines, group):
    """[(part, seconds)] of one recorded run, in order, and its total."""
    ev = []
    for line in lines:
        m = LINE.match(line)
        if m:
            ev.append((int(m.group(1)), float(m.group(2)), m.group(3)))
    if not any(e == "sched:sched_process_exec" for _, _, e in ev):
        return None
    main_tid = next(t for t, _, e in ev if e == "sched:sched_process_exec")
    t_exec = next(ts for t, ts, e in ev if e == "sched:sched_process_exec")
    t_exit = max(ts for t, ts, e in ev if e == "sched:sched_process_exit" and t == main_tid)
    label = dict(PARTS)
    parts, order = {}, []
    depth, start = 0, None
    t_main = None
    last_ret = None
    g0, g1 = None, None
    for tid, ts, e in ev:
        if ":" not in e or not e.startswith(group + ":"):
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
                name = label[fn]
                if name not in parts:
                    parts[name] = 0.0
                    order.append(name)
                parts[name] += ts - start[1]
                last_ret = ts
    total = t_exit - t_exec
    rows = []
    if t_main is not None:
        rows.append(("start-up (exec to main)", t_main - t_exec))
    for name in order:
        rows.append((name, parts[name]))
        if name.startswith("run ") and g0 is not None and g1 is not None:
            rows.append(("  of which the gather", g1 - g0))
    if last_ret is not None:
        rows.append(("exit (frees, joins, exit)", t_exit - last_ret))
    counted = sum(v for k, v in rows if not k.startswith("  "))
    rows.append(("other (arguments, between the parts)", total - counted))
    rows.append(("whole process (exec to exit)", total))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--functions", action="store_true", help="list the functions to probe")
    ap.add_argument("--group", default="")
    ap.add_argument("runs", nargs="*", help="perf script outputs, one a run (else stdin)")
    a = ap.parse_args()
    if a.functions:
        print(" ".join(["main"] + sorted({f for f, _ in PARTS}) + DEVICE))
        return 0
    runs = []
    for path in a.runs or ["-"]:
        lines = sys.stdin if path == "-" else open(path)
        r = breakdown(lines, a.group)
        if r:
            runs.append(r)
    if not runs:
        print("phases: no events recorded")
        return 1
    # each part's median over the runs (a part one run lacks counts 0 there);
    # the range shows how much one run says
    names = []
    for r in runs:
        for k, _ in r:
            if k not in names:
                names.append(k)
    total = statistics.median(dict(r)["whole process (exec to exit)"] for r in runs)
    if len(runs) > 1:
        print("  %-48s %8s %6s  %s" % ("median of %d runs" % len(runs), "", "", "min..max"))
    for k in names:
        v = [dict(r).get(k, 0.0) for r in runs]
        med = statistics.median(v)
        extra = "  %.1f..%.1f" % (min(v) * 1e3, max(v) * 1e3) if len(runs) > 1 else ""
        if k.startswith("whole"):
            print("  %-48s %8.1f ms%s" % (k, med * 1e3, "        " + extra if extra else ""))
        else:
            print("  %-48s %8.1f ms %5.1f%%%s" % (k, med * 1e3, 100 * med / total if total else 0,
                                                 extra))
    return 0


if __name__ == "__main__":
    sys.exit(main())
