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
 * the device holds no shard then, and got none. */
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

	struct mat a;      /* its rows of A: rows x K */
	struct mat b;      /* DP: all of B; FSDP: the shard it holds, K x width */
	int a_view, b_view; /* a, b are views of the caller's matrices: not freed */
	int shard;         /* FSDP: owner index of b, -1 when it holds none */
	struct mat c;      /* its rows of C: rows x N, zeroed; empty after the gather sent it */
	int *col_fill;     /* N entries: shard that filled each output column */
	struct mat gathered; /* rank 0: the gathered C, M x N, made by the gather */
	int gather_done;     /* rank 0: gathered holds C */

	/* accounting, bytes */
	uint64_t held, peak, sent, recvd;

	/* what the current (last) phase moved; -1 when nothing */
	int sent_shard, sent_to, recv_shard, recv_from;

	struct evlog log;
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
void device_release(struct device *d);

/* Accounting: bytes now held in addition / no longer held. */
void device_hold(struct device *d, uint64_t bytes);
void device_drop(struct device *d, uint64_t bytes);

/* Monotonic nanoseconds (for event times). */
uint64_t device_now_ns(void);

/* The algorithms.  Return 0, or an error with d->err filled. */
int fsdp_device_run(struct device *d);
int dp_device_run(struct device *d);

/* Shared by both: every rank's C rows to rank 0, placed by row offset. */
int device_gather(struct device *d, int phase, int step);

/* Starts a phase: meets the controller through d->enter, then (if the phase
 * may start) forgets what the last one moved.  Returns what d->enter returns. */
int device_enter(struct device *d, int phase);

/* Appends an event, stamped with the bytes the device holds now and its
 * peak (the times are the caller's). */
int device_log(struct device *d, const struct ev *e);

#endif
