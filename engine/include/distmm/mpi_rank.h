/* mpi_rank: one rank of a distributed multiply, run as an MPI process.
 * Rank r of the communicator is device r: it sets up the same struct device
 * the in-process controller sets up for thread r (its rows of A; all of B in
 * DP, shard r of B in FSDP; the same accounting), runs the same per-rank
 * algorithm (dp_device_run, fsdp_device_run) over the MPI transport
 * (comm_mpi.h), and rank 0 ends up with what run.h gives the in-process
 * controller: the gathered C, every rank's events merged in (phase, rank)
 * order, and every rank's totals.  MPI-only, like comm_mpi.
 *
 * Only rank 0 needs the matrices: it checks them, tells every rank the
 * shapes, and sends each rank its part (a training step's rows of dC too;
 * dA and dB come back to rank 0 in the gather, as C does).  Every call here is collective: all
 * ranks call mpi_rank_run() once, and it returns on all of them, a failure
 * on any rank included (the others' waits end, see comm_mpi.h). */
#ifndef DM_MPI_RANK_H
#define DM_MPI_RANK_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "dm_err.h"
#include "evlog.h"
#include "mat.h"
#include "plan.h"
#include "schedule.h"

/* What one rank holds between phases (for --step). */
struct mpi_rank_view {
	int rank, n;
	enum dm_mode mode;
	int phase;                 /* the phase about to run; phase_count when all are done */
	int phase_count;
	enum sched_kind kind;      /* that phase's kind and step; SCHED_NONE and 0 when done */
	int step;
	size_t N;                  /* columns of C */
	size_t row_begin, row_end; /* its rows of A and C */
	int shard;                 /* FSDP: owner index of the B shard it holds, -1 none */
	size_t shard_col_begin, shard_col_end;
	int holds_full_b;          /* DP: its replica of all of B */
	size_t cols_done;          /* columns of its C rows computed so far */
	int c_sent;                /* its C rows have gone to rank 0 */
	int gathered;              /* rank 0: it holds the gathered C */
	int sent_shard, sent_to;   /* what the last phase moved, -1 when nothing */
	int recv_shard, recv_from;
	uint64_t held_bytes, peak_bytes, sent_bytes, recv_bytes;
	enum dm_pass pass;         /* DM_TRAIN: a training step, the fields below */
	int da_parts;              /* B shards summed into its rows of dA */
	int db_sent, db_recv;      /* the dB chunks the last phase moved, -1 none */
};

struct mpi_rank_config {
	/* rank 0: the run's mode, pass and bug (its order and capacity are the
	 * in-process transport's: not read; its devices: the communicator's
	 * size); NULL elsewhere, as a and b are */
	const struct dm_plan *plan;
	const struct mat *dc;  /* rank 0, a training plan: dC, M x N (NULL elsewhere) */
	const struct mat *e;   /* rank 0, tp-mlp: E, N x P (NULL elsewhere) */
	/* The step barrier: when show is set, every rank calls show with what it
	 * holds before each phase and once after the last, then the ranks meet
	 * at a barrier; rank 0 calls pause (if set) once all have arrived, and
	 * the phase starts when it returns 0 (non-zero: the run stops with that
	 * code).  Without show the ranks run free, as run_finish() does. */
	void (*show)(void *ctx, const struct mpi_rank_view *v);
	int (*pause)(void *ctx, int phase);
	void *ctx;
};

/* Rank 0's account of the run. */
struct mpi_rank_result {
	int n;
	enum dm_mode mode;
	enum dm_bug bug;   /* the bug the run made: p's where it applies, else none */
	enum dm_pass pass; /* DM_TRAIN: a training step */
	size_t M, K, N;
	int ran;            /* the devices started: a failure is the run's, not the input's */
	struct ev *ev;      /* every rank's events, by phase then rank (run_events' order) */
	size_t n_ev;
	struct ev_summary *sum; /* n: peak, sent, received, as run_summaries() gives */
	struct mat c;       /* the gathered C, when the run finished */
	struct mat da, db;  /* a training step's gathered dA (M x K) and dB (K x N) */
};

/* run_new's checks of a run of p on these matrices (run_check_shapes, a
 * training plan's dC included, tp-mlp's E, and plan_check), for rank 0 to
 * refuse bad input before it starts anything: 0, or DM_EINVAL with err
 * filled.  mpi_rank_run() checks again. */
int mpi_rank_check(const struct dm_plan *p, const struct mat *a, const struct mat *b,
		   const struct mat *dc, const struct mat *e, struct dm_err *err);

/* Runs one rank.  a and b are read on rank 0 only (NULL elsewhere); mc is
 * the job's communicator (its size is the device count, up to
 * RUN_MAX_DEVICES).  On rank 0, returns the run's result: 0 with res
 * filled, or the first real failure of any rank (a rank stopped because
 * another failed does not count) with err saying which, and res still
 * holding the events logged up to there and the totals (res->ran says
 * whether the devices had started: DM_EINVAL for bad shapes, DM_ENOMEM
 * before, any error of the algorithm after).  On the other ranks, returns
 * this rank's own outcome; res is left empty.  MPI's own failures end the
 * job through MPI's default error handler: a collective that failed on one
 * rank only would leave the others waiting. */
int mpi_rank_run(MPI_Comm mc, const struct mpi_rank_config *cfg, const struct mat *a,
		 const struct mat *b, struct mpi_rank_result *res, struct dm_err *err);

void mpi_rank_result_free(struct mpi_rank_result *res);

#endif
