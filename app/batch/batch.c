/* batch: -b.  Runs free to the end, then prints the schedule from the event
 * log (ordered by phase and rank, so the output is the same on every run),
 * then the accounting and the check against the sequential product.  It
 * does the run asked for and nothing more: the other mode of the DP-vs-FSDP
 * table comes from the model unless --compare asks for a run, and a large
 * C is checked with Freivalds' vectors instead of a second product. */
#include "batch.h"

#include <stdio.h>
#include <stdlib.h>

#include "batch_clock.h"
#include "batch_params.h"
#include "report_mlp.h"
#include "report_tp.h"
#include "batch_train.h"
#include "cli/inputs.h"
#include <distmm/replay.h>
#include "report.h"
#include "report_clock.h"
#include <distmm/run.h>
#include <distmm/schedule.h>
#include "cli/status.h"
#include <distmm/trace.h>

/* -b --replay: the account of a recorded run, its C rebuilt from the log. */
static int batch_replay(const struct cli_opts *o)
{
	struct trace t;
	struct mat a, b;
	struct dm_plan *plan = NULL;
	struct run_snapshot snap = { 0 };
	struct dm_err err;
	int rc, status;
	uint64_t avail = inputs_available_bytes();

	if ((rc = trace_read(o->replay_file, &t, avail > SIZE_MAX ? SIZE_MAX : (size_t)avail, &err))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if (t.pass == DM_TRAIN) { /* the training step's account (batch_train.c) */
		status = batch_train_replay(o, &t);
		trace_free(&t);
		return status;
	}
	if (o->given & CLI_GIVEN_GRAD_FILES) {
		status_error("%s has no effect with --replay of %s: it is the trace of a forward run, "
			     "not a training step", cli_option_name(o->given & CLI_GIVEN_GRAD_FILES &
								    -(o->given & CLI_GIVEN_GRAD_FILES)),
			     o->replay_file);
		trace_free(&t);
		return STATUS_USAGE;
	}
	if ((rc = inputs_load(o, &a, &b, &err))) {
		status_error("%s", err.msg);
		trace_free(&t);
		return status_of(rc);
	}
	int last = t.n_ev ? t.ev[t.n_ev - 1].phase : -1;
	if ((rc = trace_check(&t, a.rows, a.cols, b.cols, &err)) ||
	    (rc = trace_plan(&t, o->bug, &plan, &err)) ||
	    (rc = run_snapshot_init(&snap, plan, a.rows, a.cols, b.cols, 1, &err)) ||
	    (rc = replay_snapshot(&snap, plan, &a, &b, NULL, t.ev, t.n_ev, last, &err))) {
		status_error("%s: %s", o->replay_file, err.msg);
		status = status_of(rc) == STATUS_MISMATCH ? STATUS_USAGE : status_of(rc);
		goto out;
	}
	report_header("distmm-tui replay", o, plan, a.rows, a.cols, b.cols);
	if (!o->quiet)
		report_events(t.ev, t.n_ev, plan);
	if (!replay_finished(plan, t.ev, t.n_ev)) {
		status_flush_stdout();
		status_error("%s: the recorded run stops in phase %d of %d: it did not finish",
			     o->replay_file, last + 1, sched_phase_count(plan));
		report_clock_none(o, 0);
		status = STATUS_MISMATCH;
		goto out;
	}
	if (plan_mode_tp(plan_mode(plan))) { /* as batch_main words a tensor-parallel run */
		report_tp_summary(t.sum, plan, a.rows, a.cols, b.cols);
		report_threads(&snap);
		report_tp_modes(t.sum, plan, a.rows, a.cols, b.cols);
	} else {
		report_summary(t.sum, plan, a.rows, a.cols, b.cols);
	}
	report_clock_run(o, plan, a.cols, t.ev, t.n_ev);
	struct mat c = { a.rows, b.cols, snap.c };
	status = report_write_outputs(o, NULL, 0, NULL, plan, &c);
	if (status == STATUS_OK)
		status = report_verify(o, &a, &b, &c);
out:
	plan_free(plan);
	run_snapshot_free(&snap);
	mat_free(&a);
	mat_free(&b);
	trace_free(&t);
	return status;
}

/* Runs r to its end.  Keeping every event, in one go; keeping the latest
 * alone, a chunk of phases at a time, printing each chunk's events before
 * the next one drops them (also a failed chunk's, as a whole run's events
 * would have shown them).  Returns run_finish's code. */
static int batch_run(struct run *r, const struct cli_opts *o, const struct dm_plan *plan,
		     struct dm_err *err)
{
	if (inputs_keep(o) != RUN_KEEP_LATEST)
		return run_finish(r, err);
	for (;;) {
		int rc = run_advance(r, err);
		size_t n_ev;
		const struct ev *ev = run_events(r, &n_ev);
		report_events(ev, n_ev, plan);
		if (rc)
			return rc == 1 ? 0 : rc;
	}
}

int batch_main(const struct cli_opts *o)
{
	struct mat a, b, e = { 0 };
	struct dm_plan *plan = NULL;
	struct run_config cfg;
	struct run_snapshot snap = { 0 };
	struct ev_summary *sum = NULL;
	struct run *r = NULL;
	struct dm_err err;
	struct dm_hw hw;
	int status, rc;

	if (o->collective >= 0 || o->sweep >= 0) /* no matrices: the clock's own runs */
		return batch_clock_main(o);
	if (o->params) /* no run: the memory argument's closed forms */
		return batch_params_main(o);
	/* a --hw that cannot be read costs no run */
	if (report_clock_asked(o) && (status = report_clock_model(o, 1, &hw)) != STATUS_OK)
		return status;
	report_catch_signals(); /* -b --train and -b --replay too: they start here */
	if ((o->out_file && (rc = report_check_output(o->out_file, 1, &err))) ||
	    (o->trace_file && (rc = report_check_output(o->trace_file, 0, &err)))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if (o->replay_file)
		return batch_replay(o);
	if (o->train)
		return batch_train_main(o);
	if ((rc = inputs_load(o, &a, &b, &err))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	inputs_run_config(o, &a, &b, &cfg);
	cfg.e = &e;
	if ((rc = inputs_plan(o, &plan, &err)) ||
	    (o->mode == DM_TP_MLP && (rc = inputs_load_e(o, &b, plan, &e, &err))) ||
	    (rc = run_new(&r, plan, &cfg, &a, &b, &err)) ||
	    (rc = run_snapshot_init(&snap, plan, a.rows, a.cols, b.cols, 0, &err))) {
		status_error("%s", err.msg);
		status = status_of(rc);
		goto out;
	}
	sum = calloc((size_t)plan_devices(plan), sizeof *sum);
	if (!sum) {
		status_error("out of memory");
		status = STATUS_USAGE;
		goto out;
	}

	report_header("distmm-tui batch", o, plan, a.rows, a.cols, b.cols);
	if (o->mode == DM_TP_MLP)
		report_mlp_header(o, plan, b.cols);
	int run_rc = batch_run(r, o, plan, &err);
	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	run_snapshot_take(r, &snap);
	run_summaries(r, sum);
	if (!o->quiet && cfg.keep == RUN_KEEP_ALL)
		report_events(ev, n_ev, plan);
	if (run_rc) {
		status_flush_stdout();
		status_error("%s", err.msg);
		if (run_rc == DM_EDEADLOCK)
			report_deadlock(&snap);
		report_clock_none(o, run_rc == DM_EDEADLOCK);
		status = run_rc == DM_EDEADLOCK ? STATUS_DEADLOCK : STATUS_MISMATCH;
		/* the trace of what happened, which is whole; never a result */
		report_write_outputs(o, ev, n_ev, sum, plan, NULL);
		goto out;
	}
	if (plan_mode_tp(plan_mode(plan))) { /* tensor parallel: its own table, the modes */
		report_tp_summary(sum, plan, a.rows, a.cols, b.cols);
		report_threads(&snap);
		report_tp_modes(sum, plan, a.rows, a.cols, b.cols);
		if (o->mode == DM_TP_MLP)
			report_mlp_orders(plan, a.rows, a.cols, b.cols);
	} else {
		report_summary(sum, plan, a.rows, a.cols, b.cols);
		report_threads(&snap);
		report_compare(&a, &b, plan, &cfg, sum, o->compare);
	}
	report_clock_run(o, plan, a.cols, ev, n_ev);
	status = report_write_outputs(o, ev, n_ev, sum, plan, run_result(r));
	if (status == STATUS_OK)
		status = o->mode == DM_TP_MLP ? report_mlp_verify(o, &a, &b, &e, plan, run_result(r))
					      : report_verify(o, &a, &b, run_result(r));
out:
	plan_free(plan);
	free(sum);
	run_snapshot_free(&snap);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	mat_free(&e);
	return status;
}
