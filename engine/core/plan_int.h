/* plan_int: the plan's body, for the engine alone.  A run keeps its plan by
 * value and the engine's own code makes plans on the stack (the model over
 * both modes, the trace checker's shapes) without an allocation that could
 * fail; app/ sees only the opaque struct of plan.h and its setters. */
#ifndef DM_PLAN_INT_H
#define DM_PLAN_INT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>

#include <distmm/plan.h>

struct dm_plan {
	enum dm_mode mode;
	int n;
	enum dm_pass pass;
	enum dm_order order;
	enum dm_bug bug;
	size_t capacity;
	/* a collective's (mode DM_COLL) */
	enum ccl_kind ccl;
	enum ccl_algo algo;
	size_t count;
	int prefetch;       /* FSDP: a step's compute and transfer overlap */
	/* tp-mlp's second layer (mode DM_TP_MLP) */
	enum dm_act act;
	size_t width;       /* P: E's columns, Z's */
};

/* plan_new's defaults for mode, n and pass, unchecked: the caller's
 * values are ones the engine made or checked already. */
static inline struct dm_plan plan_of(enum dm_mode mode, int n, enum dm_pass pass)
{
	return (struct dm_plan){ mode, n, pass, ORDER_PARITY, BUG_NONE, PLAN_UNBOUNDED,
				 CCL_ALLREDUCE, CCL_RING, 1, 0, DM_ACT_RELU, 1 };
}

#endif
