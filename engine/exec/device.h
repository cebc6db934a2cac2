/* device: one simulated device's state and the per-rank algorithms.
 * Private to engine/ (and its white-box tests).  dp_device_run() and
 * fsdp_device_run() are written for one rank over the comm interface, so the
 * same code runs as a thread here and as an MPI process later.
 *
 * Ownership: a device owns the B it holds and its C rows.  A send moves a
 * buffer to the transport; the accounting still counts what a real device
 * must hold: a receive buffer from the start of a transfer, and the shard it
 * sends until the transfer ends (the double buffer of a ring).  In-process,
 * its rows of A are a view of the caller's A (they are only read, and never
 * travel), and so is the B of a device that holds all of B without ever
 * sending it (DP's rank 0, FSDP on one device): the caller's matrices are
 * where a real scatter would start, and the views are counted as held.
 * A transfer that fails counts neither afterwards, nor the peak it raised:
 * the device holds no shard then, and got none.
 *
 * The training step (train): a device also holds its rows of dC from the
 * start, its rows of dA from the backward's first compute, and its dB
 * buffer g (K x N) from the partial on; in FSDP it keeps its own shard of B
 * for the backward (own, while b holds the one the ring brought: a real
 * device sends its own shard in place, so that copy is not counted), lets
 * the gathered shard go after each pass, and once its chunk of dB is summed
 * keeps that chunk alone (db) and lets g go.  The ring steps of the
 * backward count their send and receive buffers as the forward's do. */
#ifndef DM_DEVICE_H
#define DM_DEVICE_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stdint.h>

#include "comm/comm.h"
#include <distmm/dm_err.h>
#include <distmm/evlog.h>
#include <distmm/mat.h>

struct device;

/* How the algorithm meets the controller: called before each phase; returns
 * 0 to go on, or an error (DM_ESTOPPED) to stop. */
typedef int (*device_enter_fn)(struct device *d, int phase);

/* Column-fill markers in device.col_fill besides shard indexes 0..n-1. */
#define DEVICE_FILL_NONE (-1)  /* not computed yet */
#define DEVICE_FILL_FULL_B (-2) /* computed from all of B (DP) */

/* How many freed buffers a device keeps for reuse (device.c says why). */
#define DEVICE_CACHE 3

struct device {
	/* set up by the owner before the algorithm runs */
	int rank, n, mode;
	size_t M, K, N;           /* whole problem */
	size_t row_begin, row_end;
	struct comm *comm;
	device_enter_fn enter;
	void *ctx;                /* the owner's */
	uint64_t t0_ns;           /* run start, for event times */
	int order;                /* enum dm_order: the transfer's order or fix */
	struct rxthread *rx;      /* its receive thread (recv-thread), or NULL */
	int bug;                  /* enum dm_bug: a deliberate mistake in the ring */
	int train;                /* the training step: the backward follows the forward */
	int prefetch;             /* FSDP --prefetch: a step's compute overlaps its transfer */
	struct overlap *ov;       /* its compute worker (prefetch), or NULL */

	struct mat a;      /* its rows of A: rows x K */
	struct mat b;      /* DP: all of B; FSDP: the shard it holds, K x width */
	int a_view, b_view; /* a, b are views of the caller's matrices: not freed */
	int shard;         /* FSDP: owner index of b, -1 when it holds none */
	struct mat c;      /* its rows of C: rows x N, zeroed; empty after the gather sent it */
	int *col_fill;     /* N entries: shard that filled each output column */
	struct mat gathered; /* rank 0: the gathered C, M x N, made by the gather */
	int gather_done;     /* rank 0: gathered holds C */

	/* the training step (train) */
	struct mat own;      /* FSDP: its own shard of B while b holds another (K rows, even
				when the shard has no columns); else 0 x 0 */
	struct mat dc;       /* its rows of dC: rows x N */
	struct mat da;       /* its rows of dA: rows x K, from the backward's first compute */
	struct mat g;        /* its dB: the K x N partial, summed in place by the reduce-scatter
				(in DP filled by the all-gather); empty once db keeps its chunk */
	struct mat db;       /* FSDP: its summed chunk of dB, K x width of shard rank */
	struct mat spare;    /* the chunk last received in a ring step over dB: the next
				step's send buffer (collective.c), counted as held */
	int spare_chunk;     /* the chunk of g whose values spare holds, -1 none */
	int db_summed;       /* FSDP: spare holds its own chunk of dB, final (the last
				reduce-scatter step brought it and finished it there, not
				in g) */
	int *db_fill;        /* N entries: how many ranks' partials column j of its dB holds
				(0: none held) */
	int da_parts;        /* B shards accumulated into da (n for all of B in DP) */
	int db_sent, db_recv; /* the dB chunks the last phase sent and received, -1 none */
	int db_added;        /* the last phase added its part into db_recv (1), stored it over
				(0, no-sum), or neither (-1) */
	struct mat gathered_da, gathered_db; /* rank 0: dA (M x K) and, FSDP, dB (K x N) */

	/* a collective (mode DM_COLL, exec/ccl_device.c): M is n, K and N the
	   doubles of a rank's buffer; a its input (a view of row rank of the
	   caller's n x count inputs), c its buffer, the result */
	int ccl_kind, ccl_algo; /* enum ccl_kind, enum ccl_algo */
	int *parts;          /* n entries: how many ranks' parts chunk c of c holds (0: none) */

	/* tp-mlp (exec/tp.c): c holds H_r, its columns of A @ B, then of act(A @ B);
	   parts counts z's chunks */
	struct mat e;        /* E's rows of shard r: |cols r| x P, a copy */
	struct mat z;        /* its partial Z_r = H_r @ E_r, M x P, summed by the ring */
	size_t P;            /* E's columns */
	int act;             /* enum dm_act */

	/* buffers it let go, kept for its next allocations (device_mat_alloc) */
	struct { double *data; size_t bytes; } cache[DEVICE_CACHE];

	/* accounting, bytes */
	uint64_t held, peak, sent, recvd;

	/* what the current (last) phase moved; -1 when nothing */
	int sent_shard, sent_to, recv_shard, recv_from;

	struct evlog log;
	int log_off;         /* the run keeps no events: device_log only stamps */
	struct dm_err err;
};

/* Allocates a device's own matrices (C zeroed, col_fill empty) and counts A's
 * and C's bytes as held; the owner then fills a and b and calls
 * device_hold() for b.  Returns 0 or DM_ENOMEM. */
int device_init(struct device *d, struct dm_err *err);

/* Sets device `rank` of n up for an M x K @ K x N multiply in mode (with
 * bug, in FSDP): its fields, its rows, device_init, its rows of A and the B
 * it starts with (all of B in DP, shard `rank` in FSDP), counted as held.
 * With the caller's a and b (in-process) it takes them from there: views
 * where the memory can stay the caller's (see above), copies otherwise; a
 * and b must then outlive the device.  With a and b NULL (MPI) the buffers
 * are left unfilled for the owner to fill whole (a receive).  The owner
 * then sets comm, enter and ctx.  Returns 0 or DM_ENOMEM. */
int device_setup(struct device *d, int rank, int n, int mode, int bug, size_t M, size_t K,
		 size_t N, const struct mat *a, const struct mat *b, struct dm_err *err);
/* The same for the training step: also its rows of dC (zeroed, counted,
 * for the owner to fill) and its dB column fill. */
int device_setup_train(struct device *d, int rank, int n, int mode, int bug, size_t M,
		       size_t K, size_t N, const struct mat *a, const struct mat *b,
		       struct dm_err *err);
/* The block of src at row r0, column c0 of dst's shape, into dst. */
void device_copy_block(struct mat *dst, const struct mat *src, size_t r0, size_t c0);
void device_release(struct device *d);
/* A rows x cols matrix for the device: a buffer it let go when one fits
 * (zeroed on `zeroed`), else a new one (mat_alloc, zeroed, or uninit). */
int device_mat_alloc(struct device *d, struct mat *m, size_t rows, size_t cols, int zeroed);
/* Lets m go into the device's cache (or frees it); m is left empty. */
void device_mat_free(struct device *d, struct mat *m);

/* Accounting: bytes now held in addition / no longer held. */
void device_hold(struct device *d, uint64_t bytes);
void device_drop(struct device *d, uint64_t bytes);

/* Monotonic nanoseconds (for event times). */
uint64_t device_now_ns(void);

/* The algorithms.  Return 0, or an error with d->err filled. */
int fsdp_device_run(struct device *d);
int dp_device_run(struct device *d);
/* The training step's, both modes: the schedule's phases in turn (train.c). */
int train_device_run(struct device *d);
/* The one a device runs: its mode's, the training step, or a collective's
 * (ccldev_run, exec/ccl_device.h). */
int device_run(struct device *d);

/* Steps of the algorithms the training step shares (fsdp.c, dp.c): FSDP's
 * compute of C at step s and ring transfer (the backward's all-gather is
 * the same transfer), DP's compute of C. */
int fsdp_compute(struct device *d, int phase, int step);
int fsdp_transfer(struct device *d, int phase, int step);
int dp_compute(struct device *d, int phase);

/* --prefetch (prefetch.c): FSDP's compute at step (phase) and the transfer
 * after it (phase + 1) at once, the product on the compute worker while
 * this thread passes the shards; the double buffer (the shard multiplied
 * and the one coming in) is held from the start of the pair.  bwd: the
 * backward's compute of dA and its all-gather's transfer.  The events are
 * the plain phases' (phase, then phase + 1).  Returns as fsdp_transfer. */
int prefetch_pair(struct device *d, int phase, int step, int bwd);
/* The compute worker of a device that prefetches on more than one device
 * (d->ov), and its end.  Returns 0 or DM_ETHREAD / DM_ENOMEM. */
int prefetch_start(struct device *d);
void prefetch_stop(struct device *d);

/* The pieces prefetch_pair runs apart (overlap.h's dev_job): a compute's
 * checks and its product to be (prep), its bookkeeping and event once it
 * ran (done); a transfer's calls with its accounting, the shard it held
 * set aside in *aside rather than sent (a copy goes: the product still
 * reads it; NULL sends it as the plain ring does), its events in ev and
 * their number in *logged, the bytes held with both buffers in *held and
 * *peak (go); then their logging (log). */
struct dev_job;
int fsdp_compute_prep(struct device *d, int phase, int step, struct dev_job *j);
int fsdp_compute_done(struct device *d, struct dev_job *j);
int train_da_prep(struct device *d, int phase, int step, struct dev_job *j);
int train_da_done(struct device *d, struct dev_job *j);
int fsdp_transfer_go(struct device *d, int phase, int step, struct mat *aside, struct ev *ev,
		     int *logged, uint64_t *held, uint64_t *peak);
int fsdp_transfer_log(struct device *d, const struct ev *ev, int logged);

/* The training step's ring steps over dB's chunks (collective.c): one step
 * of the reduce-scatter (send the running sum of a chunk right, receive one
 * from the left, add its own part into it) and of DP's all-gather (pass the
 * summed chunks on). */
int coll_reduce_scatter(struct device *d, int phase, int step);
int coll_all_gather(struct device *d, int phase, int step);

/* The training step's gather (train_gather.c): C's rows, dA's rows and, in
 * FSDP, each rank's chunk of dB to rank 0. */
int train_gather(struct device *d, int phase);

/* A copy of columns [c0, c0 + w) of a rows x ld matrix at src, as a new
 * rows x w matrix in *out (the chunk a message carries).  Returns 0 or
 * DM_ENOMEM with d->err filled. */
int device_copy_cols(struct device *d, const double *src, size_t rows, size_t ld, size_t c0,
		     size_t w, struct mat *out);

/* Shared by both: every rank's C rows to rank 0, placed by row offset. */
int device_gather(struct device *d, int phase, int step);

/* Starts a phase: meets the controller through d->enter, then (if the phase
 * may start) forgets what the last one moved.  Returns what d->enter returns. */
int device_enter(struct device *d, int phase);

/* Appends an event, stamped with the bytes the device holds now and its
 * peak (the times are the caller's). */
int device_log(struct device *d, const struct ev *e);
/* The same, stamped with held and peak as given (an event logged after the
 * moment it stands for: prefetch_pair's compute). */
int device_log_as(struct device *d, const struct ev *e, uint64_t held, uint64_t peak);

#endif
