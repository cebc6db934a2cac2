/* act: tp-mlp's activations (plan.h's enum dm_act), the one home of their
 * formulas: the devices apply them, the tests' oracles call them. */
#ifndef DM_ACT_H
#define DM_ACT_H

#include "plan.h"

/* act(x): relu max(x, 0); gelu the exact x/2 (1 + erf(x/sqrt 2)), as
 * PyTorch's default (not the tanh approximation); none x.  An unknown act
 * is none's. */
double act_apply(enum dm_act act, double x);
/* "relu", "gelu", "none"; "?" for another value */
const char *act_name(enum dm_act act);

#endif
