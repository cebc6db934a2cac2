/* batch: -b.  Runs free to the end, then prints the schedule from the event
 * log (ordered by phase and rank, so the output is the same on every run),
 * then the accounting and the check against the sequential product. */
#include "batch.h"

#include <stdio.h>
#include <stdlib.h>

#include "inputs.h"
#include "report.h"
#include "run.h"
#include "status.h"

int batch_main(const struct cli_opts *o)
{
	struct mat a, b, ref = { 0, 0, NULL };
	struct run_config cfg;
	struct run_snapshot snap = { 0 };
	struct ev_summary *sum = NULL;
	struct run *r = NULL;
	struct dm_err err;
	int status, rc;

	if ((o->out_file && (rc = report_check_output(o->out_file, 1, &err))) ||
	    (o->trace_file && (rc = report_check_output(o->trace_file, 0, &err)))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if ((rc = inputs_load(o, &a, &b, &err))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	inputs_run_config(o, &a, &b, &cfg);
	if ((rc = run_new(&r, &cfg, &a, &b, &err)) ||
	    (rc = run_snapshot_init(&snap, cfg.devices, a.rows, b.cols, 0, &err)) ||
	    (rc = mat_matmul(&ref, &a, &b, &err))) {
		status_error("%s", err.msg);
		status = status_of(rc);
		goto out;
	}
	sum = calloc((size_t)cfg.devices, sizeof *sum);
	if (!sum) {
		status_error("out of memory");
		status = STATUS_USAGE;
		goto out;
	}

	report_header("distmm-tui batch", o, cfg.mode, cfg.devices, cfg.bug, a.rows, a.cols,
		      b.cols);
	int run_rc = run_finish(r, &err);
	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	run_snapshot_take(r, &snap);
	run_summaries(r, sum);
	if (!o->quiet)
		report_events(ev, n_ev, cfg.mode, cfg.devices, cfg.bug);
	if (run_rc) {
		fflush(stdout);
		status_error("%s", err.msg);
		if (run_rc == DM_EDEADLOCK)
			report_deadlock(&snap);
		status = run_rc == DM_EDEADLOCK ? STATUS_DEADLOCK : STATUS_MISMATCH;
		/* the trace of what happened, which is whole; never a result */
		report_write_outputs(o, ev, n_ev, sum, cfg.devices, cfg.mode, NULL);
		goto out;
	}
	report_summary(sum, cfg.devices, cfg.mode, a.rows, a.cols, b.cols);
	report_compare(&a, &b, &cfg);
	status = report_write_outputs(o, ev, n_ev, sum, cfg.devices, cfg.mode, run_result(r));
	if (status == STATUS_OK)
		status = report_verify(run_result(r), &ref);
out:
	free(sum);
	run_snapshot_free(&snap);
	run_free(r);
	mat_free(&ref);
	mat_free(&a);
	mat_free(&b);
	return status;
}
