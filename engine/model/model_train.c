/* model_train: the training step's model (see model.h).  The held bytes
 * are walked through the schedule's phases in order (the same schedule the
 * devices follow), each phase's most and what is left at its end a sum of
 * the buffers resident then, so that the peaks are a maximum over stated
 * states rather than a formula to trust. */
#include <distmm/model.h>

#include <stdlib.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "core/schedule_int.h"

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

uint64_t model_chunk_bytes(const struct dm_plan *plan, size_t K, size_t N, long k)
{
	struct tm_ctx x = { plan->mode, plan->n, 0, 0, K, N };
	return tm_w(&x, k);
}

/* The closed form of the ring bytes rank x->r sends (model.h). */
static uint64_t tm_ring_sent(const struct tm_ctx *x)
{
	uint64_t B = 8 * (uint64_t)x->K * x->N;
	if (x->n == 1)
		return 0;
	if (x->mode == DM_FSDP)
		return 2 * (B - tm_w(x, (long)x->r + 1)) + (B - tm_w(x, x->r));
	return (B - tm_w(x, x->r)) + (B - tm_w(x, (long)x->r + 1));
}

uint64_t model_train_ring_sent(const struct dm_plan *plan, size_t K, size_t N, int rank)
{
	struct tm_ctx x = { plan->mode, plan->n, rank, 0, K, N };
	return tm_ring_sent(&x);
}

/* Rank x->r in phase p of kind at step s: its bytes held grow from *held
 * to at most *most during the phase, and *held is what is left at its end.
 * The buffers, FSDP: its own shard always, the one the ring brought from
 * step 1 of a pass on, the incoming one during a transfer; DP all of B; dA
 * from the backward's first compute, the K x N partial from the partial on
 * (FSDP: until its chunk is kept, the rest let go), a chunk out and one in
 * during a ring step over dB, the one in kept for the next step's send
 * (collective.c); rank 0's gathered results. */
static void tm_phase(const struct tm_ctx *x, int kind, int s, uint64_t *held, uint64_t *most)
{
	int n = x->n, r = x->r, fsdp = x->mode == DM_FSDP;
	uint64_t m = split_size(x->M, n, r), K = x->K, N = x->N, own = tm_w(x, r);
	uint64_t g = 8 * K * N, da = 8 * m * K;
	*most = *held;
	switch (kind) {
	case SCHED_COMPUTE:
	case SCHED_BWD_COMPUTE:
		if (kind == SCHED_BWD_COMPUTE && s == 0) /* dA, zeroed, from the first */
			*most = *held += da;
		if (fsdp && n > 1 && s == n - 1) /* the pass is over: the gathered shard goes */
			*held -= tm_w(x, (long)r + 1);
		break;
	case SCHED_TRANSFER:
	case SCHED_BWD_TRANSFER: /* step 0 sends its own in place, then the one it got */
		*most = *held + tm_w(x, (long)r - s - 1);
		*held = *most - (s ? tm_w(x, (long)r - s) : 0);
		break;
	case SCHED_DB_PARTIAL:
		*most = *held += g;
		break;
	case SCHED_REDUCE_SCATTER:
	case SCHED_ALL_GATHER: {
		/* the chunk sent, in a new buffer at the first step and after in
		 * the one the last chunk came in (kept, counted); the one coming
		 * in, kept for the next step */
		int rs = kind == SCHED_REDUCE_SCATTER;
		uint64_t out = tm_w(x, (long)r - s - (rs ? 1 : 0));
		uint64_t in = tm_w(x, (long)r - s - (rs ? 2 : 1));
		int fresh = rs && s == 0;
		*most = *held + (fresh ? out : 0) + in;
		*held = *most - out;
		if (!rs && s == n - 2) /* DP's last step: nothing left to send */
			*held -= in;
		if (rs && fsdp && s == n - 2) /* its chunk kept (in that buffer), the partial let go */
			*held -= g;
		break;
	}
	default: /* the gather: rank 0 makes the results, the others send theirs */
		if (r == 0)
			*most = *held += 8 * ((uint64_t)x->M * N + (uint64_t)x->M * K) +
					 (fsdp ? 8 * K * N : 0);
		else
			*held -= 8 * m * N + da + (fsdp ? own : 0);
		break;
	}
}

/* What rank r holds before the first phase: A_r, C_r, dC_r and B's part. */
static uint64_t tm_start(const struct tm_ctx *x)
{
	uint64_t m = split_size(x->M, x->n, x->r);
	return 8 * (m * x->K + 2 * m * x->N) +
	       (x->mode == DM_FSDP ? tm_w(x, x->r) : 8 * (uint64_t)x->K * x->N);
}

int model_train_phases(const struct dm_plan *plan, size_t M, size_t K, size_t N, int rank,
		       uint64_t *most, uint64_t *held)
{
	int mode = plan->mode, n = plan->n;
	struct tm_ctx x = { mode, n, rank, M, K, N };
	int count = sched_count_of(mode, DM_TRAIN, n);
	uint64_t h = tm_start(&x), m;
	for (int p = 0; p < count; p++) {
		int step = sched_step_of(mode, DM_TRAIN, n, p);
		tm_phase(&x, sched_kind_of(mode, DM_TRAIN, n, p), step, &h, &m);
		if (sched_joined_of(mode, DM_TRAIN, n, plan->prefetch, p + 1)) {
			/* --prefetch: the transfer's incoming buffer is held while
			 * the compute runs beside it (exec/prefetch.c) */
			uint64_t h2 = h, m2;
			tm_phase(&x, sched_kind_of(mode, DM_TRAIN, n, p + 1), step, &h2, &m2);
			m = m2 > m ? m2 : m;
			if (most)
				most[p] = m;
			if (held)
				held[p] = m2;
			continue;
		}
		if (most)
			most[p] = m;
		if (held)
			held[p] = h;
	}
	return count;
}

void model_train_rank(const struct dm_plan *plan, size_t M, size_t K, size_t N, int rank,
		      struct model_train *out)
{
	int mode = plan->mode, n = plan->n;
	struct tm_ctx x = { mode, n, rank, M, K, N };
	int count = sched_count_of(mode, DM_TRAIN, n);
	uint64_t B = 8 * (uint64_t)K * N, h = tm_start(&x), m;
	memset(out, 0, sizeof *out);
	out->fwd_peak = h;
	for (int p = 0; p < count; p++) {
		int kind = sched_kind_of(mode, DM_TRAIN, n, p);
		tm_phase(&x, kind, sched_step_of(mode, DM_TRAIN, n, p), &h, &m);
		uint64_t *peak = kind == SCHED_COMPUTE || kind == SCHED_TRANSFER ? &out->fwd_peak
										 : &out->bwd_peak;
		if (m > *peak)
			*peak = m;
	}
	out->end_held = h;
	out->peak = out->fwd_peak > out->bwd_peak ? out->fwd_peak : out->bwd_peak;
	out->ring_sent = tm_ring_sent(&x);
	if (n > 1 && mode == DM_FSDP)
		out->ring_recv = 2 * (B - tm_w(&x, rank)) + (B - tm_w(&x, (long)rank - 1));
	else if (n > 1)
		out->ring_recv = (B - tm_w(&x, (long)rank - 1)) + (B - tm_w(&x, rank));
	/* the gather: C's rows, dA's rows and, in FSDP, its chunk of dB */
	for (int s = 1; s < n; s++) {
		uint64_t rows = split_size(M, n, s);
		uint64_t piece = 8 * (rows * N + rows * K) + (mode == DM_FSDP ? tm_w(&x, s) : 0);
		if (s == rank)
			out->gather_sent = piece;
		if (rank == 0)
			out->gather_recv += piece;
	}
}

void model_train_total(const struct dm_plan *plan, size_t M, size_t K, size_t N,
		       struct model_train *out)
{
	memset(out, 0, sizeof *out);
	for (int r = 0; r < plan->n; r++) {
		struct model_train one;
		model_train_rank(plan, M, K, N, r, &one);
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

uint64_t model_train_together(const struct dm_plan *plan, size_t M, size_t K, size_t N)
{
	int mode = plan->mode, n = plan->n;
	int count = sched_count_of(mode, DM_TRAIN, n);
	uint64_t *sum = calloc((size_t)count, sizeof *sum), *most = calloc((size_t)count, sizeof *most);
	uint64_t best = 0;
	if (!sum || !most) {
		free(sum);
		free(most);
		return 0;
	}
	for (int r = 0; r < n; r++) {
		model_train_phases(plan, M, K, N, r, most, NULL);
		for (int p = 0; p < count; p++)
			sum[p] += most[p];
	}
	for (int p = 0; p < count; p++)
		best = sum[p] > best ? sum[p] : best;
	free(sum);
	free(most);
	return best;
}

/* The stages of a training step, in order, for model_train_peak_by. */
static int tm_stage(int kind)
{
	switch (kind) {
	case SCHED_COMPUTE:
	case SCHED_TRANSFER:
		return 0;
	case SCHED_BWD_COMPUTE:
	case SCHED_BWD_TRANSFER:
		return 1;
	case SCHED_DB_PARTIAL:
		return 2;
	case SCHED_REDUCE_SCATTER:
		return 3;
	case SCHED_ALL_GATHER:
		return 4;
	default:
		return 5;
	}
}

int model_train_peak_by(const struct dm_plan *plan, size_t M, size_t K, size_t N, int rank,
			enum sched_kind kind, int step, uint64_t *peak)
{
	int mode = plan->mode, n = plan->n;
	struct tm_ctx x = { mode, n, rank, M, K, N };
	int count = sched_count_of(mode, DM_TRAIN, n), stage = tm_stage(kind), last = -1;
	int by_step = stage == 3 || stage == 4;
	uint64_t h = tm_start(&x), m;
	*peak = h;
	for (int p = 0; p < count; p++) {
		int k = sched_kind_of(mode, DM_TRAIN, n, p), s = sched_step_of(mode, DM_TRAIN, n, p);
		int st = tm_stage(k);
		if (st > stage || (st == stage && by_step && s > step))
			break; /* the phases come in stage order */
		tm_phase(&x, k, s, &h, &m);
		*peak = m > *peak ? m : *peak;
		last = p;
	}
	return last;
}
