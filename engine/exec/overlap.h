/* overlap: what --prefetch overlaps.  A device's products are jobs that
 * touch nothing of the device but their own output block (its C rows, or
 * its dA), so its compute worker may run one while the device's own thread
 * passes shards round the ring: the transfer's calls, their accounting and
 * every event stay on the device's thread, and the transport sees that
 * thread alone (the worker never waits on a peer, so the deadlock
 * detection is unchanged).  One worker a device for the whole run, handed
 * one job a step, joined before the device moves on.  Private to engine/. */
#ifndef DM_OVERLAP_H
#define DM_OVERLAP_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/evlog.h>

/* One product: bwd 0, out[:, c0:c0+w] (ld N) += a (rows x K) @ b[:, 0:w]
 * (ld ldb: a deliberate bug may use fewer columns than the shard has);
 * bwd 1, out (rows x K) += a[:, c0:c0+w] (ld N) @ bᵀ (b K x w, ld ldb).  ev is its
 * event, timed by dev_job_run from t0_ns; held and peak, when stamped, the
 * bytes its event says (the receive buffer of the transfer it overlapped
 * is held while it runs). */
struct dev_job {
	int bwd;
	size_t rows, K, N, c0, w, ldb;
	const double *a, *b;
	double *out;
	uint64_t t0_ns;
	struct ev ev;
	int stamped;
	uint64_t held, peak;
};

/* Runs the product and stamps ev's times.  Touches out alone. */
void dev_job_run(struct dev_job *j);

struct overlap;

/* Starts rank's compute worker.  Returns 0, or DM_ETHREAD / DM_ENOMEM with
 * err filled. */
int overlap_start(struct overlap **out, int rank, struct dm_err *err);
/* Hands it j, which must live until overlap_join returns. */
void overlap_post(struct overlap *o, struct dev_job *j);
/* Waits until the job posted last has run (a product: it always ends). */
void overlap_join(struct overlap *o);
/* Ends and joins the worker (after the last join), and frees it; NULL is
 * nothing. */
void overlap_stop(struct overlap *o);

#endif
