/* compare: both modes side by side (see compare.h). */
#include "compare.h"

#include <stdlib.h>
#include <string.h>

#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

/* Keeps one mode's per-device peaks and sends. */
static void compare_keep(struct compare *c, int mode, const struct ev_summary *sum)
{
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
	uint64_t K = a->cols, N = b->cols, B = 8 * K * N;
	memset(c, 0, sizeof *c);
	c->n = n;
	c->gathered = 8 * (uint64_t)a->rows * N;
	c->dev = calloc((size_t)n, sizeof *c->dev);
	if (!c->dev)
		return dm_err_set(err, DM_ENOMEM, "out of memory comparing DP and FSDP");
	for (int i = 0; i < n; i++) {
		uint64_t rows = split_size(a->rows, n, i);
		uint64_t own = 8 * rows * K + 8 * rows * N; /* A_r + C_r */
		c->dev[i].formula[DM_DP] = own + B;
		c->dev[i].formula[DM_FSDP] = own + (n > 1 ? 2 * B / (uint64_t)n : B);
		for (int m = 0; m < 2; m++)
			c->total_formula[m] += c->dev[i].formula[m];
	}
	/* the mode that just ran, correct, was measured already: not twice */
	if (known && cfg->bug == 0)
		compare_keep(c, cfg->mode, known);
	for (int m = 0; m < 2; m++)
		if (!c->measured[m])
			compare_measure(c, m, a, b, cfg, max_run_bytes);
	return 0;
}

/* What device.c and fsdp.c count, step by step: a device holds its rows of
 * A and C throughout and starts with the B it owns (all of B in DP, its own
 * shard in FSDP); an FSDP transfer holds a receive buffer for the incoming
 * shard beside the outgoing one until it ends; at the gather rank 0 also
 * holds the whole C, and every other rank sends its rows of C.  FSDP's rank
 * r sends the shards it holds at steps 0..n-2, (r - s) mod n. */
void compare_model(struct compare *c, int mode, size_t M, size_t K, size_t N)
{
	int n = c->n;
	uint64_t B = 8 * (uint64_t)K * N, gathered = 8 * (uint64_t)M * N;
	if (c->measured[mode])
		for (int i = 0; i < n; i++) {
			c->total_measured[mode] -= c->dev[i].measured[mode];
			c->total_sent[mode] -= c->dev[i].sent[mode];
		}
	for (int i = 0; i < n; i++) {
		uint64_t rows = split_size(M, n, i);
		uint64_t base = 8 * rows * K + 8 * rows * N, peak, sent = i ? 8 * rows * N : 0;
		if (mode == DM_DP) {
			peak = base + B + (i == 0 ? gathered : 0);
		} else {
			uint64_t col = 8 * (uint64_t)K; /* bytes a column of B */
			peak = base + col * split_size(N, n, i);
			for (int s = 0; s + 1 < n; s++) {
				uint64_t out = col * split_size(N, n, sched_shard(n, i, s));
				uint64_t in = col * split_size(N, n, sched_shard(n, i, s + 1));
				if (base + out + in > peak)
					peak = base + out + in;
				sent += out;
			}
			if (i == 0) {
				uint64_t last = col * split_size(N, n, sched_shard(n, 0, n - 1));
				if (base + last + gathered > peak)
					peak = base + last + gathered;
			}
		}
		c->dev[i].measured[mode] = peak;
		c->dev[i].sent[mode] = sent;
		c->total_measured[mode] += peak;
		c->total_sent[mode] += sent;
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
