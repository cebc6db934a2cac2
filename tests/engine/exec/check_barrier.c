/* check_barrier: the step barrier between the controller and the device
 * threads (engine/exec/barrier.c), with threads of its own and no run:
 *  - stepping: each phase released alone and every device through it (and
 *    none further) when barrier_run_phase returns, its writes the
 *    controller's to read; a device that leaves early holds nobody up;
 *  - running free after some steps: every phase done, every device gone;
 *  - the park function: every device parked whenever the controller holds
 *    the barrier, one release call for all (what the transport's deadlock
 *    detection reads);
 *  - stopping: parked devices wake with DM_ESTOPPED, one still inside a
 *    phase is told at its next barrier, and barrier_stop_and_wait returns
 *    only once every device has written its last words and left;
 *  - many devices over many phases, stepped and free: no wake-up lost
 *    (with the recheck turned off, a lost one hangs and the suite's
 *    timeout fails it: no clock in the test).
 * TSan (make tsan) holds the orderings: a device's writes before it
 * parks, read by the controller after barrier_run_phase, race otherwise. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec/barrier.h"
#include "testutil.h"

#define PHASES_MAX 1024

struct dev {
	struct barrier *b;
	int rank, phases;
	int leave_after;          /* the last phase it does, or phases - 1 */
	int done[PHASES_MAX];     /* written by the device, read between phases */
	int stopped_at;           /* the phase whose barrier said stop, or -1 */
	int last_words;           /* written on its way out */
	pthread_mutex_t *gate_mu; /* when set: phase gate_phase waits for *gate_open */
	pthread_cond_t *gate_cv;
	int *gate_open, gate_phase;
	atomic_int *inside;       /* set while it is inside gate_phase */
};

static void *dev_main(void *arg)
{
	struct dev *d = arg;
	d->stopped_at = -1;
	for (int p = 0; p < d->phases && p <= d->leave_after; p++) {
		if (barrier_enter(d->b, d->rank, p)) {
			d->stopped_at = p;
			break;
		}
		if (d->gate_mu && p == d->gate_phase) {
			atomic_store(d->inside, 1);
			pthread_mutex_lock(d->gate_mu);
			while (!*d->gate_open)
				pthread_cond_wait(d->gate_cv, d->gate_mu);
			pthread_mutex_unlock(d->gate_mu);
		}
		d->done[p] = 1;
	}
	d->last_words = 1;
	barrier_leave(d->b, d->rank);
	return NULL;
}

/* n devices of `phases` phases on b, not started (a test may change them
 * first). */
static struct dev *devs(struct barrier *b, int n, int phases)
{
	struct dev *d = calloc((size_t)n, sizeof *d);
	ck_assert_ptr_nonnull(d);
	for (int i = 0; i < n; i++)
		d[i] = (struct dev){ .b = b, .rank = i, .phases = phases, .leave_after = phases - 1 };
	return d;
}

static void run_devs(struct dev *d, int n, pthread_t *t)
{
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, dev_main, &d[i]), 0);
}

/* n devices of `phases` phases on b, started. */
static struct dev *start(struct barrier *b, int n, int phases, pthread_t *t)
{
	struct dev *d = devs(b, n, phases);
	run_devs(d, n, t);
	return d;
}

static void join(int n, pthread_t *t)
{
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static struct barrier *make(int n, barrier_park_fn park, void *ctx)
{
	struct barrier *b;
	struct dm_err err;
	ck_assert_msg(barrier_new(&b, n, park, ctx, &err) == 0, "%s", err.msg);
	return b;
}

/* Every device has done exactly the phases up to p (those it does). */
static void done_through(const struct dev *d, int n, int p)
{
	for (int i = 0; i < n; i++)
		for (int q = 0; q < d[i].phases; q++)
			ck_assert_msg(d[i].done[q] == (q <= p && q <= d[i].leave_after),
				      "after phase %d: rank %d phase %d done %d", p, i, q, d[i].done[q]);
}

START_TEST(releases_one_phase_at_a_time)
{
	enum { N = 6, P = 9 };
	pthread_t t[N];
	struct barrier *b = make(N, NULL, NULL);
	struct dev *d = start(b, N, P, t);
	for (int p = 0; p < P; p++) {
		ck_assert_int_eq(barrier_run_phase(b, p), 0);
		done_through(d, N, p);
	}
	join(N, t);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(d[i].stopped_at, -1);
	barrier_free(b);
	free(d);
}
END_TEST

/* A device that leaves after phase 3 (it failed, or has no more work)
 * counts as through every later phase. */
START_TEST(a_device_that_leaves_holds_nobody_up)
{
	enum { N = 4, P = 8 };
	pthread_t t[N];
	struct barrier *b = make(N, NULL, NULL);
	struct dev *d = devs(b, N, P);
	d[2].leave_after = 3;
	run_devs(d, N, t);
	for (int p = 0; p < P; p++) {
		ck_assert_int_eq(barrier_run_phase(b, p), 0);
		done_through(d, N, p);
	}
	join(N, t);
	barrier_free(b);
	free(d);
}
END_TEST

/* Stepped for three phases, then free: every phase done, every device
 * gone when it returns. */
START_TEST(runs_free_after_steps)
{
	enum { N = 5, P = 40 };
	pthread_t t[N];
	struct barrier *b = make(N, NULL, NULL);
	struct dev *d = start(b, N, P, t);
	for (int p = 0; p < 3; p++)
		ck_assert_int_eq(barrier_run_phase(b, p), 0);
	done_through(d, N, 2);
	ck_assert_int_eq(barrier_run_free(b), 0);
	done_through(d, N, P - 1);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(d[i].last_words, 1);
	join(N, t);
	barrier_free(b);
	free(d);
}
END_TEST

/* The park function's view, kept under the barrier's lock (it is called
 * with it held): which devices are parked, and how many releases. */
struct parks {
	int n;
	int parked[16];
	int releases, bad;
};

static void on_park(void *ctx, int rank, int parked)
{
	struct parks *k = ctx;
	if (rank == BARRIER_ALL) {
		if (parked)
			k->bad = 1; /* a release marks them running, never parked */
		for (int r = 0; r < k->n; r++)
			k->parked[r] = 0;
		k->releases++;
		return;
	}
	if (rank < 0 || rank >= k->n || !parked || k->parked[rank])
		k->bad = 1; /* one park per rank per phase */
	k->parked[rank] = 1;
}

START_TEST(park_marks_every_waiting_device)
{
	enum { N = 7, P = 12 };
	struct parks k = { .n = N };
	pthread_t t[N];
	struct barrier *b = make(N, on_park, &k);
	struct dev *d = start(b, N, P, t);
	int first = 0;
	for (int p = 0; p < P; p++) {
		ck_assert_int_eq(barrier_run_phase(b, p), 0);
		/* every device parked before the next phase (the last phase's
		 * devices leave instead): the transport sees them idle */
		for (int r = 0; r < N; r++)
			ck_assert_msg(k.parked[r] == (p < P - 1), "after phase %d rank %d parked %d", p,
				      r, k.parked[r]);
		/* one call a release, for all parked; phase 0's only if one of the
		 * threads had parked by then */
		if (p == 0)
			first = k.releases;
		ck_assert_int_le(first, 1);
		ck_assert_int_eq(k.releases, first + p);
	}
	join(N, t);
	ck_assert_int_eq(k.bad, 0);
	barrier_free(b);
	free(d);
}
END_TEST

START_TEST(stop_wakes_parked_devices)
{
	enum { N = 6, P = 9 };
	pthread_t t[N];
	struct barrier *b = make(N, NULL, NULL);
	struct dev *d = start(b, N, P, t);
	ck_assert_int_eq(barrier_run_phase(b, 0), 0);
	barrier_stop(b);
	join(N, t);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(d[i].done[1], 0);
		ck_assert_int_eq(d[i].stopped_at, 1);
	}
	ck_assert_int_eq(barrier_run_phase(b, 1), DM_ESTOPPED);
	ck_assert_int_eq(barrier_run_free(b), DM_ESTOPPED);
	barrier_free(b);
	free(d);
}
END_TEST

struct stopper {
	struct barrier *b;
	atomic_int *inside;
	pthread_mutex_t *mu;
	pthread_cond_t *cv;
	int *open;
};

/* Stops the barrier once rank 3 is inside its phase, then lets it go on. */
static void *stopper_main(void *arg)
{
	struct stopper *s = arg;
	while (!atomic_load(s->inside))
		sched_yield();
	barrier_stop(s->b);
	pthread_mutex_lock(s->mu);
	*s->open = 1;
	pthread_cond_broadcast(s->cv);
	pthread_mutex_unlock(s->mu);
	return NULL;
}

/* Phase 1 released; rank 3 stays inside it (a gate the test holds) while
 * the others have parked before phase 2.  A stop meanwhile ends the
 * controller's wait and wakes the parked; rank 3 hears it at its next
 * barrier; barrier_stop_and_wait returns only once all have left, their
 * last words written (TSan: read without a race). */
START_TEST(stop_with_parked_and_running_devices)
{
	enum { N = 5, P = 6 };
	pthread_t t[N], st;
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	atomic_int inside = 0;
	int open = 0;
	struct barrier *b = make(N, NULL, NULL);
	struct dev *d = devs(b, N, P);
	d[3].gate_mu = &mu;
	d[3].gate_cv = &cv;
	d[3].gate_open = &open;
	d[3].gate_phase = 1;
	d[3].inside = &inside;
	run_devs(d, N, t);
	ck_assert_int_eq(barrier_run_phase(b, 0), 0);
	struct stopper s = { b, &inside, &mu, &cv, &open };
	pthread_create(&st, NULL, stopper_main, &s);
	ck_assert_int_eq(barrier_run_phase(b, 1), DM_ESTOPPED);
	barrier_stop_and_wait(b);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(d[i].last_words, 1);
		ck_assert_int_eq(d[i].done[0], 1);
		ck_assert_int_eq(d[i].done[2], 0);
		/* the others ran phase 1 and parked before phase 2, or, woken by
		 * the release after the stop came, never started phase 1 */
		ck_assert_msg(d[i].stopped_at == 1 + d[i].done[1], "rank %d stopped at %d, phase 1 "
			      "done %d", i, d[i].stopped_at, d[i].done[1]);
	}
	/* rank 3 was inside phase 1: it finished it and heard the stop after */
	ck_assert_int_eq(d[3].done[1], 1);
	ck_assert_int_eq(d[3].stopped_at, 2);
	pthread_join(st, NULL);
	join(N, t);
	barrier_free(b);
	free(d);
}
END_TEST

/* 64 devices (16 under the sanitizers and memcheck) through 400 phases
 * stepped (100), then as many free, the recheck off: a lost wake-up would
 * leave its waiter asleep for good, and the test case's timeout ends it. */
START_TEST(many_devices_no_lost_wakeup)
{
	int sampled = tu_sampling() > 0;
	int n = sampled ? 16 : 64, stepped = sampled ? 100 : 400, phases = 2 * stepped;
	pthread_t *t = malloc((size_t)n * sizeof *t);
	ck_assert_ptr_nonnull(t);
	struct barrier *b = make(n, NULL, NULL);
	barrier_set_recheck(b, 0);
	struct dev *d = start(b, n, phases, t);
	for (int p = 0; p < stepped; p++) {
		ck_assert_int_eq(barrier_run_phase(b, p), 0);
		for (int i = 0; i < n; i++)
			ck_assert_msg(d[i].done[p] == 1 && d[i].done[p + 1] == 0,
				      "phase %d: rank %d", p, i);
	}
	ck_assert_int_eq(barrier_run_free(b), 0);
	done_through(d, n, phases - 1);
	join(n, t);
	barrier_free(b);
	free(d);
	free(t);
}
END_TEST

START_TEST(no_devices_refused)
{
	struct barrier *b = (struct barrier *)(uintptr_t)1;
	struct dm_err err;
	ck_assert_int_eq(barrier_new(&b, 0, NULL, NULL, &err), DM_EINVAL);
	ck_assert_ptr_null(b);
	barrier_free(NULL);
}
END_TEST

static Suite *barrier_suite(void)
{
	Suite *s = suite_create("barrier");
	TCase *tc = tcase_create("stepping");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, releases_one_phase_at_a_time);
	tcase_add_test(tc, a_device_that_leaves_holds_nobody_up);
	tcase_add_test(tc, runs_free_after_steps);
	tcase_add_test(tc, park_marks_every_waiting_device);
	tcase_add_test(tc, no_devices_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("stopping");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, stop_wakes_parked_devices);
	tcase_add_test(tc, stop_with_parked_and_running_devices);
	suite_add_tcase(s, tc);
	tc = tcase_create("many");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, many_devices_no_lost_wakeup);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(barrier_suite());
}
