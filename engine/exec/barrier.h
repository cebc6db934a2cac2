/* barrier: the step barrier between the controller and the device threads.
 * Phases are numbered 0..P-1.  A device calls barrier_enter(p) before phase p;
 * that marks phase p-1 done and parks until the controller has released p.
 * The controller releases one phase at a time (and waits for it), or lets the
 * devices run free.  While every device is parked, and once every device has
 * left, the controller may read device state: the barrier's mutex orders those
 * reads after the writes.  A stop alone orders nothing: the devices it wakes
 * still write on their way out (barrier_stop_and_wait waits for that). */
#ifndef DM_BARRIER_H
#define DM_BARRIER_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <distmm/dm_err.h>

struct barrier;

/* The rank the park function gets when the controller releases every
 * parked device at once. */
#define BARRIER_ALL (-1)

/* Called with the barrier's lock held: by a device just before it parks
 * (rank, parked = 1), and once by the controller as it releases the parked
 * devices (BARRIER_ALL, parked = 0: every device parked since the last release
 * runs again), before any of them wakes.  The transport uses it to tell idle
 * devices from blocked ones: one call for all keeps a release at one lock
 * acquisition however many devices there are. */
typedef void (*barrier_park_fn)(void *ctx, int rank, int parked);

/* Creates a barrier for n devices, all before phase 0.  Returns 0, DM_EINVAL
 * or DM_ENOMEM. */
int barrier_new(struct barrier **out, int n, barrier_park_fn park, void *park_ctx,
		struct dm_err *err);
/* A test's knob: with 0, every sleep waits until it is woken, without the
 * recheck that would hide a lost wake-up behind a 5 s pause; so a lost one
 * hangs, and the suite's timeout fails it, with no clock in the test.
 * Set before any device runs. */
void barrier_set_recheck(struct barrier *b, int seconds);

void barrier_free(struct barrier *b);

/* Device: phase - 1 is done; waits until phase may start.  Returns 0, or
 * DM_ESTOPPED when the barrier was stopped. */
int barrier_enter(struct barrier *b, int rank, int phase);

/* Device: it does no more phases (finished, or failed).  Never blocks. */
void barrier_leave(struct barrier *b, int rank);

/* Controller: lets phase run, then waits until every device has finished it
 * or left.  Returns 0, or DM_ESTOPPED when stopped meanwhile. */
int barrier_run_phase(struct barrier *b, int phase);

/* Controller: lets every device run through all phases without parking, then
 * waits until every device has left.  Returns 0 or DM_ESTOPPED. */
int barrier_run_free(struct barrier *b);

/* Ends every wait, now and later, with DM_ESTOPPED.  Never blocks. */
void barrier_stop(struct barrier *b);

/* Controller: barrier_stop(), then waits until every device has left; after it
 * no device writes its state again and the controller may read all of it.
 * Only when every device will reach barrier_enter or barrier_leave by itself: one
 * blocked elsewhere (in the transport) must be woken by its owner first. */
void barrier_stop_and_wait(struct barrier *b);

#endif
