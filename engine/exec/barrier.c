/* barrier: the step barrier, built so that a release costs one wake-up call
 * however many devices wait, and nobody fights for a lock on the way out.
 *
 * Devices sleep on `gen`, a generation word the controller bumps on every
 * release (and on stop), and it wakes them all with one FUTEX_WAKE.  With a
 * mutex and one condition variable every woken device had to take the mutex
 * again before it could return, so n devices left one by one through the
 * lock (the thundering herd): on two cores, hundreds of microseconds for 64
 * devices and milliseconds for 256.  A woken device here reads the word and
 * the phase it may run, both atomics, and goes.
 *
 * The mutex remains for what must be exact: a device's arrival and its park
 * (marking it idle for the transport's deadlock detection) are one step
 * against the controller's release, which marks every parked device running
 * in one call (park(ctx, BARRIER_ALL, 0)) before any of them wakes.  done[r] is
 * the last phase device r finished (-1 at the start, BARRIER_LEFT once it
 * left); `behind` counts the devices that have not reached `target`, kept as
 * they arrive so that only the last one wakes the controller, which sleeps on
 * its own word, `arrived`.
 *
 * Every sleep is timed (BARRIER_RECHECK_S) and re-checks its condition, so a
 * lost wake-up could cost time but never a hang; barrier_stop() ends them all.
 * FUTEX_WAIT and FUTEX_WAKE are Linux's; elsewhere the same words are waited
 * on through one condition variable (correct, with the old herd). */
#include "exec/barrier.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "core/xalloc.h"

#define BARRIER_LEFT INT_MAX
#define BARRIER_FREE INT_MAX

/* The waits end for real on a release, an arrival or barrier_stop(); this only
 * bounds what a lost wake-up could cost.  The deadlines of the messages are
 * the transport's (a device never waits here for another device's message). */
#define BARRIER_RECHECK_S 5

struct barrier {
	pthread_mutex_t mu;     /* arrivals, parks, releases */
	atomic_int allowed;     /* the highest phase devices may start */
	atomic_int stopped;
	atomic_int gen;         /* devices sleep on it: bumped by release and stop */
	atomic_int arrived;     /* the controller sleeps on it: bumped by the last
				   arrival and by stop */
	atomic_int behind;      /* devices with done[r] < target */
	atomic_int target;      /* the phase the controller waits for: written
				   under mu while no device runs */
	int n;
	int nparked;            /* devices parked since the last release (mu) */
	atomic_int *done;
	barrier_park_fn park;
	void *park_ctx;
	int recheck_s;          /* BARRIER_RECHECK_S; 0 (a test's): wait until woken */
#ifndef __linux__
	pthread_cond_t cv;      /* stands in for the futex: every waiter, both words */
#endif
};

int barrier_new(struct barrier **out, int n, barrier_park_fn park, void *park_ctx,
		struct dm_err *err)
{
	*out = NULL;
	if (n < 1)
		return dm_err_set(err, DM_EINVAL, "a barrier needs at least one device");
	struct barrier *b = xcalloc(1, sizeof *b);
	if (b)
		b->recheck_s = BARRIER_RECHECK_S;
	atomic_int *done = xcalloc((size_t)n, sizeof *done);
	if (!b || !done) {
		free(b);
		free(done);
		return dm_err_set(err, DM_ENOMEM, "out of memory creating the step barrier");
	}
	for (int r = 0; r < n; r++)
		atomic_init(&done[r], -1);
	pthread_mutex_init(&b->mu, NULL);
#ifndef __linux__
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&b->cv, &ca);
	pthread_condattr_destroy(&ca);
#endif
	atomic_init(&b->allowed, -1);
	atomic_init(&b->stopped, 0);
	atomic_init(&b->gen, 0);
	atomic_init(&b->arrived, 0);
	atomic_init(&b->behind, 0);
	atomic_init(&b->target, -1);
	b->n = n;
	b->done = done;
	b->park = park;
	b->park_ctx = park_ctx;
	*out = b;
	return 0;
}

void barrier_set_recheck(struct barrier *b, int seconds)
{
	b->recheck_s = seconds > 0 ? seconds : 0;
}

void barrier_free(struct barrier *b)
{
	if (!b)
		return;
#ifndef __linux__
	pthread_cond_destroy(&b->cv);
#endif
	pthread_mutex_destroy(&b->mu);
	free(b->done);
	free(b);
}

#ifdef __linux__
_Static_assert(sizeof(atomic_int) == sizeof(int), "a futex word is an int");

/* Sleeps while *word == seen, at most BARRIER_RECHECK_S; returns at once if it
 * already differs.  Private futexes: the barrier never leaves the process. */
static void barrier_sleep(struct barrier *b, atomic_int *word, int seen)
{
	struct timespec ts = { b->recheck_s, 0 };
	syscall(SYS_futex, (int *)word, FUTEX_WAIT_PRIVATE, seen, b->recheck_s ? &ts : NULL, NULL,
		0);
}

static void barrier_wake(struct barrier *b, atomic_int *word, int all)
{
	(void)b;
	syscall(SYS_futex, (int *)word, FUTEX_WAKE_PRIVATE, all ? INT_MAX : 1, NULL, NULL, 0);
}
#else
static void barrier_sleep(struct barrier *b, atomic_int *word, int seen)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += b->recheck_s;
	pthread_mutex_lock(&b->mu);
	if (atomic_load(word) == seen && b->recheck_s)
		pthread_cond_timedwait(&b->cv, &b->mu, &ts);
	else if (atomic_load(word) == seen)
		pthread_cond_wait(&b->cv, &b->mu);
	pthread_mutex_unlock(&b->mu);
}

static void barrier_wake(struct barrier *b, atomic_int *word, int all)
{
	(void)word;
	(void)all;
	pthread_mutex_lock(&b->mu);
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
}
#endif

/* With the lock held: device rank has reached phase `reached`.  Returns 1
 * when it was the last one the controller waited for (the caller wakes it
 * once the lock is released). */
static int barrier_mark(struct barrier *b, int rank, int reached)
{
	int before = atomic_load_explicit(&b->done[rank], memory_order_relaxed);
	atomic_store_explicit(&b->done[rank], reached, memory_order_relaxed);
	int target = atomic_load_explicit(&b->target, memory_order_relaxed);
	if (before < target && reached >= target &&
	    atomic_fetch_sub_explicit(&b->behind, 1, memory_order_acq_rel) == 1) {
		atomic_fetch_add_explicit(&b->arrived, 1, memory_order_release);
		return 1;
	}
	return 0;
}

int barrier_enter(struct barrier *b, int rank, int phase)
{
	/* running free: nothing to report and nobody to wait for (the
	 * controller waits for the devices to leave, not for phases) */
	if (atomic_load_explicit(&b->allowed, memory_order_acquire) == BARRIER_FREE)
		return atomic_load(&b->stopped) ? DM_ESTOPPED : 0;

	/* inside a chunk of phases (run_advance): short of the target there is
	 * no park and no count to bring down, so no lock to take.  A target read
	 * stale is an older, smaller one (the release raises allowed first), and
	 * sends the device the locked way. */
	if (atomic_load_explicit(&b->allowed, memory_order_acquire) >= phase &&
	    phase - 1 < atomic_load_explicit(&b->target, memory_order_relaxed)) {
		atomic_store_explicit(&b->done[rank], phase - 1, memory_order_relaxed);
		return atomic_load(&b->stopped) ? DM_ESTOPPED : 0;
	}

	pthread_mutex_lock(&b->mu);
	/* parked (idle to the transport) before it counts as arrived: once the
	 * controller sees every device arrived, every one is idle */
	if (!atomic_load(&b->stopped) && atomic_load(&b->allowed) < phase) {
		b->nparked++;
		if (b->park)
			b->park(b->park_ctx, rank, 1);
	}
	int last = barrier_mark(b, rank, phase - 1);
	pthread_mutex_unlock(&b->mu);
	if (last)
		barrier_wake(b, &b->arrived, 0);

	for (;;) {
		int g = atomic_load_explicit(&b->gen, memory_order_acquire);
		if (atomic_load(&b->stopped))
			return DM_ESTOPPED;
		if (atomic_load_explicit(&b->allowed, memory_order_acquire) >= phase)
			return 0;
		barrier_sleep(b, &b->gen, g);
	}
}

void barrier_leave(struct barrier *b, int rank)
{
	pthread_mutex_lock(&b->mu);
	int last = barrier_mark(b, rank, BARRIER_LEFT);
	pthread_mutex_unlock(&b->mu);
	if (last)
		barrier_wake(b, &b->arrived, 0);
}

/* With the lock held: raises `allowed`.  The parked devices are marked
 * running here, by the controller, under the lock and in one call, not by
 * each device when it wakes: in between, a device about to run would look
 * idle, and the transport could take a busy ring for a deadlock.  The caller
 * wakes them once the lock is released. */
static void barrier_allow(struct barrier *b, int phase)
{
	if (b->nparked > 0 && b->park)
		b->park(b->park_ctx, BARRIER_ALL, 0);
	b->nparked = 0;
	atomic_store_explicit(&b->allowed, phase, memory_order_release);
	atomic_fetch_add_explicit(&b->gen, 1, memory_order_release);
}

/* With the lock held: from now on the devices count down to target. */
static void barrier_set_target(struct barrier *b, int target)
{
	int behind = 0;
	atomic_store_explicit(&b->target, target, memory_order_relaxed);
	for (int r = 0; r < b->n; r++)
		if (atomic_load_explicit(&b->done[r], memory_order_relaxed) < target)
			behind++;
	atomic_store(&b->behind, behind);
}

/* Without the lock: sleeps until every device has reached the target or
 * (when `stop_ends` is set) the barrier stopped. */
static int barrier_wait_target(struct barrier *b, int stop_ends)
{
	for (;;) {
		int g = atomic_load_explicit(&b->arrived, memory_order_acquire);
		if (stop_ends && atomic_load(&b->stopped))
			break;
		if (atomic_load_explicit(&b->behind, memory_order_acquire) == 0)
			break;
		barrier_sleep(b, &b->arrived, g);
	}
	/* the devices' writes before they arrived (under the lock) are the
	 * controller's to read once it has taken the lock after them */
	pthread_mutex_lock(&b->mu);
	int rc = atomic_load(&b->stopped) ? DM_ESTOPPED : 0;
	pthread_mutex_unlock(&b->mu);
	return rc;
}

/* Releases `phase` (if it is not yet) and counts down to `target`. */
static int barrier_release_and_wait(struct barrier *b, int phase, int target)
{
	pthread_mutex_lock(&b->mu);
	int release = phase > atomic_load(&b->allowed);
	if (release)
		barrier_allow(b, phase);
	barrier_set_target(b, target);
	pthread_mutex_unlock(&b->mu);
	if (release)
		barrier_wake(b, &b->gen, 1);
	return barrier_wait_target(b, 1);
}

int barrier_run_phase(struct barrier *b, int phase)
{
	return barrier_release_and_wait(b, phase, phase);
}

int barrier_run_free(struct barrier *b)
{
	return barrier_release_and_wait(b, BARRIER_FREE, BARRIER_LEFT);
}

void barrier_stop(struct barrier *b)
{
	pthread_mutex_lock(&b->mu);
	atomic_store(&b->stopped, 1);
	atomic_fetch_add(&b->gen, 1);
	atomic_fetch_add(&b->arrived, 1);
	pthread_mutex_unlock(&b->mu);
	barrier_wake(b, &b->gen, 1);
	barrier_wake(b, &b->arrived, 1);
}

/* The stop wakes every parked device with DM_ESTOPPED; each then writes its
 * last words (its error, its exit to the transport) and leaves.  The count
 * down to BARRIER_LEFT ignores the stop, which ends every other wait: it is
 * what makes those last words the controller's to read. */
void barrier_stop_and_wait(struct barrier *b)
{
	barrier_stop(b);
	pthread_mutex_lock(&b->mu);
	barrier_set_target(b, BARRIER_LEFT);
	pthread_mutex_unlock(&b->mu);
	barrier_wait_target(b, 0);
}
