/* model_tp_train: tensor parallel's training step worked out from the plan
 * and the shapes (model.h's model_tp_train_rank), as exec/tp_train.c
 * counts it: the forward's figures (model_tp_rank) with dC beside them,
 * then the backward's buffers, tp-col's ring over dA's row chunks (ccl.h's
 * closed form, its elements a row of K doubles) and the gather. */
#include <distmm/model.h>

#include <string.h>

#include <distmm/ccl.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "model/model_tp_int.h"

static uint64_t mtt_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void model_tp_train_rank(const struct dm_plan *p, int r, size_t M, size_t K, size_t N,
			 struct model_tp_train *m)
{
	int n = p->n;
	struct dm_plan fwd = *p;
	memset(m, 0, sizeof *m);
	if (!plan_mode_tp(p->mode))
		return;
	fwd.pass = DM_FORWARD;
	model_tp_rank(&fwd, r, M, K, N, &m->fwd);
	uint64_t w = split_size(N, n, r), k = split_size(K, n, r);
	uint64_t dA = 8 * (uint64_t)M * K, dB = 8 * (uint64_t)K * N;
	if (p->mode == DM_TP_COL) {
		uint64_t dc = 8 * (uint64_t)M * w, most = 0, recv = 0;
		/* the all-reduce of the M x K partials of dA: every rank ends with dA */
		model_tp_ring(CCL_ALLREDUCE, n, r, M, K, &most, &recv);
		m->ring = n > 1 ? ccl_sent_bytes(CCL_ALLREDUCE, CCL_RING, n, M, r) * K : 0;
		m->ring_textbook = n > 1 ? (uint64_t)(2.0 * (n - 1) / n * (double)dA + 0.5) : 0;
		m->gather = r > 0 ? 8 * K * w : 0; /* dB's columns to rank 0 */
		m->sent = m->fwd.sent + m->ring + m->gather;
		m->recv = m->fwd.recv + recv + (r == 0 ? dB - 8 * K * w : 0);
		m->peak_fwd = m->fwd.peak + dc;
		/* after the forward's gather: A, its B and dC (rank 0 also its C
		 * and the gathered C), then dA, dB_r and the ring's rows; rank 0's
		 * gathered dB once the ring is over */
		uint64_t base = m->fwd.a + m->fwd.b + dc + dA + 8 * K * w;
		if (r == 0)
			base += m->fwd.c + 8 * (uint64_t)M * N;
		m->peak_bwd = base + (r == 0 ? mtt_max(most, dB) : most);
	} else {
		uint64_t dc = 8 * (uint64_t)M * N, own = 8 * (uint64_t)M * k + 8 * k * N;
		/* dA's columns and dB's rows are local; only the gather moves them */
		m->gather = r > 0 ? own : 0;
		m->sent = m->fwd.sent + m->gather;
		m->recv = m->fwd.recv + (r == 0 ? dA + dB - own : 0);
		m->peak_fwd = m->fwd.peak + dc;
		m->peak_bwd = m->fwd.a + m->fwd.b + m->fwd.c + dc + own + (r == 0 ? dA + dB : 0);
	}
	m->peak = mtt_max(m->peak_fwd, m->peak_bwd);
}
