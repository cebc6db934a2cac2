/* schedule_int: the schedule by its three numbers, for the engine's own
 * code: a device, the event rules and the replay hold a mode, a pass and
 * a device count rather than a plan, and the public functions of
 * schedule.h are these with the plan's values. */
#ifndef DM_SCHEDULE_INT_H
#define DM_SCHEDULE_INT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <distmm/schedule.h>

/* pass: any but DM_FORWARD is the training step, as the engine's own
 * `train` flags say it (non-zero).  The matrices' modes alone: a
 * collective's schedule is its plan's (sched_phase_*, <distmm/ccl.h>). */
int sched_count_of(enum dm_mode mode, enum dm_pass pass, int n);
enum sched_kind sched_kind_of(enum dm_mode mode, enum dm_pass pass, int n, int phase);
int sched_step_of(enum dm_mode mode, enum dm_pass pass, int n, int phase);
/* sched_joined by the numbers, and prefetch on or off. */
int sched_joined_of(enum dm_mode mode, enum dm_pass pass, int n, int prefetch, int phase);

#endif
