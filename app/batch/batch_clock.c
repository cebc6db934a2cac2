/* batch_clock: -b --collective and -b --sweep (see batch_clock.h).
 *
 * A collective runs free to the end on the devices, as a multiply does;
 * then its schedule off the event log, the model's time phase by phase
 * from those events, the bytes each rank sent against the algorithm's
 * closed form, the time against the time's closed form, nccl-tests' algbw
 * and busbw, and the check of every rank's result against the one worked
 * out sequentially.  The sweep runs nothing: the closed forms at every
 * size from 8 B to 1 GiB, a table or JSON Lines. */
#include "batch_clock.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/inputs.h"
#include "cli/status.h"
#include "report_clock.h"
#include "report_timeline.h"
#include <distmm/ccl.h>
#include <distmm/cost.h>
#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "words/clock_words.h"

/* Whether the rank that receives in phase adds what comes. */
static int batch_clock_adds(const struct dm_plan *p, int phase, int rank)
{
	struct ccl_xfer x;
	ccl_rank_phase(plan_ccl_kind(p), plan_ccl_algo(p), plan_devices(p), phase, rank, &x);
	return x.reduce;
}

/* One line a send (the receives and the adds mirror them). */
static void batch_clock_events(const struct ev *ev, size_t n_ev, const struct dm_plan *p)
{
	for (size_t i = 0; i < n_ev; i++) {
		const struct ev *e = &ev[i];
		if (e->op != EV_SEND)
			continue;
		char chunks[32];
		if (e->row_end - e->row_begin == 1)
			snprintf(chunks, sizeof chunks, "chunk %" PRIu32, e->row_begin);
		else
			snprintf(chunks, sizeof chunks, "chunks %" PRIu32 ":%" PRIu32, e->row_begin,
				 e->row_end);
		printf("%s %d  rank %d -> rank %d  %s  [%" PRIu32 ":%" PRIu32 "]  %" PRIu64 " B%s\n",
		       sched_kind_name(sched_phase_kind(p, e->phase)), e->step, e->rank, e->peer,
		       chunks, e->col_begin, e->col_end, e->bytes,
		       batch_clock_adds(p, e->phase, e->peer) ? ", added" : "");
	}
}

/* The model's time, phase by phase; returns the total. */
static double batch_clock_phases(const struct cli_opts *o, const struct dm_plan *p,
				 const struct dm_hw *hw, const struct ev *ev, size_t n_ev)
{
	struct cost_run c;
	struct dm_err err;
	char t[32];
	if (cost_of_events(&c, p, hw, 0, ev, n_ev, &err)) {
		status_error("%s", err.msg);
		return 0;
	}
	if (!o->quiet && c.phases) {
		printf("modelled time, phase by phase (%s):\n", clockw_rule());
		for (int ph = 0; ph < c.phases; ph++) {
			clockw_time(c.phase[ph].time_s, t, sizeof t);
			char name[48];
			snprintf(name, sizeof name, "%s %d", sched_kind_name(sched_phase_kind(p, ph)),
				 sched_phase_step(p, ph));
			printf("  phase %-3d %-19s %10s  (slowest rank %d)\n", ph, name, t,
			       c.phase[ph].critical);
		}
	}
	double total = c.total_s;
	if (o->timeline)
		report_timeline(&c, REPORT_TIMELINE_WIDTH);
	cost_run_free(&c);
	return total;
}

/* Each rank's bytes sent against the closed form.  Returns STATUS_OK or
 * STATUS_MISMATCH. */
static int batch_clock_bytes(const struct cli_opts *o, const struct dm_plan *p,
			     const struct ev_summary *sum)
{
	int n = plan_devices(p), kind = plan_ccl_kind(p), algo = plan_ccl_algo(p), off = 0;
	size_t count = plan_ccl_count(p);
	for (int r = 0; r < n; r++)
		off += sum[r].sent_bytes != ccl_sent_bytes(kind, algo, n, count, r);
	if (o->quiet && !off) {
		printf("bytes sent: every rank's equals its closed form %s\n",
		       clockw_bytes_formula(kind, algo));
		return STATUS_OK;
	}
	printf("bytes sent, each rank against the closed form %s (w_c: chunk c's bytes):\n",
	       clockw_bytes_formula(kind, algo));
	for (int r = 0; r < n; r++) {
		uint64_t want = ccl_sent_bytes(kind, algo, n, count, r);
		if (!o->quiet || sum[r].sent_bytes != want)
			printf("  rank %-4d %12" PRIu64 " B, closed form %12" PRIu64 " B%s\n", r,
			       sum[r].sent_bytes, want, sum[r].sent_bytes == want ? "" : "  DIFFERS");
	}
	return off ? STATUS_MISMATCH : STATUS_OK;
}

/* The time against its closed form, and nccl-tests' bandwidths. */
static void batch_clock_time(const struct dm_plan *p, const struct dm_hw *hw, double t)
{
	int n = plan_devices(p), kind = plan_ccl_kind(p), algo = plan_ccl_algo(p);
	size_t count = plan_ccl_count(p);
	double S = 8.0 * (double)count, closed = cost_ccl_s(hw, kind, algo, n, S);
	char ts[32], cs[32];
	clockw_time(t, ts, sizeof ts);
	clockw_time(closed, cs, sizeof cs);
	if (n == 1) {
		printf("time: 0 us: one rank, nothing moves (algbw and busbw have no meaning)\n");
		return;
	}
	printf("time: %s from the run's events; the closed form %s gives %s%s\n", ts,
	       clockw_time_formula(kind, algo), cs,
	       count % (size_t)n ? " (its chunks even, S/n each; these are not)" : "");
	printf("algbw = S/t = %.4g GB/s; busbw = algbw x %s = %.4g GB/s (the link: %g GB/s; "
	       "nccl-tests' definitions)\n", cost_algbw(S, t) / 1e9, clockw_factor(kind),
	       cost_busbw(kind, n, S, t) / 1e9, hw->bw_gbps);
}

/* Every rank's result against the sequential one.  STATUS_OK or
 * STATUS_MISMATCH. */
static int batch_clock_verify(const struct run *r, const struct mat *in)
{
	const struct dm_plan *p = run_plan(r);
	int n = plan_devices(p), kind = plan_ccl_kind(p);
	size_t checked = 0, bad = 0, count = plan_ccl_count(p);
	double worst = 0;
	int first = -1;
	for (int q = 0; q < n; q++) {
		size_t c, b;
		double e;
		b = ccl_verify(kind, n, count, in->data, q, run_ccl_output(r, q)->data, &c, &e);
		checked += c;
		bad += b;
		worst = e > worst || e != e ? e : worst;
		if (b && first < 0)
			first = q;
	}
	if (!bad) {
		printf("verify: every rank's result equals %s, worked out sequentially (%zu elements, "
		       "allclose, max |err| = %.3g)\n", clockw_expected(kind), checked, worst);
		return STATUS_OK;
	}
	printf("verify: MISMATCH, %zu of %zu elements differ from %s, the first on rank %d, max "
	       "|err| = %.3g\n", bad, checked, clockw_expected(kind), first, worst);
	return STATUS_MISMATCH;
}

static int batch_clock_collective(const struct cli_opts *o, const struct dm_hw *hw)
{
	struct dm_plan *p = NULL;
	struct mat in;
	struct run_config cfg;
	struct run *r = NULL;
	struct ev_summary *sum = NULL;
	struct dm_err err;
	char model[512], s[32];
	int status, rc;
	if ((rc = inputs_collective(o, &p, &in, &cfg, &err)) ||
	    (rc = run_new(&r, p, &cfg, &in, NULL, &err))) {
		status_error("%s", err.msg);
		status = status_of(rc);
		goto out;
	}
	int n = plan_devices(p), kind = plan_ccl_kind(p), algo = plan_ccl_algo(p);
	size_t count = plan_ccl_count(p);
	if (!(sum = calloc((size_t)n, sizeof *sum))) {
		status_error("out of memory");
		status = STATUS_USAGE;
		goto out;
	}
	clockw_size((double)o->bytes, s, sizeof s);
	clockw_model(hw, inputs_hw_given(o), 0, model, sizeof model);
	char chunks[64];
	if (count % (size_t)n == 0)
		snprintf(chunks, sizeof chunks, "%d chunk%s of %zu", n, n == 1 ? "" : "s",
			 count / (size_t)n);
	else
		snprintf(chunks, sizeof chunks, "%d chunks of %zu to %zu", n, count / (size_t)n,
			 split_max(count, n));
	printf("distmm-tui batch: %s by %s on %d device%s, S = %s (%zu doubles a rank, %s), "
	       "values %s, seed %" PRIu64 "\n", ccl_kind_name(kind), clockw_algo_title(algo), n,
	       n == 1 ? "" : "s", s, count, chunks,
	       o->values == MAT_VALUES_INTS ? "ints" : "floats", o->seed);
	printf("how: %s; %d phase%s\nmodel %s\n", clockw_algo_how(kind, algo), run_phase_count(r),
	       run_phase_count(r) == 1 ? "" : "s", model);
	int run_rc = run_finish(r, &err);
	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	run_summaries(r, sum);
	if (!o->quiet)
		batch_clock_events(ev, n_ev, p);
	if (run_rc) {
		status_flush_stdout();
		status_error("%s", err.msg);
		printf("modelled time: none: the run did not finish\n");
		status = STATUS_MISMATCH;
		goto out;
	}
	double t = batch_clock_phases(o, p, hw, ev, n_ev);
	status = batch_clock_bytes(o, p, sum);
	batch_clock_time(p, hw, t);
	rc = batch_clock_verify(r, &in);
	status = status == STATUS_OK ? rc : status;
out:
	free(sum);
	run_free(r);
	plan_free(p);
	mat_free(&in);
	return status;
}

/* The algorithms the sweep shows for kind on n ranks, in their order. */
static int batch_clock_algos(int kind, int n, int algos[CCL_ALGO_COUNT])
{
	int k = 0;
	for (int a = 0; a < CCL_ALGO_COUNT; a++)
		if (ccl_applies(kind, a, n))
			algos[k++] = a;
	return k;
}

static void batch_clock_json(int kind, int n, const int *algos, int k,
			     struct cost_point pts[][COST_SWEEP_SIZES])
{
	for (int a = 0; a < k; a++)
		for (int i = 0; i < COST_SWEEP_SIZES; i++) {
			const struct cost_point *x = &pts[a][i];
			printf("{\"collective\":\"%s\",\"algo\":\"%s\",\"n\":%d,\"bytes\":%.0f,"
			       "\"time_us\":%.15g,\"algbw_gbps\":%.15g,\"busbw_gbps\":%.15g}\n",
			       ccl_kind_name(kind), ccl_algo_name(algos[a]), n, x->bytes, x->time_s * 1e6,
			       x->algbw / 1e9, x->busbw / 1e9);
		}
}

/* The crossover in words, and what rhd adds. */
static void batch_clock_crossover(const struct dm_hw *hw, int kind, int n, int has_rhd)
{
	int x = cost_crossover(hw, kind, n);
	int ring = ccl_phase_count(kind, CCL_RING, n), tree = ccl_phase_count(kind, CCL_TREE, n);
	char at[32];
	if (n == 1) {
		printf("crossover: none: one rank, nothing moves\n");
		return;
	}
	if (x < 0) {
		printf("crossover: none up to 1 GiB: the tree is faster at every size here\n");
	} else if (x == 0) {
		printf("crossover: the ring is faster than the tree at every size here, from 8 B on\n");
	} else {
		clockw_size(cost_sweep_size(x), at, sizeof at);
		printf("crossover: from %s on the ring is faster than the tree: below, the tree's %d "
		       "latencies cost less than the ring's %d; from there on the ring's smaller "
		       "bandwidth term wins\n", at, tree, ring);
	}
	if (has_rhd)
		printf("rhd has the ring's bandwidth term with log2(n) latencies a pass: it is never "
		       "slower here, as the model counts no contention between its pairs' links\n");
}

static void batch_clock_table(const struct dm_hw *hw, unsigned given, int kind, int n,
			      const int *algos, int k, struct cost_point pts[][COST_SWEEP_SIZES])
{
	char model[512], s[32], t[32], fast[32];
	clockw_model(hw, given, 0, model, sizeof model);
	printf("distmm-tui sweep: %s on %d device%s, the model alone (nothing runs)\nmodel %s\n",
	       ccl_kind_name(kind), n, n == 1 ? "" : "s", model);
	printf("time:");
	for (int a = 0; a < k; a++)
		printf("%s %s %s", a ? ";" : "", ccl_algo_name(algos[a]),
		       clockw_time_formula(kind, algos[a]));
	printf("\nalgbw = S/t, busbw = algbw x %s = %.4g (nccl-tests), in GB/s (10^9 B/s)\n",
	       clockw_factor(kind), cost_busbw_factor(kind, n));
	printf("%10s", "size");
	for (int a = 0; a < k; a++)
		printf(" | %5s: %9s %7s %7s", ccl_algo_name(algos[a]), "time", "algbw", "busbw");
	printf(" | fastest\n");
	for (int i = 0; i < COST_SWEEP_SIZES; i++) {
		double best = pts[0][i].time_s;
		for (int a = 1; a < k; a++)
			best = pts[a][i].time_s < best ? pts[a][i].time_s : best;
		fast[0] = '\0';
		for (int a = 0, used = 0; a < k; a++)
			if (pts[a][i].time_s == best)
				used += snprintf(fast + used, sizeof fast - (size_t)used, "%s%s",
						 used ? "=" : "", ccl_algo_name(algos[a]));
		clockw_size(pts[0][i].bytes, s, sizeof s);
		printf("%10s", s);
		for (int a = 0; a < k; a++) {
			clockw_time(pts[a][i].time_s, t, sizeof t);
			printf(" | %16s %7.2f %7.2f", t, pts[a][i].algbw / 1e9, pts[a][i].busbw / 1e9);
		}
		printf(" | %s\n", fast);
	}
}

static int batch_clock_sweep(const struct cli_opts *o, const struct dm_hw *hw)
{
	int algos[CCL_ALGO_COUNT], n = o->devices, kind = o->sweep;
	int k = batch_clock_algos(kind, n, algos);
	struct cost_point pts[CCL_ALGO_COUNT][COST_SWEEP_SIZES];
	for (int a = 0; a < k; a++)
		cost_sweep(hw, kind, algos[a], n, pts[a]);
	if (o->json) {
		batch_clock_json(kind, n, algos, k, pts);
		return STATUS_OK;
	}
	batch_clock_table(hw, inputs_hw_given(o), kind, n, algos, k, pts);
	batch_clock_crossover(hw, kind, n, k == CCL_ALGO_COUNT);
	return STATUS_OK;
}

int batch_clock_main(const struct cli_opts *o)
{
	struct dm_hw hw;
	int status = report_clock_model(o, 0, &hw);
	if (status != STATUS_OK)
		return status;
	return o->sweep >= 0 ? batch_clock_sweep(o, &hw) : batch_clock_collective(o, &hw);
}
