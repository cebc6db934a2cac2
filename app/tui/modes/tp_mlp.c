/* tp_mlp: -m tp-mlp's words in tensor parallel's mode (tp.c's table of
 * variants holds them beside tp-col's and tp-row's): Megatron's MLP,
 * Z = act(A @ B) @ E, column-parallel first so that the activation needs
 * no message, then row-parallel, its M x P partials all-reduced by the
 * ring.  The check is Z against act(A @ B) @ E, computed here in sequence
 * (the view's own reference is A @ B). */
#include <stdio.h>

#include <distmm/act.h>
#include <distmm/ccl.h>
#include <distmm/model.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "tp_int.h"

void tpm_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n;
	const char *act = act_name(plan_tp_act(v->plan));
	struct model_tp m, m1;
	model_tp_rank(v->plan, 0, v->snap.M, v->snap.K, v->snap.N, &m);
	model_tp_rank(v->plan, n > 1 ? 1 : 0, v->snap.M, v->snap.K, v->snap.N, &m1);
	switch (v->kind) {
	case VIEW_READY:
		snprintf(buf, size, "tp-mlp (Megatron's MLP): Z = %s(A @ B) @ E. Rank r keeps B's "
				    "columns r and E's matching rows r. Next: rank 0 sends A. Press n.",
			 act);
		break;
	case SCHED_DISTRIBUTE:
		snprintf(buf, size, "distribute A: rank 0 sends all of A to %d other rank%s: every "
				    "rank needs whole rows of A for whole columns of A @ B.",
			 n - 1, n == 2 ? "" : "s");
		break;
	case SCHED_COMPUTE:
		snprintf(buf, size, "first layer, column-parallel: H[:, cols_r] = A @ B[:, cols_r]. "
				    "Each element of A @ B is whole on one rank: no sum is pending.");
		break;
	case SCHED_ACTIVATE:
		snprintf(buf, size, "activation: H = %s(H) in place, no message. It is safe only "
				    "because each element is whole: %s(x + y) is not %s(x) + %s(y).",
			 act, act, act, act);
		break;
	case SCHED_LAYER2:
		snprintf(buf, size, "second layer, row-parallel: Z_r = H[:, cols_r] @ E[cols_r, :], "
				    "a whole M x P partial; Z = Z_0 + ... + Z_%d.%s",
			 n - 1, n == 1 ? " One device: its partial is Z." : " Next: the ring all-reduce.");
		break;
	case SCHED_CCL_RING_RS:
	case SCHED_CCL_RING_AG:
		snprintf(buf, size, "%s step %d of Z's row chunks: the MLP's one collective, %llu B a "
				    "rank (2(n-1)/n x 8MP). Row-parallel first would all-reduce the "
				    "M x N partials before act: %llu B a rank.",
			 v->kind == SCHED_CCL_RING_RS ? "reduce-scatter" : "all-gather", v->step,
			 (unsigned long long)m1.mlp_right, (unsigned long long)m1.mlp_wrong);
		break;
	default:
		snprintf(buf, size, "verify: Z on rank 0 (every rank holds it), checked against the "
				    "sequential %s(A @ B) @ E by numpy's allclose rule.",
			 act);
	}
}

void tpm_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	size_t c0 = split_offset(v->snap.N, v->snap.n, r);
	size_t c1 = split_offset(v->snap.N, v->snap.n, r + 1);
	switch (v->kind) {
	case VIEW_READY:
		snprintf(buf, size, shortform ? "B, E %zu:%zu" : "holds B[:, %zu:%zu], E[%zu:%zu, :]",
			 c0, c1, c0, c1);
		break;
	case SCHED_DISTRIBUTE:
		snprintf(buf, size, r == 0 ? "sends A" : "A <- rank 0");
		break;
	case SCHED_COMPUTE:
		snprintf(buf, size, shortform ? "H[:, %zu:%zu]" : "A @ B[:, %zu:%zu] -> H[:, %zu:%zu]",
			 c0, c1, c0, c1);
		break;
	case SCHED_ACTIVATE:
		if (shortform)
			snprintf(buf, size, "%s(H)", act_name(plan_tp_act(v->plan)));
		else
			snprintf(buf, size, "H[:, %zu:%zu] = %s(H), no message", c0, c1,
				 act_name(plan_tp_act(v->plan)));
		break;
	case SCHED_LAYER2:
		if (shortform)
			snprintf(buf, size, "Z%d, %zux%zu", r, v->snap.M, v->snap.P);
		else
			snprintf(buf, size, "H @ E[%zu:%zu, :] -> Z%d", c0, c1, r);
		break;
	case SCHED_CCL_RING_RS:
	case SCHED_CCL_RING_AG: {
		struct ccl_xfer x;
		ccl_rank_phase(CCL_ALLREDUCE, CCL_RING, v->snap.n, view_phase_step(v, v->stop) +
				       (v->kind == SCHED_CCL_RING_AG ? v->snap.n - 1 : 0), r, &x);
		if (x.send_to < 0)
			snprintf(buf, size, "no chunk moved");
		else
			snprintf(buf, size, "Z c%d -> %d, %sc%d", x.send_c0, x.send_to,
				 x.reduce ? "+" : "=", x.recv_c0);
		break;
	}
	default:
		snprintf(buf, size, shortform ? "holds all of Z" : "holds all of Z (all-reduced)");
	}
}

void tpm_verify(struct view *v)
{
	struct mat h = { 0 }, z = { 0 };
	struct dm_err err;
	const struct mat *got = run_result(v->run);
	if (!got || !v->cfg.e || mat_matmul(&h, v->a, v->b, &err)) {
		v->verdict = VIEW_MISMATCH;
		return;
	}
	for (size_t i = 0; i < h.rows * h.cols; i++)
		h.data[i] = act_apply(plan_tp_act(v->plan), h.data[i]);
	if (mat_matmul(&z, &h, v->cfg.e, &err))
		v->verdict = VIEW_MISMATCH;
	else if (mat_allclose(got, &z, &v->max_err, &v->n_bad, &v->n_nan))
		v->verdict = v->n_nan ? VIEW_NAN_EQUAL : VIEW_OK;
	else
		v->verdict = VIEW_MISMATCH;
	mat_free(&h);
	mat_free(&z);
}

/* The verification's line names what was checked: Z, not C = A @ B (the
 * run mode's words, which every other mode's result is). */
int tpm_verify_line(const struct view *v, char *buf, size_t size)
{
	size_t M = v->a->rows, P = v->cfg.e ? v->cfg.e->cols : 0;
	const char *act = act_name(plan_tp_act(v->plan));
	if (v->verdict == VIEW_OK)
		snprintf(buf, size, "verify: allclose ok, max |err| = %.3g   Z = %s(A @ B) @ E "
			 "(%zux%zu) is on every rank", v->max_err, act, M, P);
	else if (v->verdict == VIEW_NAN_EQUAL)
		snprintf(buf, size, "verify: NaN-equal: allclose ok on every finite element (max "
			 "|err| = %.3g); the %zu NaN or infinite elements of Z are the same in the "
			 "sequential %s(A @ B) @ E", v->max_err, v->n_nan, act);
	else
		snprintf(buf, size, "verify: MISMATCH, %zu of %zu elements of Z differ from the "
			 "sequential %s(A @ B) @ E, max |err| = %.3g", v->n_bad, M * P, act,
			 v->max_err);
	return 1;
}
