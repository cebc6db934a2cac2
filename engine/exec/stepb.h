/* stepb: the step barrier between the controller and the device threads.
 * Phases are numbered 0..P-1.  A device calls stepb_enter(p) before phase p;
 * that marks phase p-1 done and parks until the controller has released p.
 * The controller releases one phase at a time (and waits for it), or lets the
 * devices run free.  While every device is parked, and once every device has
 * left, the controller may read device state: the barrier's mutex orders those
 * reads after the writes.  A stop alone orders nothing: the devices it wakes
 * still write on their way out (stepb_stop_and_wait waits for that). */
#ifndef DM_STEPB_H
#define DM_STEPB_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <distmm/dm_err.h>

struct stepb;

/* The rank the park function gets when the controller releases every
 * parked device at once. */
#define STEPB_ALL (-1)

/* Called with the barrier's lock held: by a device just before it parks
 * (rank, parked = 1), and once by the controller as it releases the parked
 * devices (STEPB_ALL, parked = 0: every device parked since the last release
 * runs again), before any of them wakes.  The transport uses it to tell idle
 * devices from blocked ones: one call for all keeps a release at one lock
 * acquisition however many devices there are. */
typedef void (*stepb_park_fn)(void *ctx, int rank, int parked);

/* Creates a barrier for n devices, all before phase 0.  Returns 0, DM_EINVAL
 * or DM_ENOMEM. */
int stepb_new(struct stepb **out, int n, stepb_park_fn park, void *park_ctx,
	      struct dm_err *err);
void stepb_free(struct stepb *b);

/* Device: phase - 1 is done; waits until phase may start.  Returns 0, or
 * DM_ESTOPPED when the barrier was stopped. */
int stepb_enter(struct stepb *b, int rank, int phase);

/* Device: it does no more phases (finished, or failed).  Never blocks. */
void stepb_leave(struct stepb *b, int rank);

/* Controller: lets phase run, then waits until every device has finished it
 * or left.  Returns 0, or DM_ESTOPPED when stopped meanwhile. */
int stepb_run_phase(struct stepb *b, int phase);

/* Controller: lets every device run through all phases without parking, then
 * waits until every device has left.  Returns 0 or DM_ESTOPPED. */
int stepb_run_free(struct stepb *b);

/* Ends every wait, now and later, with DM_ESTOPPED.  Never blocks. */
void stepb_stop(struct stepb *b);

/* Controller: stepb_stop(), then waits until every device has left; after it
 * no device writes its state again and the controller may read all of it.
 * Only when every device will reach stepb_enter or stepb_leave by itself: one
 * blocked elsewhere (in the transport) must be woken by its owner first. */
void stepb_stop_and_wait(struct stepb *b);

#endif
