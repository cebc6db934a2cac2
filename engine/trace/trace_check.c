/* trace_check: whether a trace read back can be a run of given matrices
 * (see trace.h).  The rules are evrules.c's; what is the trace's own is here:
 * the shapes it implies against the ones given, every deliberate bug as a
 * candidate (the trace does not say which one the run made), every phase
 * held whole when the run finished (until the first short one when it did
 * not), and then the summaries. */
#include <distmm/trace.h>

#include <inttypes.h>
#include <stdint.h>

#include <distmm/bug.h>
#include <distmm/mat.h>
#include <distmm/replay.h>
#include <distmm/run.h>
#include "core/plan_int.h"
#include "trace/evrules.h"
#include "trace/evrules_kind.h"
#include "trace/replay_int.h"

/* Whether an event's rows are B's (or dB's): K of them.  A training
 * step's dB chunks and frees have them too; its dA blocks have K columns.
 * Tensor parallel's dB is dB's rows, its partial too. */
static int trace_rows_are_k(const struct evr_run *run, const struct ev *e)
{
	if (plan_mode_tp(run->mode)) /* dB's rows alone: the ring moves C's or dA's */
		return e->tensor == EV_TENSOR_DB;
	if (e->tensor == EV_TENSOR_DB)
		return e->op != EV_COMPUTE; /* the partial's rows are A's */
	return e->tensor == EV_TENSOR_FWD &&
	       (((e->op == EV_SEND || e->op == EV_RECV) && e->shard >= 0) || e->op == EV_FREE);
}

/* The shapes the events imply, against M, K and N. */
static int trace_check_shapes(const struct trace *t, const struct evr_run *run, size_t M,
			      size_t K, size_t N, struct dm_err *err)
{
	uint64_t rows = 0, cols = 0, krows = 0;
	int moved = 0;
	for (size_t i = 0; i < t->n_ev; i++) {
		const struct ev *e = &t->ev[i];
		int da_block = plan_mode_tp(run->mode) ? evr_tp_cols_are_k(run, e)
				: e->tensor == EV_TENSOR_DA && e->op != EV_COMPUTE;
		if (da_block) { /* dA's rows and K columns (tensor parallel's A too) */
			moved = 1;
			if (e->col_end > krows)
				krows = e->col_end;
		} else if (e->col_end > cols) {
			cols = e->col_end;
		}
		if (trace_rows_are_k(run, e)) {
			moved = 1;
			if (e->row_end > krows)
				krows = e->row_end;
		} else if (e->row_end > rows) {
			rows = e->row_end;
		}
	}
	if (rows != M)
		return dm_err_set(err, DM_EFORMAT, "the trace is for %" PRIu64 " rows, A has %zu",
				  rows, M);
	if (cols != N)
		return dm_err_set(err, DM_EFORMAT, "the trace is for %" PRIu64 " columns, B has %zu",
				  cols, N);
	if (moved && krows != K)
		return dm_err_set(err, DM_EFORMAT, "the trace's shards of B have %" PRIu64 " rows, A "
				  "has %zu columns", krows, K);
	return 0;
}

int trace_check(const struct trace *t, size_t M, size_t K, size_t N, struct dm_err *err)
{
	struct evr x;
	int rc;
	if (!t || !t->sum || (!t->ev && t->n_ev > 0))
		return dm_err_set(err, DM_EINVAL, "not a trace");
	/* a mode and a device count a plan takes (t may be made by hand), and
	 * the shapes any run must have: the engine's own check (only the shapes
	 * are read; a trace has no dC, so the forward's) */
	struct mat a = { M, K, NULL }, b = { K, N, NULL };
	struct dm_plan fwd = plan_of(DM_FSDP, 1, DM_FORWARD);
	struct evr_run run;
	if ((rc = plan_set_mode(&fwd, t->mode, err)) || (rc = plan_set_devices(&fwd, t->n, err)) ||
	    (rc = run_check_shapes(&fwd, &a, &b, NULL, err)))
		return rc;
	if (t->n_ev == 0)
		return dm_err_set(err, DM_EFORMAT, "the trace has no events");
	/* the run the trace says it is: its pass, tp-row's collective */
	struct dm_plan p = fwd;
	p.pass = t->pass;
	if (t->reduce_scatter && (rc = plan_set_tp_collective(&p, CCL_REDUCESCATTER, err)))
		return rc;
	evr_run_init(&run, &p, M, K, N);
	if ((rc = trace_check_shapes(t, &run, M, K, N, err)))
		return rc;
	int finished = replay_finished(&p, t->ev, t->n_ev);
	rc = evr_init(&x, t->ev, &p, M, K, N, (1u << BUG_COUNT) - 1,
		      finished ? EVR_PHASES_WHOLE : EVR_PHASES_UNTIL_SHORT, err);
	if (!rc)
		rc = evr_check_events(&x.run, t->ev, t->n_ev, err);
	for (size_t i = 0; i < t->n_ev && !rc; i++)
		rc = evr_event(&x, i, err);
	if (!rc)
		rc = evr_finish(&x, err);
	if (!rc && finished)
		rc = evr_check_summaries(&x, t->sum, err);
	evr_free(&x);
	return rc;
}
