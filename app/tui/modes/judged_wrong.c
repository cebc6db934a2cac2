/* judged_wrong: every wrong write of a candidate's run, not only the first.
 * The yardstick is the engine's own correct run of the case (the ring, or
 * DP), run once on the same matrices, n and capacity, its log kept; at each
 * stop its state is rebuilt from that log by the engine's rules
 * (replay_snapshot) at the same phase, and a cell of C the candidate's
 * events wrote is wrong when the correct run had not written it by then
 * (the wrong rank, or the wrong step) or holds another value there
 * (mat_close, the verification's test).  Nothing here restates the ring's
 * arithmetic: the schedule is the engine's run's.  The marks are the mode's
 * state, derived when a stop is put on screen (judged.c's derive hook). */
#include "judged.h"

#include <stdlib.h>
#include <string.h>

#include <distmm/order.h>
#include <distmm/plan.h>
#include <distmm/run.h>
#include <distmm/split.h>

#include "tui/view.h"

void mode_judged_release(struct mode_judged *vj)
{
	free(vj->ring_ev);
	free(vj->wrong);
	if (vj->ring_snap_ok)
		run_snapshot_free(&vj->ring_snap);
	plan_free(vj->ring_plan);
	vj->ring_ev = NULL;
	vj->wrong = NULL;
	vj->ring_plan = NULL;
	vj->ring_n = 0;
	vj->ring_snap_ok = 0;
	vj->wrong_stop = -1;
}

int mode_judged_ring_log(struct mode_judged *vj, const struct mat *a, const struct mat *b,
			 struct dm_err *err)
{
	const struct judge_case *c = vj->c;
	struct run *run = NULL;
	struct run_config cfg;
	size_t n_ev = 0;
	int rc = plan_make_run(&vj->ring_plan, c->mode, c->n, DM_FORWARD, ORDER_PARITY, BUG_NONE,
			       c->capacity, err);
	if (rc)
		return rc;
	run_config_default(&cfg);
	if ((rc = run_new(&run, vj->ring_plan, &cfg, a, b, err)) || (rc = run_finish(run, err)))
		goto out;
	const struct ev *ev = run_events(run, &n_ev);
	if (n_ev && !(vj->ring_ev = malloc(n_ev * sizeof *ev))) {
		rc = dm_err_set(err, DM_ENOMEM, "out of memory for the correct run's events");
		goto out;
	}
	if (n_ev)
		memcpy(vj->ring_ev, ev, n_ev * sizeof *ev);
	vj->ring_n = n_ev;
	if ((rc = run_snapshot_init(&vj->ring_snap, vj->ring_plan, a->rows, a->cols, b->cols, 1,
				    err)))
		goto out;
	vj->ring_snap_ok = 1;
	if (a->rows && b->cols > SIZE_MAX / a->rows) {
		rc = dm_err_set(err, DM_ENOMEM, "C too large to mark");
		goto out;
	}
	size_t cells = a->rows * b->cols;
	if (!(vj->wrong = calloc(cells > 0 ? cells : 1, 1)))
		rc = dm_err_set(err, DM_ENOMEM, "out of memory for the marks");
out:
	if (run)
		run_free(run);
	if (rc)
		mode_judged_release(vj);
	return rc;
}

void mode_judged_wrong_derive(struct view *v, struct mode_judged *vj)
{
	const struct run_snapshot *s = &v->snap;
	struct dm_err err;
	vj->n_wrong = 0;
	vj->wrong_stop = -1;
	if (!vj->wrong || !s->c || !s->col_fill || v->stop < 0 || s->M != vj->ring_snap.M ||
	    s->N != vj->ring_snap.N)
		return;
	size_t M = s->M, N = s->N;
	memset(vj->wrong, 0, M * N);
	int upto = v->stop < s->phase_count ? v->stop : s->phase_count - 1;
	if (replay_snapshot(&vj->ring_snap, vj->ring_plan, v->a, v->b, NULL, vj->ring_ev, vj->ring_n,
			    upto, &err))
		return; /* the engine's own log: cannot fail but for memory */
	const struct run_snapshot *ring = &vj->ring_snap;
	for (size_t i = 0; i < M; i++) {
		int r = split_part_of(M, s->n, i);
		for (size_t j = 0; j < N; j++) {
			size_t at = (size_t)r * N + j;
			if (s->col_fill[at] == RUN_FILL_NONE)
				continue; /* not written: nothing of the candidate's to mark */
			if (ring->col_fill[at] == RUN_FILL_NONE ||
			    !mat_close(s->c[i * N + j], ring->c[i * N + j])) {
				vj->wrong[i * N + j] = 1;
				vj->n_wrong++;
			}
		}
	}
	vj->wrong_stop = v->stop;
}

int mode_judged_wrong_cell(const struct view *v, const struct mode_judged *vj, size_t row,
			   size_t col, int *wrong)
{
	if (v->finished || vj->wrong_stop < 0 || vj->wrong_stop != v->stop || row >= v->snap.M ||
	    col >= v->snap.N)
		return 0; /* the verification's own test: the final C against A @ B */
	*wrong = vj->wrong[row * v->snap.N + col];
	return 1;
}
