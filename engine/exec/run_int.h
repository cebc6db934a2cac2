/* run_int: what the controller (run.c) and its memory estimate
 * (run_estimate.c) share: the stack a device thread gets, which the
 * estimate counts a sixteenth of (what a thread touches).  Private to
 * engine/. */
#ifndef DM_RUN_INT_H
#define DM_RUN_INT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#define RUN_STACK_BYTES (1u << 20)

#endif
