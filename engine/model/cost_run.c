/* cost_run: the modelled time of a run, phase by phase (see cost.h), from
 * the run's own events or, for a collective, from its schedule.  Both fill
 * the same lanes (one a rank and phase: its compute and its sends) and
 * cost_close makes the phases of them: so a run's events and its schedule
 * are timed by one rule, and a test can hold the two to each other and to
 * the closed forms. */
#include <distmm/cost.h>

#include <stdlib.h>
#include <string.h>

#include <distmm/schedule.h>
#include "core/plan_int.h"
#include "core/xalloc.h"

void cost_run_free(struct cost_run *c)
{
	free(c->phase);
	free(c->lane);
	memset(c, 0, sizeof *c);
}

static int cost_alloc(struct cost_run *c, int n, int phases, struct dm_err *err)
{
	memset(c, 0, sizeof *c);
	c->n = n;
	c->phases = phases;
	if (phases == 0)
		return 0;
	c->phase = xcalloc((size_t)phases, sizeof *c->phase);
	if ((size_t)phases <= SIZE_MAX / (size_t)n / sizeof *c->lane)
		c->lane = xcalloc((size_t)phases * (size_t)n, sizeof *c->lane);
	if (!c->phase || !c->lane) {
		cost_run_free(c);
		return dm_err_set(err, DM_ENOMEM, "out of memory timing %d phases", phases);
	}
	return 0;
}

/* Rank r's time in phase ph: its compute and its sends; in a pair (the
 * next phase joined to ph) the longer of that and its time in the next
 * one, which runs at once. */
static double cost_rank_s(const struct cost_run *c, int ph, int r, int pair)
{
	const struct cost_lane *l = &c->lane[(size_t)ph * (size_t)c->n + (size_t)r];
	double t = l->compute_s + l->comm_s;
	if (pair) {
		const struct cost_lane *x = &c->lane[(size_t)(ph + 1) * (size_t)c->n + (size_t)r];
		double u = x->compute_s + x->comm_s;
		t = u > t ? u : t;
	}
	return t;
}

/* The phases from the lanes: each as long as its slowest rank, the lowest
 * rank of a tie named; its compute that rank's, the rest its exposed
 * communication.  A joined phase starts with the one before and is timed
 * in it (cost.h). */
static void cost_close(struct cost_run *c)
{
	double at = 0;
	c->compute_s = c->comm_s = c->hidden_s = 0;
	for (int ph = 0; ph < c->phases; ph++) {
		struct cost_phase *p = &c->phase[ph];
		p->start_s = at;
		p->critical = -1;
		p->time_s = p->compute_s = p->comm_s = p->hidden_s = 0;
		if (p->joined && ph > 0) {
			p->start_s = c->phase[ph - 1].start_s;
			continue;
		}
		int pair = ph + 1 < c->phases && c->phase[ph + 1].joined;
		for (int r = 0; r < c->n; r++) {
			double t = cost_rank_s(c, ph, r, pair);
			if (t > p->time_s) {
				p->time_s = t;
				p->critical = r;
				p->compute_s = c->lane[(size_t)ph * (size_t)c->n + (size_t)r].compute_s;
			}
		}
		p->comm_s = p->time_s - p->compute_s;
		if (pair && p->critical >= 0) {
			/* what the critical rank sends in the pair, less what shows */
			size_t k = (size_t)p->critical, n = (size_t)c->n;
			double sent = c->lane[(size_t)ph * n + k].comm_s +
				      c->lane[(size_t)(ph + 1) * n + k].comm_s;
			p->hidden_s = sent > p->comm_s ? sent - p->comm_s : 0;
		}
		c->compute_s += p->compute_s;
		c->comm_s += p->comm_s;
		c->hidden_s += p->hidden_s;
		at += p->time_s;
	}
	c->total_s = at;
}

/* The lanes of events ev[0..n_ev) of a run of p, timed by the model (hw)
 * or, with hw NULL, by the events' own times; then the phases of them. */
static int cost_lanes(struct cost_run *c, const struct dm_plan *p, const struct dm_hw *hw,
		      size_t K, const struct ev *ev, size_t n_ev, struct dm_err *err)
{
	int n = p->n, phases = sched_phase_count(p), rc;
	if ((rc = cost_alloc(c, n, phases, err)))
		return rc;
	for (int ph = 0; ph < phases; ph++)
		c->phase[ph].joined = sched_joined(p, ph);
	for (size_t i = 0; i < n_ev; i++) {
		const struct ev *e = &ev[i];
		if (e->phase < 0 || e->phase >= phases || e->rank < 0 || e->rank >= n) {
			cost_run_free(c);
			return dm_err_set(err, DM_EINVAL, "event %zu: phase %d of rank %d is not in "
					  "this run (%d phases, %d ranks)", i, e->phase, e->rank,
					  phases, n);
		}
		struct cost_lane *l = &c->lane[(size_t)e->phase * (size_t)n + (size_t)e->rank];
		double span = e->t_end_ns > e->t_begin_ns ? 1e-9 * (double)(e->t_end_ns - e->t_begin_ns)
							  : 0;
		if (e->op == EV_SEND)
			c->phase[e->phase].sends++;
		if (!hw) {
			if (e->op == EV_COMPUTE)
				l->compute_s += span;
			else if (e->op == EV_SEND || e->op == EV_RECV)
				l->comm_s += span;
		} else if (e->op == EV_COMPUTE) {
			if (hw->tflops <= 0) {
				cost_run_free(c);
				return dm_err_set(err, DM_EINVAL, "the hardware %s gives no peak F "
						  "(tflops), and this run computes products", hw->name);
			}
			l->compute_s += cost_gemm_s(hw, (double)e->row_end - e->row_begin, (double)K,
						    (double)e->col_end - e->col_begin);
		} else if (e->op == EV_SEND) {
			l->comm_s += cost_msg_s(hw, (double)e->bytes);
		}
	}
	cost_close(c);
	return 0;
}

int cost_of_events(struct cost_run *c, const struct dm_plan *p, const struct dm_hw *hw,
		   size_t K, const struct ev *ev, size_t n_ev, struct dm_err *err)
{
	return cost_lanes(c, p, hw, K, ev, n_ev, err);
}

int cost_of_event_times(struct cost_run *c, const struct dm_plan *p, const struct ev *ev,
			size_t n_ev, struct dm_err *err)
{
	return cost_lanes(c, p, NULL, 0, ev, n_ev, err);
}

int cost_of_schedule(struct cost_run *c, const struct dm_plan *p, const struct dm_hw *hw,
		     struct dm_err *err)
{
	if (p->mode != DM_COLL)
		return dm_err_set(err, DM_EINVAL, "a %s run is timed from its events, not its "
				  "schedule", plan_mode_name(p->mode));
	int n = p->n, phases = sched_phase_count(p), rc;
	if ((rc = cost_alloc(c, n, phases, err)))
		return rc;
	for (int ph = 0; ph < phases; ph++)
		for (int r = 0; r < n; r++) {
			struct ccl_xfer x;
			ccl_rank_phase(p->ccl, p->algo, n, ph, r, &x);
			if (x.send_to < 0)
				continue;
			c->lane[(size_t)ph * (size_t)n + (size_t)r].comm_s =
				cost_msg_s(hw, (double)ccl_range_bytes(p->count, n, x.send_c0,
									x.send_c1));
			c->phase[ph].sends++;
		}
	cost_close(c);
	return 0;
}
