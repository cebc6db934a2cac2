/* schedule: the phase schedule (see schedule.h).  The training step's
 * phases are laid out by sched_train_at(), one place for the order of its
 * blocks, so that the count, the kinds and the steps cannot disagree. */
#include <distmm/schedule.h>

#include <distmm/ccl.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "core/schedule_int.h"

int sched_shard(int n, int rank, int step)
{
	return split_mod((long)rank - step, n);
}

int sched_right(int n, int rank)
{
	return split_mod((long)rank + 1, n);
}

int sched_left(int n, int rank)
{
	return split_mod((long)rank - 1, n);
}

/* The training step's phase p: its kind and step.  The blocks, in order:
 * FSDP the forward (2n - 1), the backward's all-gather (2n - 1), the
 * partial, the reduce-scatter (n - 1), the gather; DP the forward compute,
 * the backward compute, the partial, the reduce-scatter (n - 1), the
 * all-gather (n - 1), the gather.  A phase past the end is the gather. */
static void sched_train_at(enum dm_mode mode, int n, int p, enum sched_kind *kind, int *step)
{
	int ring = n - 1;
	*step = 0;
	if (mode == DM_FSDP) {
		if (p < 2 * n - 1) {
			*kind = p % 2 == 0 ? SCHED_COMPUTE : SCHED_TRANSFER;
			*step = p / 2;
			return;
		}
		p -= 2 * n - 1;
		if (p < 2 * n - 1) {
			*kind = p % 2 == 0 ? SCHED_BWD_COMPUTE : SCHED_BWD_TRANSFER;
			*step = p / 2;
			return;
		}
		p -= 2 * n - 1;
	} else {
		if (p < 2) {
			*kind = p == 0 ? SCHED_COMPUTE : SCHED_BWD_COMPUTE;
			return;
		}
		p -= 2;
	}
	if (p == 0) {
		*kind = SCHED_DB_PARTIAL;
		return;
	}
	p -= 1;
	if (p < ring) {
		*kind = SCHED_REDUCE_SCATTER;
		*step = p;
		return;
	}
	p -= ring;
	if (mode == DM_DP && p < ring) {
		*kind = SCHED_ALL_GATHER;
		*step = p;
		return;
	}
	*kind = SCHED_GATHER;
}

/* The forward's phase p (FSDP's ring, DP's one compute), then its gather. */
static void sched_forward_at(enum dm_mode mode, int n, int p, enum sched_kind *kind, int *step)
{
	int last = mode == DM_DP ? 1 : 2 * n - 1;
	*kind = p >= last ? SCHED_GATHER : mode == DM_DP ? SCHED_COMPUTE
			  : p % 2 == 0 ? SCHED_COMPUTE : SCHED_TRANSFER;
	*step = mode == DM_DP ? 0 : p >= last ? n - 1 : p / 2;
}

/* Tensor parallel's phase p (schedule.h), rs: tp-row's reduce-scatter
 * instead of the all-reduce.  Past the end: the last phase's.  The
 * training step (train) appends its backward to the forward's phases:
 * tp-col the compute of dB_r and of its partial dA, the all-reduce of dA
 * (n - 1 reduce-scatter and n - 1 all-gather steps) and the gather of dB;
 * tp-row (all-reduce alone) the compute of its dA columns and dB rows and
 * their gather. */
static int sched_tp_count(enum dm_mode mode, int n, int rs, int train)
{
	int fwd = mode == DM_TP_COL ? 3 : rs ? n + 1 : 2 * n - 1;
	if (!train)
		return fwd;
	return fwd + (mode == DM_TP_COL ? 2 * n : 2);
}

static void sched_tp_at(enum dm_mode mode, int n, int rs, int train, int p,
			enum sched_kind *kind, int *step)
{
	int count = sched_tp_count(mode, n, rs, train), fwd = sched_tp_count(mode, n, rs, 0);
	if (p >= count)
		p = count - 1;
	*step = 0;
	if (p >= fwd) { /* the backward's */
		p -= fwd;
		if (p == 0)
			*kind = SCHED_BWD_COMPUTE;
		else if (p == count - fwd - 1)
			*kind = SCHED_GATHER;
		else if (p < n) {
			*kind = SCHED_CCL_RING_RS;
			*step = p - 1;
		} else {
			*kind = SCHED_CCL_RING_AG;
			*step = p - n;
		}
		return;
	}
	if (mode == DM_TP_COL) {
		*kind = p == 0 ? SCHED_DISTRIBUTE : p == 1 ? SCHED_COMPUTE : SCHED_GATHER;
		return;
	}
	if (p == 0) {
		*kind = SCHED_COMPUTE;
	} else if (p < n) {
		*kind = SCHED_CCL_RING_RS;
		*step = p - 1;
	} else if (rs) {
		*kind = SCHED_GATHER;
	} else {
		*kind = SCHED_CCL_RING_AG;
		*step = p - n;
	}
}

int sched_count_of(enum dm_mode mode, enum dm_pass pass, int n)
{
	if (plan_mode_tp(mode))
		return sched_tp_count(mode, n, 0, pass != DM_FORWARD);
	if (pass == DM_FORWARD)
		return mode == DM_DP ? 2 : 2 * n;
	return mode == DM_DP ? 2 * n + 2 : 5 * n - 1;
}

/* Phase p of either pass: its kind and step. */
static void sched_at(enum dm_mode mode, enum dm_pass pass, int n, int p, enum sched_kind *kind,
		     int *step)
{
	if (plan_mode_tp(mode))
		sched_tp_at(mode, n, 0, pass != DM_FORWARD, p, kind, step);
	else if (pass == DM_FORWARD)
		sched_forward_at(mode, n, p, kind, step);
	else
		sched_train_at(mode, n, p, kind, step);
}

enum sched_kind sched_kind_of(enum dm_mode mode, enum dm_pass pass, int n, int phase)
{
	enum sched_kind kind;
	int step;
	sched_at(mode, pass, n, phase, &kind, &step);
	return kind;
}

int sched_step_of(enum dm_mode mode, enum dm_pass pass, int n, int phase)
{
	enum sched_kind kind;
	int step;
	sched_at(mode, pass, n, phase, &kind, &step);
	return step;
}

_Static_assert(SCHED_CCL_DOUBLING - SCHED_CCL_FIRST == CCL_P_DOUBLING &&
		       SCHED_CCL_DOUBLING + 2 == SCHED_KIND_COUNT && CCL_P_DOUBLING + 1 == CCL_PRIM_COUNT,
	       "a collective's kinds are its primitives, in their order");

/* A collective's phase: its primitive's kind, and its step in *step.  Past
 * the end: the last phase's kind (as a matrices' run's gather), none for a
 * collective with no phase. */
static enum sched_kind sched_ccl_at(const struct dm_plan *p, int phase, int *step)
{
	int count = ccl_phase_count(p->ccl, p->algo, p->n);
	if (count == 0) {
		*step = 0;
		return SCHED_NONE;
	}
	enum ccl_prim prim = ccl_phase_prim(p->ccl, p->algo, p->n,
					    phase < count ? phase : count - 1, step);
	return (enum sched_kind)(SCHED_CCL_FIRST + prim);
}

int sched_phase_count(const struct dm_plan *p)
{
	if (p->mode == DM_COLL)
		return ccl_phase_count(p->ccl, p->algo, p->n);
	if (plan_mode_tp(p->mode))
		return sched_tp_count(p->mode, p->n, p->ccl == CCL_REDUCESCATTER,
				      p->pass != DM_FORWARD);
	return sched_count_of(p->mode, p->pass, p->n);
}

enum sched_kind sched_phase_kind(const struct dm_plan *p, int phase)
{
	int step;
	enum sched_kind kind;
	if (p->mode == DM_COLL)
		return sched_ccl_at(p, phase, &step);
	if (plan_mode_tp(p->mode)) {
		sched_tp_at(p->mode, p->n, p->ccl == CCL_REDUCESCATTER, p->pass != DM_FORWARD, phase,
			    &kind, &step);
		return kind;
	}
	return sched_kind_of(p->mode, p->pass, p->n, phase);
}

int sched_phase_step(const struct dm_plan *p, int phase)
{
	int step;
	if (p->mode == DM_COLL) {
		sched_ccl_at(p, phase, &step);
		return step;
	}
	if (plan_mode_tp(p->mode)) {
		enum sched_kind kind;
		sched_tp_at(p->mode, p->n, p->ccl == CCL_REDUCESCATTER, p->pass != DM_FORWARD, phase,
			    &kind, &step);
		return step;
	}
	return sched_step_of(p->mode, p->pass, p->n, phase);
}

int sched_first_phase(const struct dm_plan *p, enum sched_kind kind)
{
	int count = sched_phase_count(p);
	for (int ph = 0; ph < count; ph++)
		if (sched_phase_kind(p, ph) == kind)
			return ph;
	return -1;
}

int sched_joined_of(enum dm_mode mode, enum dm_pass pass, int n, int prefetch, int phase)
{
	if (!prefetch || mode != DM_FSDP || phase < 0 || phase >= sched_count_of(mode, pass, n))
		return 0;
	enum sched_kind kind = sched_kind_of(mode, pass, n, phase);
	return kind == SCHED_TRANSFER || kind == SCHED_BWD_TRANSFER;
}

int sched_joined(const struct dm_plan *p, int phase)
{
	return p->mode != DM_COLL && sched_joined_of(p->mode, p->pass, p->n, p->prefetch, phase);
}

int sched_rs_send_chunk(int n, int rank, int step)
{
	return split_mod((long)rank - step - 1, n);
}

int sched_rs_recv_chunk(int n, int rank, int step)
{
	return split_mod((long)rank - step - 2, n);
}

int sched_ag_send_chunk(int n, int rank, int step)
{
	return split_mod((long)rank - step, n);
}

int sched_ag_recv_chunk(int n, int rank, int step)
{
	return split_mod((long)rank - step - 1, n);
}

const char *sched_kind_name(enum sched_kind kind)
{
	switch (kind) {
	case SCHED_COMPUTE: return "compute";
	case SCHED_TRANSFER: return "transfer";
	case SCHED_GATHER: return "gather";
	case SCHED_BWD_COMPUTE: return "backward";
	case SCHED_BWD_TRANSFER: return "backward transfer";
	case SCHED_DB_PARTIAL: return "partial dB";
	case SCHED_REDUCE_SCATTER: return "reduce-scatter";
	case SCHED_ALL_GATHER: return "all-gather";
	case SCHED_DISTRIBUTE: return "distribute A";
	case SCHED_NONE:
	case SCHED_KIND_COUNT:
		break;
	default: /* a collective's */
		return ccl_prim_name((enum ccl_prim)(kind - SCHED_CCL_FIRST));
	}
	return "?";
}
