/* replay_int: what the two replays share (replay.c, held to the ring's rules,
 * and replay_rec.c, as recorded): the argument checks, the scratch blocks
 * shaped as a device's buffers, the product redone through them, and the
 * devices before their first event.  One copy, so that a correct log gives
 * the two the same doubles, bit for bit. */
#ifndef DM_REPLAY_INT_H
#define DM_REPLAY_INT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include <distmm/run.h>

/* The blocks a device multiplies, as heap copies (see replay.c). */
struct replay_scratch {
	double *a, *b, *c, *t;
	double *g; /* M x N, the gathered C, when blocks move */
};

/* The engine's shape check (run_check_shapes), the values, a phase of the
 * schedule, a snapshot of these shapes.  0 or DM_EINVAL. */
int replay_check_args(const struct run_snapshot *s, const struct mat *a, const struct mat *b,
		      int mode, int n, int bug, const struct ev *ev, size_t n_ev, int upto,
		      struct dm_err *err);

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
void replay_initial(struct run_snapshot *s, int mode, int n, size_t M, size_t K, size_t N,
		    int upto, size_t used);

#endif
