/* evrules_run: the run an event log is held to (evrules.h): its schedule,
 * asked through a plan because tensor parallel's depends on its collective
 * (tp-row's reduce-scatter has fewer phases than its all-reduce), and the
 * splits every rule measures an event against. */
#include "trace/evrules.h"
#include "trace/evrules_kind.h"

#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/plan_int.h"

void evr_run_init(struct evr_run *run, const struct dm_plan *p, size_t M, size_t K, size_t N)
{
	run->mode = p->mode;
	run->train = p->pass != DM_FORWARD;
	run->n = p->n;
	run->ccl = p->ccl;
	run->phases = sched_phase_count(p);
	run->M = M;
	run->K = K;
	run->N = N;
}

/* The plan the schedule is asked with: tp-row's collective changes it. */
static struct dm_plan evr_plan(const struct evr_run *run)
{
	struct dm_plan p = plan_of((enum dm_mode)run->mode, run->n,
				   run->train ? DM_TRAIN : DM_FORWARD);
	p.ccl = (enum ccl_kind)run->ccl;
	return p;
}

int evr_kind_at(const struct evr_run *run, int phase)
{
	struct dm_plan p = evr_plan(run);
	return sched_phase_kind(&p, phase);
}

int evr_step_at(const struct evr_run *run, int phase)
{
	struct dm_plan p = evr_plan(run);
	return sched_phase_step(&p, phase);
}

size_t evr_row_begin(const struct evr_run *run, int rank)
{
	return split_offset(run->M, run->n, rank);
}

size_t evr_row_end(const struct evr_run *run, int rank)
{
	return split_offset(run->M, run->n, rank) + split_size(run->M, run->n, rank);
}

uint64_t evr_block_bytes(uint64_t rows, uint64_t cols)
{
	return rows * cols * sizeof(double); /* rows, cols < 2^32: no overflow */
}
