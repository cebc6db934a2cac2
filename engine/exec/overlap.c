/* overlap: the compute worker of --prefetch (see overlap.h).  The hand-over
 * is a mutex and a condition variable; the job travels under the mutex, so
 * the worker reads it after the device wrote it and the device reads the
 * times after the worker wrote them. */
#include "exec/overlap.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/fault.h"
#include "core/gemm.h"
#include "core/xalloc.h"

struct overlap {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct dev_job *job; /* under mu: posted, not yet run */
	int done, quit;      /* under mu */
};

static uint64_t overlap_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void dev_job_run(struct dev_job *j)
{
	uint64_t t = overlap_now_ns();
	if (j->bwd)
		gemm_acc_nt(j->rows, j->K, j->w, j->a ? j->a + j->c0 : NULL, j->N, j->b, j->ldb,
			    j->out, j->K);
	else
		gemm_acc(j->rows, j->w, j->K, j->a, j->K, j->b, j->ldb, j->out ? j->out + j->c0 : NULL,
			 j->N);
	j->ev.t_begin_ns = t - j->t0_ns;
	j->ev.t_end_ns = overlap_now_ns() - j->t0_ns;
}

static void *overlap_main(void *arg)
{
	struct overlap *o = arg;
	pthread_mutex_lock(&o->mu);
	for (;;) {
		while (!o->job && !o->quit)
			pthread_cond_wait(&o->cv, &o->mu);
		if (o->quit)
			break;
		struct dev_job *j = o->job;
		pthread_mutex_unlock(&o->mu);
		dev_job_run(j);
		pthread_mutex_lock(&o->mu);
		o->job = NULL;
		o->done = 1;
		pthread_cond_broadcast(&o->cv);
	}
	pthread_mutex_unlock(&o->mu);
	return NULL;
}

int overlap_start(struct overlap **out, int rank, struct dm_err *err)
{
	*out = NULL;
	struct overlap *o = xcalloc(1, sizeof *o);
	if (!o)
		return dm_err_set(err, DM_ENOMEM, "rank %d: out of memory for its compute worker",
				  rank);
	pthread_mutex_init(&o->mu, NULL);
	pthread_cond_init(&o->cv, NULL);
	/* the default stack: OpenBLAS's kernels want more than a receive does */
	int e = fault_thread_fails() ? EAGAIN : pthread_create(&o->thread, NULL, overlap_main, o);
	if (e) {
		pthread_cond_destroy(&o->cv);
		pthread_mutex_destroy(&o->mu);
		free(o);
		return dm_err_set(err, DM_ETHREAD, "rank %d: cannot start its compute worker: %s",
				  rank, strerror(e));
	}
	*out = o;
	return 0;
}

void overlap_post(struct overlap *o, struct dev_job *j)
{
	pthread_mutex_lock(&o->mu);
	o->job = j;
	o->done = 0;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
}

void overlap_join(struct overlap *o)
{
	pthread_mutex_lock(&o->mu);
	while (!o->done)
		pthread_cond_wait(&o->cv, &o->mu);
	o->done = 0;
	pthread_mutex_unlock(&o->mu);
}

void overlap_stop(struct overlap *o)
{
	if (!o)
		return;
	pthread_mutex_lock(&o->mu);
	o->quit = 1;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
	pthread_join(o->thread, NULL);
	pthread_cond_destroy(&o->cv);
	pthread_mutex_destroy(&o->mu);
	free(o);
}
