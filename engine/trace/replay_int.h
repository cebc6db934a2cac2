/* replay_int: what the replays share: replay.c (held to the ring's rules),
 * its training step's half (replay_train.c) and replay_recorded.c (as recorded):
 * the argument checks, the scratch blocks shaped as a device's buffers, the
 * product redone through them, the devices before their first event, and
 * the gradients' state the second pass keeps beside the snapshot.  One
 * copy, so that a correct log gives them the same doubles, bit for bit. */
#ifndef DM_REPLAY_INT_H
#define DM_REPLAY_INT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include <distmm/plan.h>
#include <distmm/run.h>

#include "trace/evrules.h"

struct replay_ctx {
	int mode, train, n, bug, upto, phase_count;
	size_t M, K, N;
	const struct ev *ev;
	size_t used;      /* ev[0..used) have phase <= upto */
	struct evr chk;   /* the events used, checked: shards, sums, gathers */
};

/* The training step's values as the devices hold them, and scratch blocks
 * shaped as their buffers (so that every product is bit for bit theirs).
 * Only with values; the fills and the view's fields need none.  The dB
 * buffers summed in are the snapshot's own (s->db). */
struct replay_grads {
	double *dc, *b, *da, *a;  /* scratch: dC rows (rows x N), the B held (K x width),
				     dA rows (rows x K), A rows (rows x K) */
	double *part;             /* scratch K x N: a partial as its device makes it */
	int *keep;                /* n: the phase in which the rank kept its chunk of dB and
				     let the rest go, until the phase is over; -1 none */
};

/* Scratch for x (with values: the blocks too).  0 or DM_ENOMEM. */
int replay_train_alloc(struct replay_grads *gr, const struct replay_ctx *x, int values,
		       struct dm_err *err);
void replay_train_free(struct replay_grads *gr);

/* Before the first event: the gradients' fields of every device. */
void replay_train_initial(struct run_snapshot *s, const struct replay_ctx *x,
			  struct replay_grads *gr);

/* A training step's event (a gradient's, or a free), redone; `last`: it is
 * in the phase the snapshot is after.  The forward's events are replay.c's. */
void replay_train_event(struct run_snapshot *s, const struct replay_ctx *x,
			struct replay_grads *gr, const struct mat *a, const struct mat *b,
			const struct mat *dc, const struct ev *e, int last);

/* After the last event: what follows from all of them (the chunk each rank
 * keeps, the gathered dA and dB). */
void replay_train_finish(struct run_snapshot *s, const struct replay_ctx *x,
			 struct replay_grads *gr);


/* The blocks a device multiplies, as heap copies (see replay.c). */
struct replay_scratch {
	double *a, *b, *c, *t;
	double *g; /* M x N, the gathered C, when blocks move */
};

/* The engine's shape check (run_check_shapes: a training plan's dC too),
 * the values, a phase of p's schedule, a snapshot of these shapes (a
 * training step's for a training plan).  0 or DM_EINVAL. */
int replay_check_args(const struct run_snapshot *s, const struct dm_plan *p, const struct mat *a,
		      const struct mat *b, const struct mat *dc, const struct ev *ev, size_t n_ev,
		      int upto, struct dm_err *err);

/* How many events come first with phase <= upto (*used); 0, or
 * DM_EFORMAT when one with phase <= upto comes after a later phase's. */
int replay_used(const struct ev *ev, size_t n_ev, int upto, size_t *used, struct dm_err *err);

/* replay_snapshot of a tensor-parallel plan (replay_tp.c), its arguments
 * checked by replay_check_args. */
int replay_tp(struct run_snapshot *s, const struct dm_plan *p, const struct mat *a,
	      const struct mat *b, const struct mat *dc, const struct ev *ev, size_t n_ev,
	      int upto, struct dm_err *err);

/* Blocks for products of up to `rows` rows of A (K columns) by `width`
 * columns of B, into C rows of N columns; with_g: the M x N gathered C too.
 * 0 or DM_ENOMEM (nothing held). */
int replay_scratch_alloc(struct replay_scratch *sc, size_t rows, size_t K, size_t N,
			 size_t width, int with_g, size_t M, struct dm_err *err);
void replay_scratch_free(struct replay_scratch *sc);

/* C[r0:r0+rows, c0:c0+w] += A[r0:r0+rows, :] @ B[:, b0:b0+w], B's block
 * copied width columns wide (the shard held, ldb width), as a device does;
 * truncated: through a rows x w block cut to whole numbers (bug_truncate).
 * rows <= the scratch's rows, w <= width <= its width. */
void replay_product(struct replay_scratch *sc, const struct mat *a, const struct mat *b,
		    size_t r0, size_t rows, size_t c0, size_t w, size_t b0, size_t width,
		    int truncated, double *c);

/* Every device before its first event, the snapshot's header for phase
 * upto with `used` events: its rows, its own shard (FSDP) or all of B, the
 * held and peak bytes it starts with, nothing moved, nothing filled. */
void replay_initial(struct run_snapshot *s, int mode, int train, int n, size_t M, size_t K,
		    size_t N, int upto, size_t used);

#endif
