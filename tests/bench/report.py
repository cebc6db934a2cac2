#!/usr/bin/env python3
"""report: the table `make bench` prints and the JSON it writes, from the
JSON lines the bench programs printed (tests/bench/run.sh calls it).  Each
target of the performance issue is a row with its figure, its limit and
whether it holds here; nothing fails on a miss: the table says so."""
import argparse
import json
import os
import platform
import statistics
import sys
import time


def machine():
    cpu, mem = "unknown", 0
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_bytes": mem,
            "kernel": platform.release(), "machine": platform.machine()}


def mib(b):
    return b / 1048576.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--quick", default="0")
    ap.add_argument("--side-only", default="0")
    ap.add_argument("--ours", default="./distmm-tui")
    ap.add_argument("--cold", default="0")
    ap.add_argument("--load-start", default="")
    ap.add_argument("--load-end", default="")
    ap.add_argument("--others-start", default="0")
    ap.add_argument("--others-end", default="0")
    a = ap.parse_args()
    quick = a.quick == "1"

    res = []
    with open(a.lines) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                res.append(json.loads(line))
    by = {}
    for r in res:
        by.setdefault(r["bench"], []).append(r)

    info = (by.get("info") or [{}])[0]
    m = machine()
    m["openblas"] = info.get("openblas_config", "?")
    m["openblas_core"] = info.get("openblas_core", "?")
    targets = []
    out = []

    def target(name, value, limit, holds, unit=""):
        targets.append({"target": name, "value": value, "limit": limit,
                        "holds": holds, "unit": unit})

    def p(s=""):
        out.append(s)

    p("distmm-tui bench%s  %s" % (" (quick: reduced sizes, targets not judged)" if quick else "",
                                  time.strftime("%Y-%m-%d %H:%M")))
    p("machine: %s, %s cores, %.1f GiB, Linux %s" % (m["cpu"], m["cores"],
                                                     m["memory_bytes"] / 2**30, m["kernel"]))
    p("OpenBLAS: %s (core %s)" % (m["openblas"], m["openblas_core"]))
    p("load average at start %s, at end %s; other test/fuzz/UI processes: %s, %s"
      % (a.load_start, a.load_end, a.others_start, a.others_end))
    p()

    # 0. the whole job against the Python peer
    side = by.get("side", [])
    if side or by.get("side_skipped"):
        p("0. the whole job against the exercise's Python solution (whole processes, alternated,"
          " d = 2)")
    if by.get("side_skipped"):
        p("   skipped: %s has no numpy" % by["side_skipped"][0]["python"])
    if side:
        p("   %-8s %-10s %10s %10s %7s %6s %9s   %-26s %-26s" % (
            "size", "mode", "ours", "peer", "ratio", "limit", "load", "ours: user / sys / RSS",
            "peer: user / sys / RSS"))
        limits = {"8x6x4": 0.1, "1024^3": 0.6, "2048^3": 0.8}
        groups = []
        for r in side:
            key = (r["size"], r["mode"])
            if key not in groups:
                groups.append(key)
        for size, mode in groups:
            rows = {w: [r for r in side if r["size"] == size and r["mode"] == mode
                        and r["who"] == w] for w in ("ours", "peer")}
            if not rows["ours"] or not rows["peer"]:
                continue
            med = {w: {f: statistics.median(r[f] for r in rows[w])
                       for f in ("wall_s", "user_s", "sys_s", "max_rss")} for w in rows}
            bad = [w for w in rows if any(r["status"] != 0 for r in rows[w])]
            ratio = med["ours"]["wall_s"] / med["peer"]["wall_s"]
            limit = limits.get(size)
            # the 1-minute load average before each round: its range over the rounds
            loads = [r["load1"] for w in rows for r in rows[w] if "load1" in r]
            load = "%.2f-%.2f" % (min(loads), max(loads)) if loads else "-"
            p("   %-8s %-10s %8.1fms %8.1fms %7.3f %6s %9s   %-26s %-26s%s" % (
                size, mode, med["ours"]["wall_s"] * 1e3, med["peer"]["wall_s"] * 1e3, ratio,
                "%.2f" % limit if limit else "-", load,
                "%.0f / %.0f ms / %.0f MiB" % (med["ours"]["user_s"] * 1e3,
                                               med["ours"]["sys_s"] * 1e3,
                                               mib(med["ours"]["max_rss"])),
                "%.0f / %.0f ms / %.0f MiB" % (med["peer"]["user_s"] * 1e3,
                                               med["peer"]["sys_s"] * 1e3,
                                               mib(med["peer"]["max_rss"])),
                "  FAILED: " + ", ".join(bad) if bad else ""))
            if limit and not quick:
                target("whole job %s %s d=2 / Python peer" % (mode, size), round(ratio, 3),
                       limit, ratio <= limit and not bad, "x peer")
        p("   ours: %s -b --values floats -M S -K S -N S -d 2 -m MODE (as the issue" % a.ours)
        p("   runs it, output to /dev/null); peer: /usr/bin/python3 tests/bench/peer.py S S S 2")
        p("   MODE; +train: both with --train (forward and backward, C, dA and dB checked; the")
        p("   peer's backward is the starter's Communicator round the same rings).")
        rounds = sorted({len([r for r in side if r["who"] == "ours" and r["size"] == z
                              and r["mode"] == m]) for z, m in groups})
        p("   MODE.  Wall time from fork to exit, the median of %s rounds each; ours and"
          % "/".join(str(n) for n in rounds))
        p("   the peer alternated in one run, so that load changes hit both alike; load: the")
        p("   1-minute load average before each of the row's runs, lowest to highest.")
        if a.cold == "1":
            p("   --cold: each process after 3 s idle (its memory first touched cold).")
        p()

    if a.side_only == "1":
        return finish(a, m, out, targets, res, quick)

    # 1. compute
    p("1. compute: the distributed multiply against one OpenBLAS dgemm on the same cores")
    p("   %-5s %5s %2s %5s  %9s %9s %6s %6s  %7s %7s  %9s %9s" % (
        "mode", "size", "d", "cores", "multiply", "dgemm", "ratio", "limit", "GFLOP/s",
        "dgemm", "e2e ratio", "busiest"))
    comp = [r for r in by.get("compute", []) if not r.get("malloc_hugetlb")]
    thp = [r for r in by.get("compute", []) if r.get("malloc_hugetlb")]
    for r in comp:
        limit = 1.10 if r["size"] == 1024 else 1.05 if r["size"] == 2048 else None
        ok = limit is not None and r["ratio"] <= limit
        p("   %-5s %5d %2d %5d  %7.1fms %7.1fms %6.3f %6s  %7.1f %7.1f  %9.3f %7.1fms%s" % (
            r["mode"], r["size"], r["d"], r["cores"], r["multiply_s"] * 1e3,
            r["blas_s"] * 1e3, r["ratio"], "%.2f" % limit if limit else "-", r["gflops"],
            r["blas_gflops"], r["ratio_end_to_end"], r["busiest_compute_s"] * 1e3,
            "" if r["verified"] else "  WRONG"))
        if limit and not quick:
            target("compute %s %d^3 d=%d" % (r["mode"], r["size"], r["d"]),
                   round(r["ratio"], 3), limit, ok, "x dgemm")
    p("   multiply = run_finish(): releasing the parked device threads, every compute and")
    p("   transfer phase, the messages and the gather into rank 0's C (median of the reps).")
    p("   Not in it: run_new's per-device copies of A and B (the scatter: on a cluster the")
    p("   inputs already live on the devices) and thread creation (OpenBLAS's own pool is")
    p("   made once too); 'e2e ratio' counts them, with run_free.  busiest: the device")
    p("   longest in its compute events (dgemm, and waiting for a core).  dgemm: one cblas_dgemm")
    p("   of the whole product on min(d, cores) OpenBLAS threads, same process, same run.")
    if thp:
        p("   diagnostic, not a target: with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (malloc asks")
        p("   for transparent huge pages, so the devices' fresh C buffers fault 2 MiB at a time):")
        for r in thp:
            p("   %-5s %5d %2d %5d  %7.1fms %7.1fms %6.3f  (busiest device in dgemm %.1f ms,"
              " gather %.1f ms)" % (r["mode"], r["size"], r["d"], r["cores"],
                                     r["multiply_s"] * 1e3, r["blas_s"] * 1e3, r["ratio"],
                                     r["busiest_compute_s"] * 1e3, r["gather_s"] * 1e3))
    p()

    # 2. barrier
    lim = {8: 80, 64: 300, 256: 1200}
    p("2. step barrier: median time for one phase released and reached by all (2 cores)")
    p("   %5s  %12s %12s %12s %12s  %7s" % ("d", "run_step", "p90", "compute", "transfer",
                                             "limit"))
    for r in by.get("barrier", []):
        l = lim.get(r["d"])
        p("   %5d  %10.1fus %10.1fus %10.1fus %10.1fus  %7s   (barrier alone %.1fus)" % (
            r["d"], r["fsdp_step_median_us"], r["fsdp_step_p90_us"],
            r["fsdp_compute_median_us"], r["fsdp_transfer_median_us"],
            "%dus" % l if l else "-", r["bare_median_us"]))
        if l and not quick:
            target("barrier d=%d" % r["d"], r["fsdp_step_median_us"], l,
                   r["fsdp_step_median_us"] <= l, "us")
    p("   run_step() of an FSDP run on tiny matrices (M = N = d, K = 2), every phase but the")
    p("   first timed; 'barrier alone': the step barrier (engine/exec/barrier.c) with devices that only enter the next phase.")
    p()

    # 3. messages
    p("3. messages through one channel (rank 0 -> rank 1, 4 MiB shards)")
    for r in by.get("msgs", []):
        p("   capacity %-9s %10.0f msgs/s   payload moved, not copied: %d of %d" % (
            r["capacity"], r["msgs_per_s"], r["moved"], r["count"]))
        if not quick:
            target("messages moved (capacity %s)" % r["capacity"], r["moved"], r["count"],
                   r["moved"] == r["count"])
    for r in by.get("bytes", []):
        p("   bytes counted by an FSDP run (d=%d): %d, model (n-1)B + C - C_0: %d  %s" % (
            r["d"], r["counted"], r["model"], "equal" if r["equal"] else "DIFFERENT"))
        target("bytes counted equal the model", r["counted"], r["model"], r["equal"])
    p()

    # 4. memory
    p("4. memory: peak RSS of the process against the engine's accounting")
    mem = {r["mode"]: r for r in by.get("memory", [])}
    for mode in ("DP", "FSDP"):
        r = mem.get(mode)
        if not r:
            continue
        whole = r["max_rss"] - r["base_rss"]
        run = r["run_peak_rss"] - r["base_rss"]
        p("   %-4s %d^2 d=%d: peak RSS %7.1f MiB (run alone %7.1f), accounted %7.1f MiB,"
          " ratio %.3f (run alone %.3f), estimate %.1f MiB" % (
              mode, r["size"], r["d"], mib(whole), mib(run), mib(r["accounted_peak_sum"]),
              r["ratio"], r["run_ratio"], mib(r["estimate"])))
        if not quick:
            target("memory %s RSS / accounted" % mode, r["ratio"], "0.90..1.10",
                   0.9 <= r["ratio"] <= 1.1)
    if "DP" in mem and "FSDP" in mem:
        d, f = mem["DP"], mem["FSDP"]
        rss_ratio = (d["max_rss"] - d["base_rss"]) / max(1, f["max_rss"] - f["base_rss"])
        p("   DP/FSDP: RSS %.2f, accounted %.2f (B on every device vs about two B for the ring)"
          % (rss_ratio, d["accounted_peak_sum"] / max(1, f["accounted_peak_sum"])))
        if not quick:
            target("memory DP / FSDP peak RSS %d^2 d=%d" % (d["size"], d["d"]),
                   round(rss_ratio, 3), ">= 1.5", rss_ratio >= 1.5)
    p("   peak RSS: getrusage's peak less the RSS before the inputs were made (program and")
    p("   libraries); the caller's A is the devices' rows of A (views), and DP's rank 0 holds")
    p("   the caller's B; 'run alone': the peak after run_new (VmHWM reset), the inputs still")
    p("   held.  accounted: the sum of every device's peak held bytes, as the batch summary")
    p("   prints it.")
    p()

    # 5. interface
    p("5. interface")
    for r in by.get("idle", []):
        secs = float(r["seconds"])
        pct_ticks = 100.0 * r["ticks"] / r["hz"] / secs
        pct_ns = 100.0 * r["cpu_ns"] / 1e9 / secs
        p("   paused %.1f s (d=16, %d threads): CPU %.3f%% (utime+stime %d ticks; schedstat"
          " %.2f ms)" % (secs, r["threads"], pct_ticks, r["ticks"], r["cpu_ns"] / 1e6))
        if not quick:
            target("UI CPU while paused", round(max(pct_ticks, pct_ns), 4), 0.5,
                   max(pct_ticks, pct_ns) <= 0.5, "%")
    for r in by.get("frames", []):
        p("   frame time d=%s on %dx%d (newterm on /dev/null, %d frames over %d phases):"
          " median %.3f ms, p99 %.3f ms, max %.3f ms" % (
              r["d"], r["cols"], r["rows"], r["frames"], r["phases"], r["median_ms"],
              r["p99_ms"], r["max_ms"]))
        if not quick:
            target("UI frame median d=16 200x60", r["median_ms"], 2, r["median_ms"] <= 2, "ms")
    st = by.get("startup", [])
    ex = by.get("startup_exec", [])
    if st and ex:
        inproc = statistics.median(r["main_to_frame_ms"] for r in st)
        exec_ms = statistics.median(e["wall_s"] * 1e3 - s["teardown_ms"]
                                    for e, s in zip(ex, st))
        p("   start-up to first frame (d=16): %.1f ms from exec, %.1f ms from main()"
          " (median of %d)" % (exec_ms, inproc, len(st)))
        target("UI start-up to first frame", round(exec_ms, 2), "reported", True, "ms")
    exports = {}
    for r in by.get("export", []):
        exports.setdefault(r["kind"], []).append(r)
    for kind, rs in sorted(exports.items()):
        wall = statistics.median(r["wall_s"] for r in rs)
        p("   export d=16 headless, 120x40, --export run.%s: %.0f ms (median of %d), %d file%s,"
          " %.1f KiB, status %d" % (kind, wall * 1e3, len(rs), rs[0]["files"],
                                    "" if rs[0]["files"] == 1 else "s", rs[0]["bytes"] / 1024.0,
                                    rs[0]["status"]))
        if not quick:
            target("export d=16 .%s" % kind, round(wall * 1e3, 1), 1000,
                   wall < 1.0 and all(r["status"] == 0 for r in rs), "ms")
    p()

    # 6. scale
    p("6. scale (batch mode, -q)")
    for r in by.get("scale", []):
        p("   %-32s status %d  %7.2f s  peak RSS %7.1f MiB" % (
            r["what"], r["status"], r["wall_s"], mib(r["max_rss"])))
        target("scale: %s completes" % r["what"], r["status"], 0, r["status"] == 0)
    for r in by.get("many", []):
        what = "-b%s -d %d, 8x6x4" % (" -q" if r["quiet"] else "", r["d"])
        p("   %-32s status %d  %7.2f s  peak RSS %7.1f MiB" % (
            what, r["status"], r["wall_s"], mib(r["max_rss"])))
        if not quick:
            target("%s under 1 GiB peak RSS" % what, round(mib(r["max_rss"]), 1), 1024,
                   r["status"] == 0 and r["max_rss"] < 2**30, "MiB")
    small = {}
    for r in by.get("batch_small", []):
        small.setdefault(r["d"], []).append(r["wall_s"])
    for d, v in sorted(small.items()):
        p("   batch -d %-3d default sizes: %.1f ms (median of %d runs)" % (
            d, statistics.median(v) * 1e3, len(v)))
    p()

    # 6b. the clock's sweep
    sm, se = by.get("sweep_model", []), by.get("sweep_exec", [])
    if sm or se:
        p("6b. the clock's sweep (an all-reduce on 8 ranks, 28 sizes x every algorithm)")
    for r in sm:
        p("   the model alone (cost_sweep, %d algorithms): %.2f us a sweep (median of %d, fastest %.2f us)"
          % (r["algos"], r["median_s"] * 1e6, r["reps"], r["min_s"] * 1e6))
    if se:
        wall = statistics.median(r["wall_s"] for r in se)
        bad = any(r["status"] != 0 for r in se)
        p("   ./distmm-tui -b --sweep allreduce -d 8 --json, exec to exit: %.1f ms (median of %d)%s"
          % (wall * 1e3, len(se), "  FAILED" if bad else ""))
        if not quick:
            target("sweep: 28 sizes x 3 algorithms, the whole command", round(wall * 1e3, 1), 50,
                   wall < 0.050 and not bad, "ms")
    if sm or se:
        p()

    # 7. the judge
    jr = by.get("judge", [])
    if jr:
        p("7. the judge (-b --judge assets/solutions/correct.py: 20 cases, 3 schedules each)")
        ok = [r["wall_s"] for r in jr if r["status"] == 0]
        if ok:
            med = statistics.median(ok)
            p("   a correct solution's whole battery: %.2f s (median of %d)" % (med, len(ok)))
            target("judge: a correct solution's battery", round(med, 2), 10, med < 10, "s")
        else:
            p("   not run: status %d (no python3 with numpy?)" % jr[0]["status"])
        p()

    # 8. the training step
    tc, tm = by.get("train_compute", []), by.get("train_memory", [])
    if tc or tm:
        p("8. the training step (--train): forward and backward against the three sequential"
          " dgemms")
        p("   %-5s %-6s %5s %2s %5s  %9s %12s %6s %6s  %7s  %s" % (
            "mode", "regime", "size", "d", "cores", "step", "3 dgemms", "ratio", "limit",
            "GFLOP/s", "best/best"))
        for r in tc:
            limit = 1.2 if r["size"] == 1024 and r["d"] == 2 else None
            p("   %-5s %-6s %5d %2d %5d  %7.1fms %10.1fms %6.3f %6s  %7.1f  %.3f%s" % (
                r["mode"], r.get("regime", "-"), r["size"], r["d"], r["cores"],
                r["step_s"] * 1e3, r["three_dgemms_s"] * 1e3, r["ratio"],
                "%.2f" % limit if limit else "-", r["gflops"], r.get("ratio_min", 0),
                "" if r["verified"] else "  WRONG"))
            if limit and not quick:
                target("training step %s %d^3 d=%d, %s" % (r["mode"], r["size"], r["d"],
                                                            r.get("regime", "steady")),
                       round(r["ratio"], 3), limit, r["ratio"] <= limit and r["verified"],
                       "x 3 dgemms")
        p("   step = run_finish() of a --train run: both passes, every message, the gather of")
        p("   C, dA and dB into rank 0; 3 dgemms = C = A@B, dA = dC@B^T, dB = A^T@dC by")
        p("   OpenBLAS alone on min(d, cores) threads.  steady: the process keeps the memory")
        p("   it frees (as a training loop's caching allocator does) and the dgemms write into")
        p("   buffers touched before; cold: glibc's defaults, the dgemms' results in new pages")
        p("   every round (a single run of either pays for fresh memory).  The three jobs")
        p("   alternate round by round; ratio = the median of each round's step / that round's")
        p("   dgemms; best/best: the fastest step over the fastest dgemms.")
        for r in tm:
            run = r["run_peak_rss"] - r["base_rss"]
            p("   %-4s %d^2 d=%d: the run's peak RSS %7.1f MiB, the model (every rank together)"
              " %7.1f MiB, ratio %.3f; accounted, phase by phase at its most %.1f MiB" % (
                  r["mode"], r["size"], r["d"], mib(run), mib(r["model_together"]),
                  r["ratio"], mib(r["accounted_phase_max"])))
            if not quick:
                target("training step memory %s RSS / model" % r["mode"], r["ratio"],
                       "0.90..1.10", 0.9 <= r["ratio"] <= 1.1)
        p("   the run's peak RSS over the process's before the inputs were made: after run_new")
        p("   the inputs the devices copied are freed, the ones they view kept (VmHWM reset); the model:")
        p("   model_train_together, the most the ranks hold in one phase summed (engine/model).")
        p()

    return finish(a, m, out, targets, res, quick)


def finish(a, m, out, targets, res, quick):
    """Prints the table and the targets' verdict, writes the JSON."""
    p = out.append
    if targets and not quick:
        held = sum(1 for t in targets if t["holds"])
        p("targets: %d of %d hold%s" % (held, len(targets), "" if held == len(targets) else
                                        "; missed: " + ", ".join(
                                            t["target"] for t in targets if not t["holds"])))
    text = "\n".join(out)
    print(text)
    doc = {"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "quick": quick, "ours": a.ours, "cold": a.cold == "1", "machine": m,
           "load": {"start": a.load_start, "end": a.load_end,
                    "other_processes_start": int(a.others_start or 0),
                    "other_processes_end": int(a.others_end or 0)},
           "targets": targets, "results": res}
    with open(a.json, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("written: %s" % a.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
