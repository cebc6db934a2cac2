/* batch_train: -b --train, and -b --replay of a training step's trace.
 * The run goes free to the end as batch.c's does; then the schedule, the
 * memory and traffic against the model, DP against FSDP, the outputs and
 * the verification of C, dA and dB (report_train_verify).  Kept
 * apart from batch.c: the forward's account is unchanged by the training
 * step, and each reads as one path. */
#include "batch_train.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/inputs.h"
#include <distmm/replay.h>
#include "report.h"
#include "report_clock.h"
#include "report_train.h"
#include <distmm/run.h>
#include <distmm/schedule.h>
#include "cli/status.h"
#include <distmm/trace.h>

/* What a training step needs beside its run: A, B and dC. */
struct bt_inputs {
	struct mat a, b, dc;
};

static void bt_free(struct bt_inputs *in)
{
	mat_free(&in->a);
	mat_free(&in->b);
	mat_free(&in->dc);
}

/* A, B and dC from the options.  Returns the exit status (STATUS_OK: go),
 * having said why not. */
static int bt_load(const struct cli_opts *o, struct bt_inputs *in)
{
	struct dm_err err;
	int rc;
	memset(in, 0, sizeof *in);
	if ((rc = inputs_load(o, &in->a, &in->b, &err)) ||
	    (rc = inputs_load_dc(o, in->a.rows, in->b.cols, &in->dc, &err))) {
		status_error("%s", err.msg);
		bt_free(in);
		return status_of(rc);
	}
	return STATUS_OK;
}

/* -b --replay of a training step's trace: dA and dB rebuilt from the log. */
int batch_train_replay(const struct cli_opts *o, struct trace *t)
{
	struct bt_inputs in;
	struct dm_plan *plan = NULL;
	struct run_snapshot snap = { 0 };
	struct dm_err err;
	int rc, status;
	if ((rc = report_train_check_outputs(o, &err))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if ((status = bt_load(o, &in)) != STATUS_OK)
		return status;
	size_t M = in.a.rows, K = in.a.cols, N = in.b.cols;
	int last = t->n_ev ? t->ev[t->n_ev - 1].phase : -1;
	if ((rc = trace_check(t, M, K, N, &err)) || (rc = trace_plan(t, o->bug, &plan, &err)) ||
	    (rc = run_snapshot_init(&snap, plan, M, K, N, 1, &err)) ||
	    (rc = replay_snapshot(&snap, plan, &in.a, &in.b, &in.dc, t->ev, t->n_ev, last, &err))) {
		status_error("%s: %s", o->replay_file, err.msg);
		status = status_of(rc) == STATUS_MISMATCH ? STATUS_USAGE : status_of(rc);
		goto out;
	}
	report_header("distmm-tui replay", o, plan, M, K, N);
	report_train_intro(o, plan);
	if (!o->quiet)
		report_train_events(t->ev, t->n_ev, plan);
	if (!replay_finished(plan, t->ev, t->n_ev)) {
		status_flush_stdout();
		status_error("%s: the recorded run stops in phase %d of %d: it did not finish",
			     o->replay_file, last + 1, sched_phase_count(plan));
		report_clock_none(o, 0);
		status = STATUS_MISMATCH;
		goto out;
	}
	report_train_summary(t->sum, t->ev, t->n_ev, plan, M, K, N);
	report_clock_run(o, plan, K, t->ev, t->n_ev);
	struct mat c = { M, N, snap.c }, da = { M, K, snap.da }, db = { K, N, snap.db_result };
	status = report_train_write(o, NULL, 0, NULL, plan, &c, &da, &db);
	if (status == STATUS_OK)
		status = report_train_verify(o, &in.a, &in.b, &in.dc, &c, &da, &db);
out:
	plan_free(plan);
	run_snapshot_free(&snap);
	bt_free(&in);
	return status;
}

int batch_train_main(const struct cli_opts *o)
{
	struct bt_inputs in;
	struct dm_plan *plan = NULL;
	struct run_config cfg;
	struct run_snapshot snap = { 0 };
	struct ev_summary *sum = NULL;
	struct run *r = NULL;
	struct dm_err err;
	int status, rc;

	if ((rc = report_train_check_outputs(o, &err))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if ((status = bt_load(o, &in)) != STATUS_OK)
		return status;
	size_t M = in.a.rows, K = in.a.cols, N = in.b.cols;
	inputs_run_config(o, &in.a, &in.b, &cfg);
	cfg.dc = &in.dc;
	if ((rc = inputs_plan(o, &plan, &err)) || (rc = run_new(&r, plan, &cfg, &in.a, &in.b, &err)) ||
	    (rc = run_snapshot_init(&snap, plan, M, K, N, 0, &err))) {
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
	report_header("distmm-tui batch", o, plan, M, K, N);
	report_train_intro(o, plan);
	int run_rc = run_finish(r, &err);
	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	run_snapshot_take(r, &snap);
	run_summaries(r, sum);
	if (!o->quiet)
		report_train_events(ev, n_ev, plan);
	if (run_rc) {
		status_flush_stdout();
		status_error("%s", err.msg);
		if (run_rc == DM_EDEADLOCK)
			report_deadlock(&snap);
		report_clock_none(o, run_rc == DM_EDEADLOCK);
		status = run_rc == DM_EDEADLOCK ? STATUS_DEADLOCK : STATUS_MISMATCH;
		/* the trace of what happened, which is whole; never a result */
		report_train_write(o, ev, n_ev, sum, plan, NULL, NULL, NULL);
		goto out;
	}
	report_train_summary(sum, ev, n_ev, plan, M, K, N);
	report_train_compare(plan, M, K, N);
	report_clock_run(o, plan, K, ev, n_ev);
	status = report_train_write(o, ev, n_ev, sum, plan, run_result(r), run_result_da(r),
				    run_result_db(r));
	if (status == STATUS_OK)
		status = report_train_verify(o, &in.a, &in.b, &in.dc, run_result(r),
					     run_result_da(r), run_result_db(r));
out:
	plan_free(plan);
	free(sum);
	run_snapshot_free(&snap);
	run_free(r);
	bt_free(&in);
	return status;
}
