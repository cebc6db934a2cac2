/* report_mlp: -m tp-mlp in batch mode (see report_mlp.h).  Every figure
 * is the engine's (model_tp_rank, the run's summaries); the words and the
 * layout are here.  The check computes H = act(A @ B) whole, not by
 * Freivalds: act does not commute with a projection, so only the second
 * product can be checked by random vectors. */
#include "report_mlp.h"

#include <inttypes.h>
#include <stdio.h>

#include <distmm/act.h>
#include <distmm/model.h>
#include <distmm/schedule.h>

#include "cli/status.h"
#include "report.h"

void report_mlp_header(const struct cli_opts *o, const struct dm_plan *p, size_t N)
{
	printf("tp-mlp: Z = %s(A @ B) @ E, E %zux%zu %s%s\n", act_name(plan_tp_act(p)), N,
	       plan_tp_width(p), o->e_file ? "from " : "from the seed",
	       o->e_file ? o->e_file : "");
}

int report_mlp_event(const struct ev *e, const struct dm_plan *p)
{
	if (e->op != EV_COMPUTE)
		return 0;
	const char *act = act_name(plan_tp_act(p));
	switch (sched_phase_kind(p, e->phase)) {
	case SCHED_COMPUTE:
		printf("compute  rank %d  A @ B[:, %" PRIu32 ":%" PRIu32 "] (its shard, which stays)  "
		       "-> H[:, %" PRIu32 ":%" PRIu32 "], whole columns of A @ B\n",
		       e->rank, e->col_begin, e->col_end, e->col_begin, e->col_end);
		return 1;
	case SCHED_ACTIVATE:
		printf("activation  rank %d  H[:, %" PRIu32 ":%" PRIu32 "] = %s(H[:, %" PRIu32
		       ":%" PRIu32 "]) in place, no message: each element is whole here\n",
		       e->rank, e->col_begin, e->col_end, act, e->col_begin, e->col_end);
		return 1;
	case SCHED_LAYER2:
		printf("second layer  rank %d  H_%d @ E[rows of shard %d, :]  -> its partial, all of "
		       "Z (%" PRIu32 "x%" PRIu32 ")\n",
		       e->rank, e->shard, e->shard, e->row_end, e->col_end);
		return 1;
	default:
		return 0;
	}
}

void report_mlp_traffic(const struct dm_plan *p, size_t M, size_t K, size_t N)
{
	int n = plan_devices(p);
	uint64_t Z = 8 * (uint64_t)M * plan_tp_width(p);
	struct model_tp m0;
	model_tp_rank(p, 0, M, K, N, &m0);
	if (n == 1) {
		printf("  tp-mlp on one device: %s(A @ B) @ E, nothing moves\n",
		       act_name(plan_tp_act(p)));
		return;
	}
	printf("  tp-mlp: rank 0 sends A (%" PRIu64 " B) to each of the %d other ranks; nothing "
	       "moves between the layers; Z's all-reduce: 2(n-1)/n x 8MP = 2x%d/%d x %" PRIu64
	       " = %" PRIu64 " B a rank%s\n",
	       8 * (uint64_t)M * K, n - 1, n - 1, n, Z, m0.mlp_right,
	       M % (size_t)n ? " when n divides M (here uneven: per rank 2x8MP - R_r - R_r+1, R_c "
			       "the bytes of Z's row chunk c)" : "");
}

void report_mlp_orders(const struct dm_plan *p, size_t M, size_t K, size_t N)
{
	int n = plan_devices(p);
	uint64_t right = 0, wrong = 0;
	printf("the order of the layers (bytes a rank sends in the MLP's collectives, the model; "
	       "A's arrival left out):\n");
	printf("  %-8s %16s %16s\n", "", "column-then-row", "row-then-column");
	for (int r = 0; r < n; r++) {
		struct model_tp m;
		char name[16];
		model_tp_rank(p, r, M, K, N, &m);
		snprintf(name, sizeof name, "rank %d", r);
		printf("  %-8s %16" PRIu64 " %16" PRIu64 "\n", name, m.mlp_right, m.mlp_wrong);
		right += m.mlp_right;
		wrong += m.mlp_wrong;
	}
	printf("  column-then-row: H_r = %s(A @ B_r) needs no message (whole columns), one "
	       "all-reduce of Z (M x P).  Row-then-column: %s(x + y) is not %s(x) + %s(y), so the "
	       "M x N partials of A @ B are all-reduced before it, then Z's columns all-gathered: "
	       "%" PRIu64 " B in all against %" PRIu64 " B\n",
	       act_name(plan_tp_act(p)), act_name(plan_tp_act(p)), act_name(plan_tp_act(p)),
	       act_name(plan_tp_act(p)), wrong, right);
}

int report_mlp_verify(const struct cli_opts *o, const struct mat *a, const struct mat *b,
		      const struct mat *e, const struct dm_plan *p, const struct mat *z)
{
	static const struct report_product mlp = { "verify", "Z", "act(A @ B) @ E", "H(Ex)",
						   "A, B, E or Z" };
	struct mat h = { 0 };
	struct dm_err err;
	if (mat_matmul(&h, a, b, &err)) {
		status_error("%s", err.msg);
		return STATUS_MISMATCH; /* unverified is not verified */
	}
	enum dm_act act = plan_tp_act(p);
	for (size_t i = 0; i < h.rows * h.cols; i++)
		h.data[i] = act_apply(act, h.data[i]);
	int status = report_verify_product(o, &mlp, (struct verify_op){ &h, 0 },
					   (struct verify_op){ e, 0 }, z, o->seed ^ 0xf4e1a1d5ULL);
	mat_free(&h);
	return status;
}
