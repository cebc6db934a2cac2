/* model/: what a run costs without running it: the bytes held and sent
 * (model.c, model_train.c), the hardware (hw.c, hw_file.c) and the time
 * (cost.c, cost_run.c).
 *
 * cost: the formulas of the model of time and its closed forms (see
 * cost.h), written once here: the sweep, the reports and the tests read
 * them, and cost_run.c times a run's own events with cost_msg_s and
 * cost_gemm_s.  Each closed form is written as the issue and the
 * literature give it, term by term, so that a reader can hold the code to
 * the text. */
#include <distmm/cost.h>

double cost_alpha_s(const struct dm_hw *hw)
{
	return hw->alpha_us * 1e-6;
}

double cost_beta(const struct dm_hw *hw)
{
	return hw->bw_gbps * 1e9;
}

double cost_flops(const struct dm_hw *hw)
{
	return hw->tflops * 1e12;
}

double cost_msg_s(const struct dm_hw *hw, double bytes)
{
	return cost_alpha_s(hw) + bytes / cost_beta(hw);
}

double cost_gemm_s(const struct dm_hw *hw, double m, double k, double n)
{
	double flops = 2.0 * m * k * n;
	return flops > 0 && cost_flops(hw) > 0 ? flops / cost_flops(hw) : 0.0;
}

double cost_ccl_s(const struct dm_hw *hw, enum ccl_kind kind, enum ccl_algo algo, int n,
		  double S)
{
	double a = cost_alpha_s(hw), b = cost_beta(hw);
	int L = ccl_levels(n); /* the tree's levels; rhd's log2 n */
	if (n <= 1)
		return 0.0;
	switch (algo) {
	case CCL_RING:
		if (kind == CCL_ALLGATHER || kind == CCL_REDUCESCATTER)
			return (n - 1) * a + (double)(n - 1) / n * S / b;
		/* all-reduce; the pipelined chain of n chunks takes as many steps */
		return 2.0 * (n - 1) * a + 2.0 * (n - 1) / n * S / b;
	case CCL_TREE:
		if (kind == CCL_ALLREDUCE)
			return 2.0 * L * (a + S / b);
		if (kind == CCL_REDUCE || kind == CCL_BROADCAST)
			return L * (a + S / b);
		/* a reduce or broadcast of S, and a scatter or gather of (n-1)/n S */
		return 2.0 * L * a + (L + (double)(n - 1) / n) * S / b;
	case CCL_RHD:
		if (kind == CCL_ALLREDUCE)
			return 2.0 * L * a + 2.0 * (n - 1) / n * S / b;
		return L * a + (double)(n - 1) / n * S / b;
	default:
		return 0.0;
	}
}

double cost_busbw_factor(enum ccl_kind kind, int n)
{
	switch (kind) {
	case CCL_ALLREDUCE: return 2.0 * (n - 1) / n;
	case CCL_ALLGATHER:
	case CCL_REDUCESCATTER: return (double)(n - 1) / n;
	default: return 1.0;
	}
}

double cost_algbw(double S, double t)
{
	return t > 0 ? S / t : 0.0;
}

double cost_busbw(enum ccl_kind kind, int n, double S, double t)
{
	return cost_algbw(S, t) * cost_busbw_factor(kind, n);
}

double cost_sweep_size(int i)
{
	double s = COST_SWEEP_MIN;
	while (i-- > 0)
		s *= 2.0;
	return s;
}

void cost_sweep(const struct dm_hw *hw, enum ccl_kind kind, enum ccl_algo algo, int n,
		struct cost_point *out)
{
	for (int i = 0; i < COST_SWEEP_SIZES; i++) {
		double S = cost_sweep_size(i), t = cost_ccl_s(hw, kind, algo, n, S);
		out[i] = (struct cost_point){ S, t, cost_algbw(S, t), cost_busbw(kind, n, S, t) };
	}
}

int cost_crossover(const struct dm_hw *hw, enum ccl_kind kind, int n)
{
	int from = -1;
	for (int i = COST_SWEEP_SIZES - 1; i >= 0; i--) {
		double S = cost_sweep_size(i);
		if (!(cost_ccl_s(hw, kind, CCL_RING, n, S) < cost_ccl_s(hw, kind, CCL_TREE, n, S)))
			break;
		from = i;
	}
	return from;
}
