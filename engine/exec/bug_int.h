/* bug_int: which bugs a run makes, by the three values the engine's own
 * code holds (a device, the event rules, the replay): bug_applies of
 * bug.h with a plan's mode and pass. */
#ifndef DM_BUG_INT_H
#define DM_BUG_INT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <distmm/bug.h>
#include <distmm/plan.h>

/* pass: any but DM_FORWARD is the training step (the engine's `train`
 * flags, non-zero). */
int bug_applies_to(enum dm_bug bug, enum dm_mode mode, enum dm_pass pass);

#endif
