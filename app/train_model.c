/* train_model: the training step's model (see train_model.h).  The held
 * bytes are walked through the run's moments in order, each one a sum of
 * the buffers resident then, so that the peaks are a maximum over stated
 * states rather than a formula to trust. */
#include "train_model.h"

#include <stdio.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>

struct tm_ctx {
	int mode, n, r;
	size_t M, K, N;
};

/* 8·K·|chunk k|, k taken mod n. */
static uint64_t tm_w(const struct tm_ctx *x, long k)
{
	int c = split_mod(k, x->n);
	return 8 * (uint64_t)x->K * split_size(x->N, x->n, c);
}

static void tm_see(uint64_t *peak, uint64_t held)
{
	if (held > *peak)
		*peak = held;
}

/* FSDP: every moment of rank r's run, as train.c and fsdp.c hold it. */
static void tm_fsdp(const struct tm_ctx *x, struct train_model_rank *o)
{
	int n = x->n, r = x->r;
	uint64_t m = split_size(x->M, n, r), K = x->K, N = x->N, own = tm_w(x, r);
	uint64_t base = 8 * (m * K + 2 * m * N) + own; /* A_r, C_r, dC_r and its own shard */
	uint64_t da = 8 * m * K, g = 8 * K * N, peak = base;
	for (int s = 0; s + 1 < n; s++) /* the forward's transfers */
		tm_see(&peak, base + (s ? tm_w(x, (long)r - s) : 0) + tm_w(x, (long)r - s - 1));
	o->fwd_peak = peak;
	uint64_t held = base + da; /* the gathered shard let go; dA from the first compute */
	peak = held;
	for (int t = 0; t + 1 < n; t++) /* the backward's all-gather */
		tm_see(&peak, held + (t ? tm_w(x, (long)r - t) : 0) + tm_w(x, (long)r - t - 1));
	held += g; /* the partial */
	tm_see(&peak, held);
	for (int s = 0; s + 1 < n; s++) /* the reduce-scatter: a chunk out, one in */
		tm_see(&peak, held + tm_w(x, (long)r - s - 1) + tm_w(x, (long)r - s - 2));
	if (n > 1) { /* its chunk kept, then the partial let go */
		tm_see(&peak, held + own);
		held = held - g + own;
	}
	if (r == 0) /* the gathered C, dA and dB */
		tm_see(&peak, held += 8 * ((uint64_t)x->M * N + (uint64_t)x->M * K + K * N));
	else /* C_r, dA_r and its chunk have gone to rank 0 */
		held -= 8 * m * N + da + own;
	o->bwd_peak = peak;
	o->end_held = held;
}

/* DP: every moment, as dp.c, train.c and collective.c hold it. */
static void tm_dp(const struct tm_ctx *x, struct train_model_rank *o)
{
	int n = x->n, r = x->r;
	uint64_t m = split_size(x->M, n, r), K = x->K, N = x->N;
	uint64_t base = 8 * (m * K + 2 * m * N + K * N); /* A_r, C_r, dC_r, all of B */
	uint64_t held = base + 8 * m * K + 8 * K * N, peak = held; /* dA_r, then the partial */
	o->fwd_peak = base;
	for (int s = 0; s + 1 < n; s++) { /* the reduce-scatter, then the all-gather */
		tm_see(&peak, held + tm_w(x, (long)r - s - 1) + tm_w(x, (long)r - s - 2));
		tm_see(&peak, held + tm_w(x, (long)r - s) + tm_w(x, (long)r - s - 1));
	}
	if (r == 0)
		tm_see(&peak, held += 8 * ((uint64_t)x->M * N + (uint64_t)x->M * K));
	else /* C_r and dA_r sent; all of dB stays */
		held -= 8 * m * N + 8 * m * K;
	o->bwd_peak = peak;
	o->end_held = held;
}

void train_model_rank(int mode, int n, size_t M, size_t K, size_t N, int rank,
		      struct train_model_rank *out)
{
	struct tm_ctx x = { mode, n, rank, M, K, N };
	uint64_t B = 8 * (uint64_t)K * N;
	memset(out, 0, sizeof *out);
	if (mode == DM_FSDP)
		tm_fsdp(&x, out);
	else
		tm_dp(&x, out);
	out->peak = out->fwd_peak > out->bwd_peak ? out->fwd_peak : out->bwd_peak;
	if (n > 1 && mode == DM_FSDP) {
		out->ring_sent = 2 * (B - tm_w(&x, (long)rank + 1)) + (B - tm_w(&x, rank));
		out->ring_recv = 2 * (B - tm_w(&x, rank)) + (B - tm_w(&x, (long)rank - 1));
	} else if (n > 1) {
		out->ring_sent = (B - tm_w(&x, rank)) + (B - tm_w(&x, (long)rank + 1));
		out->ring_recv = (B - tm_w(&x, (long)rank - 1)) + (B - tm_w(&x, rank));
	}
	/* the gather: C's rows, dA's rows and, in FSDP, its chunk of dB */
	for (int s = 1; s < n; s++) {
		uint64_t m = split_size(M, n, s);
		uint64_t piece = 8 * (m * N + m * K) + (mode == DM_FSDP ? tm_w(&x, s) : 0);
		if (s == rank)
			out->gather_sent = piece;
		if (rank == 0)
			out->gather_recv += piece;
	}
}

void train_model_total(int mode, int n, size_t M, size_t K, size_t N,
		       struct train_model_rank *out)
{
	memset(out, 0, sizeof *out);
	for (int r = 0; r < n; r++) {
		struct train_model_rank one;
		train_model_rank(mode, n, M, K, N, r, &one);
		out->fwd_peak += one.fwd_peak;
		out->bwd_peak += one.bwd_peak;
		out->peak += one.peak;
		out->ring_sent += one.ring_sent;
		out->ring_recv += one.ring_recv;
		out->gather_sent += one.gather_sent;
		out->gather_recv += one.gather_recv;
		out->end_held += one.end_held;
	}
}

void train_model_ring_formula(int mode, int n, size_t K, size_t N, int rank, char *buf,
			      size_t size)
{
	struct tm_ctx x = { mode, n, rank, 0, K, N };
	uint64_t B = 8 * (uint64_t)K * N;
	int right = sched_right(n, rank);
	uint64_t wr = tm_w(&x, rank), wn = tm_w(&x, right);
	if (n == 1)
		snprintf(buf, size, "one device: no ring, 0");
	else if (mode == DM_FSDP)
		snprintf(buf, size, "2*(B - w%d) + (B - w%d) = 2*(%llu - %llu) + (%llu - %llu) = %llu",
			 right, rank, (unsigned long long)B, (unsigned long long)wn,
			 (unsigned long long)B, (unsigned long long)wr,
			 (unsigned long long)(2 * (B - wn) + (B - wr)));
	else
		snprintf(buf, size, "(B - w%d) + (B - w%d) = (%llu - %llu) + (%llu - %llu) = %llu",
			 rank, right, (unsigned long long)B, (unsigned long long)wr,
			 (unsigned long long)B, (unsigned long long)wn,
			 (unsigned long long)(2 * B - wr - wn));
}
