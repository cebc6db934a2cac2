/* zero_words: the memory argument's words (see zero_words.h).  The closed
 * forms written here are the ones model.h states; the numbers beside them
 * are model_zero's. */
#include "zero_words.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const zerow_names[MODEL_ZERO_COUNT] = { "DP", "ZeRO-1", "ZeRO-2",
							   "ZeRO-3 / FSDP" };
static const char *const zerow_keys[MODEL_ZERO_COUNT] = { "dp", "zero-1", "zero-2", "zero-3" };
static const char *const zerow_formulas[MODEL_ZERO_COUNT] = {
	"16\xce\xa8", "4\xce\xa8 + 12\xce\xa8/N", "2\xce\xa8 + 14\xce\xa8/N", "16\xce\xa8/N"
};

static int zerow_ok(enum model_zero_stage stage)
{
	return stage >= 0 && stage < MODEL_ZERO_COUNT;
}

const char *zerow_name(enum model_zero_stage stage)
{
	return zerow_ok(stage) ? zerow_names[stage] : "?";
}

const char *zerow_key(enum model_zero_stage stage)
{
	return zerow_ok(stage) ? zerow_keys[stage] : "?";
}

const char *zerow_formula(enum model_zero_stage stage)
{
	return zerow_ok(stage) ? zerow_formulas[stage] : "?";
}

const char *zerow_sent_rule(enum model_zero_stage stage)
{
	return stage == MODEL_ZERO_3 ? "1.5 x a gradient all-reduce (parameters gathered twice, "
				       "gradients reduce-scattered)"
				     : "a gradient all-reduce, 2(N-1)/N x 2\xce\xa8 by a ring";
}

const char *zerow_convention(void)
{
	return "mixed-precision Adam: 2 bytes of parameters, 2 of gradients, 12 of optimizer "
	       "states a parameter (the ZeRO paper's accounting); GB = 10^9 bytes";
}

const char *zerow_left_out(void)
{
	return "left out: activations, temporary buffers, fragmentation (model states only)";
}

void zerow_params(uint64_t psi, char *buf, size_t size)
{
	static const struct {
		uint64_t unit;
		const char *name;
	} units[] = { { 1000000000000u, "T" }, { 1000000000u, "B" }, { 1000000u, "M" },
		      { 1000u, "K" } };
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (psi >= units[i].unit) {
			snprintf(buf, size, "%" PRIu64 " (%.4g %s)", psi,
				 (double)psi / (double)units[i].unit, units[i].name);
			return;
		}
	snprintf(buf, size, "%" PRIu64, psi);
}

void zerow_gb(double bytes, char *buf, size_t size)
{
	snprintf(buf, size, "%.1f GB", bytes / 1e9);
}
