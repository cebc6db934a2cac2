/* drills: the clock's and tensor parallel's questions (see drills.h).  An
 * expression's cases get their truth from the engine (cost_busbw_factor,
 * split_offset, model_tp_rank), so a question cannot drift from what the
 * program runs; the timed numbers are asked on the context's hardware and
 * ranks, their words and ranges worked out by cost.h at the moment they
 * are shown.  A size is right anywhere between the sweep's last size the
 * tree wins and its first the ring does (the sweep's resolution, as the
 * issue asks), a time within 5%. */
#include "drills.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <distmm/cost.h>
#include <distmm/model.h>
#include <distmm/plan.h>
#include <distmm/split.h>

static const char *const drill_sn[] = { "S", "n" };
static const char *const drill_n[] = { "n" };
static const char *const drill_knt[] = { "K", "N", "t" };
static const char *const drill_rNn[] = { "r", "N", "n" };
static const char *const drill_rKn[] = { "r", "K", "n" };
static const char *const drill_MNn[] = { "M", "N", "n" };

/* num/den in lowest terms, den > 0: the checker compares fractions so */
static void drill_frac(int64_t num, int64_t den, int64_t *out_num, int64_t *out_den)
{
	int64_t a = num < 0 ? -num : num, b = den;
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	if (a == 0)
		a = 1;
	*out_num = num / a;
	*out_den = den / a;
}

/* ---- factors, v[last] being n (or t) ---- */

static void drill_f2(const int64_t *v, int64_t *num, int64_t *den)
{
	(void)v;
	*num = 2;
	*den = 1;
}

static void drill_f8(const int64_t *v, int64_t *num, int64_t *den)
{
	(void)v;
	*num = 8;
	*den = 1;
}

/* the variables' last is n in every list below that names these */
static void drill_fn1_of(const int64_t *v, int at, int64_t *num, int64_t *den)
{
	*num = v[at] - 1;
	*den = 1;
}

static void drill_f1n_of(const int64_t *v, int at, int64_t *num, int64_t *den)
{
	*num = 1;
	*den = v[at];
}

static void drill_fn1_1(const int64_t *v, int64_t *num, int64_t *den) { drill_fn1_of(v, 1, num, den); }
static void drill_f1n_1(const int64_t *v, int64_t *num, int64_t *den) { drill_f1n_of(v, 1, num, den); }
static void drill_fn1_0(const int64_t *v, int64_t *num, int64_t *den) { drill_fn1_of(v, 0, num, den); }
static void drill_f1n_0(const int64_t *v, int64_t *num, int64_t *den) { drill_f1n_of(v, 0, num, den); }
static void drill_fn1_2(const int64_t *v, int64_t *num, int64_t *den) { drill_fn1_of(v, 2, num, den); }
static void drill_f1n_2(const int64_t *v, int64_t *num, int64_t *den) { drill_f1n_of(v, 2, num, den); }

/* ---- the ring all-reduce's bytes: S = n, 2n, 3n (x 8), n = 1..8 ---- */

static int drill_allreduce_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	if (i < 0 || i >= 8 * 3)
		return 0;
	int64_t n = i / 3 + 1, S = (i % 3 + 1) * n * 8;
	v[0] = S;
	v[1] = n;
	/* what the ring sends a rank: busbw's factor times S (cost.h's one home) */
	drill_frac(llround(cost_busbw_factor(CCL_ALLREDUCE, (int)n) * (double)n) * S, n, num, den);
	return 1;
}

static const struct derive_factor drill_allreduce_factors[] = {
	{ "2 (a reduce-scatter and an all-gather)", drill_f2 },
	{ "(n - 1) (the steps of each)", drill_fn1_1 },
	{ "1/n (a chunk is S/n)", drill_f1n_1 },
};

const struct qbank_row drill_q_allreduce_bytes = {
	.kind = QBANK_LIST, .name = "all-reduce as reduce-scatter + all-gather",
	.text = "A ring all-reduce of S bytes is a reduce-scatter then an all-gather. How many "
		"bytes does each rank send in all? Write it in S and n (n divides S)",
	.names = drill_sn, .count = 2, .at = drill_allreduce_case, .pre = "a rank sends ",
	.post = " bytes", .factors = drill_allreduce_factors, .n_factors = 3,
	.worked = "2*S*(n - 1)/n: the reduce-scatter sends n - 1 chunks of S/n (each rank ends "
		  "with one chunk summed), the all-gather n - 1 more (each rank ends with all "
		  "of them): DP's gradient sync, and FSDP's two halves.",
};

/* ---- nccl-tests' bus bandwidth factor for all-reduce, n = 1..16 ---- */

static int drill_busbw_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	if (i < 0 || i >= 16)
		return 0;
	int64_t n = i + 1;
	v[0] = n;
	drill_frac(llround(cost_busbw_factor(CCL_ALLREDUCE, (int)n) * (double)n), n, num, den);
	return 1;
}

static const struct derive_factor drill_busbw_factors[] = {
	{ "2 (a reduce-scatter and an all-gather)", drill_f2 },
	{ "(n - 1) (the steps of each)", drill_fn1_0 },
	{ "1/n (a chunk is S/n)", drill_f1n_0 },
};

static const struct qbank_row drill_q_busbw = {
	.kind = QBANK_LIST, .name = "all-reduce's bus bandwidth factor",
	.text = "nccl-tests prints an all-reduce's algbw = S / t and its busbw = algbw x f, the "
		"f that makes busbw the link's own bandwidth however many ranks there are. What "
		"is f? Write it in n",
	.names = drill_n, .count = 1, .at = drill_busbw_case, .pre = "f is ", .post = "",
	.factors = drill_busbw_factors, .n_factors = 3,
	.worked = "2*(n - 1)/n: a ring all-reduce sends 2(n - 1)/n x S a rank, so with alpha "
		  "aside t = 2(n - 1)/n x S / beta and S/t x 2(n - 1)/n = beta, the link's "
		  "bandwidth. All-gather and reduce-scatter send half of that: f = (n - 1)/n; "
		  "broadcast and reduce f = 1 (distmm-tui -b --sweep allreduce prints both).",
};

/* ---- ring against tree on the context's hardware ---- */

static void drill_hw_words(const struct qbank_ctx *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s (alpha = %g us a message, beta = %g GB/s a link)", c->hw.name,
		 c->hw.alpha_us, c->hw.bw_gbps);
}

/* The sweep's rows around the crossover: the answer lies between them. */
static void drill_crossover_range(const struct qbank_ctx *c, double *lo, double *hi)
{
	int i = cost_crossover(&c->hw, CCL_ALLREDUCE, c->n);
	if (i < 0) {
		*lo = *hi = 0;
		return;
	}
	*lo = i > 0 ? cost_sweep_size(i - 1) : 0;
	*hi = cost_sweep_size(i);
}

static void drill_crossover_say(const struct qbank_ctx *c, int worked, char *buf, size_t size)
{
	char hw[160];
	drill_hw_words(c, hw, sizeof hw);
	int i = cost_crossover(&c->hw, CCL_ALLREDUCE, c->n);
	if (!worked) {
		snprintf(buf, size, "On %s with n = %d ranks, from what size on is a ring all-reduce "
			 "faster than a binary tree's (reduce up, broadcast down)? Any size between "
			 "the sweep's last where the tree wins and its first where the ring does is "
			 "right (the sweep doubles from 8 B to 1 GiB); 0 if the tree wins at every "
			 "one. A size, e.g. 64 KiB", hw, c->n);
		return;
	}
	if (i < 0) {
		snprintf(buf, size, "0: on %s the tree's fewer latencies win at every size up to "
			 "1 GiB (distmm-tui -b --sweep allreduce -d %d --hw ... shows it).", hw, c->n);
		return;
	}
	char a[32], b[32];
	double sa = i > 0 ? cost_sweep_size(i - 1) : 0, sb = cost_sweep_size(i);
	qbank_bytes_words(sa, a, sizeof a);
	qbank_bytes_words(sb, b, sizeof b);
	double rb = cost_ccl_s(&c->hw, CCL_ALLREDUCE, CCL_RING, c->n, sb) * 1e6;
	double tb = cost_ccl_s(&c->hw, CCL_ALLREDUCE, CCL_TREE, c->n, sb) * 1e6;
	size_t o = (size_t)snprintf(buf, size, "between %s and %s: at %s the ring takes %.3g us, "
				    "the tree %.3g us", i > 0 ? a : "0", b, b, rb, tb);
	if (i > 0 && o < size) {
		double ra = cost_ccl_s(&c->hw, CCL_ALLREDUCE, CCL_RING, c->n, sa) * 1e6;
		double ta = cost_ccl_s(&c->hw, CCL_ALLREDUCE, CCL_TREE, c->n, sa) * 1e6;
		o += (size_t)snprintf(buf + o, size - o, " (at %s %.3g against %.3g)", a, ra, ta);
	}
	if (o < size)
		snprintf(buf + o, size - o, ". The ring takes 2(n - 1) latencies, the tree "
			 "2 ceil(log2 n), but the ring sends 2(n - 1)/n S a rank where the tree "
			 "sends S at every level: latency wins small messages, bandwidth large "
			 "ones. distmm-tui -b --sweep allreduce -d %d --hw %s prints every size.",
			 c->n, c->hw.name);
}

static const struct qbank_row drill_q_crossover = {
	.kind = QBANK_NUMBER, .name = "where the ring overtakes the tree", .unit = QBANK_BYTES,
	.say = drill_crossover_say, .range = drill_crossover_range,
};

/* ---- an all-gather's time: bf16[1024, 16384], the scaling book's ---- */

#define DRILL_AG_BYTES (1024.0 * 16384.0 * 2.0) /* 32 MiB */

static double drill_allgather_us(const struct qbank_ctx *c)
{
	return cost_ccl_s(&c->hw, CCL_ALLGATHER, CCL_RING, c->n, DRILL_AG_BYTES) * 1e6;
}

static void drill_allgather_range(const struct qbank_ctx *c, double *lo, double *hi)
{
	double t = drill_allgather_us(c);
	*lo = 0.95 * t;
	*hi = 1.05 * t;
}

static void drill_allgather_say(const struct qbank_ctx *c, int worked, char *buf, size_t size)
{
	char hw[160];
	drill_hw_words(c, hw, sizeof hw);
	if (!worked)
		snprintf(buf, size, "An all-gather of a bf16[1024, 16384] tensor (32 MiB in all, "
			 "S as nccl-tests counts it) on n = %d ranks of %s, by a ring: how long "
			 "does it take in the model? A time, e.g. 12.5 us (within 5%%)", c->n, hw);
	else
		snprintf(buf, size, "%.4g us: (n - 1) alpha + (n - 1)/n S / beta, %d messages of "
			 "S/n one after another, each rank sending (n - 1)/n of S (the scaling "
			 "book's 65 us is 8 H100s at 450 GB/s with alpha = 0; distmm-tui -b "
			 "--collective allgather -d %d --bytes 32M --hw %s runs it).",
			 drill_allgather_us(c), c->n - 1, c->n, c->hw.name);
}

static const struct qbank_row drill_q_allgather = {
	.kind = QBANK_NUMBER, .name = "an all-gather's time", .unit = QBANK_US,
	.say = drill_allgather_say, .range = drill_allgather_range,
};

const struct qbank_row drill_q_ring_latency = {
	.kind = QBANK_NUMBER, .name = "ring against tree for a small message",
	.text = "For a latency-bound (tiny) all-reduce on n = 64 ranks, how many message "
		"latencies in sequence does a ring take? (a binary tree's reduce then broadcast "
		"takes 2*log2(64) = 12) (a number)",
	.number = 126, .unit = QBANK_COUNT,
	.worked = "126 = 2(n - 1): the ring's reduce-scatter and all-gather are n - 1 steps "
		  "each, so a tree (2 log2 n) wins when latency dominates; the ring sends the "
		  "fewest bytes a rank, so it wins for large messages. NCCL picks between them "
		  "by size (distmm-tui -b --sweep allreduce shows where they cross).",
};

static const struct qbank_row drill_q_prefetch = {
	.kind = QBANK_LETTERS, .name = "what prefetch hides",
	.text = "With prefetch a rank sends and receives the next shard while it multiplies "
		"the current one. A step's product takes c, its transfer m. How much of the step "
		"is communication nobody hides (exposed)? Type one letter: a max(0, m - c), "
		"b m + c, c 0 always, d m",
	.letters = "a",
	.worked = "a, max(0, m - c): the pair takes max(c, m), so the transfer is hidden "
		  "while the product lasts and only the rest shows; plain, the step takes c + m "
		  "and all of m is exposed. Large products hide it whole (distmm-tui -b --hw "
		  "h100-nvlink --prefetch --timeline shows the bars overlap).",
};

/* ---- tensor parallel ---- */

/* r, N (or K), n with n dividing N: n = 1..8, N = n, 2n, 3n, every r */
static int drill_shard_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	for (int64_t n = 1; n <= 8; n++)
		for (int64_t m = 1; m <= 3; m++)
			for (int64_t r = 0; r < n; r++)
				if (i-- == 0) {
					v[0] = r;
					v[1] = m * n;
					v[2] = n;
					*num = (int64_t)split_offset((size_t)(m * n), (int)n, (int)r);
					*den = 1;
					return 1;
				}
	return 0;
}

static void drill_fr(const int64_t *v, int64_t *num, int64_t *den)
{
	*num = v[0];
	*den = 1;
}

static const struct derive_factor drill_shard_factors[] = {
	{ "r (the shards before rank r's)", drill_fr },
	{ "1/n (a shard is 1/n of them)", drill_f1n_2 },
};

static const struct qbank_row drill_q_tp_cols = {
	.kind = QBANK_LIST, .name = "tp-col: the columns rank r writes",
	.text = "Column-parallel (tp-col): B's N columns are split over n ranks, n dividing N, "
		"and rank r computes C[:, cols_r] = A @ B_r. Which is the first column of C rank "
		"r writes? Write it in r, N and n (it writes N/n from there)",
	.names = drill_rNn, .count = 3, .at = drill_shard_case, .pre = "rank r starts at column ",
	.post = "", .factors = drill_shard_factors, .n_factors = 2,
	.worked = "r*N/n: the shards are numpy's array_split of the columns, in rank order, "
		  "so rank r's begins after r shards of N/n. Nothing of B moves: every rank holds "
		  "A, and only C's columns go to rank 0 (distmm-tui -m tp-col -d 4 shows it).",
};

static const struct qbank_row drill_q_tp_rows = {
	.kind = QBANK_LIST, .name = "tp-row: the rows of B rank r holds",
	.text = "Row-parallel (tp-row): A is split by columns and B by rows along K over n "
		"ranks, n dividing K. Which is the first row of B rank r holds? Write it in r, K "
		"and n (it holds K/n rows from there)",
	.names = drill_rKn, .count = 3, .at = drill_shard_case, .pre = "rank r starts at row ",
	.post = "", .factors = drill_shard_factors, .n_factors = 2,
	.worked = "r*K/n: rank r holds A's columns and B's rows of the same slice of K, so "
		  "A[:, k_r] @ B[k_r, :] is its partial: a whole M x N matrix, one term of C's "
		  "sum over K. The terms are summed by an all-reduce.",
};

/* tp-row's all-reduce: M = n, 2n (n divides M), N = 1..3, n = 1..8, from
 * the engine's model of the run (rank 0, its bytes sent) */
static int drill_tp_row_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	if (i < 0 || i >= 8 * 2 * 3)
		return 0;
	int n = i / 6 + 1;
	int64_t M = (int64_t)((i / 3) % 2 + 1) * n, N = i % 3 + 1;
	struct dm_plan *p;
	if (plan_make(&p, DM_TP_ROW, n, DM_FORWARD, NULL))
		return 0;
	struct model_tp m;
	model_tp_rank(p, 0, (size_t)M, (size_t)n, (size_t)N, &m);
	plan_free(p);
	v[0] = M;
	v[1] = N;
	v[2] = n;
	*num = (int64_t)m.sent;
	*den = 1;
	return 1;
}

static const struct derive_factor drill_tp_row_factors[] = {
	{ "8 (the bytes of a float64)", drill_f8 },
	{ "2 (a reduce-scatter and an all-gather)", drill_f2 },
	{ "(n - 1) (the steps of each)", drill_fn1_2 },
	{ "1/n (a chunk is M/n rows)", drill_f1n_2 },
};

static const struct qbank_row drill_q_tp_row_bytes = {
	.kind = QBANK_LIST, .name = "tp-row: the bytes of its all-reduce",
	.text = "In tp-row every rank's partial is a whole M x N matrix of float64s, summed by "
		"a ring all-reduce. How many bytes does each rank send in it? Write it in M, N "
		"and n (n divides M)",
	.names = drill_MNn, .count = 3, .at = drill_tp_row_case, .pre = "a rank sends ",
	.post = " bytes", .factors = drill_tp_row_factors, .n_factors = 4,
	.worked = "2*(n - 1)/n*8*M*N: the ring all-reduce of S = 8MN bytes, n - 1 chunks of "
		  "M/n rows in its reduce-scatter and n - 1 in its all-gather. Activations move, "
		  "not weights: it does not depend on K (distmm-tui -b -m tp-row -d 4).",
};

static const struct qbank_row drill_q_tp_act = {
	.kind = QBANK_LETTERS, .name = "why the activation needs no message",
	.text = "Megatron's MLP, Z = act(A @ B) @ E: B split by columns (tp-col), E by rows "
		"(tp-row). Why may each rank apply act to its part with no communication? Type "
		"one letter: a it holds whole columns of A @ B and act works element by element, "
		"b act is linear, c an all-reduce ran before it, d only rank 0 applies it",
	.letters = "a",
	.worked = "a: rank r holds A @ B_r, whole columns of A @ B, and act of an element "
		  "needs that element alone, so act(A @ B)[:, cols_r] = act(A @ B_r). Row-parallel "
		  "first would leave each rank a partial sum, and act(x + y) is not act(x) + "
		  "act(y): an all-reduce of the M x N partials before act, one more collective.",
};

static const struct qbank_row drill_q_tp_backward = {
	.kind = QBANK_LETTERS, .name = "tp-col's backward collective",
	.text = "The backward of tp-col (B split by columns, A on every rank): dA = dC @ B^T, "
		"and rank r can compute dC[:, cols_r] @ B_r^T. Which collective gives every rank "
		"dA? Type one letter: a all-reduce, g all-gather, r reduce-scatter, n none",
	.letters = "a",
	.worked = "a, all-reduce: each rank's product is a partial of dA over its columns "
		  "(M x K, all of it), and dA is their sum. Its dB_r = A^T @ dC[:, cols_r] needs "
		  "nothing: local. In tp-row it is the other way round: dA's columns are local.",
};

/* ---- a weight under tensor parallel: K x N, N = t, 2t, 3t ---- */

static int drill_tp_weight_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	if (i < 0 || i >= 8 * 3 * 3)
		return 0;
	int64_t t = i / 9 + 1, K = (i / 3) % 3 + 1, N = (i % 3 + 1) * t;
	v[0] = K;
	v[1] = N;
	v[2] = t;
	*num = 8 * K * (int64_t)split_size((size_t)N, (int)t, 0);
	*den = 1;
	return 1;
}

static void drill_f1t(const int64_t *v, int64_t *num, int64_t *den)
{
	*num = 1;
	*den = v[2];
}

static const struct derive_factor drill_tp_weight_factors[] = {
	{ "8 (the bytes of a float64)", drill_f8 },
	{ "1/t (each GPU holds N/t columns)", drill_f1t },
};

const struct qbank_row drill_q_tp_weight = {
	.kind = QBANK_LIST, .name = "a weight under tensor parallel",
	.text = "Tensor parallel splits one K x N float64 weight by columns across the t GPUs "
		"of a node. How many bytes of it does each GPU hold? Write it in K, N and t",
	.names = drill_knt, .count = 3, .at = drill_tp_weight_case, .pre = "a GPU holds ",
	.post = " bytes", .factors = drill_tp_weight_factors, .n_factors = 2,
	.worked = "8*K*N/t: each GPU holds N/t columns and computes its slice of the output; "
		  "within a node over NVLink, with FSDP across nodes.",
};

/* ---- the sets ---- */

static const struct qbank_row *const drill_clock[] = {
	&drill_q_allreduce_bytes, &drill_q_busbw, &drill_q_ring_latency, &drill_q_crossover,
	&drill_q_allgather, &drill_q_prefetch,
};

static const struct qbank_row *const drill_tp[] = {
	&drill_q_tp_cols, &drill_q_tp_rows, &drill_q_tp_row_bytes, &drill_q_tp_act,
	&drill_q_tp_backward, &drill_q_tp_weight,
};

static const struct {
	const struct qbank_row *const *rows;
	int count;
} drill_sets[DRILL_SET_COUNT] = {
	[DRILL_CLOCK] = { drill_clock, (int)(sizeof drill_clock / sizeof drill_clock[0]) },
	[DRILL_TP] = { drill_tp, (int)(sizeof drill_tp / sizeof drill_tp[0]) },
};

_Static_assert(sizeof drill_clock / sizeof drill_clock[0] <= DRILL_MAX, "DRILL_MAX");
_Static_assert(sizeof drill_tp / sizeof drill_tp[0] <= DRILL_MAX, "DRILL_MAX");

int drill_count(int set)
{
	return set >= 0 && set < DRILL_SET_COUNT ? drill_sets[set].count : 0;
}

const struct qbank_row *drill_row(int set, int q)
{
	return q >= 0 && q < drill_count(set) ? drill_sets[set].rows[q] : NULL;
}
