/* cost: the model of time, the one home of its formulas.
 *
 *   a product of an m x k by a k x n block takes 2mkn / F;
 *   a message of b bytes takes alpha + b / beta;
 *   a rank's sends go one after another, transfers of different ranks on
 *   different links run at once; within a phase a rank computes, then
 *   sends; a phase ends when its slowest rank ends, and the next begins
 *   (the engine's step barrier).
 * Adds (a reduction's sums) and local copies are not timed, as in the
 * alpha-beta model the closed forms below come from: beta stands for the
 * whole transfer.  The hardware is <distmm/hw.h>'s.
 *
 * Closed forms, S the total size as nccl-tests counts it (for all-gather
 * and reduce-scatter the whole output), n ranks, L = ceil(log2 n),
 * p = log2 n; chunks even (the fluid S/n):
 *   ring      allreduce 2(n-1) alpha + 2(n-1)/n S/beta;
 *             allgather, reducescatter (n-1) alpha + (n-1)/n S/beta;
 *             broadcast, reduce (the pipelined chain): as allreduce
 *   tree      allreduce 2L (alpha + S/beta); reduce, broadcast L (alpha +
 *             S/beta); allgather, reducescatter 2L alpha + (L + (n-1)/n)
 *             S/beta (a gather or a scatter moves (n-1)/n S over its L
 *             levels, the largest message a level)
 *   rhd       allreduce 2p alpha + 2(n-1)/n S/beta; allgather,
 *             reducescatter p alpha + (n-1)/n S/beta
 *   one rank: 0.
 * nccl-tests' bandwidths: algbw = S / t, busbw = algbw x f with f =
 * 2(n-1)/n for all-reduce, (n-1)/n for all-gather and reduce-scatter, 1
 * for broadcast and reduce. */
#ifndef DM_COST_H
#define DM_COST_H

#include <stddef.h>
#include <stdint.h>

#include "ccl.h"
#include "dm_err.h"
#include "evlog.h"
#include "hw.h"
#include "plan.h"

double cost_alpha_s(const struct dm_hw *hw); /* alpha in seconds */
double cost_beta(const struct dm_hw *hw);    /* beta in bytes a second */
double cost_flops(const struct dm_hw *hw);   /* F in FLOP/s, 0 when unknown */

/* alpha + bytes / beta, seconds. */
double cost_msg_s(const struct dm_hw *hw, double bytes);
/* 2mkn / F, seconds (0 for an empty product; F must be known). */
double cost_gemm_s(const struct dm_hw *hw, double m, double k, double n);

/* The closed form of kind by algo on n ranks, S bytes in all (above), in
 * seconds.  Assumes ccl_applies. */
double cost_ccl_s(const struct dm_hw *hw, enum ccl_kind kind, enum ccl_algo algo, int n,
		  double S);
/* nccl-tests' busbw / algbw for kind on n ranks. */
double cost_busbw_factor(enum ccl_kind kind, int n);
/* S / t in bytes a second; 0 when t is 0 (one rank: nothing moves). */
double cost_algbw(double S, double t);
/* cost_algbw x cost_busbw_factor. */
double cost_busbw(enum ccl_kind kind, int n, double S, double t);

/* The sweep: sizes 8 B to 1 GiB, doubling (all_reduce_perf -b 8 -e 1G
 * -f 2), every algorithm that applies. */
#define COST_SWEEP_MIN 8.0
#define COST_SWEEP_SIZES 28 /* 8 B = 2^3 ... 1 GiB = 2^30 */

struct cost_point {
	double bytes, time_s, algbw, busbw; /* bytes a second */
};

/* The size of row i of the sweep, 8 x 2^i bytes. */
double cost_sweep_size(int i);
/* kind by algo on n ranks at every size of the sweep, into
 * out[COST_SWEEP_SIZES].  Assumes ccl_applies. */
void cost_sweep(const struct dm_hw *hw, enum ccl_kind kind, enum ccl_algo algo, int n,
		struct cost_point *out);
/* The crossover: the smallest size of the sweep from which the ring is
 * faster than the tree at that size and every larger one.  Returns its row
 * (0 to COST_SWEEP_SIZES - 1), or -1 when the ring is not faster at 1 GiB. */
int cost_crossover(const struct dm_hw *hw, enum ccl_kind kind, int n);

/* The modelled time of a run, phase by phase, from its events. */
struct cost_lane {        /* one rank in one phase */
	double compute_s;     /* its products */
	double comm_s;        /* its sends, one after another */
};

struct cost_phase {
	double start_s;       /* the end of the phases before it */
	double time_s;        /* its slowest rank's compute + sends */
	double compute_s;     /* that rank's compute ... */
	double comm_s;        /* ... and the rest: its communication, exposed */
	double hidden_s;      /* a --prefetch pair's: that rank's sends its product
				 covers (its sends in the pair less the exposed
				 communication); 0 in a phase of its own */
	int critical;         /* that rank (the lowest of a tie), -1 for a phase with
				 nothing timed */
	int sends;            /* messages sent in the phase, every rank */
	int joined;           /* it runs alongside the phase before (sched_joined:
				 --prefetch's transfer beside its step's compute): the
				 pair is timed in that phase, this one starts with it
				 and takes no time of its own */
};

struct cost_run {
	int n, phases;
	struct cost_phase *phase; /* phases */
	struct cost_lane *lane;   /* phases * n: lane[ph * n + r] */
	double total_s;           /* the sum of the phases */
	double compute_s, comm_s; /* its split along the critical ranks */
	double hidden_s;          /* the phases' hidden_s summed: comm_s + hidden_s is what
				     the critical ranks send in all */
};

/* The time of the events ev[0..n_ev) of a run of p, phase by phase: each
 * compute is 2 x rows x K x cols of its event (every product of the engine,
 * the forward's, dA's and the partial dB's, is rows x K by K x cols or
 * their transposes; K is A's columns), each send alpha + its bytes / beta
 * (the gather's and the rings' alike); a collective's events have no
 * compute.  A phase with no event has time 0.  With --prefetch a compute
 * and the transfer joined to it are one pair: a rank takes the longer of
 * its product and its sends (they overlap), the pair its slowest rank's;
 * that rank's compute is the pair's compute and the rest, the time its
 * communication is not hidden behind it, the pair's (exposed)
 * communication.  So a pair never takes longer than the two phases plain,
 * and shorter whenever both compute and communicate.  Returns 0, or DM_EINVAL (F
 * unknown and the run computes: err says so), DM_ENOMEM; on failure c is
 * left empty. */
int cost_of_events(struct cost_run *c, const struct dm_plan *p, const struct dm_hw *hw,
		   size_t K, const struct ev *ev, size_t n_ev, struct dm_err *err);
/* The same lanes on the measured clock: the events' own times (t_begin_ns
 * to t_end_ns, the run's clock) in place of the formulas.  A rank's
 * compute is the sum of its computes' spans, its communication that of
 * its sends and receives (a receive's span is its wait for the message),
 * and the phases are closed by the same rule (each as long as its busiest
 * rank, a --prefetch pair the longer of its two), so the time the devices
 * spend parked at the step barrier between phases (the interface waiting
 * for a key) is left out.  Returns 0, or DM_EINVAL (an event outside the
 * run), DM_ENOMEM; on failure c is left empty. */
int cost_of_event_times(struct cost_run *c, const struct dm_plan *p, const struct ev *ev,
			size_t n_ev, struct dm_err *err);
/* The same phase by phase from the collective's schedule alone (a plan of
 * mode DM_COLL: <distmm/ccl.h>'s transfers with the real chunk sizes), no
 * run needed.  Returns as cost_of_events. */
int cost_of_schedule(struct cost_run *c, const struct dm_plan *p, const struct dm_hw *hw,
		     struct dm_err *err);
void cost_run_free(struct cost_run *c);

#endif
