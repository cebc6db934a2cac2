/* schedule: the schedule of a run as pure arithmetic: which phases there are,
 * which shard a rank holds at a step, who its neighbours are.  The algorithms
 * follow it; the UI and the tests use it to say what comes next. */
#ifndef DM_SCHED_H
#define DM_SCHED_H

enum dm_mode {
	DM_FSDP = 0, /* A by rows, B by columns, shards travel round a ring */
	DM_DP = 1,   /* A by rows, every device holds all of B */
};

enum sched_kind {
	SCHED_COMPUTE = 0,  /* multiply the A rows by the B shard held */
	SCHED_TRANSFER = 1, /* pass the shard right, receive one from the left */
	SCHED_GATHER = 2,   /* send the C rows to rank 0, which places them */
};

/* FSDP: compute s=0, transfer, compute s=1, ..., compute s=n-1, gather: 2n
 * phases (n computes, n-1 transfers).  DP: compute, gather. */
int sched_phase_count(int mode, int n);
int sched_phase_kind(int mode, int n, int phase);
/* The ring step s a phase belongs to (a transfer belongs to the step it
 * follows; the gather to the last step).  0 in DP. */
int sched_phase_step(int mode, int n, int phase);

/* (rank - step) mod n: the owner index of the shard rank holds at step. */
int sched_shard(int n, int rank, int step);
int sched_right(int n, int rank); /* (rank + 1) mod n: where shards go */
int sched_left(int n, int rank);  /* (rank - 1) mod n: where they come from */

const char *sched_mode_name(int mode);  /* "FSDP", "DP" */
const char *sched_kind_name(int kind);  /* "compute", "transfer", "gather" */

#endif
