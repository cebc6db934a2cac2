/* fault: fault injection for tests.  Private to engine/ and its tests; the
 * program never arms it.  A test arms one fault at a time (each Check test
 * runs in its own process), and the engine asks at the points that can fail
 * for real: every allocation, every thread creation, and every message the
 * in-process transport delivers.  Disarmed, each question costs one relaxed
 * atomic load. */
#ifndef DM_FAULT_H
#define DM_FAULT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>

enum fault_kind {
	FAULT_NONE = 0,
	FAULT_DROP,      /* the message vanishes: the receiver waits for it */
	FAULT_DELAY,     /* the message arrives delay_ms late */
	FAULT_DUPLICATE, /* the message arrives twice */
	FAULT_REORDER,   /* the message arrives after the sender's next one to the same rank */
};

/* Which message to hit: the first whose fields all match (-1 matches any). */
struct fault_msg {
	int kind; /* enum fault_kind */
	int src, dst, step, msg_kind;
	unsigned delay_ms;
};

/* Arms a message fault (FAULT_NONE disarms). */
void fault_set_message(const struct fault_msg *f);
/* The k-th allocation / thread creation from now fails (k >= 1; 0 disarms). */
void fault_fail_alloc_at(long k);
void fault_fail_thread_at(long k);
void fault_reset(void);
/* How many allocations / thread creations the engine asked for since the
 * last reset: a test's loop over k stops when k passes them. */
long fault_alloc_count(void);
long fault_thread_count(void);

/* For the engine: should this allocation / thread creation fail? */
int fault_alloc_fails(void);
int fault_thread_fails(void);
/* For the transport: the fault for a message from src to dst (consumed:
 * it hits once), or FAULT_NONE; *delay_ms gets the delay. */
int fault_message(int src, int dst, int step, int msg_kind, unsigned *delay_ms);

#endif
