/* compare: the memory model and both modes side by side (see compare.h).
 * The model follows the schedule phase by phase (compare_model_peak_by), so
 * the interface can put the figure DP would have reached by the phase on
 * screen beside the one FSDP has: like with like, the gathered C in both
 * or in neither. */
#include "compare.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Bytes of rank r's shard k of B (K rows, k's columns). */
static uint64_t shard_bytes(int n, int k, size_t K, size_t N)
{
	return 8 * (uint64_t)K * split_size(N, n, k);
}

int compare_even(int n, size_t N)
{
	return n > 0 && N % (size_t)n == 0;
}

uint64_t compare_model_peak_by(int mode, int n, int r, size_t M, size_t K, size_t N, int phase)
{
	uint64_t rows = split_size(M, n, r);
	uint64_t base = 8 * rows * K + 8 * rows * N; /* A_r + C_r */
	int last = sched_phase_count(mode, n) - 1;
	if (mode == DM_DP) {
		uint64_t peak = base + 8 * (uint64_t)K * N;
		if (r == 0 && phase >= last)
			peak += 8 * (uint64_t)M * N;
		return peak;
	}
	uint64_t peak = base + shard_bytes(n, r, K, N);
	/* phase 2s + 1 is the transfer after step s: out and in at once */
	for (int s = 0; s + 1 < n && 2 * s + 1 <= phase; s++)
		peak = max_u64(peak, base + shard_bytes(n, sched_shard(n, r, s), K, N) +
					     shard_bytes(n, sched_shard(n, r, s + 1), K, N));
	if (r == 0 && phase >= last)
		peak = max_u64(peak, base + shard_bytes(n, sched_shard(n, 0, n - 1), K, N) +
					     8 * (uint64_t)M * N);
	return peak;
}

void compare_model_rank(int mode, int n, int r, size_t M, size_t K, size_t N,
			struct compare_model *m)
{
	uint64_t rows = split_size(M, n, r), B = 8 * (uint64_t)K * N;
	int last = sched_phase_count(mode, n) - 1;
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
			m->sent += out;
		}
		m->textbook = m->a + (n > 1 ? 2 * B / (uint64_t)n : B) + m->c;
	}
	m->work = m->a + m->c + m->b_peak;
	m->peak = compare_model_peak_by(mode, n, r, M, K, N, last);
}

uint64_t compare_model_scale(int n, size_t M, size_t K, size_t N)
{
	uint64_t top = 1;
	for (int mode = 0; mode < 2; mode++)
		for (int r = 0; r < n; r++) {
			struct compare_model m;
			compare_model_rank(mode, n, r, M, K, N, &m);
			top = max_u64(top, m.peak);
		}
	return top;
}

/* Keeps one mode's per-device peaks and sends. */
static void compare_keep(struct compare *c, int mode, const struct ev_summary *sum)
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

/* Runs one mode to the end and keeps its per-device peaks and sends. */
static void compare_measure(struct compare *c, int mode, const struct mat *a,
			    const struct mat *b, const struct run_config *base,
			    uint64_t max_run_bytes)
{
	struct run_config cfg = *base;
	struct run *r = NULL;
	struct dm_err err;
	cfg.mode = mode;
	cfg.order = ORDER_PARITY;
	cfg.bug = 0;
	if (cfg.capacity == 0)
		cfg.capacity = 1; /* measurements, not a lesson in deadlocks */
	if (run_estimate_bytes(&cfg, a->rows, a->cols, b->cols) > max_run_bytes)
		return;
	if (run_new(&r, &cfg, a, b, &err) == 0 && run_finish(r, &err) == 0) {
		struct ev_summary *sum = calloc((size_t)c->n, sizeof *sum);
		if (sum) {
			run_summaries(r, sum);
			compare_keep(c, mode, sum);
			c->ran[mode] = 1;
			free(sum);
		}
	}
	run_free(r);
}

int compare_build(struct compare *c, const struct mat *a, const struct mat *b,
		  const struct run_config *cfg, uint64_t max_run_bytes,
		  const struct ev_summary *known, struct dm_err *err)
{
	int n = cfg->devices;
	size_t M = a->rows, K = a->cols, N = b->cols;
	memset(c, 0, sizeof *c);
	c->n = n;
	c->gathered = 8 * (uint64_t)M * N;
	c->b_bytes = 8 * (uint64_t)K * N;
	c->even = compare_even(n, N);
	c->dev = calloc((size_t)n, sizeof *c->dev);
	if (!c->dev)
		return dm_err_set(err, DM_ENOMEM, "out of memory comparing DP and FSDP");
	for (int i = 0; i < n; i++)
		for (int m = 0; m < 2; m++) {
			struct compare_model mod;
			compare_model_rank(m, n, i, M, K, N, &mod);
			c->dev[i].formula[m] = mod.peak;
			c->dev[i].textbook[m] = mod.textbook;
			c->total_formula[m] += mod.peak;
		}
	/* the mode that just ran, correct, was measured already: not twice */
	if (known && cfg->bug == 0)
		compare_keep(c, cfg->mode, known);
	for (int m = 0; m < 2; m++)
		if (!c->measured[m])
			compare_measure(c, m, a, b, cfg, max_run_bytes);
	for (int m = 0; m < 2; m++)
		if (!c->measured[m])
			compare_fill_model(c, m, M, K, N);
	return 0;
}

void compare_fill_model(struct compare *c, int mode, size_t M, size_t K, size_t N)
{
	c->total_measured[mode] = c->total_sent[mode] = 0;
	for (int i = 0; i < c->n; i++) {
		struct compare_model m;
		compare_model_rank(mode, c->n, i, M, K, N, &m);
		c->dev[i].measured[mode] = m.peak;
		c->dev[i].sent[mode] = m.sent;
		c->total_measured[mode] += m.peak;
		c->total_sent[mode] += m.sent;
	}
	c->measured[mode] = 1;
	c->model[mode] = 1;
	c->ran[mode] = 0;
}

void compare_free(struct compare *c)
{
	free(c->dev);
	c->dev = NULL;
}

void compare_saving_line(const struct compare *c, char *buf, size_t size)
{
	int n = c->n;
	if (n == 1) {
		snprintf(buf, size, "one device: both modes hold all of A, B and C on it; nothing "
				    "is split, so there is nothing to save");
		return;
	}
	if (n == 2) {
		snprintf(buf, size, "n = 2: during a transfer FSDP holds two shards, 2*B/2 = B, as "
				    "much as DP's copy: FSDP saves memory only from n = 3 on");
		return;
	}
	snprintf(buf, size, "DP holds all of B (%" PRIu64 " B) on each of the %d devices; FSDP "
			    "at most two shards at once, about 2/%d of it%s",
		 c->b_bytes, n, n, c->even ? "" : " (the shards are uneven here: see the model)");
}
