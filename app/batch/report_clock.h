/* report_clock: the modelled time in batch mode's account of a multiply
 * (-b with --hw, --alpha, --bw or --flops; the training step and --replay
 * too): which model and values, its rule, each phase's time, the total
 * and the share spent communicating, all from the run's own events
 * (<distmm/cost.h>).  A run that did not finish has no time, and says so. */
#ifndef APP_REPORT_CLOCK_H
#define APP_REPORT_CLOCK_H

#include <stddef.h>

#include "cli/cli.h"
#include <distmm/evlog.h>
#include <distmm/hw.h>
#include <distmm/plan.h>

/* Whether the options ask for the model (CLI_GIVEN_MODEL, or --timeline:
 * on the default preset when no model is named). */
int report_clock_asked(const struct cli_opts *o);

/* The model the options ask for (inputs_hw); computes: the run has
 * products to time, so F must be known.  Returns STATUS_OK, or
 * STATUS_USAGE having printed the one line that says why.  Batch mode
 * calls it before anything runs, so that a bad --hw costs no run. */
int report_clock_model(const struct cli_opts *o, int computes, struct dm_hw *hw);

/* When the options ask for it: the block after the accounting, the
 * model's line, its rule, a line a phase (not with -q), the total and its
 * split, then with --timeline the timeline (report_timeline.h).  K: A's
 * columns (every product's inner size). */
void report_clock_run(const struct cli_opts *o, const struct dm_plan *p, size_t K,
		      const struct ev *ev, size_t n_ev);

/* report_clock_run with each phase's measured time beside the modelled
 * one (distmm-mpi --hw: the run's own event times, each phase its longest
 * rank's span) and their sums. */
void report_clock_beside(const struct cli_opts *o, const struct dm_plan *p, size_t K,
			 const struct ev *ev, size_t n_ev);

/* When the options ask for it, a run that did not finish: "modelled time:
 * none: ...". */
void report_clock_none(const struct cli_opts *o, int deadlock);

#endif
