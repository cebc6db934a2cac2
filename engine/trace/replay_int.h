/* replay_int: what the replay (replay.c) shares with its training step's
 * half (replay_train.c): the run being rebuilt, and the gradients' state
 * the second pass keeps beside the snapshot.  Private to the two. */
#ifndef DM_REPLAY_INT_H
#define DM_REPLAY_INT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <distmm/mat.h>
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

#endif
