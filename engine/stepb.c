/* stepb: a step barrier with one mutex and two condition variables.
 * done[r] is the last phase device r finished (-1 at the start, STEPB_LEFT
 * once it left); `behind` counts the devices that have not reached `target`,
 * kept incrementally so that an arrival costs O(1) and only the last one wakes
 * the controller. */
#include "stepb.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "xalloc.h"

#define STEPB_LEFT INT_MAX
#define STEPB_FREE INT_MAX

/* Every wait here is timed: a sleeper re-checks its condition at least this
 * often, so no lost wake-up can leave it asleep.  The waits end for real on
 * a release, an arrival or stepb_stop(); the deadlines of the messages are
 * the transport's (a device never waits here for another device's message). */
#define STEPB_RECHECK_S 5

struct stepb {
	pthread_mutex_t mu;
	pthread_cond_t go_cv;   /* devices wait here for `allowed` */
	pthread_cond_t done_cv; /* the controller waits here for behind == 0 */
	int n;
	int allowed; /* the highest phase devices may start */
	int target;  /* the phase the controller waits for */
	int behind;  /* devices with done[r] < target */
	int stopped;
	int *done;
	unsigned char *parked; /* devices asleep in stepb_enter */
	stepb_park_fn park;
	void *park_ctx;
};

int stepb_new(struct stepb **out, int n, stepb_park_fn park, void *park_ctx,
	      struct dm_err *err)
{
	*out = NULL;
	if (n < 1)
		return dm_err_set(err, DM_EINVAL, "a barrier needs at least one device");
	struct stepb *b = xcalloc(1, sizeof *b);
	int *done = xcalloc((size_t)n, sizeof *done);
	unsigned char *parked = xcalloc((size_t)n, 1);
	if (!b || !done || !parked) {
		free(b);
		free(done);
		free(parked);
		return dm_err_set(err, DM_ENOMEM, "out of memory creating the step barrier");
	}
	for (int r = 0; r < n; r++)
		done[r] = -1;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->go_cv, &ca);
	pthread_cond_init(&b->done_cv, &ca);
	pthread_condattr_destroy(&ca);
	b->n = n;
	b->allowed = -1;
	b->target = -1;
	b->behind = 0;
	b->done = done;
	b->parked = parked;
	b->park = park;
	b->park_ctx = park_ctx;
	*out = b;
	return 0;
}

void stepb_free(struct stepb *b)
{
	if (!b)
		return;
	pthread_cond_destroy(&b->go_cv);
	pthread_cond_destroy(&b->done_cv);
	pthread_mutex_destroy(&b->mu);
	free(b->done);
	free(b->parked);
	free(b);
}

/* With the lock held: sleeps on cv until woken or STEPB_RECHECK_S pass. */
static void stepb_sleep(struct stepb *b, pthread_cond_t *cv)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += STEPB_RECHECK_S;
	pthread_cond_timedwait(cv, &b->mu, &ts);
}

/* With the lock held: device rank has reached phase `reached`. */
static void stepb_mark(struct stepb *b, int rank, int reached)
{
	int before = b->done[rank];
	b->done[rank] = reached;
	if (before < b->target && reached >= b->target && --b->behind == 0)
		pthread_cond_signal(&b->done_cv);
}

int stepb_enter(struct stepb *b, int rank, int phase)
{
	int rc = 0;
	pthread_mutex_lock(&b->mu);
	stepb_mark(b, rank, phase - 1);
	if (!b->stopped && b->allowed < phase) {
		b->parked[rank] = 1;
		if (b->park)
			b->park(b->park_ctx, rank, 1);
	}
	while (!b->stopped && b->allowed < phase)
		stepb_sleep(b, &b->go_cv);
	if (b->stopped)
		rc = DM_ESTOPPED;
	pthread_mutex_unlock(&b->mu);
	return rc;
}

void stepb_leave(struct stepb *b, int rank)
{
	pthread_mutex_lock(&b->mu);
	stepb_mark(b, rank, STEPB_LEFT);
	pthread_mutex_unlock(&b->mu);
}

/* With the lock held: raises `allowed` and wakes the devices.  The parked
 * ones are marked running here, by the controller and under the lock, not by
 * each device when it wakes: in between, a device that is about to run would
 * look idle, and the transport could take a busy ring for a deadlock. */
static void stepb_allow(struct stepb *b, int phase)
{
	b->allowed = phase;
	for (int r = 0; r < b->n; r++)
		if (b->parked[r]) {
			b->parked[r] = 0;
			if (b->park)
				b->park(b->park_ctx, r, 0);
		}
	pthread_cond_broadcast(&b->go_cv);
}

/* With the lock held: waits for every device to reach target. */
static int stepb_wait_target(struct stepb *b, int target)
{
	b->target = target;
	b->behind = 0;
	for (int r = 0; r < b->n; r++)
		if (b->done[r] < target)
			b->behind++;
	while (!b->stopped && b->behind > 0)
		stepb_sleep(b, &b->done_cv);
	return b->stopped ? DM_ESTOPPED : 0;
}

int stepb_run_phase(struct stepb *b, int phase)
{
	pthread_mutex_lock(&b->mu);
	if (phase > b->allowed)
		stepb_allow(b, phase);
	int rc = stepb_wait_target(b, phase);
	pthread_mutex_unlock(&b->mu);
	return rc;
}

int stepb_run_free(struct stepb *b)
{
	pthread_mutex_lock(&b->mu);
	stepb_allow(b, STEPB_FREE);
	int rc = stepb_wait_target(b, STEPB_LEFT);
	pthread_mutex_unlock(&b->mu);
	return rc;
}

void stepb_stop(struct stepb *b)
{
	pthread_mutex_lock(&b->mu);
	b->stopped = 1;
	pthread_cond_broadcast(&b->go_cv);
	pthread_cond_broadcast(&b->done_cv);
	pthread_mutex_unlock(&b->mu);
}
