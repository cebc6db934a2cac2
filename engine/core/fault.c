/* fault: test-only fault injection (see fault.h).  Counters are atomics
 * because device threads allocate concurrently. */
#include "core/fault.h"

#include <pthread.h>
#include <stdatomic.h>

static atomic_int fault_armed;          /* anything armed at all: the fast path */
static atomic_long fault_alloc_at, fault_allocs;
static atomic_long fault_thread_at, fault_threads;
static pthread_mutex_t fault_mu = PTHREAD_MUTEX_INITIALIZER;
static struct fault_msg fault_msg_armed; /* under fault_mu */

static void fault_update_armed(void)
{
	atomic_store(&fault_armed, atomic_load(&fault_alloc_at) > 0 ||
					   atomic_load(&fault_thread_at) > 0 ||
					   fault_msg_armed.kind != FAULT_NONE);
}

void fault_set_message(const struct fault_msg *f)
{
	pthread_mutex_lock(&fault_mu);
	fault_msg_armed = *f;
	fault_update_armed();
	pthread_mutex_unlock(&fault_mu);
}

void fault_fail_alloc_at(long k)
{
	pthread_mutex_lock(&fault_mu);
	atomic_store(&fault_allocs, 0);
	atomic_store(&fault_alloc_at, k);
	fault_update_armed();
	pthread_mutex_unlock(&fault_mu);
}

void fault_fail_thread_at(long k)
{
	pthread_mutex_lock(&fault_mu);
	atomic_store(&fault_threads, 0);
	atomic_store(&fault_thread_at, k);
	fault_update_armed();
	pthread_mutex_unlock(&fault_mu);
}

void fault_reset(void)
{
	pthread_mutex_lock(&fault_mu);
	atomic_store(&fault_alloc_at, 0);
	atomic_store(&fault_thread_at, 0);
	atomic_store(&fault_allocs, 0);
	atomic_store(&fault_threads, 0);
	fault_msg_armed = (struct fault_msg){ .kind = FAULT_NONE };
	fault_update_armed();
	pthread_mutex_unlock(&fault_mu);
}

long fault_alloc_count(void)
{
	return atomic_load(&fault_allocs);
}

long fault_thread_count(void)
{
	return atomic_load(&fault_threads);
}

int fault_alloc_fails(void)
{
	if (!atomic_load_explicit(&fault_armed, memory_order_relaxed))
		return 0;
	long k = atomic_fetch_add(&fault_allocs, 1) + 1;
	return k == atomic_load(&fault_alloc_at);
}

int fault_thread_fails(void)
{
	if (!atomic_load_explicit(&fault_armed, memory_order_relaxed))
		return 0;
	long k = atomic_fetch_add(&fault_threads, 1) + 1;
	return k == atomic_load(&fault_thread_at);
}

static int fault_matches(int want, int got)
{
	return want == -1 || want == got;
}

int fault_message(int src, int dst, int step, int msg_kind, unsigned *delay_ms)
{
	int kind = FAULT_NONE;
	if (!atomic_load_explicit(&fault_armed, memory_order_relaxed))
		return FAULT_NONE;
	pthread_mutex_lock(&fault_mu);
	const struct fault_msg *f = &fault_msg_armed;
	if (f->kind != FAULT_NONE && fault_matches(f->src, src) && fault_matches(f->dst, dst) &&
	    fault_matches(f->step, step) && fault_matches(f->msg_kind, msg_kind)) {
		kind = f->kind;
		*delay_ms = f->delay_ms;
		fault_msg_armed.kind = FAULT_NONE; /* it hits once */
		fault_update_armed();
	}
	pthread_mutex_unlock(&fault_mu);
	return kind;
}
