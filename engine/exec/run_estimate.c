/* run_estimate: what a run will hold before it starts (run_estimate_bytes
 * in <distmm/run.h>), so that batch mode can refuse a run that would not
 * fit in one line instead of failing half-way.  An upper bound, in
 * saturating arithmetic: a shape of 10^6 cubed says "too much", never a
 * small wrapped-around number. */
#include <distmm/run.h>

#include <stdint.h>

#include "core/plan_int.h"
#include "exec/ccl_device.h"
#include "exec/run_int.h"
#include "exec/tp.h"

/* Saturating arithmetic for the estimate. */
static uint64_t run_sat_mul(uint64_t a, uint64_t b)
{
	return (a != 0 && b > UINT64_MAX / a) ? UINT64_MAX : a * b;
}

static uint64_t run_sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

uint64_t run_estimate_bytes(const struct dm_plan *p, size_t M, size_t K, size_t N,
			    enum run_keep keep)
{
	if (p->mode == DM_COLL)
		return ccldev_estimate_bytes(p, RUN_STACK_BYTES / 16);
	uint64_t n = (uint64_t)(p->n > 0 ? p->n : 1), d = sizeof(double);
	if (plan_mode_tp(p->mode)) {
		uint64_t events = tp_event_count(p);
		if (keep == RUN_KEEP_NONE)
			events = 0;
		else if (keep == RUN_KEEP_LATEST && events > RUN_LATEST_EVENTS + 3 * n)
			events = RUN_LATEST_EVENTS + 3 * n;
		return tp_estimate_bytes(p, M, K, N, events,
					 512 + (uint64_t)N * sizeof(int) + n * sizeof(int) +
						 RUN_STACK_BYTES / 16);
	}
	uint64_t a = run_sat_mul(run_sat_mul(M, K), d);
	uint64_t b = run_sat_mul(run_sat_mul(K, N), d);
	uint64_t c = run_sat_mul(run_sat_mul(M, N), d);
	/* B: a replica per device (DP) or the shards, each at most one column wider
	 * than N/n, with room for one more in flight (FSDP) */
	uint64_t b_held = p->mode == DM_DP ? run_sat_mul(b, n)
					     : run_sat_mul(run_sat_mul(K, N + 2 * n), d);
	/* events: FSDP has n computes, 2(n-1) sends and receives and one gather
	 * event per rank, each kept twice (device log and merged log); a phase
	 * has at most 2n (a send and a receive a rank, or the gather's sends
	 * and placements) */
	uint64_t events = p->mode == DM_DP ? 3 * n : run_sat_add(run_sat_mul(3 * n, n), n);
	if (keep == RUN_KEEP_NONE)
		events = 0;
	else if (keep == RUN_KEEP_LATEST && events > RUN_LATEST_EVENTS + 2 * n)
		events = RUN_LATEST_EVENTS + 2 * n; /* run_advance's chunk, and a phase more */
	uint64_t ev_bytes = run_sat_mul(run_sat_mul(events, sizeof(struct ev)), 2);
	uint64_t per_dev = 512 + (uint64_t)N * sizeof(int) + RUN_STACK_BYTES / 16;
	uint64_t total = run_sat_add(a, b_held);
	total = run_sat_add(total, c);     /* the devices' C rows */
	total = run_sat_add(total, c);     /* the gathered C */
	total = run_sat_add(total, ev_bytes);
	if (p->pass != DM_FORWARD) {
		/* dC's and dA's rows, a K x N partial per device, FSDP's own shards
		 * and summed chunks (each about B), a chunk in flight each way, the
		 * gathered dA and dB; the events of the backward (about twice the
		 * forward's and the reduce-scatter's 3 an event a rank and step),
		 * and the column fill of dB */
		uint64_t da = run_sat_mul(run_sat_mul(M, K), d);
		uint64_t grads = run_sat_add(run_sat_add(c, run_sat_mul(da, 2)), run_sat_mul(b, n));
		grads = run_sat_add(grads, run_sat_mul(run_sat_mul(K, N + 2 * n), d * 4));
		uint64_t bwd_events = run_sat_mul(4 * n + 8, n);
		if (keep == RUN_KEEP_NONE)
			bwd_events = 0;
		else if (keep == RUN_KEEP_LATEST && bwd_events > RUN_LATEST_EVENTS + 4 * n + 8)
			bwd_events = RUN_LATEST_EVENTS + 4 * n + 8;
		uint64_t more = run_sat_mul(bwd_events, 2 * sizeof(struct ev));
		total = run_sat_add(run_sat_add(total, grads), more);
		total = run_sat_add(total, run_sat_mul(run_sat_mul(N, n), sizeof(int)));
	}
	return run_sat_add(total, run_sat_mul(per_dev, n));
}

