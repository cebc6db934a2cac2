/* rxthread: a device's receive thread, for the recv-thread fix ("start a
 * thread that receives, then send, then join it").  One per device for the
 * whole run, handed one receive a transfer, rather than one thread a
 * transfer: n devices would otherwise create n (n - 1) threads.  Its waits
 * go through the transport (comm_rx_*), so a deadlock is still found
 * exactly.  Private to engine/. */
#ifndef DM_RXTHREAD_H
#define DM_RXTHREAD_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <pthread.h>

#include "comm/comm.h"
#include <distmm/dm_err.h>

struct rxthread {
	struct comm *comm;
	int rank;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int posted, done, quit; /* under mu: a receive handed over, its result in, stop */
	int src, step;          /* the receive handed over */
	int rc;                 /* its result, with msg and err */
	struct comm_msg msg;
	struct dm_err err;
};

/* Starts rank's receive thread (it inherits the caller's signal mask).
 * Returns 0, or DM_ETHREAD / DM_ENOMEM with err filled. */
int rxthread_start(struct rxthread **out, struct comm *c, int rank, struct dm_err *err);

/* Hands it the receive of the shard for step from src; it counts as
 * running from here on (comm_rx_arm). */
void rxthread_post(struct rxthread *x, int src, int step);

/* Waits for that receive (the wait the transport sees: comm_rx_join), then
 * collects it into *out.  Returns 0 or an error with err filled. */
int rxthread_join(struct rxthread *x, struct comm_msg *out, struct dm_err *err);

/* Ends and joins the thread (a receive in progress is ended by closing the
 * transport first, which the caller does on failure), and frees it. */
void rxthread_stop(struct rxthread *x);

#endif
