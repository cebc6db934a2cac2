/* model: the forward's memory model and both modes side by side (see
 * model.h).  The model follows the schedule phase by phase
 * (model_fwd_peak_by), so the interface can put the figure DP would have
 * reached by the phase on screen beside the one FSDP has: like with like,
 * the gathered C in both or in neither.  The table of both modes
 * (model_compare_build) measures a mode with a run when it may, and falls
 * back to the model. */
#include <distmm/model.h>

#include <stdlib.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "core/schedule_int.h"

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Bytes of rank r's shard k of B (K rows, k's columns). */
static uint64_t shard_bytes(int n, int k, size_t K, size_t N)
{
	return 8 * (uint64_t)K * split_size(N, n, k);
}

static int model_even_of(int n, size_t N)
{
	return n > 0 && N % (size_t)n == 0;
}

int model_even(const struct dm_plan *p, size_t N)
{
	return model_even_of(p->n, N);
}

/* model_fwd_peak_by for a mode and a device count (prefetch: the transfer
 * after step s holds its buffers from the compute of step s on). */
static uint64_t model_peak_at(enum dm_mode mode, int n, int prefetch, int r, size_t M, size_t K,
			      size_t N, int phase)
{
	uint64_t rows = split_size(M, n, r);
	uint64_t base = 8 * rows * K + 8 * rows * N; /* A_r + C_r */
	int last = sched_count_of(mode, DM_FORWARD, n) - 1;
	if (mode == DM_DP) {
		uint64_t peak = base + 8 * (uint64_t)K * N;
		if (r == 0 && phase >= last)
			peak += 8 * (uint64_t)M * N;
		return peak;
	}
	uint64_t peak = base + shard_bytes(n, r, K, N);
	/* phase 2s + 1 is the transfer after step s: out and in at once (with
	 * --prefetch already in phase 2s, the compute it runs beside) */
	for (int s = 0; s + 1 < n && 2 * s + (prefetch ? 0 : 1) <= phase; s++)
		peak = max_u64(peak, base + shard_bytes(n, sched_shard(n, r, s), K, N) +
					     shard_bytes(n, sched_shard(n, r, s + 1), K, N));
	if (r == 0 && phase >= last)
		peak = max_u64(peak, base + shard_bytes(n, sched_shard(n, 0, n - 1), K, N) +
					     8 * (uint64_t)M * N);
	return peak;
}

uint64_t model_fwd_peak_by(const struct dm_plan *p, int r, size_t M, size_t K, size_t N,
			   int phase)
{
	return model_peak_at(p->mode, p->n, p->mode == DM_FSDP && p->prefetch, r, M, K, N, phase);
}

/* model_fwd_rank for a mode and a device count. */
static void model_rank_at(enum dm_mode mode, int n, int r, size_t M, size_t K, size_t N,
			  struct model_fwd *m)
{
	uint64_t rows = split_size(M, n, r), B = 8 * (uint64_t)K * N;
	int last = sched_count_of(mode, DM_FORWARD, n) - 1;
	memset(m, 0, sizeof *m);
	m->a = 8 * rows * K;
	m->c = 8 * rows * N;
	m->gathered = r == 0 ? 8 * (uint64_t)M * N : 0;
	m->sent = r > 0 ? 8 * rows * N : 0;
	if (mode == DM_DP) {
		m->b_start = m->b_peak = B;
		m->textbook = m->a + B + m->c;
	} else {
		m->b_start = m->b_peak = shard_bytes(n, r, K, N);
		for (int s = 0; s + 1 < n; s++) {
			uint64_t out = shard_bytes(n, sched_shard(n, r, s), K, N);
			uint64_t in = shard_bytes(n, sched_shard(n, r, s + 1), K, N);
			m->b_peak = max_u64(m->b_peak, out + in);
			m->ring += out;
		}
		m->sent += m->ring;
		m->textbook = m->a + (n > 1 ? 2 * B / (uint64_t)n : B) + m->c;
	}
	m->work = m->a + m->c + m->b_peak;
	m->peak = model_peak_at(mode, n, 0, r, M, K, N, last); /* the same with --prefetch */
}

void model_fwd_rank(const struct dm_plan *p, int r, size_t M, size_t K, size_t N,
		    struct model_fwd *m)
{
	model_rank_at(p->mode, p->n, r, M, K, N, m);
}

uint64_t model_scale(const struct dm_plan *p, size_t M, size_t K, size_t N)
{
	uint64_t top = 1;
	for (int mode = DM_FSDP; mode <= DM_DP; mode++) /* the matrices' modes */
		for (int r = 0; r < p->n; r++) {
			struct model_fwd m;
			model_rank_at(mode, p->n, r, M, K, N, &m);
			top = max_u64(top, m.peak);
		}
	return top;
}

/* Keeps one mode's per-device peaks and sends. */
static void model_keep(struct model_compare *c, int mode, const struct ev_summary *sum)
{
	c->total_measured[mode] = c->total_sent[mode] = 0;
	for (int i = 0; i < c->n; i++) {
		c->dev[i].measured[mode] = sum[i].peak_bytes;
		c->dev[i].sent[mode] = sum[i].sent_bytes;
		c->total_measured[mode] += sum[i].peak_bytes;
		c->total_sent[mode] += sum[i].sent_bytes;
	}
	c->measured[mode] = 1;
}

/* Runs one mode to the end, the correct forward on base's devices with
 * its capacity, and keeps its per-device peaks and sends. */
static void model_measure(struct model_compare *c, int mode, const struct mat *a,
			  const struct mat *b, const struct dm_plan *base,
			  const struct run_config *cfg, uint64_t max_run_bytes)
{
	struct dm_plan p = plan_of(mode, base->n, DM_FORWARD);
	struct run *r = NULL;
	struct dm_err err;
	struct run_config totals; /* the totals are all it reads */
	if (cfg)
		totals = *cfg;
	else
		run_config_default(&totals);
	totals.keep = RUN_KEEP_NONE;
	/* measurements, not a lesson in deadlocks */
	p.capacity = base->capacity == 0 ? 1 : base->capacity;
	if (run_estimate_bytes(&p, a->rows, a->cols, b->cols, totals.keep) > max_run_bytes)
		return;
	if (run_new(&r, &p, &totals, a, b, &err) == 0 && run_finish(r, &err) == 0) {
		struct ev_summary *sum = calloc((size_t)c->n, sizeof *sum);
		if (sum) {
			run_summaries(r, sum);
			model_keep(c, mode, sum);
			c->ran[mode] = 1;
			free(sum);
		}
	}
	run_free(r);
}

int model_compare_build(struct model_compare *c, const struct dm_plan *p, const struct mat *a,
			const struct mat *b, const struct run_config *cfg, uint64_t max_run_bytes,
			const struct ev_summary *known, struct dm_err *err)
{
	int n = p->n;
	size_t M = a->rows, K = a->cols, N = b->cols;
	memset(c, 0, sizeof *c);
	c->n = n;
	c->gathered = 8 * (uint64_t)M * N;
	c->b_bytes = 8 * (uint64_t)K * N;
	c->even = model_even_of(n, N);
	c->dev = calloc((size_t)n, sizeof *c->dev);
	if (!c->dev)
		return dm_err_set(err, DM_ENOMEM, "out of memory comparing DP and FSDP");
	for (int i = 0; i < n; i++)
		for (int m = 0; m < 2; m++) {
			struct model_fwd mod;
			model_rank_at(m, n, i, M, K, N, &mod);
			c->dev[i].formula[m] = mod.peak;
			c->dev[i].textbook[m] = mod.textbook;
			c->total_formula[m] += mod.peak;
		}
	/* the mode that just ran, correct, was measured already: not twice */
	if (known && p->bug == BUG_NONE)
		model_keep(c, p->mode, known);
	for (int m = 0; m < 2; m++)
		if (!c->measured[m])
			model_measure(c, m, a, b, p, cfg, max_run_bytes);
	for (int m = 0; m < 2; m++)
		if (!c->measured[m])
			model_compare_fill(c, m, M, K, N);
	return 0;
}

void model_compare_fill(struct model_compare *c, enum dm_mode mode, size_t M, size_t K,
			size_t N)
{
	c->total_measured[mode] = c->total_sent[mode] = 0;
	for (int i = 0; i < c->n; i++) {
		struct model_fwd m;
		model_rank_at(mode, c->n, i, M, K, N, &m);
		c->dev[i].measured[mode] = m.peak;
		c->dev[i].sent[mode] = m.sent;
		c->total_measured[mode] += m.peak;
		c->total_sent[mode] += m.sent;
	}
	c->measured[mode] = 1;
	c->model[mode] = 1;
	c->ran[mode] = 0;
}

void model_compare_free(struct model_compare *c)
{
	free(c->dev);
	c->dev = NULL;
}
