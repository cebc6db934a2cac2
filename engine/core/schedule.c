/* schedule: the phase schedule (see schedule.h). */
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
	}
	return "?";
}
