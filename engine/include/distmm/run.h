/* run: a distributed multiply on simulated devices, one thread each, driven
 * phase by phase by a controller (the batch printer or the UI).
 *
 * The controller calls run_step() to let the devices do one phase and wait for
 * all of them, or run_finish() to let them run free to the end.  Between calls
 * every device is parked, and the controller reads what it needs through
 * run_snapshot_take() and run_events(): copies, so that a UI never takes an
 * engine lock or reads a device buffer while it draws. */
#ifndef DM_RUN_H
#define DM_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "dm_err.h"
#include "evlog.h"
#include "mat.h"
#include "plan.h"
#include "schedule.h"

#define RUN_MAX_DEVICES PLAN_MAX_DEVICES
#define RUN_MAX_DIM 1000000000u /* per dimension: events keep 32-bit ranges, BLAS takes int */
#define RUN_UNBOUNDED PLAN_UNBOUNDED /* capacity: sends never block, like Python's Queue() */

/* What a device is doing, as the transport sees it (run_dev_view.wait_state). */
enum run_wait_state {
	RUN_BUSY = 0,  /* computing, or between calls */
	RUN_IDLE,      /* parked at the step barrier, or done with its work */
	RUN_WAIT_SEND, /* blocked in a send until the receiver takes the message */
	RUN_WAIT_RECV, /* blocked in a receive until the sender sends */
	RUN_EXITED,    /* its thread has ended */
};

/* What a run needs besides its plan (plan.h: the mode, the devices, the
 * pass, the order, the bug and the capacity). */
/* What a run keeps of its event log.  Every event is 88 bytes and FSDP on n
 * devices logs about 3n^2 of them (d = 4096: 50 million), so a caller that
 * does not step back, replay or write a trace keeps less: the totals
 * (run_summaries) and the results never depend on the log. */
enum run_keep {
	RUN_KEEP_ALL = 0, /* every phase done: stepping back, --trace */
	RUN_KEEP_LATEST,  /* only the phases the last run_step, run_advance or
			     run_finish ran: a caller that prints the events as
			     it goes (run_advance keeps that to RUN_LATEST_EVENTS) */
	RUN_KEEP_NONE     /* none (run_events gives 0) */
};

struct run_config {
	unsigned wait_timeout_ms; /* deadline of each message wait, 0 for none */
	enum run_keep keep;       /* RUN_KEEP_ALL by default */
	uint64_t mem_limit;       /* refuse a run whose estimate exceeds it, 0 for none */
	/* a training step's dC (M x N, only read by run_new), the gradient that
	 * comes into C; NULL for the forward */
	const struct mat *dc;
	/* tp-mlp's second weight E (N x P, the plan's P; only read by run_new:
	 * the ranks copy their rows), NULL for every other mode */
	const struct mat *e;
};

/* The defaults: a 120 s deadline, every event kept, no limit, no dC, no E. */
void run_config_default(struct run_config *cfg);

/* What run_new() would allocate for a run of p on these shapes, keeping
 * keep of its events, in bytes (devices' copies, the gathered C, event
 * logs and thread stacks; a
 * training step's gradients), or UINT64_MAX when it does not fit in 64
 * bits. */
uint64_t run_estimate_bytes(const struct dm_plan *p, size_t M, size_t K, size_t N,
			    enum run_keep keep);

/* The checks every run of p makes of its matrices: A's columns B's rows,
 * no empty matrix, sizes BLAS (and MPI) can count; for a training step dC
 * with values and C's shape.  Only A's and B's shapes are read, never their
 * values (a and b may have data NULL).  The plan's settings together are
 * plan_check's.  Returns 0 or DM_EINVAL with err filled.  run_new() makes
 * them; so do the MPI run, the replay and trace_check. */
int run_check_shapes(const struct dm_plan *p, const struct mat *a, const struct mat *b,
		     const struct mat *dc, struct dm_err *err);

struct run;

/* A run of plan p (copied: the caller's may be freed at once) with cfg's
 * other settings (NULL: the defaults).  A collective's plan takes its
 * inputs as a, n x count (row r rank r's buffer; allgather reads chunk r
 * of it, broadcast row 0), and b NULL.  Checks the shapes
 * (run_check_shapes) and the plan (plan_check), checks the estimate against
 * cfg->mem_limit, gives every device what it holds, and starts the device
 * threads parked before phase 0.  a and b are only read, but not only here:
 * the devices' rows of A are views of a, and a device that holds all of B
 * without sending it (DP's rank 0, FSDP on one device) uses b itself, so
 * both must stay alive and unchanged until run_free().  FSDP's shards and
 * DP's other replicas of B are the devices' own copies.
 * Returns 0, or DM_EINVAL (bad configuration or shapes), DM_ENOMEM, DM_ETHREAD
 * with err filled; nothing is left running on failure. */
int run_new(struct run **out, const struct dm_plan *p, const struct run_config *cfg,
	    const struct mat *a, const struct mat *b, struct dm_err *err);

/* Runs the next phase and waits until every device has finished it.
 * Returns 1 if that was the last phase, 0 if more remain, or an error: the
 * lowest-ranked real failure, never the DM_ESTOPPED it caused (DM_EDEADLOCK, DM_EPROTO...)
 * with err filled.  After an error the run is over. */
int run_step(struct run *r, struct dm_err *err);

/* As run_step, but runs as many phases as about RUN_LATEST_EVENTS events
 * take (at least one), the devices not parking between them: a caller that
 * streams the events with RUN_KEEP_LATEST parks the threads once a chunk,
 * not once a phase (at d = 4096, parking 4096 threads 8192 times costs
 * minutes).  Returns as run_step. */
#define RUN_LATEST_EVENTS (1u << 19)
int run_advance(struct run *r, struct dm_err *err);

/* Runs every remaining phase without parking.  Returns 0 or an error. */
int run_finish(struct run *r, struct dm_err *err);

int run_phase(const struct run *r);       /* the last phase done, -1 before the first */
int run_phase_count(const struct run *r); /* phases in all */
int run_devices(const struct run *r);
const struct dm_plan *run_plan(const struct run *r); /* the run's copy, until run_free */

/* The gathered C once the last phase is done, else NULL (tp-mlp: rank
 * 0's Z, M x P). */
const struct mat *run_result(const struct run *r);
/* A collective's result on rank: its buffer (1 x the plan's count) once
 * the last phase is done, else NULL (and for a matrices' run, whose
 * run_result is C).  tp-row with its all-reduce: the C rank holds (rank
 * 0's is run_result). */
const struct mat *run_ccl_output(const struct run *r, int rank);
/* A training step's gathered dA (M x K) and dB (K x N) once the last phase
 * is done, else NULL (and for a forward run). */
const struct mat *run_result_da(const struct run *r);
const struct mat *run_result_db(const struct run *r);

/* The events of the phases done (with RUN_KEEP_LATEST those the last
 * run_step, run_advance or run_finish ran; with RUN_KEEP_NONE none), in (phase, rank)
 * order; *count gets their number.  Valid until the next
 * run_step/run_finish/run_free. */
const struct ev *run_events(const struct run *r, size_t *count);

/* Per device totals (n entries). */
void run_summaries(const struct run *r, struct ev_summary *out);

/* Stops the devices if they have not finished, joins every thread, frees. */
void run_free(struct run *r);

/* What one device looks like between phases. */
struct run_dev_view {
	size_t row_begin, row_end; /* its rows of A and C */
	int shard;                 /* FSDP: owner index of the B shard it holds, -1 none */
	size_t shard_col_begin, shard_col_end; /* that shard's columns of B */
	int holds_full_b;          /* DP: its replica of all of B */
	uint64_t held_bytes, peak_bytes, sent_bytes, recv_bytes;
	uint64_t dp_bytes;         /* what it would hold under DP: A rows + B + C rows */
	int sent_shard, sent_to;   /* what the last phase moved, -1 when nothing */
	int recv_shard, recv_from;
	enum run_wait_state wait_state;
	int wait_peer;             /* who it waits on */
	int wait_shard;            /* the shard a blocked send holds, -1 otherwise */
	int wait_via_rx;           /* RUN_WAIT_RECV: through its receive thread (recv-thread) */
	int threads;               /* its threads: 1, or 2 with the recv-thread fix */
	enum run_wait_state rx_state; /* its receive thread's wait (RUN_IDLE when none) */
	int rx_peer;
	int failed;                /* it stopped with an error */
	/* the training step (0 and -1 in a forward run); held_bytes and
	 * peak_bytes count the backward's buffers too */
	int da_parts;              /* B shards summed into its rows of dA so far (n: all) */
	int db_sent, db_recv;      /* the dB chunks the last phase sent (to sent_to) and
				      received (from recv_from), -1 none */
	int db_added;              /* the last phase added its part into db_recv (1), stored
				      the sum received over it (0, no-sum), -1 neither */
	int db_chunk;              /* the chunk of dB it keeps: FSDP its own once summed,
				      -2 all of dB (DP after the all-gather, or one device),
				      -1 none (not yet, or sent to rank 0 in the gather) */
};

#define RUN_FILL_NONE (-1)   /* col_fill: not computed yet */
#define RUN_FILL_FULL_B (-2) /* col_fill: computed from all of B (DP) */

struct run_snapshot {
	enum dm_mode mode;
	int n;
	enum dm_bug bug;     /* the run's, where it changes the forward (bug_applies), else none */
	enum dm_order order; /* the run's in FSDP; parity in DP (no ring) */
	size_t M, K, N;
	int phase;       /* the last phase done, -1 before the first */
	int phase_count;
	int finished;    /* the last phase is done */
	struct run_dev_view *dev; /* n */
	int *col_fill;   /* n * N: col_fill[r*N + j], the shard that filled column j of
			    rank r's rows, or RUN_FILL_* */
	double *c;       /* M * N current values of C (the devices' rows, then the
			    gathered C), or NULL when not asked for */
	size_t event_count;
	/* the training step, in a snapshot made for a training plan (NULL and 0
	 * otherwise) */
	enum dm_pass pass; /* the run's: DM_TRAIN for a training step */
	enum sched_kind kind; /* of the last phase done, SCHED_NONE before the first */
	int *db_fill;    /* n * N: db_fill[r*N + j], how many ranks' partials column j
			    of rank r's dB holds (0: it holds none there) */
	double *da;      /* M * K values of dA (the devices' rows, then the gathered dA),
			    or NULL when not asked for */
	double *db;      /* n * K * N: db[(r*K + i)*N + j], rank r's dB as it holds it
			    now (its partial, summed in place by the reduce-scatter, in DP
			    filled by the all-gather; in FSDP its summed chunk alone once
			    kept), zeros where it holds none; NULL when not asked for */
	double *db_result; /* K * N: the gathered dB once the gather is done, zeros
			      before; NULL when not asked for */
	/* a collective's, in a snapshot made for a collective's plan (mode
	 * DM_COLL: no matrices, col_fill and c NULL; NULL and 0 otherwise): its
	 * chunks, which the interface draws as rows on each rank.  tp-row's
	 * too (mode DM_TP_ROW: its sum is a collective): a buffer of M x N
	 * a rank, the partial summed so far, its chunks C's row chunks (after
	 * the reduce-scatter's gather a rank's own rows alone, zeros around).
	 * tp-mlp's: a buffer of M x P a rank, its partial of Z (c is then H,
	 * A @ B and after the activation act(A @ B), by columns as tp-col's) */
	size_t P;          /* tp-mlp: Z's columns; 0 otherwise */
	size_t ccl_count;  /* doubles in a rank's buffer */
	int *ccl_parts;    /* n * n: ccl_parts[r*n + c], how many ranks' parts rank r's
			      chunk c holds (0: none; a copy of rank c's own chunk, or of
			      rank 0's, is 1) */
	double *ccl_buf;   /* n * ccl_count: every rank's buffer now; NULL when not
			      asked for */
};

/* Allocates a snapshot for a run of p (its devices) on A M x K and B K x N;
 * with want_values it holds a copy of C too.  A training plan's has the
 * training step's fields (db_fill; with want_values dA and dB); a
 * collective's its own (ccl_parts; with want_values ccl_buf), M, K and N
 * not read.  Returns 0 or DM_ENOMEM. */
int run_snapshot_init(struct run_snapshot *s, const struct dm_plan *p, size_t M, size_t K,
		      size_t N, int want_values, struct dm_err *err);
/* Copies the run's state between phases into s (made for this run's shape). */
void run_snapshot_take(const struct run *r, struct run_snapshot *s);
void run_snapshot_free(struct run_snapshot *s);

#endif
