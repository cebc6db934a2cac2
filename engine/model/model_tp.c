/* model_tp: tensor parallel's forward worked out from the plan and the
 * shapes (see model.h), as exec/tp.c counts it: the ring's bytes from
 * ccl.h's closed form over C's row chunks (its elements a row of N
 * doubles), the peaks by walking the ring's steps. */
#include <distmm/model.h>

#include <string.h>

#include <distmm/ccl.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "model/model_tp_int.h"

static uint64_t mtp_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void model_tp_ring(enum ccl_kind kind, int n, int r, size_t M, size_t N, uint64_t *most,
		     uint64_t *recv)
{
	*most = *recv = 0;
	for (int ph = 0; ph < ccl_phase_count(kind, CCL_RING, n); ph++) {
		struct ccl_xfer x;
		ccl_rank_phase(kind, CCL_RING, n, ph, r, &x);
		uint64_t out = x.send_to >= 0 ? ccl_range_bytes(M, n, x.send_c0, x.send_c1) * N : 0;
		uint64_t in = x.recv_from >= 0 ? ccl_range_bytes(M, n, x.recv_c0, x.recv_c1) * N : 0;
		*most = mtp_max(*most, out + in);
		*recv += in;
	}
}

void model_tp_rank(const struct dm_plan *p, int r, size_t M, size_t K, size_t N,
		   struct model_tp *m)
{
	int n = p->n;
	uint64_t A = 8 * (uint64_t)M * K, C = 8 * (uint64_t)M * N;
	memset(m, 0, sizeof *m);
	if (p->mode == DM_TP_COL) {
		uint64_t w = split_size(N, n, r);
		m->a = A;
		m->b = 8 * (uint64_t)K * w;
		m->c = 8 * (uint64_t)M * w;
		m->peak = m->a + m->b + m->c + (r == 0 ? C : 0);
		m->sent = r == 0 ? (uint64_t)(n - 1) * A : m->c;
		m->recv = r == 0 ? C - m->c : A;
		m->textbook = r == 0 ? (uint64_t)(n - 1) * A : m->c;
		return;
	}
	if (p->mode != DM_TP_ROW)
		return;
	int rs = p->ccl == CCL_REDUCESCATTER;
	enum ccl_kind kind = rs ? CCL_REDUCESCATTER : CCL_ALLREDUCE;
	uint64_t k = split_size(K, n, r), own = 8 * (uint64_t)N * split_size(M, n, r);
	uint64_t most, recv;
	model_tp_ring(kind, n, r, M, N, &most, &recv);
	m->a = 8 * (uint64_t)M * k;
	m->b = 8 * k * (uint64_t)N;
	m->c = C;
	m->sent = n > 1 ? ccl_sent_bytes(kind, CCL_RING, n, M, r) * N : 0;
	m->recv = recv;
	m->textbook = n > 1 ? (uint64_t)((rs ? 1.0 : 2.0) * (n - 1) / n * (double)C + 0.5) : 0;
	m->peak = m->a + m->b + C + mtp_max(most, rs ? own : 0);
	if (rs) { /* the gather: every slice to rank 0, as DP's rows */
		if (r > 0)
			m->sent += own;
		else
			m->recv += C - own;
		if (r == 0) /* its slice and the gathered C, the partial let go */
			m->peak = mtp_max(m->peak, m->a + m->b + own + C);
	}
}
