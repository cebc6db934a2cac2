/* report_clock: the modelled time of a multiply in batch mode's report (see
 * report_clock.h).  The numbers are cost_of_events'; the words
 * clock_words'. */
#include "report_clock.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/inputs.h"
#include "cli/status.h"
#include "report_timeline.h"
#include <distmm/cost.h>
#include <distmm/schedule.h>
#include "words/clock_words.h"

int report_clock_asked(const struct cli_opts *o)
{
	return (o->given & (CLI_GIVEN_MODEL | CLI_GIVEN_TIMELINE)) != 0;
}

int report_clock_model(const struct cli_opts *o, int computes, struct dm_hw *hw)
{
	struct dm_err err;
	if (computes ? inputs_hw_products(o, hw, &err) : inputs_hw(o, hw, &err)) {
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}
	return STATUS_OK;
}

/* "compute 2", "transfer 0", "gather": the phase's kind and its step
 * where it has steps (DP's computes and every gather have one alone). */
static void report_clock_phase_name(const struct dm_plan *p, int ph, char *buf, size_t size)
{
	enum sched_kind kind = sched_phase_kind(p, ph);
	int alone = kind == SCHED_GATHER || kind == SCHED_DB_PARTIAL ||
		    (plan_mode(p) == DM_DP && (kind == SCHED_COMPUTE || kind == SCHED_BWD_COMPUTE));
	if (alone)
		snprintf(buf, size, "%s", sched_kind_name(kind));
	else
		snprintf(buf, size, "%s %d", sched_kind_name(kind), sched_phase_step(p, ph));
}

static double report_clock_pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* The measured time of each phase from the events' own times: the longest
 * span, over the ranks, from a rank's first event of the phase to its
 * last (each rank's times are its own clock's: spans compare, instants
 * across ranks do not).  Into meas[phases]; the sum returned. */
static double report_clock_measured(const struct ev *ev, size_t n_ev, int phases, int n,
				    double *meas)
{
	double total = 0;
	for (int ph = 0; ph < phases; ph++) {
		meas[ph] = 0;
		for (int r = 0; r < n; r++) {
			uint64_t t0 = UINT64_MAX, t1 = 0;
			for (size_t i = 0; i < n_ev; i++)
				if (ev[i].phase == ph && ev[i].rank == r) {
					t0 = ev[i].t_begin_ns < t0 ? ev[i].t_begin_ns : t0;
					t1 = ev[i].t_end_ns > t1 ? ev[i].t_end_ns : t1;
				}
			if (t1 >= t0 && t0 != UINT64_MAX && (double)(t1 - t0) * 1e-9 > meas[ph])
				meas[ph] = (double)(t1 - t0) * 1e-9;
		}
		total += meas[ph];
	}
	return total;
}

/* report_clock_run, with a measured column when `measured`. */
static void report_clock_do(const struct cli_opts *o, const struct dm_plan *p, size_t K,
			    const struct ev *ev, size_t n_ev, int measured)
{
	struct cost_run c;
	struct dm_err err;
	struct dm_hw hw;
	char model[512], t[32], a[32], b[32], name[48];
	/* checked before the run (report_clock_model): read again here, where
	 * it is printed, rather than carried through every batch path */
	if (!report_clock_asked(o) || report_clock_model(o, 1, &hw) != STATUS_OK)
		return;
	clockw_model(&hw, inputs_hw_given(o), 1, model, sizeof model);
	if (cost_of_events(&c, p, &hw, K, ev, n_ev, &err)) {
		status_error("%s", err.msg);
		return;
	}
	double *meas = measured ? calloc((size_t)c.phases + 1, sizeof *meas) : NULL, meas_total = 0;
	if (meas)
		meas_total = report_clock_measured(ev, n_ev, c.phases, c.n, meas);
	printf("modelled time, model %s\n  %s%s\n", model, clockw_rule(),
	       plan_mode(p) == DM_DP ? "; DP's copies of B are placed before the run, not sent "
				       "(as in the accounting)" : "");
	if (plan_prefetch(p))
		printf("  --prefetch: each transfer runs beside its step's compute (the shard multiplied "
		       "is sent while the next comes in): a pair takes the longer of the two on each "
		       "rank, and its communication is the part no product hides (exposed)\n");
	if (!o->quiet) {
		printf("  %5s  %-22s %12s %12s %14s  %s%s\n", "phase", "kind", "time", "compute",
		       "communication", "slowest rank", meas ? "      measured" : "");
		for (int ph = 0; ph < c.phases; ph++) {
			const struct cost_phase *x = &c.phase[ph];
			report_clock_phase_name(p, ph, name, sizeof name);
			if (x->joined) {
				printf("  %5d  %-22s %12s  beside phase %d, timed there\n", ph, name, "-",
				       ph - 1);
				continue;
			}
			clockw_time(x->time_s, t, sizeof t);
			clockw_time(x->compute_s, a, sizeof a);
			clockw_time(x->comm_s, b, sizeof b);
			char mt[32], who[16] = "-";
			if (x->critical >= 0)
				snprintf(who, sizeof who, "%d", x->critical);
			if (meas) {
				clockw_time(meas[ph], mt, sizeof mt);
				printf("  %5d  %-22s %12s %12s %14s  %-12s %12s\n", ph, name, t, a, b, who,
				       mt);
			} else {
				printf("  %5d  %-22s %12s %12s %14s  %s\n", ph, name, t, a, b, who);
			}
		}
	}
	clockw_time(c.total_s, t, sizeof t);
	clockw_time(c.compute_s, a, sizeof a);
	clockw_time(c.comm_s, b, sizeof b);
	printf("  total %s: computing %s (%.1f%%), communicating %s (%.1f%%), along the slowest "
	       "rank of each phase\n", t, a, report_clock_pct(c.compute_s, c.total_s), b,
	       report_clock_pct(c.comm_s, c.total_s));
	if (meas) {
		clockw_time(meas_total, t, sizeof t);
		printf("  measured %s: each phase its longest rank's span from its first event to its "
		       "last, on the ranks' own clocks, summed (the model: %.3gx that)\n", t,
		       meas_total > 0 ? c.total_s / meas_total : 0.0);
	}
	free(meas);
	if (o->timeline)
		report_timeline(&c, REPORT_TIMELINE_WIDTH);
	cost_run_free(&c);
}

void report_clock_run(const struct cli_opts *o, const struct dm_plan *p, size_t K,
		      const struct ev *ev, size_t n_ev)
{
	report_clock_do(o, p, K, ev, n_ev, 0);
}

void report_clock_beside(const struct cli_opts *o, const struct dm_plan *p, size_t K,
			 const struct ev *ev, size_t n_ev)
{
	report_clock_do(o, p, K, ev, n_ev, 1);
}



void report_clock_none(const struct cli_opts *o, int deadlock)
{
	if (report_clock_asked(o))
		printf("modelled time: none: %s\n", deadlock ? "the run deadlocked, and a deadlock has "
						       "no time" : "the run did not finish");
}
