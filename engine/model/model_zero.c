/* model_zero: the memory argument at real scale (see model.h): ZeRO's
 * accounting of mixed-precision Adam's model states, per device, for DP
 * and the three ZeRO stages.  Integers for the bytes (16 Psi is below
 * 2^64 for every Psi --params takes), the ring's factor from cost.h for
 * the bytes sent. */
#include <distmm/model.h>

#include <distmm/cost.h>

/* The bytes a sharded state of `per` bytes a parameter takes on the
 * device holding the largest shard: per x ceil(psi / n). */
static uint64_t zero_shard(uint64_t psi, int n, uint64_t per)
{
	return per * ((psi + (uint64_t)n - 1) / (uint64_t)n);
}

void model_zero(enum model_zero_stage stage, uint64_t psi, int n, double mem_bytes,
		struct model_zero *out)
{
	uint64_t P = MODEL_ZERO_PARAM_BYTES, G = MODEL_ZERO_GRAD_BYTES, O = MODEL_ZERO_OPTIM_BYTES;
	if (n < 1)
		n = 1;
	out->params = stage == MODEL_ZERO_3 ? zero_shard(psi, n, P) : P * psi;
	out->grads = stage >= MODEL_ZERO_2 ? zero_shard(psi, n, G) : G * psi;
	out->optim = stage >= MODEL_ZERO_1 ? zero_shard(psi, n, O) : O * psi;
	out->bytes = out->params + out->grads + out->optim;
	/* the gradient all-reduce, as a ring moves it */
	out->sent = cost_busbw_factor(CCL_ALLREDUCE, n) * (double)(G * psi);
	if (stage == MODEL_ZERO_3)
		out->sent *= 1.5;
	out->fits = (double)out->bytes <= mem_bytes;
}
