/* act: the activations of tp-mlp (see act.h).  GELU is the erf form, the
 * exact one: the tanh approximation differs by up to 5e-4 and would need a
 * looser check than the run's allclose. */
#include <distmm/act.h>

#include <math.h>

double act_apply(enum dm_act act, double x)
{
	switch (act) {
	case DM_ACT_RELU: return x > 0.0 ? x : 0.0;
	case DM_ACT_GELU: return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440));
	default: return x;
	}
}

const char *act_name(enum dm_act act)
{
	switch (act) {
	case DM_ACT_RELU: return "relu";
	case DM_ACT_GELU: return "gelu";
	case DM_ACT_NONE: return "none";
	default: return "?";
	}
}
