/* rxthread: the receive-thread fix's second thread (see rxthread.h).
 * The hand-over between the two threads is a mutex and condition variable
 * of the pair; the receive itself, and the first thread's wait for it, are
 * the transport's, which is what makes the deadlock detection see both.
 * The result travels through x under x->mu, so it is never read before the
 * thread wrote it. */
#include "exec/rxthread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/fault.h"
#include "core/xalloc.h"

/* It only calls the transport; but a stack too small for the process's
 * static TLS is refused (EINVAL), and then the default is used. */
#define RXTHREAD_STACK_BYTES (256u << 10)

static void *rxthread_main(void *arg)
{
	struct rxthread *x = arg;
	pthread_mutex_lock(&x->mu);
	for (;;) {
		while (!x->posted && !x->quit)
			pthread_cond_wait(&x->cv, &x->mu);
		if (x->quit)
			break;
		x->posted = 0;
		int src = x->src, step = x->step;
		pthread_mutex_unlock(&x->mu);
		struct comm_msg m = { 0 };
		struct dm_err e = { 0 };
		int rc = comm_rx_recv(x->comm, x->rank, src, step, COMM_SHARD, &m, &e);
		pthread_mutex_lock(&x->mu);
		x->rc = rc;
		x->msg = m;
		x->err = e;
		x->done = 1;
		pthread_cond_broadcast(&x->cv);
	}
	pthread_mutex_unlock(&x->mu);
	return NULL;
}

int rxthread_start(struct rxthread **out, struct comm *c, int rank, struct dm_err *err)
{
	*out = NULL;
	struct rxthread *x = xcalloc(1, sizeof *x);
	if (!x)
		return dm_err_set(err, DM_ENOMEM, "rank %d: out of memory for its receive thread",
				  rank);
	x->comm = c;
	x->rank = rank;
	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->cv, NULL);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, RXTHREAD_STACK_BYTES);
	int e = fault_thread_fails() ? EAGAIN : pthread_create(&x->thread, &attr, rxthread_main, x);
	if (e == EINVAL)
		e = pthread_create(&x->thread, NULL, rxthread_main, x);
	pthread_attr_destroy(&attr);
	if (e) {
		pthread_cond_destroy(&x->cv);
		pthread_mutex_destroy(&x->mu);
		free(x);
		return dm_err_set(err, DM_ETHREAD, "rank %d: cannot start its receive thread: %s",
				  rank, strerror(e));
	}
	*out = x;
	return 0;
}

void rxthread_post(struct rxthread *x, int src, int step)
{
	comm_rx_arm(x->comm, x->rank);
	pthread_mutex_lock(&x->mu);
	x->src = src;
	x->step = step;
	x->done = 0;
	x->posted = 1;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
}

int rxthread_join(struct rxthread *x, struct comm_msg *out, struct dm_err *err)
{
	int rc = comm_rx_join(x->comm, x->rank, x->src, x->step, COMM_SHARD, err);
	/* after the join the thread has left the transport: its result is a
	 * few instructions away, never a wait of its own */
	pthread_mutex_lock(&x->mu);
	while (!x->done)
		pthread_cond_wait(&x->cv, &x->mu);
	x->done = 0;
	int rx_rc = x->rc;
	*out = x->msg;
	x->msg.data = NULL;
	if (!rc && rx_rc)
		*err = x->err;
	pthread_mutex_unlock(&x->mu);
	if (rc || rx_rc) {
		free(out->data);
		out->data = NULL;
	}
	return rc ? rc : rx_rc;
}

void rxthread_stop(struct rxthread *x)
{
	if (!x)
		return;
	pthread_mutex_lock(&x->mu);
	x->quit = 1;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	pthread_join(x->thread, NULL);
	free(x->msg.data);
	pthread_cond_destroy(&x->cv);
	pthread_mutex_destroy(&x->mu);
	free(x);
}
