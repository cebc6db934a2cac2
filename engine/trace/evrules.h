/* evrules: the rules an event log follows, in one place.  The trace checker
 * (trace_check.c) and the replay (replay.c) both hold a log to them, so a log
 * one of them accepts is never refused by the other for a rule it forgot.
 *
 * Three layers:
 *  - one event alone (evr_check_event): ranks, peers and shards in range,
 *    the phase and step of the schedule, the op the phase allows, rows per
 *    numpy.array_split, a shard's columns, a block's bytes, held <= peak;
 *  - the events so far (evr_event): phase order, one op of a kind per rank
 *    and phase, a peak that never falls, the per-rank sums, and which shard
 *    each rank holds after every send and receive, and where rank 0 places
 *    each block, followed at once for every candidate run (the correct
 *    ring, a deliberate bug, each with bug.h's rules): a candidate the log
 *    disagrees with drops out, and the log fits while one is left;
 *  - a whole phase (EVR_PHASES_*): every rank did its part, every message
 *    sent was received.  Only a log that claims the phase is over can be
 *    held to that, so the replay (which also replays a run that failed
 *    mid-phase, or the first phases of one) leaves it out.
 *
 * What a kind of phase allows and checks is one row of a table (ops, the
 * shape of one event, the shards followed, the whole phase): the forward's
 * in evrules.c, the training step's in evrules_train.c (evrules_kind.h is
 * what the two share), so a new kind of phase is a row and its functions.
 * A slot records who did an op on which tensor (enum ev_tensor) in a phase:
 * the gather of a training step has three ops a rank, one a tensor. */
#ifndef DM_EVRULES_H
#define DM_EVRULES_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>
#include <stdint.h>

#include <distmm/bug.h>
#include <distmm/dm_err.h>
#include <distmm/evlog.h>

struct dm_plan;

/* The run the events are held to: forward only, or the training step;
 * ccl: tensor parallel's collective (tp-row's all-reduce or reduce-scatter). */
struct evr_run {
	int mode, train, n, phases, ccl;
	size_t M, K, N;
};

/* The run of plan p (its mode, devices, pass and collective; not its bug). */
void evr_run_init(struct evr_run *run, const struct dm_plan *p, size_t M, size_t K, size_t N);

/* Phase's kind and step in the run's schedule (schedule.h). */
int evr_kind_at(const struct evr_run *run, int phase);
int evr_step_at(const struct evr_run *run, int phase);

/* rank's rows of A and C (numpy.array_split), [begin, end). */
size_t evr_row_begin(const struct evr_run *run, int rank);
size_t evr_row_end(const struct evr_run *run, int rank);

/* One event on its own, against the shapes and the schedule.  Returns 0 or
 * DM_EFORMAT with err saying "event i: why". */
int evr_check_event(const struct evr_run *run, size_t i, const struct ev *e, struct dm_err *err);

/* Every event of ev[0..n_ev) alone, and in phase order: what evr_event
 * checks first, for a whole log at once, so that a log with a bad event or
 * out of order says so before what that does to whole phases. */
int evr_check_events(const struct evr_run *run, const struct ev *ev, size_t n_ev,
		     struct dm_err *err);

/* How much of a phase is checked once its events are all in. */
enum evr_phases {
	EVR_PHASES_NONE = 0,  /* event by event only (replay) */
	EVR_PHASES_WHOLE,     /* every phase complete (a finished run's trace) */
	EVR_PHASES_UNTIL_SHORT, /* complete until the first phase that is not:
				   there a failed run stopped, and from there on
				   ranks stopped or ran ahead */
};

/* Who did an op in which phase: taken when .phase is the phase at hand. */
struct evr_slot {
	int32_t phase;
	size_t ev;
};

/* The shards one candidate run holds (FSDP). */
struct evr_ring {
	int *held;   /* n: the shard each rank holds now, -1 none */
	int *before; /* n: what it held when the phase `moved` began */
	int *moved;  /* n: the phase its holding last changed in, -1 */
	int *got;    /* n: the phase it last received in, -1 */
};

#define EVR_OPS EV_OP_COUNT
#define EVR_TENSORS EV_TENSOR_COUNT

struct evr {
	struct evr_run run;
	const struct ev *ev; /* the log: evr_event(x, i) takes ev[i] */
	int policy;          /* enum evr_phases */
	int whole;           /* phases are still held to completeness */
	unsigned cands;      /* bit b: bug b was a candidate */
	unsigned alive;      /* bit b: a run with bug b still fits */
	int primary;         /* the candidate whose reason is given */
	struct evr_ring ring[BUG_COUNT];
	/* n each: who did op on tensor in which phase (gather by peer, the rest by
	 * rank); the forward's tensors are the names below */
	struct evr_slot *slot[EVR_OPS][EVR_TENSORS];
	struct evr_slot *compute_of, *send_of, *recv_of, *gather_of; /* slot[op][EV_TENSOR_FWD] */
	uint64_t *sent, *recvd, *peak; /* n: sums so far, the last peak */
	int phase;           /* of the last event taken, -1 before */
	struct dm_err first; /* why the primary candidate dropped */
};

/* Starts checking the log ev of a run of p (its mode, devices, pass and
 * collective; a training step when p's pass is), A M x K, B K x N, against
 * the candidates in `bugs` (bit b: BUG_b; only those that change a run of
 * this mode count, bug_applies_to: in DP BUG_NONE and arrival-order's
 * gather; in a training step BUG_NONE and the backward's; in tensor
 * parallel BUG_NONE alone).  The primary candidate, whose disagreement the
 * message gives, is BUG_NONE when it is one, else the lowest.  Returns 0,
 * DM_EINVAL (no candidate) or DM_ENOMEM; free with evr_free either way. */
int evr_init(struct evr *x, const struct ev *ev, const struct dm_plan *p, size_t M, size_t K,
	     size_t N, unsigned bugs, int policy, struct dm_err *err);
void evr_free(struct evr *x);

/* Takes ev[i] (events are taken in order, from 0).  Returns 0, or
 * DM_EFORMAT when the event breaks a rule, or when no candidate fits any
 * more ("... (nor does it fit a run with one of the deliberate bugs)" when
 * there were several). */
int evr_event(struct evr *x, size_t i, struct dm_err *err);

/* After the last event: the last phase, as the policy says.  0 or
 * DM_EFORMAT. */
int evr_finish(struct evr *x, struct dm_err *err);

/* The summaries (n, by rank) against the sums of the events taken.  0 or
 * DM_EFORMAT. */
int evr_check_summaries(const struct evr *x, const struct ev_summary *sum, struct dm_err *err);

/* The event a message of these rules names first ("event 9: ..."), or -1;
 * the phase one names first ("phase 3: ...", "phase 3 has no events"), or
 * -1.  Every message begins with one of the two. */
long evr_named_event(const char *msg);
int evr_named_phase(const char *msg);

/* After the events taken: the shard rank holds in the run with bug (-1
 * none, and always in DP), and whether rank 0 has placed rank's rows. */
int evr_holds(const struct evr *x, int bug, int rank);
int evr_gathered(const struct evr *x, int rank);
/* Whether rank 0 has placed rank's piece of tensor (C's rows, dA's rows,
 * dB's chunk) in the last phase. */
int evr_gathered_tensor(const struct evr *x, int tensor, int rank);

/* Whether a tensor-parallel log is a finished run's (replay_finished). */
int evr_tp_finished(const struct evr_run *run, const struct ev *ev, size_t n_ev);

#endif
