/* clock_words: the model of time in sentences (see clock_words.h).  The
 * closed forms here are words beside the engine's numbers: a reader holds
 * the printed time to them by hand; check_clock_words holds them to the
 * engine's results. */
#include "clock_words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <distmm/cost.h>

void clockw_model(const struct dm_hw *hw, unsigned given, int with_f, char *buf, size_t size)
{
	char f[96] = "";
	if (with_f && hw->tflops > 0)
		snprintf(f, sizeof f, ", F %g TFLOPS (%s)", hw->tflops,
			 (given & CLOCKW_FLOPS) ? "--flops, dense peak"
			 : hw->precision == HW_BF16 ? "bf16 dense peak" : "fp64 dense peak");
	else if (with_f)
		snprintf(f, sizeof f, ", F unknown");
	snprintf(buf, size, "%s: alpha %g us a message%s, beta %g GB/s a link and direction%s%s%s%s%s",
		 hw->name, hw->alpha_us, (given & CLOCKW_ALPHA) ? " (--alpha)" : "", hw->bw_gbps,
		 (given & CLOCKW_BW) ? " (--bw)" : "", f, hw->source[0] ? " (" : "", hw->source,
		 hw->source[0] ? ")" : "");
}

void clockw_model_brief(const struct dm_hw *hw, unsigned given, char *buf, size_t size)
{
	char f[64] = "";
	if (hw->tflops > 0)
		snprintf(f, sizeof f, ", F %g TFLOPS %s%s", hw->tflops, hw_precision_name(hw->precision),
			 (given & CLOCKW_FLOPS) ? " --flops" : "");
	snprintf(buf, size, "%s (alpha %g us%s, beta %g GB/s%s%s)", hw->name, hw->alpha_us,
		 (given & CLOCKW_ALPHA) ? " --alpha" : "", hw->bw_gbps,
		 (given & CLOCKW_BW) ? " --bw" : "", f);
}

void clockw_screen_times(const struct cost_run *c, int upto, char *buf, size_t size)
{
	char t[32], sum[32], comm[32];
	if (upto == -2) {
		snprintf(buf, size, "no time: the run deadlocked, and a deadlock has no time");
		return;
	}
	if (upto < 0 || (!c && upto > 0)) {
		snprintf(buf, size, "no time: the run did not finish");
		return;
	}
	if (!c) {
		snprintf(buf, size, "each phase is timed as it runs");
		return;
	}
	if (upto >= c->phases) {
		clockw_time(c->total_s, t, sizeof t);
		clockw_time(c->comm_s, comm, sizeof comm);
		snprintf(buf, size, "total %s, %.0f%% of it communicating (%s)", t,
			 c->total_s > 0 ? 100.0 * c->comm_s / c->total_s : 0.0, comm);
		return;
	}
	double so_far = c->phase[upto].start_s + c->phase[upto].time_s;
	clockw_time(c->phase[upto].time_s, t, sizeof t);
	clockw_time(so_far, sum, sizeof sum);
	snprintf(buf, size, "this phase %s, %s so far", t, sum);
}

const char *clockw_rule(void)
{
	return "a product m x k by k x n takes 2mkn/F, a message of S bytes alpha + S/beta; a "
	       "rank computes, then sends one message after another, different ranks' transfers "
	       "run at once, and a phase lasts as long as its slowest rank";
}

const char *clockw_time_formula(enum ccl_kind kind, enum ccl_algo algo)
{
	int pair = kind == CCL_ALLGATHER || kind == CCL_REDUCESCATTER;
	switch (algo) {
	case CCL_RING:
		return pair ? "(n-1) alpha + (n-1)/n S/beta" : "2(n-1) alpha + 2(n-1)/n S/beta";
	case CCL_TREE:
		if (kind == CCL_ALLREDUCE)
			return "2L (alpha + S/beta), L = ceil(log2 n)";
		return pair ? "2L alpha + (L + (n-1)/n) S/beta, L = ceil(log2 n)"
			    : "L (alpha + S/beta), L = ceil(log2 n)";
	case CCL_RHD:
		return kind == CCL_ALLREDUCE ? "2 log2(n) alpha + 2(n-1)/n S/beta"
					     : "log2(n) alpha + (n-1)/n S/beta";
	default:
		return "?";
	}
}

const char *clockw_bytes_formula(enum ccl_kind kind, enum ccl_algo algo)
{
	static const char *const ring[CCL_KIND_COUNT] = {
		"2S - w_r - w_(r+1)", "S - w_(r+1)", "S - w_r", "S from every rank but the last",
		"S from every rank but rank 0",
	};
	static const char *const tree[CCL_KIND_COUNT] = {
		"S (up, but the root) + S a child (down)", "W(subtree r) (up, but the root) + S a child",
		"S (up, but the root) + W(subtree r) - w_r (down)", "S a child",
		"S from every rank but the root",
	};
	if ((unsigned)kind >= CCL_KIND_COUNT)
		return "?";
	if (algo == CCL_RING)
		return ring[kind];
	if (algo == CCL_TREE)
		return tree[kind];
	return kind == CCL_ALLREDUCE	   ? "S - w_r + the sum over k of W(the 2^k chunks holding r)"
	       : kind == CCL_ALLGATHER ? "the sum over k of W(the 2^k chunks holding r)"
				       : "S - w_r";
}

const char *clockw_factor(enum ccl_kind kind)
{
	return kind == CCL_ALLREDUCE ? "2(n-1)/n"
	       : kind == CCL_ALLGATHER || kind == CCL_REDUCESCATTER ? "(n-1)/n" : "1";
}

const char *clockw_algo_title(enum ccl_algo algo)
{
	return algo == CCL_RING ? "ring" : algo == CCL_TREE ? "binomial tree"
					    : "recursive halving-doubling";
}

const char *clockw_algo_how(enum ccl_kind kind, enum ccl_algo algo)
{
	if (algo == CCL_RING && (kind == CCL_BROADCAST || kind == CCL_REDUCE))
		return "a chain through every rank, pipelined a chunk a step";
	if (algo == CCL_RING)
		return kind == CCL_ALLREDUCE ? "a reduce-scatter round the ring, then an all-gather"
					     : "n - 1 steps round the ring, a chunk a step";
	if (algo == CCL_TREE)
		return kind == CCL_ALLREDUCE	      ? "sums up the tree to rank 0, then copies down"
		       : kind == CCL_ALLGATHER     ? "gathers up the tree to rank 0, then copies down"
		       : kind == CCL_REDUCESCATTER ? "sums up the tree to rank 0, then scatters down"
		       : kind == CCL_BROADCAST	   ? "copies down the tree from rank 0"
						   : "sums up the tree to rank 0";
	return kind == CCL_ALLREDUCE ? "halves the range each step (summing), then doubles it back"
	       : kind == CCL_ALLGATHER ? "doubles the range each rank holds each step"
				       : "halves the range each step, summing";
}

const char *clockw_expected(enum ccl_kind kind)
{
	switch (kind) {
	case CCL_ALLGATHER: return "every rank's own chunk, concatenated";
	case CCL_BROADCAST: return "rank 0's buffer";
	case CCL_REDUCESCATTER: return "its chunk of the sum of every rank's buffer";
	case CCL_REDUCE: return "the sum of every rank's buffer (on rank 0)";
	default: return "the sum of every rank's buffer";
	}
}

void clockw_time(double s, char *buf, size_t size)
{
	if (s == 0)
		snprintf(buf, size, "0 us");
	else if (s < 1e-6)
		snprintf(buf, size, "%.4g ns", s * 1e9);
	else if (s < 1e-3)
		snprintf(buf, size, "%.4g us", s * 1e6);
	else if (s < 1)
		snprintf(buf, size, "%.4g ms", s * 1e3);
	else
		snprintf(buf, size, "%.4g s", s);
}

void clockw_size(double bytes, char *buf, size_t size)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	int u = -1;
	double v = bytes;
	while (u < 3 && v >= 1024 && fmod(v, 1024) == 0)
		v /= 1024, u++;
	if (u < 0)
		snprintf(buf, size, "%.0f B", bytes);
	else
		snprintf(buf, size, "%.0f %s", v, units[u]);
}

void clockw_print_presets(void)
{
	printf("--hw NAME models a run on one of these (sources: docs/clock.md):\n");
	for (int i = 0; i < hw_preset_count(); i++) {
		struct dm_hw hw;
		if (hw_preset_at(i, &hw))
			break;
		printf("  %-17s alpha %4g us, beta %4g GB/s, F %5g TFLOPS %s\n", hw.name, hw.alpha_us,
		       hw.bw_gbps, hw.tflops, hw_precision_name(hw.precision));
	}
	printf("--hw FILE reads a preset file (key = value lines: name, alpha_us, bw_gbps,\n"
	       "tflops, precision, source); --alpha, --bw and --flops set a value over either.\n");
}
