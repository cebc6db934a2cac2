/* schedule: the phase schedule (see schedule.h).  The training step's
 * phases are laid out by sched_train_at(), one place for the order of its
 * blocks, so that the count, the kinds and the steps cannot disagree. */
#include <distmm/schedule.h>

#include <distmm/split.h>

int sched_phase_count(int mode, int n)
{
	return mode == DM_DP ? 2 : 2 * n;
}

int sched_phase_kind(int mode, int n, int phase)
{
	if (phase >= sched_phase_count(mode, n) - 1)
		return SCHED_GATHER;
	if (mode == DM_DP)
		return SCHED_COMPUTE;
	return phase % 2 == 0 ? SCHED_COMPUTE : SCHED_TRANSFER;
}

int sched_phase_step(int mode, int n, int phase)
{
	if (mode == DM_DP)
		return 0;
	if (phase >= 2 * n - 1)
		return n - 1;
	return phase / 2;
}

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
static void sched_train_at(int mode, int n, int p, int *kind, int *step)
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

int sched_run_phase_count(int mode, int train, int n)
{
	if (!train)
		return sched_phase_count(mode, n);
	return mode == DM_DP ? 2 * n + 2 : 5 * n - 1;
}

int sched_run_phase_kind(int mode, int train, int n, int phase)
{
	int kind, step;
	if (!train)
		return sched_phase_kind(mode, n, phase);
	sched_train_at(mode, n, phase, &kind, &step);
	return kind;
}

int sched_run_phase_step(int mode, int train, int n, int phase)
{
	int kind, step;
	if (!train)
		return sched_phase_step(mode, n, phase);
	sched_train_at(mode, n, phase, &kind, &step);
	return step;
}

int sched_run_first_phase(int mode, int train, int n, int kind)
{
	int count = sched_run_phase_count(mode, train, n);
	for (int p = 0; p < count; p++)
		if (sched_run_phase_kind(mode, train, n, p) == kind)
			return p;
	return -1;
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

const char *sched_mode_name(int mode)
{
	return mode == DM_DP ? "DP" : "FSDP";
}

const char *sched_kind_name(int kind)
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
	}
	return "?";
}
